/**
 * The list of `/me/notifications` (docs/decisions.md, Notifications): each notification with its time, unread ones
 * marked; "Mark all read" (`POST /api/me/notifications/read`; before or without JavaScript a plain form posted to the
 * page), and following an unread one marks it read on the way.
 */
import { useState } from "preact/hooks";
import { failureMessage, fetchJson } from "@/lib/browser/fetch_json.ts";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { NotificationPage, NotificationRecord } from "@/lib/notifications/notifications.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const NOTIFICATION_LIST_TEXT = ["notifications.list.", "common.errors."] as const;

/** The most unread ones counted in words: the API counts up to 100 (`UNREAD_COUNT_MAX`), past this "more than 99". */
const SHOWN_MAX = 99;

/** Props: a page of notifications, newest first, the unread count of all of them, and the messages. */
export type NotificationListProps = NotificationPage & { text: IslandText };

export default function NotificationList(props: NotificationListProps) {
  const t = translatorOf(props.text);
  const [items, setItems] = useState(props.notifications);
  const [unread, setUnread] = useState(props.unreadCount);
  const [message, setMessage] = useState("");

  const markAll = async () => {
    const res = await fetchJson<{ unreadCount: number }>("/api/me/notifications/read", { body: {} });
    if (!res.ok) return setMessage(failureMessage(t, res));
    const now = new Date().toISOString();
    setItems(items.map((n) => n.readAt ? n : { ...n, readAt: now }));
    setUnread(res.data.unreadCount);
    setMessage(t("notifications.list.allRead"));
  };

  /** Marks `n` read without holding up the link it follows (`keepalive` outlives the page). */
  const follow = (n: NotificationRecord) => {
    if (n.readAt) return;
    fetch("/api/me/notifications/read", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: [n.id] }),
      keepalive: true,
      credentials: "same-origin",
    }).catch(() => {});
  };

  return (
    <div>
      <div class="flex flex-wrap items-center justify-between gap-3">
        {/* With none at all, the empty box below says so: "no unread" above it would say it twice. */}
        {items.length > 0 && (
          <p class="text-slate-700">
            {unread === 0
              ? t("notifications.list.noUnread")
              : unread > SHOWN_MAX
              ? t("notifications.list.unreadMany")
              : t("notifications.list.unreadCount", { count: unread })}
          </p>
        )}
        {unread > 0 && (
          <form
            method="post"
            action="/me/notifications"
            onSubmit={(event) => {
              event.preventDefault();
              markAll();
            }}
          >
            <button type="submit" class={SECONDARY_BUTTON}>{t("notifications.list.markAll")}</button>
          </form>
        )}
      </div>
      <p role="status" class="sr-only">{message}</p>
      {items.length === 0
        ? (
          <p class="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
            {t("notifications.list.empty")}
          </p>
        )
        : (
          <ul class="mt-4 space-y-3">
            {items.map((n) => (
              <li
                key={n.id}
                class={`rounded-lg border bg-white p-4 shadow-sm [overflow-wrap:anywhere] ${
                  n.readAt ? "border-slate-200" : "border-indigo-300"
                }`}
              >
                <a
                  href={n.url}
                  onClick={() => follow(n)}
                  class="font-semibold text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
                >
                  {n.title}
                </a>
                {!n.readAt && (
                  <span class="ml-2 rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-900">
                    {t("notifications.list.unread")}
                  </span>
                )}
                <p class="mt-1 text-slate-700">{n.body}</p>
                <p class="mt-1 text-xs text-slate-600">
                  <time datetime={n.createdAt}>{t.dateTime(n.createdAt)}</time>
                </p>
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}
