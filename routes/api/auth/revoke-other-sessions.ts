/**
 * `POST /api/auth/revoke-other-sessions`: "Sign out everywhere else", the Better Auth client's path; its `apiDocs` below
 * are its description (docs/api.md, Authentication; docs/decisions.md, Sessions, "Ending sessions").
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie } from "@/lib/http/cookies.ts";
import { endOtherSessions } from "@/lib/auth/sessions.ts";
import { AuthError } from "@/lib/errors.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { StatusSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/**
 * An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security); it falls under
 * the per-person limit `profile`.
 */
export const routeOptions: RouteOptions = { originCheck: "login", personLimit: "profile" };

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Sign out everywhere else",
    description: "Any body or none. Ends every other session of the caller at once (other browsers and phones are " +
      "signed out at their next request); the caller's own session and cookie stay as they are.",
    access: ["session"],
    responses: {
      200: { description: "Every other session ended", schema: StatusSchema },
      401: "`UNAUTHORIZED`: no valid session",
      409: "Other writes kept changing the account; nothing was ended",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const token = readSessionCookie(req, config.secure);
    if (!ctx.state.session || !token || !await endOtherSessions(kv, token)) {
      throw new AuthError("UNAUTHORIZED", "Unauthorized");
    }
    return Response.json({ status: true });
  },
});
