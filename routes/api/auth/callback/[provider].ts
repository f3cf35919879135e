/**
 * `GET /api/auth/callback/{provider}`: where a social provider sends the browser back to finish a sign-in; its
 * `apiDocs` below are its description (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Social
 * sign-in).
 */
import { define } from "@/lib/platform/define.ts";
import { resolveSocialUser } from "@/lib/auth/oauth/accounts.ts";
import { finishSignIn } from "@/lib/auth/oauth/flow.ts";
import { replaceSession } from "@/lib/auth/sessions.ts";
import { AuthError, type AuthErrorCode } from "@/lib/errors.ts";
import { readOAuthBindingCookie, readSessionCookie, sessionCookie } from "@/lib/http/cookies.ts";
import { describeRoute, duration } from "@/lib/openapi/describe.ts";
import { STATE_TTL_MS } from "@/lib/auth/oauth/states.ts";
import { z } from "zod";

/** The provider's answer: its `code` and the `state` we sent (or `error` when the person declined). */
const CallbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional().describe("The provider's refusal, e.g. `access_denied`"),
});

function toSignIn(code: AuthErrorCode): Response {
  return new Response(null, { status: 302, headers: { location: `/sign-in?error=${code}` } });
}

export const apiDocs = describeRoute({
  section: "Authentication",
  GET: {
    summary: "Finish a social sign-in (the provider redirects here)",
    description:
      `The \`state\` must be one this browser started (its binding cookie) within ${duration(STATE_TTL_MS)}, ` +
      "and is spent; the `code` is exchanged with the PKCE verifier; the identity is found, linked or created; the " +
      "browser gets the same session as an e-mail sign-in (its previous one ends). A user created now goes to " +
      "`newUserCallbackURL`, anyone else to `callbackURL`. Every failure ends on `/sign-in?error=<code>`, never on an " +
      "error page: `PROVIDER_NOT_FOUND`, `PROVIDER_NOT_CONFIGURED`, `INVALID_STATE`, `ACCESS_DENIED`, " +
      "`OAUTH_FAILED`, `PROVIDER_UNAVAILABLE`, `EMAIL_NOT_FOUND`, `ACCOUNT_NOT_LINKED`, `ACCOUNT_SUSPENDED`.",
    query: CallbackQuerySchema,
    responses: { 302: "To the target page signed in, or to `/sign-in?error=<code>`", 400: false, 404: false },
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
        authenticatedAt: identity.authenticatedAt,
        loginUnknown: identity.authenticatedAt === undefined,
        language: ctx.state.lang,
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
