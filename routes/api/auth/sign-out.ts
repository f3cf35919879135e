/**
 * `POST /api/auth/sign-out` (docs/api.md, Authentication, docs/decisions.md, Auth): any body
 * or none → 200 `{success: true}`, the session deleted and the cookie cleared; without a valid
 * session 401 `UNAUTHORIZED`.
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, signedOutHeaders } from "@/lib/http/cookies.ts";
import { deleteSession } from "@/lib/auth/sessions.ts";
import { AuthError } from "@/lib/errors.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Sign out",
    access: ["session"],
    responses: { 200: { description: "The session ended and its cookie cleared", schema: SuccessSchema } },
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
