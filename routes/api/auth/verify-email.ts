/**
 * `GET /api/auth/verify-email`: the verification e-mail's link; its `apiDocs` below are its description (docs/api.md,
 * Authentication, "E-mail verification"; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, readVerifyBindingCookie, sessionCookie } from "@/lib/http/cookies.ts";
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
    summary: "Verify an e-mail address with the link's token, and sign in the browser that asked for it",
    description: `Spends the single-use token (it lives ${duration(TOKEN_TTL_MS)}) and sets \`emailVerified\`. ` +
      "It signs the browser in (its previous session ends) only when it is the browser that asked for the link: its " +
      "HTTP-only verification binding cookie, set by sign-up and by a resend, is the one the link was issued for (or " +
      "it is already signed in as the link's owner). Any other browser gets no cookie: one signed in as another " +
      "person keeps that session, and a signed-out one is sent to sign in (`/sign-in?verified=1`, which says the " +
      "address is verified), so a link opened in someone else's browser never signs them in as its owner. With " +
      "`callbackURL` (an empty one means `/`) the answer is a redirect: to it on success (to `/sign-in` carrying " +
      "it for a signed-out browser that did not ask for the link), to it with `?error=INVALID_TOKEN` for an unknown, " +
      "spent or expired token; without it, JSON. A `callbackURL` off this origin: 400 `INVALID_CALLBACK_URL`.",
    query: z.object({ token: z.string().optional(), callbackURL: RedirectTargetField.optional() }),
    responses: {
      200: {
        description: "Verified (no `callbackURL`); signed in (with the session cookie) only the browser that asked",
        schema: z.strictObject({ status: z.literal(true), user: AuthUserSchema }),
      },
      302: "To `callbackURL` (signed in when this browser asked for the link, or another person's session kept), " +
        "to `/sign-in?callbackURL=…&verified=1` for a signed-out browser that did not ask, or to `callbackURL` " +
        "with `error=INVALID_TOKEN`",
      400: "`INVALID_TOKEN` (no `callbackURL`) or `INVALID_CALLBACK_URL`",
    },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const param = ctx.url.searchParams.get("callbackURL");
    const callbackURL = checkRedirect("callbackURL", param === "" ? "/" : param ?? undefined, config.appUrl);
    const verified = await verifyEmail(
      kv,
      ctx.url.searchParams.get("token") ?? "",
      { binding: readVerifyBindingCookie(req, config.secure), adminEmails: config.adminEmails },
    );
    if (!verified) {
      if (!callbackURL) throw new AuthError("INVALID_TOKEN", "Invalid token");
      return new Response(null, {
        status: 302,
        headers: { location: withQuery(callbackURL, config.appUrl, { error: "INVALID_TOKEN" }) },
      });
    }
    const { user } = verified;
    if (ctx.state.user && ctx.state.user.id !== user.id) {
      // Someone else's session: verify the address but keep the browser's session, so a link to an attacker's own
      // token opened in a victim's browser cannot sign the victim in as the attacker (login CSRF through GET).
      if (callbackURL) return new Response(null, { status: 302, headers: { location: callbackURL } });
      return Response.json({ status: true, user: authUserView(user) });
    }
    if (!verified.sameBrowser && !ctx.state.user) {
      // A signed-out browser that did not ask for this link (no binding cookie naming it): the address is verified,
      // and the person signs in, so a link sent to a victim cannot sign them in as its owner (login CSRF through GET).
      if (callbackURL) {
        const signIn = withQuery("/sign-in", config.appUrl, { callbackURL, verified: "1" });
        return new Response(null, { status: 302, headers: { location: signIn } });
      }
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
