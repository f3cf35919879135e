/**
 * What the internship pages show to whom, on top of the domain's read rules (CONTRACT.md §4:
 * inactive listings are hidden from everyone but admins). The pages also let owners see their
 * own inactive listings, so "My internships", the detail page and the edit form keep working
 * after an admin deactivates one. The domain module has no owner filter yet, so both functions
 * read through the admin view of the domain's reads and keep only the owner's records.
 */
import { NotFoundError } from "../../lib/http/errors.ts";
import {
  getInternship,
  InternshipQuerySchema,
  type InternshipView,
  listInternships,
  MAX_LIMIT,
} from "../../lib/internships/internships.ts";
import type { User } from "../../lib/users/users.ts";

/** True when `user` may edit, delete and see the state of `internship`. */
export function canManage(user: User | undefined, internship: InternshipView): boolean {
  return !!user && (user.role === "admin" || user.id === internship.userId);
}

/**
 * The internship as `viewer` may see it on the pages: what `getInternship` shows them, plus
 * their own inactive listings. Null when unknown, deleted or hidden from them.
 */
export async function findInternshipFor(
  kv: Deno.Kv,
  id: string,
  viewer: User | undefined,
): Promise<InternshipView | null> {
  try {
    return await getInternship(kv, id, viewer ?? null);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  if (!viewer || viewer.role === "admin") return null;
  try {
    const internship = await getInternship(kv, id, { ...viewer, role: "admin" });
    return internship.userId === viewer.id ? internship : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Every live (not deleted) internship `owner` posted, active or not, newest first. */
export async function listOwnInternships(kv: Deno.Kv, owner: User): Promise<InternshipView[]> {
  const asAdmin = { ...owner, role: "admin" as const };
  const own: InternshipView[] = [];
  for (let offset = 0;; offset += MAX_LIMIT) {
    const query = InternshipQuerySchema.parse({
      limit: String(MAX_LIMIT),
      offset: String(offset),
      includeInactive: "true",
    });
    const page = await listInternships(kv, query, asAdmin);
    own.push(...page.internships.filter((internship) => internship.userId === owner.id));
    if (!page.pagination.hasMore) return own;
  }
}

/** 302 to the sign-in page, coming back to `url` afterwards. */
export function signInRedirect(url: URL): Response {
  const callbackURL = encodeURIComponent(url.pathname + url.search);
  return new Response(null, { status: 302, headers: { location: `/sign-in?callbackURL=${callbackURL}` } });
}
