/**
 * Browser-safe: how an opportunity reads on its card, its page and in the islands: the catalogue messages of its type,
 * review state and timing, the review state's badge tone, and whether it is upcoming, ongoing or closed.
 */
import { istToday } from "@/lib/dates.ts";
import type { OpportunityStatus } from "@/lib/opportunities/schema.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The catalogue messages of the opportunity types, and of the type chips of `/opportunities` (plural). */
export const TYPE_KEYS = {
  hackathon: { one: "opportunities.type.hackathon", many: "opportunities.chip.hackathon" },
  grant: { one: "opportunities.type.grant", many: "opportunities.chip.grant" },
  competition: { one: "opportunities.type.competition", many: "opportunities.chip.competition" },
  ideathon: { one: "opportunities.type.ideathon", many: "opportunities.chip.ideathon" },
} as const satisfies Record<string, { one: MessageKey; many: MessageKey }>;

/** The catalogue messages of the review states, as the submitter reads them. */
export const STATUS_KEYS: Record<OpportunityStatus, MessageKey> = {
  pending: "opportunities.status.pending",
  approved: "opportunities.status.approved",
  rejected: "opportunities.status.rejected",
};

/** The catalogue messages of `timingOf`'s answers. */
export const TIMING_KEYS = {
  closed: "opportunities.timing.closed",
  upcoming: "opportunities.timing.upcoming",
  ongoing: "opportunities.timing.ongoing",
} as const satisfies Record<string, MessageKey>;

/** The badge tones of the review states. */
export const STATUS_TONES: Record<OpportunityStatus, "amber" | "indigo" | "red"> = {
  pending: "amber",
  approved: "indigo",
  rejected: "red",
};

/** Whether the dates are ahead, today or behind, by the calendar date in India. */
export function timingOf(o: { startDate: string; endDate: string }, now = new Date()): keyof typeof TIMING_KEYS {
  const today = istToday(now);
  if (o.endDate < today) return "closed";
  return o.startDate > today ? "upcoming" : "ongoing";
}
