/**
 * `POST /api/me/notifications/read`: marks the caller's notifications read; its `apiDocs` below are its description
 * (docs/api.md, Notifications; docs/decisions.md, Notifications).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { markRead, MarkReadSchema, UNREAD_COUNT_MAX } from "@/lib/notifications/notifications.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `notifications` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "notifications" };

export const apiDocs = describeRoute({
  section: "Notifications",
  POST: {
    summary: "Mark notifications read",
    description: "`ids` are marked read; without `ids`, every unread one. Unknown and other people's ids are skipped.",
    access: ["session"],
    body: MarkReadSchema,
    responses: {
      200: {
        description: `The unread count afterwards, up to ${UNREAD_COUNT_MAX} (${UNREAD_COUNT_MAX}: that many or more)`,
        schema: z.strictObject({ unreadCount: z.int().min(0).max(UNREAD_COUNT_MAX) }),
      },
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { ids } = await readBody(req, MarkReadSchema);
    return Response.json({ unreadCount: await markRead(ctx.state.services.kv, { userId: ctx.state.user.id, ids }) });
  },
});
