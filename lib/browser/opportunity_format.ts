/**
 * Browser-safe: how an opportunity reads on its card, its page and in the islands: type and review-state labels, its
 * days, and whether it is upcoming, ongoing or closed.
 */
import { formatDate, istToday } from "@/lib/dates.ts";
import type { OpportunityStatus } from "@/lib/opportunities/schema.ts";

/** Labels of the opportunity types. */
export const TYPE_LABELS = {
  hackathon: "Hackathon",
  grant: "Grant",
  competition: "Competition",
  ideathon: "Ideathon",
} as const;

/** Labels and badge tones of the review states, as the submitter reads them. */
export const STATUS_LABELS: Record<OpportunityStatus, { label: string; tone: "amber" | "indigo" | "red" }> = {
  pending: { label: "Awaiting review", tone: "amber" },
  approved: { label: "Published", tone: "indigo" },
  rejected: { label: "Rejected", tone: "red" },
};

/** `YYYY-MM-DD` as "1 Mar 2099" (`lib/dates.ts`). */
export function formatDay(date: string): string {
  return formatDate(date);
}

/** Whether the dates are ahead, today or behind ("Closed"), by the calendar date in India. */
export function timing(o: { startDate: string; endDate: string }, now = new Date()): string {
  const today = istToday(now);
  if (o.endDate < today) return "Closed";
  return o.startDate > today ? "Upcoming" : "Ongoing";
}
