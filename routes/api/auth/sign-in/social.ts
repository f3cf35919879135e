/**
 * `GET /api/auth/sign-in/social?provider=&callbackURL=&newUserCallbackURL=` → 302 to the
 * provider; `POST` with the same fields as JSON (the Better Auth client's form) → 200
 * `{url, redirect: true}` (docs/api.md, Authentication, docs/decisions.md, Auth). Both store the
 * state and PKCE verifier for 10 minutes and set the short-lived cookie that binds them to this
 * browser. `callbackURL` defaults to `/`, `newUserCallbackURL` to `callbackURL`; both must stay
 * on this origin.
 *
 * Errors: unknown provider 400 `PROVIDER_NOT_FOUND`, no credentials 400 `PROVIDER_NOT_CONFIGURED`,
 * a foreign target 400 `INVALID_CALLBACK_URL` / `INVALID_NEW_USER_CALLBACK_URL`. A GET opened
 * as a page (`Accept: text/html`) is sent to `/sign-in?error=<code>` instead, which explains it.
 * Starts count against the sign-in limit of 60 per minute per IP. In development, a GET on a
 * loopback alias of a loopback `APP_URL` (`127.0.0.1` for `localhost`) is first sent to the same
 * path on `APP_URL`: the provider comes back there, and the binding cookie must be on that host.
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
import { checkRedirect } from "@/lib/auth/redirects.ts";
import { isAppOrigin } from "@/lib/http/csrf.ts";
import { randomToken } from "@/lib/ids.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const SocialSignIn = z.object({
  provider: z.string().max(64),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
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
  });
  return { url, cookie: oauthBindingCookie(config.secure, binding, STATE_TTL_MS) };
}

export const apiDocs = describeRoute({
  GET: {
    summary: "Start a social sign-in (redirects to the provider)",
    query: SocialSignIn,
    responses: { 302: "To the provider" },
  },
  POST: {
    summary: "Start a social sign-in (answers the provider's URL)",
    body: SocialSignIn,
    responses: { 200: "`{url, redirect: true}`" },
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
