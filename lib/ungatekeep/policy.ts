/**
 * Who sees what of the Ungatekeep feed: the one home of these rules, used by the API routes and the
 * pages alike (docs/api.md, Ungatekeep, "Feed"; docs/decisions.md, Ungatekeep and banners).
 */
import type { User } from "@/lib/users/users.ts";
import { GUEST_PREVIEW } from "./tags.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** The caller: a signed-in user, or none for a guest. */
export type Viewer = User | null | undefined;

/** True for a guest, who sees only the first `GUEST_PREVIEW` posts of a feed. */
export function isPreviewOnly(viewer: Viewer): boolean {
  return !viewer;
}

/** True when `viewer` may manage posts and banners and see drafts and scheduled posts: admins. */
export function canManagePosts(viewer: Viewer): boolean {
  return isAdmin(viewer);
}

/**
 * The page a viewer gets of a feed: a guest always the first `GUEST_PREVIEW` posts, whatever
 * they asked; a signed-in user the page asked for.
 */
export function visiblePage(viewer: Viewer, offset: number, limit: number): { offset: number; limit: number } {
  return isPreviewOnly(viewer) ? { offset: 0, limit: GUEST_PREVIEW } : { offset, limit };
}

/** How many posts of `total` are hidden from `viewer` (the guest prompt's number); 0 when signed in. */
export function hiddenCountFor(viewer: Viewer, total: number): number {
  return isPreviewOnly(viewer) ? Math.max(0, total - GUEST_PREVIEW) : 0;
}

/**
 * True when `viewer` may read a published post by id. A guest may read the posts a guest's feed
 * shows: those within the first `GUEST_PREVIEW` of the whole feed, or of the feed of the post's
 * tag (the tag filter shows those too). `previewRank` is the post's best position in those two
 * feeds, 0-based, or undefined when it is in neither head.
 */
export function canReadPublished(viewer: Viewer, previewRank: number | undefined): boolean {
  return !isPreviewOnly(viewer) || (previewRank !== undefined && previewRank < GUEST_PREVIEW);
}
