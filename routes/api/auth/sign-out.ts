/**
 * `POST /api/auth/sign-out`: ends the caller's session; its `apiDocs` below are its description (docs/api.md,
 * Authentication; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, signedOutHeaders } from "@/lib/http/cookies.ts";
import { deleteSession } from "@/lib/auth/sessions.ts";
import { AuthError } from "@/lib/errors.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

export const apiDocs = describeRoute({
  section: "Authentication",
  POST: {
    summary: "Sign out",
    description:
      "Any body or none. The session is deleted with the push subscriptions made in it, and its cookie cleared.",
    access: ["session"],
    responses: {
      200: { description: "The session ended and its cookie cleared", schema: SuccessSchema },
      401: "`UNAUTHORIZED`: no valid session",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const token = readSessionCookie(req, config.secure);
    if (!ctx.state.session || !token) throw new AuthError("UNAUTHORIZED", "Unauthorized");
    await deleteSession(kv, token);
    return Response.json({ success: true }, { headers: signedOutHeaders(config.secure) });
  },
});
