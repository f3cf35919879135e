/**
 * `/me/notifications`: the signed-in person's notifications, newest first, `PAGE_SIZE` a page (`?offset=`; an invalid
 * offset shows the first page), with "Mark all read" (docs/decisions.md, Notifications). Guests are sent to sign in.
 *
 * `POST /me/notifications` is "Mark all read" without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): every unread notification marked read as `POST /api/me/notifications/read` does, then 303 to the page.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Pagination } from "@/components/Pagination.tsx";
import NotificationList, { NOTIFICATION_LIST_TEXT } from "@/islands/NotificationList.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { listNotifications, markRead, type NotificationRecord } from "@/lib/notifications/notifications.ts";
import { seeOther } from "@/lib/http/form_posts.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Marking read falls under the per-person limit `notifications` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "notifications" };

/** Notifications per page. */
const PAGE_SIZE = 20;

interface Data {
  notifications: NotificationRecord[];
  unreadCount: number;
  offset: number;
  hasMore: boolean;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const given = Number(ctx.url.searchParams.get("offset") ?? "0");
    const offset = Number.isSafeInteger(given) && given >= 0 ? given : 0;
    const page = await listNotifications(ctx.state.services.kv, {
      userId: ctx.state.user.id,
      t: ctx.state.t,
      query: {
        unread: false,
        limit: PAGE_SIZE + 1,
        offset,
      },
    });
    ctx.state.unreadCount = page.unreadCount;
    return ctx.render({
      notifications: page.notifications.slice(0, PAGE_SIZE),
      unreadCount: page.unreadCount,
      offset,
      hasMore: page.notifications.length > PAGE_SIZE,
    });
  },
  async POST(_req, ctx) {
    assertSignedIn(ctx.state);
    await markRead(ctx.state.services.kv, { userId: ctx.state.user.id, ids: undefined });
    return seeOther("/me/notifications");
  },
});

const pageHref = (offset: number) => offset === 0 ? "/me/notifications" : `/me/notifications?offset=${offset}`;

export default define.page<Data>(function NotificationsPage({ data }) {
  const { offset, hasMore } = data;
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="mx-auto max-w-3xl">
      <PageHead title={t("notifications.page.title")} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("notifications.page.title")}</h1>
      <p class="mt-2 mb-4 text-slate-700">
        {t.rich("notifications.page.lead", {
          link: (chunks) => <a href="/me/settings" class="text-indigo-700 underline">{chunks}</a>,
        })}
      </p>
      <NotificationList
        notifications={data.notifications}
        unreadCount={data.unreadCount}
        text={t.island(NOTIFICATION_LIST_TEXT)}
      />
      <Pagination
        prev={offset > 0 ? { href: pageHref(Math.max(0, offset - PAGE_SIZE)) } : null}
        next={hasMore ? { href: pageHref(offset + PAGE_SIZE) } : null}
        class="mt-6"
      />
    </section>
  );
});
