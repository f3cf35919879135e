/**
 * The session step of `routes/_middleware.ts`: loads the request's session into `ctx.state.user` and
 * `ctx.state.session` (its key's hash into `ctx.state.sessionHash`; a session void because its person is suspended sets
 * `ctx.state.suspended` instead, which the sign-in page tells them), sends the cookie again when the session slid
 * forward (as persistent as the person chose at sign-in, beside any other cookie of the answer, unless the answer sets
 * the session cookie itself), and marks every answer about a person (a signed-in request's, a suspended person's, or
 * one that sets a cookie) `Cache-Control: private, no-store` unless the route set its own, so neither a shared cache
 * nor the browser's Back button after signing out shows one person's page to another (docs/decisions.md, Sessions).
 * An answer that sets a cookie is never left shareable: a `Cache-Control` of the route's that is
 * neither `private` nor `no-store` (`public` on robots.txt, the feeds, files) becomes `private, no-store`.
 * An answer that signs the browser in as someone other than the person of the session it came with (none, or another
 * person's: a sign-in form or API, a verification link, a social sign-in) also sends `Clear-Site-Data: "storage"`, so
 * the pages and lessons the phone kept of the last person go before the new one's first page (docs/decisions.md,
 * Installable and offline, "A phone changing hands").
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

/**
 * The person a new session cookie set by `res` belongs to (its value is `<userId>.<token>`), or null when the answer
 * sets none (or clears it: signing out).
 */
function signedInAs(res: Response, name: string): string | null {
  for (const cookie of res.headers.getSetCookie()) {
    if (!cookie.startsWith(`${name}=`)) continue;
    const value = cookie.slice(name.length + 1, cookie.indexOf(";") === -1 ? undefined : cookie.indexOf(";"));
    const dot = value.indexOf(".");
    return dot > 0 ? value.slice(0, dot) : null;
  }
  return null;
}

/** Loads the session, renews its cookie, clears the phone when another person signs in, keeps personal answers private. */
export const session: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { kv, config } = ctx.state.services;
  const token = readSessionCookie(req, config.secure);
  const read = token ? await readSession(kv, token) : null;
  const found = read && "suspended" in read ? null : read;
  if (read && "suspended" in read) ctx.state.suspended = read.suspended;
  if (found) {
    ctx.state.user = found.user;
    ctx.state.session = found.session;
    ctx.state.sessionHash = found.hash;
  }
  const res = await ctx.next();
  const newcomer = signedInAs(res, sessionCookieName(config.secure));
  if (newcomer !== null && newcomer !== found?.user.id && !res.headers.has("clear-site-data")) {
    res.headers.set("clear-site-data", '"storage"');
  }
  if (found?.renewed && !setsSessionCookie(res, sessionCookieName(config.secure))) {
    res.headers.append("set-cookie", sessionCookie(config.secure, token!, found.session.persistent !== false));
  }
  const cacheControl = res.headers.get("cache-control");
  const setsCookie = res.headers.has("set-cookie");
  if (
    cacheControl === null
      ? ctx.state.user || ctx.state.suspended || setsCookie
      : setsCookie && !keptFromSharedCaches(cacheControl)
  ) {
    res.headers.set("cache-control", "private, no-store");
  }
  return res;
};
