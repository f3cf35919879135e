/**
 * Display rules for internships, shared by the pages and the islands (so it must stay free of server-only imports):
 * deadlines as days left (stipends: `lib/internships/stipend.ts`), the catalogue messages of the `type` and `timing`
 * values (docs/api.md, Internships), and the parameter that confirms a close or a reopen.
 */
import { istDayOf, istToday } from "@/lib/dates.ts";
import type { InternshipView } from "@/lib/internships/internships.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/**
 * The query parameter with which "Close applications" and "Reopen applications" answer back to their page (`closed` or
 * `reopened`), which the page confirms (`ApplicationsChangedNotice`).
 */
export const APPLICATIONS_CHANGED_PARAM = "applications";

/** The catalogue messages of the work-place types, in the order the filters show them. */
export const TYPE_KEYS: Record<NonNullable<InternshipView["type"]>, MessageKey> = {
  remote: "internships.type.remote",
  hybrid: "internships.type.hybrid",
  onsite: "internships.type.onsite",
};

/** The catalogue messages of the timings. */
export const TIMING_KEYS: Record<NonNullable<InternshipView["timing"]>, MessageKey> = {
  full_time: "internships.timing.full_time",
  part_time: "internships.timing.part_time",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** A deadline for display (its words: `deadlineStatus`, `Translate.date`). */
export interface DeadlineDays {
  closed: boolean;
  /** Whole days from today to the deadline, negative once it passed. */
  days: number;
  /** The day as `YYYY-MM-DD` for a `<time datetime>`. */
  iso: string;
}

/** Whole days from IST day `today` to IST day `day` (both `YYYY-MM-DD`): 0 for the same day, negative when past. */
export function daysUntil(day: string, today: string): number {
  return Math.round((Date.parse(day) - Date.parse(today)) / DAY_MS);
}

/**
 * Describes `deadline` (the last day to apply, inclusive) relative to `now`, both as days in India
 * (docs/decisions.md, Dates).
 */
export function describeDeadline(deadline: string | null | undefined, now = new Date()): DeadlineDays | null {
  const day = deadline ? istDayOf(deadline) : null;
  if (!day) return null;
  const days = daysUntil(day, istToday(now));
  return { closed: days < 0, days, iso: day };
}

/** The deadline's state in `t`'s language for a deadline `days` away: "Closes in 5 days", …, "Closed". */
export function deadlineStatus(t: Translate, days: number): string {
  if (days < 0) return t("internships.deadline.closed");
  if (days === 0) return t("internships.deadline.today");
  return days === 1 ? t("internships.deadline.tomorrow") : t("internships.deadline.inDays", { days });
}
