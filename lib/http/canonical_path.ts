/**
 * The canonical-path step of `routes/_middleware.ts` (docs/decisions.md, Security, "One spelling of a path"): a path
 * that percent-escapes a character that never needs it (RFC 3986's unreserved ones: letters, digits, `-`, `.`, `_`,
 * `~`) is answered 308 to the same path with those characters written out, the query kept. So every later step, which
 * decides by the path as sent (API or page, what a phone may keep), sees the path the router matched: `/%61dmin` is
 * `/admin` to both. Escapes of other characters (`%2F`, `%20`, UTF-8 bytes) stay as they are.
 */
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** `path` with the escapes of unreserved characters written out (`/%61dmin` → `/admin`); others kept. */
export function canonicalPathOf(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/** 308 to the canonical path (see above) when the request's path is not; else the next step. */
export const canonicalPath: MiddlewareHandler<AppState> = (_req, ctx) => {
  const { pathname, search } = ctx.url;
  const canonical = canonicalPathOf(pathname);
  if (canonical === pathname) return ctx.next();
  // Resolved as a URL, so written-out dots (`%2e%2e`) become the dot segments they are.
  const target = new URL(canonical + search, ctx.url);
  return Promise.resolve(new Response(null, { status: 308, headers: { location: target.pathname + target.search } }));
};
