/**
 * Who may do what with opportunities (specification "Roles", states table "Opportunity"),
 * used by the API and the pages alike.
 */
import type { User } from "../users/users.ts";
import type { Opportunity } from "./types.ts";

/** Any signed-in user may submit. */
export function canSubmit(user: User | null): user is User {
  return user !== null;
}

/** A `user`'s submission waits for review; a `member`'s or `admin`'s is published at once. */
export function publishesAtOnce(user: User): boolean {
  return user.role === "member" || user.role === "admin";
}

/** Published ones are for everyone; unpublished ones for their owner and admins. */
export function canSee(user: User | null, opportunity: Opportunity): boolean {
  if (opportunity.isVerified && opportunity.isActive) return true;
  return user !== null && (user.role === "admin" || user.id === opportunity.userId);
}

/** Only admins review. */
export function canReview(user: User | null): boolean {
  return user?.role === "admin";
}
