/**
 * The offline step of `routes/_middleware.ts` (docs/decisions.md, Installable and offline, "What a phone keeps"):
 * marks each page a phone's service worker may keep with `Offline-Scope`, naming whose it is (`u:<userId>`, or `guest`).
 * The worker keeps only pages so marked, and forgets what it kept for one scope when a page comes under another. Never
 * marked: anything but a `GET` answered 200 with HTML, the API, the admin area, sign-in and sign-up, pages that carry a
 * single-use token, forms that change things, a poster's applicants, the offline page itself, and every page of a
 * session without "Remember me" (docs/decisions.md, Installable and offline, "A phone changing hands").
 */
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/** The header naming the scope of a page a phone may keep. */
export const OFFLINE_SCOPE = "offline-scope";

/** Paths never kept offline, by prefix (a prefix ending in `/` covers what is below it; else the path itself too). */
const NEVER_PREFIXES = [
  "/api/",
  "/admin",
  "/sign-in",
  "/sign-up",
  "/sign-out",
  "/forgot-password",
  "/reset-password",
  "/check-inbox",
  "/onboarding",
  "/unsubscribe/",
  "/organizations/claim/",
  "/offline",
  "/profile",
  "/me/settings",
  "/me/data",
];

/**
 * Pages never kept, by their last path segment: pages to fill in (`/internships/new`, `/internships/{id}/edit`, ...),
 * and a poster's list of other people's applications (`/internships/{id}/applicants`), whose copy on the poster's phone
 * would outlive an applicant's withdrawal and the poster's own rights (docs/decisions.md, Installable and offline).
 */
const NEVER_SEGMENTS = new Set(["new", "edit", "apply", "applicants"]);

/** Whether the page at `path` may be kept offline, whoever asks. */
export function mayKeepOffline(path: string): boolean {
  if (
    NEVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/"))
  ) {
    return false;
  }
  return !NEVER_SEGMENTS.has(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * Adds `Offline-Scope` to a page a phone may keep: `guest`, or `u:<userId>` for a session with "Remember me" (a session
 * without it gets no mark, so nothing of that person stays on the phone).
 */
export const offlineScope: MiddlewareHandler<AppState> = async (req, ctx) => {
  const res = await ctx.next();
  if (
    req.method === "GET" && res.status === 200 && mayKeepOffline(ctx.url.pathname) &&
    res.headers.get("content-type")?.startsWith("text/html")
  ) {
    const { user, session } = ctx.state;
    // A person's pages are kept only for a remembered session: one meant to end with the browser leaves nothing.
    if (!user) res.headers.set(OFFLINE_SCOPE, "guest");
    else if (session?.persistent !== false) res.headers.set(OFFLINE_SCOPE, `u:${user.id}`);
  }
  return res;
};
