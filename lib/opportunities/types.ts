/**
 * The Opportunity resource's shapes and value lists (specification "Opportunity", CONTRACT.md §5),
 * free of zod and server code so islands may import them.
 */

/** Values of `type`. */
export const OPPORTUNITY_TYPES = ["hackathon", "grant", "competition", "ideathon"] as const;
export type OpportunityType = typeof OPPORTUNITY_TYPES[number];

/**
 * Review states: `pending` (awaiting review: `isVerified: false, isActive: true`), `approved`
 * (published: both true), `rejected` (`isActive: false`, kept and hidden).
 */
export const OPPORTUNITY_STATUSES = ["pending", "approved", "rejected"] as const;
export type OpportunityStatus = typeof OPPORTUNITY_STATUSES[number];

/** A review action of `PATCH /api/admin/opportunities/{id}`. */
export const REVIEW_ACTIONS = ["approve", "reject"] as const;
export type ReviewAction = typeof REVIEW_ACTIONS[number];

/** The poster on every read (CONTRACT.md §5 `postedBy`). */
export interface PostedBy {
  id: string;
  name: string;
  role: "user" | "member" | "admin";
}

/** An opportunity as stored; `link` and `organizer` are `null` when unset. Dates are `YYYY-MM-DD`. */
export interface Opportunity {
  id: string;
  title: string;
  description: string;
  location: string;
  type: OpportunityType;
  startDate: string;
  endDate: string;
  link: string | null;
  organizer: string | null;
  userId: string;
  isVerified: boolean;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

/** An opportunity as read responses carry it: the record plus `postedBy`. */
export interface OpportunityView extends Opportunity {
  postedBy: PostedBy;
}

/** Counts per review state for the admin queue's tabs; `all` is their sum. */
export type StatusCounts = Record<OpportunityStatus | "all", number>;

/** The pagination object of every list (as for internships, CONTRACT.md §4). */
export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

/** The review state of a record. */
export function statusOf(o: Pick<Opportunity, "isVerified" | "isActive">): OpportunityStatus {
  if (!o.isActive) return "rejected";
  return o.isVerified ? "approved" : "pending";
}

/** Human labels of the types and states, for pages and islands. */
export const TYPE_LABELS: Record<OpportunityType, string> = {
  hackathon: "Hackathon",
  grant: "Grant",
  competition: "Competition",
  ideathon: "Ideathon",
};
export const STATUS_LABELS: Record<OpportunityStatus, string> = {
  pending: "Awaiting review",
  approved: "Published",
  rejected: "Rejected",
};
