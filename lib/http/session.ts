/**
 * The session step of `routes/_middleware.ts`: loads the request's session into `ctx.state.user`
 * and `ctx.state.session`, sends the cookie again when the session slid forward (as persistent as
 * the person chose at sign-in, beside any other cookie of the answer, unless the answer sets the
 * session cookie itself), and marks every
 * answer about a person (a signed-in request's, or one that sets a cookie) `Cache-Control:
 * private, no-store` unless the route set its own, so neither a shared cache nor the browser's
 * Back button after signing out shows one person's page to another (docs/decisions.md, Sessions).
 * An answer that sets a cookie is never left shareable: a `Cache-Control` of the route's that is
 * neither `private` nor `no-store` (`public` on robots.txt, the feeds, files) becomes `private, no-store`.
 */
import { readSession } from "@/lib/auth/sessions.ts";
import { readSessionCookie, sessionCookie, sessionCookieName } from "@/lib/http/cookies.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/** Whether a `Cache-Control` value keeps the answer out of shared caches: it says `private` or `no-store`. */
function keptFromSharedCaches(cacheControl: string): boolean {
  return /(^|,)\s*(private|no-store)\b/i.test(cacheControl);
}

/** Whether the answer sets the session cookie `name` itself (a sign-in's new session, a sign-out's clearing). */
function setsSessionCookie(res: Response, name: string): boolean {
  return res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`));
}

/** Loads the session, renews its cookie, and keeps personal answers out of caches. */
export const session: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { kv, config } = ctx.state.services;
  const token = readSessionCookie(req, config.secure);
  const found = token ? await readSession(kv, token) : null;
  if (found) {
    ctx.state.user = found.user;
    ctx.state.session = found.session;
  }
  const res = await ctx.next();
  if (found?.renewed && !setsSessionCookie(res, sessionCookieName(config.secure))) {
    res.headers.append("set-cookie", sessionCookie(config.secure, token!, found.session.persistent !== false));
  }
  const cacheControl = res.headers.get("cache-control");
  const setsCookie = res.headers.has("set-cookie");
  if (
    cacheControl === null ? ctx.state.user || setsCookie : setsCookie && !keptFromSharedCaches(cacheControl)
  ) {
    res.headers.set("cache-control", "private, no-store");
  }
  return res;
};
