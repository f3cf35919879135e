/**
 * What the internship pages show to whom: who may post, who manages a listing, the page form of
 * the domain's read (null instead of a 404 error, so the page renders its 404 page) and the
 * sign-in redirect.
 * The read rules themselves are the domain's (`getInternship`: admins and the owner also see an
 * inactive listing).
 */
import { NotFoundError } from "../../lib/errors.ts";
import { getInternship, type InternshipView } from "../../lib/internships/internships.ts";
import type { User } from "../../lib/users/users.ts";

/** True when `user` may edit, delete and see the state of `internship`. */
export function canManage(user: User | undefined, internship: InternshipView): boolean {
  return !!user && (user.role === "admin" || user.id === internship.userId);
}

/** True when `user` may post internships: members and admins, as `POST /api/internships` allows (`ingestUser`). */
export function canPost(user: User | undefined): boolean {
  return user?.role === "member" || user?.role === "admin";
}

/** The internship as `getInternship` shows it to `viewer`; null when unknown, deleted or hidden from them. */
export async function findInternshipFor(
  kv: Deno.Kv,
  id: string,
  viewer: User | undefined,
): Promise<InternshipView | null> {
  try {
    return await getInternship(kv, id, viewer ?? null);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** 302 to the sign-in page, coming back to `url` afterwards. */
export function signInRedirect(url: URL): Response {
  const callbackURL = encodeURIComponent(url.pathname + url.search);
  return new Response(null, { status: 302, headers: { location: `/sign-in?callbackURL=${callbackURL}` } });
}
