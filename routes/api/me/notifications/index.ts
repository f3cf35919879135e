/**
 * `GET /api/me/notifications`: the caller's notifications; its `apiDocs` below are its description (docs/api.md,
 * Notifications; docs/decisions.md, Notifications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute, duration } from "@/lib/openapi/describe.ts";
import { NotificationSchema } from "@/lib/openapi/resources.ts";
import {
  listNotifications,
  NOTIFICATION_TTL_MS,
  NotificationQuerySchema,
  UNREAD_COUNT_MAX,
} from "@/lib/notifications/notifications.ts";

export const apiDocs = describeRoute({
  section: "Notifications",
  GET: {
    summary: "Your notifications",
    description: `Newest first, kept ${duration(NOTIFICATION_TTL_MS)}; \`unread=true\` lists unread ones only. ` +
      `\`unreadCount\` counts the unread ones up to ${UNREAD_COUNT_MAX} (${UNREAD_COUNT_MAX}: that many or more). ` +
      "Titles and bodies are in the request's language (`?lang=`, the " +
      "person's setting, the `lang` cookie, `Accept-Language`); what a person wrote stays as written.",
    access: ["session"],
    query: NotificationQuerySchema,
    responses: {
      200: {
        description: "A page of notifications and the unread count",
        schema: z.strictObject({
          notifications: z.array(NotificationSchema),
          unreadCount: z.int().min(0).max(UNREAD_COUNT_MAX),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(NotificationQuerySchema, queryOf(ctx.url));
    // A notification's words are what the person reads: in the request's language (docs/decisions.md, Languages).
    const page = await listNotifications(ctx.state.services.kv, { userId: ctx.state.user.id, query, t: ctx.state.t });
    return Response.json(page);
  },
});
