/**
 * `GET /api/me/notifications?unread=true&limit=&offset=` (session): the caller's notifications newest first, and the
 * unread count (docs/api.md, Notifications; docs/decisions.md, Notifications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { NotificationSchema } from "@/lib/openapi/resources.ts";
import { listNotifications, NotificationQuerySchema } from "@/lib/notifications/notifications.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Your notifications",
    description: "Newest first, kept 90 days; `unread=true` lists unread ones only. `limit` 1–100 (default 20).",
    access: ["session"],
    query: NotificationQuerySchema,
    responses: {
      200: {
        description: "A page of notifications and the unread count",
        schema: z.strictObject({ notifications: z.array(NotificationSchema), unreadCount: z.int() }),
      },
      400: "Bad query",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(NotificationQuerySchema, queryOf(ctx.url));
    return Response.json(await listNotifications(ctx.state.services.kv, { userId: ctx.state.user.id, query }));
  },
});
