/**
 * The canonical-path step of `routes/_middleware.ts` (docs/decisions.md, Security, "One spelling of a path"): a request
 * whose path, as sent, is not in its plain spelling is answered 308 to that spelling, the query kept. The plain
 * spelling writes out the percent-escapes of characters that never need one (RFC 3986's unreserved ones: letters,
 * digits, `-`, `.`, `_`, `~`), then resolves dot segments (`.`, `..`, also escaped) and escapes what a URL escapes, as
 * `URL` does. So every later step, which decides by `ctx.url` (API or page, what a phone may keep), sees the path the
 * router matched: `/%61dmin` is `/admin` to both, and `/x/%2e%2e/y` never reaches a route as the segment `..`. Escapes
 * of other characters (`%2F`, `%20`, UTF-8 bytes) stay as they are.
 */
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The plain spelling of `path` (see above): `/%61dmin` → `/admin`, `/x/%2e%2e/y` → `/y`; `/a%2Fb` and `/%E0%A4%95`
 * unchanged.
 */
export function canonicalPathOf(path: string): string {
  const written = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
  // Joined, not resolved: a path starting `//` stays a path. Leading slashes are one, so the answer's `Location` can
  // never be read as another host (`/.//evil.example` resolves to `//evil.example`).
  return new URL(`http://canonical.invalid${written}`).pathname.replace(/^\/{2,}/, "/");
}

/**
 * The path of `url` as the client sent it (what the router matches): from the first `/` after the scheme and host to
 * the query. A `Request`'s `url` keeps the request target as it came on the wire, dot segments included.
 */
function pathAsSent(url: string): string {
  const start = url.indexOf("/", url.indexOf(":") + 3);
  if (start === -1) return "/";
  const end = url.slice(start).search(/[?#]/);
  return end === -1 ? url.slice(start) : url.slice(start, start + end);
}

/** 308 to the canonical path (see above) when the request's path is not; else the next step. */
export const canonicalPath: MiddlewareHandler<AppState> = (req, ctx) => {
  const sent = pathAsSent(req.url);
  const canonical = canonicalPathOf(sent);
  if (canonical === sent) return ctx.next();
  return Promise.resolve(
    new Response(null, { status: 308, headers: { location: canonical + ctx.url.search } }),
  );
};
