/**
 * Who may see and do what with toolkits (docs/api.md, Authentication, "Roles"; docs/api.md,
 * Toolkits, "Lessons"; docs/decisions.md, Toolkits and payments): the one home of these rules, used
 * by the API routes and the pages alike.
 */
import type { User } from "@/lib/users/users.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** The caller: a signed-in user, or none for a guest. */
export type Viewer = User | null | undefined;

/** True when `viewer` manages the catalog and coupons (creates, edits, deletes): admins only. */
export function canManageCatalog(viewer: Viewer): boolean {
  return isAdmin(viewer);
}

/** True when `viewer` may read `toolkit`: an active one anyone, an inactive one admins only. */
export function canReadToolkit(viewer: Viewer, toolkit: { isActive: boolean }): boolean {
  return toolkit.isActive || canManageCatalog(viewer);
}

/**
 * True when the body (`content`, `cdnVideoUrl`) of `item` reaches `viewer`: a preview lesson
 * anyone, the others a buyer (`hasPurchased`) or an admin. A locked lesson's body never leaves the server.
 */
export function canReadLesson(viewer: Viewer, hasPurchased: boolean, item: { isPreview: boolean }): boolean {
  return item.isPreview || hasPurchased || canManageCatalog(viewer);
}

/**
 * True when a toolkit's `contentUrl` (the legacy page of its paid material) reaches `viewer`: a buyer or an admin, as a
 * locked lesson's body. Lists (the catalogue, recommendations) never carry it.
 */
export function canReadContentUrl(viewer: Viewer, hasPurchased: boolean): boolean {
  return hasPurchased || canManageCatalog(viewer);
}

/** True when `viewer` may record progress in a toolkit: its buyers. */
export function canTrackProgress(viewer: Viewer, hasPurchased: boolean): viewer is User {
  return !!viewer && hasPurchased;
}

/** True when `viewer` may confirm a payment of `purchase`: its owner only. */
export function canConfirmPurchase(viewer: Viewer, purchase: { userId: string | null }): boolean {
  return !!viewer && viewer.id === purchase.userId;
}
