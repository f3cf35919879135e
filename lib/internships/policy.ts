/**
 * Who may do what with internships: the one home of these rules, used by the API routes, the pages
 * and the domain functions alike (docs/api.md, Authentication, "Roles"; docs/api.md,
 * Internships, "Who may do what"; docs/decisions.md, Auth, "Ingest user"; docs/decisions.md, Internships).
 */
import { istDayOf } from "@/lib/dates.ts";
import type { User } from "@/lib/users/users.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** The caller: a signed-in user, or none for a guest. */
export type Viewer = User | null | undefined;

/** What a read rule needs to know of a listing. */
export interface ListingAccess {
  userId: string | null;
  isActive: boolean;
  deleted: boolean;
  /** Held or rejected by moderation (docs/decisions.md, Trust, "Moderation"). */
  withheld: boolean;
}

/**
 * Where a listing is read:
 * - `"api"`: `GET /api/internships/{id}` (docs/decisions.md, Internships): an inactive listing is 404 for every
 *   caller but admins, its owner included;
 * - `"owner"`: the pages and `mine=true`, where the owner also finds their own inactive listing.
 */
export type ReadAudience = "api" | "owner";

/** True when `viewer` may post internships with a session: members and admins (docs/decisions.md, Auth). */
export function canPost(viewer: Viewer): boolean {
  return viewer?.role === "member" || isAdmin(viewer);
}

/**
 * True when `viewer` may edit, close and delete `listing` and see its state: an admin, or its owner while they may post
 * (`canPost`): an owner an admin made a user again keeps none of it (docs/decisions.md, Internships, "A poster made a
 * user again").
 */
export function canManage(viewer: Viewer, listing: { userId: string | null }): boolean {
  return isAdmin(viewer) || (!!viewer && viewer.id === listing.userId && canPost(viewer));
}

/** True when `viewer` may set `isVerified` and `isActive`: admins only. */
export function canModerate(viewer: Pick<User, "role" | "emailVerified"> | null | undefined): boolean {
  return isAdmin(viewer);
}

/**
 * True when `viewer` may read `listing` by id in `audience`: nobody reads a deleted one; an
 * inactive one only admins, and in the `"owner"` audience also its owner; one withheld by moderation only admins and
 * its owner (who reads why).
 */
export function canRead(viewer: Viewer, listing: ListingAccess, audience: ReadAudience): boolean {
  if (listing.deleted) return false;
  if (canModerate(viewer)) return true;
  const owner = !!viewer && viewer.id === listing.userId;
  if (listing.withheld && !owner) return false;
  return listing.isActive || (audience === "owner" && owner);
}

/**
 * Whether a listing with `deadline` is closed on IST day `today` (`YYYY-MM-DD`): its deadline's IST day is before
 * `today` (docs/decisions.md, Dates). A listing without a deadline never closes.
 */
export function isClosedOn(deadline: string | null, today: string): boolean {
  const day = deadline === null ? null : istDayOf(deadline);
  return day !== null && day < today;
}
