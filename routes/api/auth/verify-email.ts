/**
 * `GET /api/auth/verify-email?token=&callbackURL=` (docs/api.md, Authentication, "E-mail verification";
 * docs/decisions.md, Auth): spends the single-use 24-hour token, sets `emailVerified = true` and signs the browser in.
 * Success: 302 to `callbackURL` (an empty one means `/`), or 200 `{status: true, user}` without one. Bad, spent or
 * expired token: 302 to `callbackURL?error=INVALID_TOKEN`, or 400 `INVALID_TOKEN` without one. A `callbackURL` off this
 * origin: 400.
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { verifyEmail } from "@/lib/auth/email_password.ts";
import { checkRedirect, withQuery } from "@/lib/auth/redirects.ts";
import { replaceSession } from "@/lib/auth/sessions.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { AuthError } from "@/lib/errors.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Verify an e-mail address with the link's token, and sign in",
    description: "Query: `token`, and `callbackURL` (where to go afterwards; without it the answer is JSON).",
    responses: { 200: "`{status: true, user}`", 302: "To `callbackURL` (with `error=INVALID_TOKEN` on failure)" },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const param = ctx.url.searchParams.get("callbackURL");
    const callbackURL = checkRedirect("callbackURL", param === "" ? "/" : param ?? undefined, config.appUrl);
    const user = await verifyEmail(kv, ctx.url.searchParams.get("token") ?? "");
    if (!user) {
      if (!callbackURL) throw new AuthError("INVALID_TOKEN", "Invalid token");
      return new Response(null, {
        status: 302,
        headers: { location: withQuery(callbackURL, config.appUrl, { error: "INVALID_TOKEN" }) },
      });
    }
    const { token } = await replaceSession(kv, {
      userId: user.id,
      previousToken: readSessionCookie(req, config.secure),
    });
    const cookie = sessionCookie(config.secure, token);
    if (callbackURL) {
      return new Response(null, { status: 302, headers: { location: callbackURL, "set-cookie": cookie } });
    }
    return Response.json({ status: true, user: authUserView(user) }, { headers: { "set-cookie": cookie } });
  },
});
