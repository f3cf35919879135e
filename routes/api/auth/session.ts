/**
 * `GET /api/auth/session` (docs/api.md, Authentication, docs/decisions.md, Auth): 200
 * `{session: {id, userId, expiresAt, createdAt}, user: {id, name, email, emailVerified, image,
 * role, createdAt, updatedAt}}`, or 200 `null` without a valid session. Reading a session
 * slides it (the root middleware renews it and sends the cookie again).
 */
import { define } from "@/lib/platform/define.ts";
import { authUserView, sessionView } from "@/lib/auth/views.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AuthUserSchema, SessionSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "The caller's session and user, or null",
    access: ["public", "session"],
    responses: {
      200: {
        description: "`{session, user}` with a valid session, else `null`",
        schema: z.strictObject({ session: SessionSchema, user: AuthUserSchema }).nullable(),
      },
    },
  },
});

export const handler = define.handlers({
  GET(_req, ctx) {
    const { session, user } = ctx.state;
    const body = session && user ? { session: sessionView(session), user: authUserView(user) } : null;
    return Response.json(body, { headers: { "cache-control": "no-store" } });
  },
});
