/**
 * Open-redirect refusal (docs/decisions.md, Auth, "Redirect targets stay on this origin"): every `callbackURL`,
 * `newUserCallbackURL` and `redirectTo` must be a path on this origin (a single leading `/`) or an absolute URL whose
 * origin is `APP_URL`. Anything else is refused with 400.
 */
import { z } from "zod";
import { AuthError, type AuthErrorCode } from "@/lib/errors.ts";

/** Longest accepted redirect target, in characters. */
export const REDIRECT_MAX = 2048;

/**
 * A request field that carries a redirect target, as the body and query schemas read it: any text, checked by
 * `checkRedirect` (whose refusal has its own code), its limits stated for the API description.
 */
export const RedirectTargetField = z.string().meta({
  maxLength: REDIRECT_MAX,
  description: "A path on this site (`/…`) or a URL of this origin; anything else is refused",
});

/** The request fields that carry a redirect target, with the error code of a refused one. */
const REFUSAL_CODES = {
  callbackURL: "INVALID_CALLBACK_URL",
  newUserCallbackURL: "INVALID_NEW_USER_CALLBACK_URL",
  redirectTo: "INVALID_REDIRECT_TO",
} as const satisfies Record<string, AuthErrorCode>;

/** A request field that carries a redirect target. */
export type RedirectField = keyof typeof REFUSAL_CODES;

/**
 * The redirect target `value` of request field `field` resolved on `appUrl`: the path (with
 * query and fragment) for a path, the full URL for an absolute URL. `undefined` stays undefined.
 * Paths like `//evil.example`, `/\evil.example` or `/\t/evil.example` resolve to another host
 * and are refused like any foreign URL, and so is a path that only becomes one of those once
 * its dot segments are resolved (`/..//evil.example`, `/%2e%2e//evil.example`): what is returned
 * resolves to this origin however often it is resolved again.
 * @throws AuthError `INVALID_<FIELD>` (400) ("Invalid callbackURL") for anything that leaves the origin.
 */
export function checkRedirect(field: RedirectField, value: string | undefined, appUrl: string): string | undefined {
  if (value === undefined) return undefined;
  const refuse = () => new AuthError(REFUSAL_CODES[field], `Invalid ${field}`);
  if (value.length === 0 || value.length > REDIRECT_MAX) throw refuse();
  const origin = new URL(appUrl).origin;
  const isPath = isSingleSlashPath(value);
  let url: URL;
  try {
    url = isPath ? new URL(value, origin) : new URL(value);
  } catch {
    throw refuse();
  }
  if (url.origin !== origin) throw refuse();
  if (!isPath) return url.href;
  // Resolution removes dot segments (`/..//evil`, `/.%2e//evil`, `/a/..//evil`) and turns `\`
  // into `/`: the path it leaves must itself still be a path on this origin.
  const target = url.pathname + url.search + url.hash;
  if (!isSingleSlashPath(target)) throw refuse();
  return target;
}

/** True for a path with one leading `/` that a browser cannot read as `//host` (`/\host`, `/\t/host`). */
function isSingleSlashPath(value: string): boolean {
  return value.startsWith("/") && !/^\/[\t\n\r]*[\/\\]/.test(value);
}

/** `target` (a path or same-origin URL from `checkRedirect`) with each query parameter of `params` set. */
export function withQuery(target: string, appUrl: string, params: Record<string, string>): string {
  const isPath = target.startsWith("/");
  const url = new URL(target, appUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return isPath ? url.pathname + url.search + url.hash : url.href;
}

/**
 * 302 to the sign-in page, coming back to `url`'s path and query afterwards. A notice the page
 * was given in its `error` parameter (e.g. `INVALID_TOKEN` from a spent verification link) is
 * shown on the sign-in page instead. The one sign-in redirect: a page handler that calls
 * `assertSignedIn` for a guest ends here (`lib/platform/app.ts`).
 */
export function signInRedirect(url: URL): Response {
  const back = new URL(url);
  const error = back.searchParams.get("error");
  back.searchParams.delete("error");
  const target = new URLSearchParams({ callbackURL: back.pathname + back.search });
  if (error) target.set("error", error);
  return new Response(null, { status: 302, headers: { location: `/sign-in?${target}` } });
}

/**
 * The page to return to after signing in or onboarding, from a `callbackURL` query parameter:
 * the target when `checkRedirect` accepts it, otherwise (absent, foreign, malformed) null.
 */
export function returnPage(value: string | null, appUrl: string): string | null {
  if (value === null) return null;
  try {
    return checkRedirect("callbackURL", value, appUrl) ?? null;
  } catch {
    return null;
  }
}

/** Query parameters that carry a redirect target: kept on a page's own link only when `checkRedirect` accepts them. */
const TARGET_PARAMS = Object.keys(REFUSAL_CODES) as RedirectField[];

/**
 * The path and query of the page at `url` as its own controls hand it on (the language switch comes back to it): a
 * one-off notice (`error`) is dropped, and so is a redirect target this origin would refuse, so a page never repeats a
 * hostile `callbackURL` or an error code it was given.
 */
export function selfLink(url: URL, appUrl: string): string {
  const query = new URLSearchParams(url.search);
  query.delete("error");
  for (const field of TARGET_PARAMS) {
    const value = query.get(field);
    if (value === null) continue;
    try {
      checkRedirect(field, value, appUrl);
    } catch {
      query.delete(field);
    }
  }
  const search = query.toString();
  return url.pathname + (search ? `?${search}` : "");
}
