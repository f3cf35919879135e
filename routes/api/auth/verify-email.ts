/**
 * `GET /api/auth/verify-email`: the verification e-mail's link; its `apiDocs` below are its description (docs/api.md,
 * Authentication, "E-mail verification"; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { verifyEmail } from "@/lib/auth/email_password.ts";
import { checkRedirect, RedirectTargetField, withQuery } from "@/lib/auth/redirects.ts";
import { replaceSession } from "@/lib/auth/sessions.ts";
import { authUserView } from "@/lib/auth/views.ts";
import { AuthError } from "@/lib/errors.ts";
import { describeRoute, duration } from "@/lib/openapi/describe.ts";
import { TOKEN_TTL_MS } from "@/lib/auth/verification.ts";
import { z } from "zod";
import { AuthUserSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Authentication",
  GET: {
    summary: "Verify an e-mail address with the link's token, and sign in",
    description: `Spends the single-use token (it lives ${duration(TOKEN_TTL_MS)}), sets \`emailVerified\` and signs ` +
      "the browser in (its previous session ends), unless the browser is signed in as another person: then the " +
      "address is verified and that session is kept, with no new cookie (a link opened in someone else's browser " +
      "never signs them in as its owner). With `callbackURL` (an empty one means `/`) the answer is a " +
      "redirect: to it on success, to it with `?error=INVALID_TOKEN` for an unknown, spent or expired token; " +
      "without it, JSON. A `callbackURL` off this origin: 400 `INVALID_CALLBACK_URL`.",
    query: z.object({ token: z.string().optional(), callbackURL: RedirectTargetField.optional() }),
    responses: {
      200: {
        description: "Verified, and signed in unless another person's session was kept (no `callbackURL`)",
        schema: z.strictObject({ status: z.literal(true), user: AuthUserSchema }),
      },
      302: "To `callbackURL` (signed in unless another person's session was kept), or with `error=INVALID_TOKEN`",
      400: "`INVALID_TOKEN` (no `callbackURL`) or `INVALID_CALLBACK_URL`",
    },
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
    if (ctx.state.user && ctx.state.user.id !== user.id) {
      // Someone else's session: verify the address but keep the browser's session, so a link to an attacker's own
      // token opened in a victim's browser cannot sign the victim in as the attacker (login CSRF through GET).
      if (callbackURL) return new Response(null, { status: 302, headers: { location: callbackURL } });
      return Response.json({ status: true, user: authUserView(user) });
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
