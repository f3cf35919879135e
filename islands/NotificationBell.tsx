/**
 * The bell in the site header (docs/decisions.md, Notifications): the unread count as a badge, and on opening a panel
 * of the five newest notifications with "Mark all read" and a link to `/me/notifications`. It reads
 * `GET /api/me/notifications` when the page loads and each time the panel opens; when the tab comes back into view it
 * reads again only if the last read is at least a minute old (no polling loop). Escape or a click outside closes it.
 * Until it hydrates (and without JavaScript) the bell is a plain link to `/me/notifications` (docs/decisions.md,
 * Islands, "Forms work without JavaScript"); once it knows the unread count, the count is in its accessible name. A page
 * that read the count anyway passes it (`unreadCount`), and the bell shows it from the start, without JavaScript too.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import type { NotificationPage } from "@/lib/notifications/notifications.ts";
import { type IslandText, translatorOf } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const BELL_TEXT = ["notifications.bell."] as const;

/** The bell's look, as a link and as a button. */
const BELL =
  "relative flex h-9 w-9 items-center justify-center rounded-md border border-slate-300 text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600";

/** The most unread ones the badge counts: the API counts up to 100 (`UNREAD_COUNT_MAX`), shown past this as "99+". */
const SHOWN_MAX = 99;

/** The least time between two reads that are not asked for by opening the panel, in ms. */
const REFRESH_MS = 60_000;

/** Props: the unread count when the page read it (absent: unknown until the bell reads it), and the messages. */
export default function NotificationBell({ unreadCount, text }: { unreadCount?: number; text: IslandText }) {
  const t = translatorOf(text);
  const hydrated = useHydrated();
  const [answer, setAnswer] = useState<NotificationPage | null>(null);
  const [open, setOpen] = useState(false);
  const lastRead = useRef(0);
  const root = useRef<HTMLDivElement>(null);

  const load = async () => {
    lastRead.current = Date.now();
    const res = await fetchJson<NotificationPage>("/api/me/notifications?limit=5");
    if (res.ok) setAnswer(res.data);
  };

  useEffect(() => {
    load();
    const onVisible = () => {
      if (document.visibilityState === "visible" && Date.now() - lastRead.current >= REFRESH_MS) load();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        root.current?.querySelector("button")?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  const toggle = () => {
    if (!open) load();
    setOpen(!open);
  };

  const markAll = async () => {
    const res = await fetchJson<{ unreadCount: number }>("/api/me/notifications/read", { body: {} });
    if (res.ok) load();
  };

  const count = answer?.unreadCount ?? unreadCount ?? 0;
  const face = (
    <>
      <svg aria-hidden="true" viewBox="0 0 20 20" class="h-5 w-5 fill-none stroke-current" stroke-width="1.6">
        <path d="M5 8a5 5 0 0 1 10 0c0 4 1.5 5.5 2 6H3c.5-.5 2-2 2-6Zm3 8.5a2 2 0 0 0 4 0" />
      </svg>
      <span class="sr-only">
        {count > SHOWN_MAX
          ? t("notifications.bell.labelMany")
          : count > 0
          ? t("notifications.bell.labelUnread", { count })
          : t("notifications.bell.label")}
      </span>
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="unread-count"
          class="absolute -right-1.5 -top-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {count > SHOWN_MAX ? t("notifications.bell.many") : count}
        </span>
      )}
    </>
  );
  return (
    <div ref={root} class="relative">
      {hydrated
        ? (
          <button type="button" aria-expanded={open} aria-controls="notification-panel" onClick={toggle} class={BELL}>
            {face}
          </button>
        )
        : <a href="/me/notifications" class={BELL}>{face}</a>}
      <div
        id="notification-panel"
        hidden={!open}
        class="fixed inset-x-4 top-16 z-30 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-80"
      >
        <div class="flex items-center justify-between gap-2">
          <h2 class="font-semibold text-slate-900">{t("notifications.bell.label")}</h2>
          {count > 0 && (
            <button type="button" onClick={markAll} class="text-indigo-700 hover:underline">
              {t("notifications.bell.markAll")}
            </button>
          )}
        </div>
        {answer === null
          ? <p class="mt-2 text-slate-700">{t("notifications.bell.loading")}</p>
          : answer.notifications.length === 0
          ? <p class="mt-2 text-slate-700">{t("notifications.bell.empty")}</p>
          : (
            <ul class="mt-2 divide-y divide-slate-100">
              {answer.notifications.map((n) => (
                <li key={n.id} class="py-2 [overflow-wrap:anywhere]">
                  <a href={n.url} class="block hover:text-indigo-700">
                    <span class={n.readAt ? "text-slate-800" : "font-semibold text-slate-900"}>{n.title}</span>
                    {!n.readAt && <span class="sr-only">{` ${t("notifications.bell.unread")}`}</span>}
                    <span class="block text-slate-700">{n.body}</span>
                    <span class="block text-xs text-slate-600">{t.dateTime(n.createdAt)}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        <a href="/me/notifications" class="mt-2 block font-medium text-indigo-700 hover:underline">
          {t("notifications.bell.all")}
        </a>
      </div>
    </div>
  );
}
