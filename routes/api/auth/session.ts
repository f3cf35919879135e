/**
 * `GET /api/auth/session`: the caller's session and user; its `apiDocs` below are its description (docs/api.md,
 * Authentication; docs/decisions.md, Sessions).
 */
import { define } from "@/lib/platform/define.ts";
import { authUserView, sessionView } from "@/lib/auth/views.ts";
import { describeRoute, duration } from "@/lib/openapi/describe.ts";
import { SESSION_RENEW_BELOW_MS, SESSION_TTL_MS } from "@/lib/auth/sessions.ts";
import { AuthUserSchema, SessionSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Authentication",
  GET: {
    summary: "The caller's session and user, or null",
    description: "200 `null` without a valid session. Reading a session slides it: one with less than " +
      `${duration(SESSION_RENEW_BELOW_MS)} left is renewed to ${duration(SESSION_TTL_MS)} and its cookie sent again.`,
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
