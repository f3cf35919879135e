/**
 * `GET /api/auth/verify-email`: the verification e-mail's link; its `apiDocs` below are its description (docs/api.md,
 * Authentication, "E-mail verification"; docs/decisions.md, Auth).
 */
import { define } from "@/lib/platform/define.ts";
import { readSessionCookie, readVerifyBindingCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { readVerificationLink, verifyEmail } from "@/lib/auth/email_password.ts";
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
    description: `Spends the single-use token (it lives ${duration(TOKEN_TTL_MS)}) and sets \`emailVerified\`, ` +
      "only for the browser that asked for the link: one signed in as the link's owner, or a signed-out one whose " +
      "HTTP-only verification binding cookie, set by sign-up and by a resend, is the one the link was issued for. " +
      "That browser is signed in (its previous session ends). Any other GET (a mail scanner fetching the link, a " +
      "click in another browser or in one signed in as someone else) spends nothing and is sent to the confirm page " +
      "`/verify-email?token=…&callbackURL=…`, whose button verifies the address without signing anyone in (a " +
      "signed-out browser goes on to `/sign-in?verified=1&email=…`, its form filled in with the address; another " +
      "person's session is kept). With `callbackURL` " +
      "(an empty one means `/`) the answer is a redirect: to it on " +
      "success, to it with `?error=INVALID_TOKEN` for an unknown, spent or expired token; without it, JSON. A " +
      "`callbackURL` off this origin: 400 `INVALID_CALLBACK_URL`. A suspended account is verified but not signed in: " +
      "403 `ACCOUNT_SUSPENDED`, or with `callbackURL` a redirect to `/sign-in?error=ACCOUNT_SUSPENDED`.",
    query: z.object({ token: z.string().optional(), callbackURL: RedirectTargetField.optional() }),
    responses: {
      200: {
        description: "Verified and signed in (no `callbackURL`), with the session cookie",
        schema: z.strictObject({ status: z.literal(true), user: AuthUserSchema }),
      },
      302: "To `callbackURL` signed in, to the confirm page `/verify-email?token=…` for a browser that did not ask " +
        "for the link (nothing spent), to `callbackURL` with `error=INVALID_TOKEN`, or to " +
        "`/sign-in?error=ACCOUNT_SUSPENDED`",
      400: "`INVALID_TOKEN` (no `callbackURL`) or `INVALID_CALLBACK_URL`",
      403: "`ACCOUNT_SUSPENDED` (no `callbackURL`)",
    },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const param = ctx.url.searchParams.get("callbackURL");
    const callbackURL = checkRedirect("callbackURL", param === "" ? "/" : param ?? undefined, config.appUrl);
    const token = ctx.url.searchParams.get("token") ?? "";
    const binding = readVerifyBindingCookie(req, config.secure);
    const invalid = () => {
      if (!callbackURL) throw new AuthError("INVALID_TOKEN", "Invalid token");
      return new Response(null, {
        status: 302,
        headers: { location: withQuery(callbackURL, config.appUrl, { error: "INVALID_TOKEN" }) },
      });
    };
    const link = await readVerificationLink(kv, token, binding);
    if (!link) return invalid();
    const owner = ctx.state.user?.id === link.user.id;
    if (!owner && (ctx.state.user || !link.sameBrowser)) {
      // Not the browser that asked (a mail scanner, another browser), or someone else's session (never replaced by a
      // GET: login CSRF): nothing is spent until a person confirms, so fetching the link verifies nothing.
      const confirm = withQuery("/verify-email", config.appUrl, { token, ...(callbackURL ? { callbackURL } : {}) });
      return new Response(null, { status: 302, headers: { location: confirm } });
    }
    const verified = await verifyEmail(kv, token, { binding, adminEmails: config.adminEmails });
    if (!verified) return invalid();
    if (verified.user.suspension && callbackURL) {
      return new Response(null, { status: 302, headers: { location: "/sign-in?error=ACCOUNT_SUSPENDED" } });
    }
    const { token: session } = await replaceSession(kv, {
      userId: verified.user.id,
      previousToken: readSessionCookie(req, config.secure),
      language: ctx.state.lang,
    });
    const cookie = sessionCookie(config.secure, session);
    if (callbackURL) {
      return new Response(null, { status: 302, headers: { location: callbackURL, "set-cookie": cookie } });
    }
    return Response.json({ status: true, user: authUserView(verified.user) }, { headers: { "set-cookie": cookie } });
  },
});
