/**
 * `GET /api/auth/callback/{provider}?code=&state=` (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md,
 * Social sign-in): finishes a social sign-in. The state must be one this browser started (binding cookie) within 10
 * minutes, and is spent; the code is exchanged with the PKCE verifier; the identity is found, linked or created
 * (`resolveSocialUser`); the browser gets the same session as an e-mail sign-in (its previous one ends). A user created
 * now goes to `newUserCallbackURL`, anyone else to `callbackURL`.
 *
 * Every failure ends on `/sign-in?error=<code>` (never a 500 page): `PROVIDER_NOT_FOUND`,
 * `PROVIDER_NOT_CONFIGURED`, `INVALID_STATE`, `ACCESS_DENIED`, `OAUTH_FAILED`,
 * `PROVIDER_UNAVAILABLE`, `EMAIL_NOT_FOUND`, `ACCOUNT_NOT_LINKED`.
 */
import { define } from "@/lib/platform/define.ts";
import { resolveSocialUser } from "@/lib/auth/oauth/accounts.ts";
import { finishSignIn } from "@/lib/auth/oauth/flow.ts";
import { replaceSession } from "@/lib/auth/sessions.ts";
import { AuthError, type AuthErrorCode } from "@/lib/errors.ts";
import { readOAuthBindingCookie, readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

function toSignIn(code: AuthErrorCode): Response {
  return new Response(null, { status: 302, headers: { location: `/sign-in?error=${code}` } });
}

export const apiDocs = describeRoute({
  GET: {
    summary: "Finish a social sign-in (the provider redirects here)",
    description: "Query: `code` and `state` from the provider. Ends on `callbackURL` (or `newUserCallbackURL` for a " +
      "new user) signed in, or on `/sign-in?error=<code>`.",
    responses: { 302: "To the target page, or to `/sign-in?error=<code>`" },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const { kv, config, oauth, log } = ctx.state.services;
    const provider = ctx.params.provider;
    try {
      const { identity, targets } = await finishSignIn(kv, {
        service: oauth,
        providerId: provider,
        params: ctx.url.searchParams,
        binding: readOAuthBindingCookie(req, config.secure),
        appUrl: config.appUrl,
      });
      const { user, created } = await resolveSocialUser(kv, identity, config.adminEmails, ctx.state.lang);
      const { token } = await replaceSession(kv, {
        userId: user.id,
        previousToken: readSessionCookie(req, config.secure),
      });
      return new Response(null, {
        status: 302,
        headers: {
          location: created ? targets.newUserCallbackURL : targets.callbackURL,
          "set-cookie": sessionCookie(config.secure, token),
        },
      });
    } catch (error) {
      const code = error instanceof AuthError ? error.code : "OAUTH_FAILED";
      log.warn("social sign-in failed", {
        requestId: ctx.state.requestId,
        provider: provider.slice(0, 64),
        code,
        reason: error instanceof Error ? String(error.cause ?? error.message).slice(0, 300) : String(error),
      });
      return toSignIn(code);
    }
  },
});
