/**
 * `GET` and `POST /api/auth/sign-in/social`: start a social sign-in; its `apiDocs` below are its description
 * (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Social sign-in).
 */
import { define, type RouteContext } from "@/lib/platform/define.ts";
import { z } from "zod";
import { readAuthBody } from "@/lib/http/auth_body.ts";
import { startSignIn } from "@/lib/auth/oauth/flow.ts";
import { STATE_TTL_MS } from "@/lib/auth/oauth/states.ts";
import { AuthError } from "@/lib/errors.ts";
import { oauthBindingCookie, readOAuthBindingCookie } from "@/lib/http/cookies.ts";
import { validate } from "@/lib/http/json.ts";
import { RATE_LIMITS } from "@/lib/platform/rate_limits.ts";
import { checkRedirect, RedirectTargetField } from "@/lib/auth/redirects.ts";
import { isAppOrigin } from "@/lib/http/csrf.ts";
import { randomToken } from "@/lib/ids.ts";
import { describeRoute, duration, perWindow } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** An auth write: the login-CSRF rule applies before anything else runs (docs/decisions.md, Security). */
export const routeOptions: RouteOptions = { originCheck: "login" };

const SocialSignIn = z.object({
  provider: z.string().max(64),
  callbackURL: RedirectTargetField.optional(),
  newUserCallbackURL: RedirectTargetField.optional(),
  fresh: z.literal("1").optional().describe(
    "`1`: ask the provider for a new login instead of its existing session (a fresh sign-in, which deleting an " +
      "account without a password needs)",
  ),
});

/** Checks the fields, stores the pending sign-in and returns the provider URL and the binding cookie. */
async function start(
  req: Request,
  ctx: RouteContext,
  fields: z.infer<typeof SocialSignIn>,
): Promise<{ url: URL; cookie: string }> {
  const { kv, config, oauth } = ctx.state.services;
  await ctx.state.services.rateLimits.hit(RATE_LIMITS.signInPerIp, ctx.state.clientIp);
  const callbackURL = checkRedirect("callbackURL", fields.callbackURL, config.appUrl) ?? "/";
  const newUserCallbackURL = checkRedirect("newUserCallbackURL", fields.newUserCallbackURL, config.appUrl) ??
    callbackURL;
  const binding = readOAuthBindingCookie(req, config.secure) ?? randomToken();
  const url = await startSignIn(kv, {
    service: oauth,
    providerId: fields.provider,
    targets: { callbackURL, newUserCallbackURL },
    binding,
    appUrl: config.appUrl,
    fresh: fields.fresh === "1",
  });
  return { url, cookie: oauthBindingCookie(config.secure, binding, STATE_TTL_MS) };
}

const START = "Stores the state and PKCE verifier for " + duration(STATE_TTL_MS) + " and sets the short-lived " +
  "cookie that binds them to this browser. `callbackURL` defaults to `/`, `newUserCallbackURL` to `callbackURL`; both " +
  "must stay on this origin. `fresh` `1` asks the provider for a new login instead of its existing session (`max_age=0`; " +
  "what deleting an account without a password needs). Errors: an unknown provider 400 `PROVIDER_NOT_FOUND`, one without credentials 400 " +
  "`PROVIDER_NOT_CONFIGURED`, a foreign target 400 `INVALID_CALLBACK_URL` or `INVALID_NEW_USER_CALLBACK_URL`.";

const TOO_MANY = `Over the sign-in limit of ${perWindow(RATE_LIMITS.signInPerIp)} per IP`;

export const apiDocs = describeRoute({
  section: "Authentication",
  GET: {
    summary: "Start a social sign-in (redirects to the provider)",
    description: `${START} A GET opened as a page (\`Accept: text/html\`) is sent to \`/sign-in?error=<code>\` ` +
      "instead of an error, which explains it. In development, a GET on a loopback alias of a loopback `APP_URL` " +
      "(`127.0.0.1` for `localhost`) is first sent to the same path on `APP_URL`: the provider comes back there, and " +
      "the binding cookie must be on that host.",
    query: SocialSignIn,
    responses: {
      302: "To the provider (or `/sign-in?error=<code>` for a page, or to `APP_URL`'s host)",
      400: "`PROVIDER_NOT_FOUND`, `PROVIDER_NOT_CONFIGURED`, `VALIDATION_ERROR` or a refused target",
      429: TOO_MANY,
    },
  },
  POST: {
    summary: "Start a social sign-in (answers the provider's URL)",
    description: `The Better Auth client's form of the GET, with the same fields as JSON. ${START}`,
    body: SocialSignIn,
    responses: {
      200: {
        description: "Where to send the browser",
        schema: z.strictObject({ url: z.string(), redirect: z.literal(true) }),
      },
      400: "`PROVIDER_NOT_FOUND`, `PROVIDER_NOT_CONFIGURED`, `VALIDATION_ERROR` or a refused target",
      429: TOO_MANY,
    },
  },
});

export const handler = define.handlers({
  async GET(req, ctx) {
    const app = new URL(ctx.state.services.config.appUrl);
    if (ctx.url.origin !== app.origin && isAppOrigin(ctx.url.origin, app.href)) {
      return new Response(null, { status: 302, headers: { location: app.origin + ctx.url.pathname + ctx.url.search } });
    }
    const asPage = req.headers.get("accept")?.includes("text/html") ?? false;
    try {
      const fields = validate(
        SocialSignIn,
        Object.fromEntries(ctx.url.searchParams),
        (error) => new AuthError("VALIDATION_ERROR", `Invalid ${String(error.issues[0]?.path[0] ?? "query")}`),
      );
      const { url, cookie } = await start(req, ctx, fields);
      return new Response(null, { status: 302, headers: { location: url.href, "set-cookie": cookie } });
    } catch (error) {
      if (!asPage || !(error instanceof AuthError)) throw error;
      return new Response(null, { status: 302, headers: { location: `/sign-in?error=${error.code}` } });
    }
  },
  async POST(req, ctx) {
    const { url, cookie } = await start(req, ctx, await readAuthBody(req, SocialSignIn));
    return Response.json({ url: url.href, redirect: true }, { headers: { "set-cookie": cookie } });
  },
});
