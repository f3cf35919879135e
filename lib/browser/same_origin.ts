/**
 * Browser-safe: where an island may send the browser. A target from props or a query is only followed when it resolves
 * to the page's own origin, however it is encoded (`//host`, `/..//host`, `/\host`, tabs); anything else goes to
 * `fallback` (docs/decisions.md, Auth, "Redirect targets stay on this origin").
 */

/**
 * `target` as a path on the current origin (path, query and fragment), or `fallback` when it is
 * null, unparsable or resolves to another origin.
 */
export function sameOriginTarget(target: string | null, fallback = "/"): string {
  if (target === null) return fallback;
  try {
    const url = new URL(target, location.href);
    if (url.origin !== location.origin) return fallback;
    const path = url.pathname + url.search + url.hash;
    // A path a browser would read as `//host` once more (`//` left by removed dot segments).
    return /^\/[\/\\]/.test(path) ? fallback : path;
  } catch {
    return fallback;
  }
}

/**
 * Onboarding that goes on to `returnTo` (a same-origin path) when it is done: `/onboarding`,
 * with `?callbackURL=` unless there is nowhere to return to. A `returnTo` that already is the
 * onboarding page is kept as it is. Works on the server and in the browser.
 */
export function onboardingPath(returnTo: string | null): string {
  if (returnTo === null || returnTo === "/") return "/onboarding";
  if (returnTo === "/onboarding" || returnTo.startsWith("/onboarding?")) return returnTo;
  return `/onboarding?${new URLSearchParams({ callbackURL: returnTo })}`;
}

/** `path` with `?callbackURL=returnTo` added when there is a page to return to. */
export function withReturnPage(path: string, returnTo: string | null): string {
  return returnTo === null || returnTo === "/" ? path : `${path}?${new URLSearchParams({ callbackURL: returnTo })}`;
}
