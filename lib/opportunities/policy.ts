/**
 * Who may do what with opportunities (docs/api.md, Authentication, "Roles"; docs/api.md, Opportunities, "Review
 * states"; docs/decisions.md, Opportunities): the one home of these rules, used by the API routes, the pages and the
 * domain alike.
 */
import type { User } from "@/lib/users/users.ts";
import { type Opportunity, statusOf } from "./schema.ts";
import { heldByReports, type ModerationStatus } from "@/lib/moderation/moderation.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** The caller: a signed-in user, or none for a guest. */
export type Viewer = User | null | undefined;

/** A submission by `user` is published at once (members and admins) instead of waiting for review. */
export function publishesAtOnce(user: User): boolean {
  return user.role === "member" || isAdmin(user);
}

/** True when `viewer` reviews submissions: admins only. */
export function canReview(viewer: Viewer): boolean {
  return isAdmin(viewer);
}

/**
 * True when `viewer` may read `opportunity`: a published one anyone; otherwise (awaiting review, rejected, or held by
 * moderation) its owner and admins.
 */
export function canRead(
  viewer: Viewer,
  opportunity: Pick<Opportunity, "isVerified" | "isActive" | "userId"> & { moderation?: { status: ModerationStatus } },
): boolean {
  if (statusOf(opportunity) === "approved") return true;
  return canReview(viewer) || (!!viewer && viewer.id === opportunity.userId);
}

/**
 * True when `viewer` may edit `opportunity` and send it to review again (docs/decisions.md, Opportunities, "Reject with
 * a reason, resubmit"): its submitter, while it awaits review or after review rejected it; never once published, never
 * after moderation rejected it for good, and not while students' reports hold it (docs/decisions.md, Trust, "A
 * reported listing keeps its text").
 */
export function canResubmit(
  viewer: Viewer,
  opportunity: Pick<Opportunity, "isVerified" | "isActive" | "userId"> & {
    moderation?: { status: ModerationStatus; reasons?: readonly string[] };
  },
): boolean {
  return !!viewer && viewer.id === opportunity.userId && statusOf(opportunity) !== "approved" &&
    opportunity.moderation?.status !== "rejected" && !heldByReports(opportunity.moderation);
}
