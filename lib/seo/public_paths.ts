/**
 * Which pages crawlers may read (docs/decisions.md, Search engines and sharing): every path but the admin area, the API
 * and a person's own pages. `/robots.txt` disallows these; only the others carry `hreflang` alternates.
 */

/** Paths crawlers are kept out of (a path and everything below it). */
export const DISALLOWED = [
  "/admin",
  "/api/",
  "/profile",
  "/onboarding",
  "/me/",
  "/toolkits/mine",
  "/purchases/",
];

/** Whether crawlers may read the page at `path` (no disallowed path starts it). */
export function isPublicPath(path: string): boolean {
  return !DISALLOWED.some((prefix) => path.startsWith(prefix));
}
