/**
 * CSRF origin check (CONTRACT.md §2): a state-changing request that carries the session
 * cookie must come from the platform's own origin (`Origin`, or lacking it `Referer`);
 * any state-changing request marked `Sec-Fetch-Site: cross-site` is refused.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** True when the request may proceed; `appUrl` is the platform's public origin. */
export function checkOrigin(req: Request, appUrl: string, hasSessionCookie: boolean): boolean {
  if (SAFE_METHODS.has(req.method)) return true;
  if (req.headers.get("sec-fetch-site") === "cross-site") return false;
  if (!hasSessionCookie) return true;
  const origin = originOf(req.headers.get("origin")) ?? originOf(req.headers.get("referer"));
  return origin === new URL(appUrl).origin;
}
