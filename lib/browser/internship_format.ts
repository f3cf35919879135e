/**
 * Display rules for internships, shared by the pages and the islands (so it must stay free of server-only imports):
 * deadlines as dates with the days left (stipends: `lib/internships/stipend.ts`), and labels of the `type` and `timing`
 * values (docs/api.md, Internships).
 */
import { formatDate, istDayOf, istToday } from "@/lib/dates.ts";
import type { InternshipView } from "@/lib/internships/internships.ts";
import { pageRange } from "@/lib/browser/pagination.ts";
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** Labels of the work-place types, in the order the filters show them. */
export const TYPE_LABELS: Record<NonNullable<InternshipView["type"]>, string> = {
  remote: "Remote",
  hybrid: "Hybrid",
  onsite: "On-site",
};

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

/** Labels of the timings. */
export const TIMING_LABELS: Record<NonNullable<InternshipView["timing"]>, string> = {
  full_time: "Full-time",
  part_time: "Part-time",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** A deadline for display, or null when there is none or it is not a date. */
export interface DeadlineText {
  /** The date, e.g. `"12 Mar 2026"`. */
  date: string;
  /** `"Closes in 5 days"`, `"Closes tomorrow"`, `"Closes today"` or `"Closed"`. */
  status: string;
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
export function describeDeadline(deadline: string | null | undefined, now = new Date()): DeadlineText | null {
  const day = deadline ? istDayOf(deadline) : null;
  if (!day) return null;
  const days = daysUntil(day, istToday(now));
  const status = days < 0
    ? "Closed"
    : days === 0
    ? "Closes today"
    : days === 1
    ? "Closes tomorrow"
    : `Closes in ${days} days`;
  return { date: formatDate(day), status, closed: days < 0, days, iso: day };
}

/** `DeadlineText.status` in `t`'s language for a deadline `days` away: "Closes in 5 days", …, "Closed". */
export function deadlineStatus(t: Translate, days: number): string {
  if (days < 0) return t("internships.deadline.closed");
  if (days === 0) return t("internships.deadline.today");
  return days === 1 ? t("internships.deadline.tomorrow") : t("internships.deadline.inDays", { days });
}

/** A timestamp as its day in IST, or a calendar date, e.g. `"3 Feb 2026"` (`lib/dates.ts`). */
export { formatDate };

/** The result count sentence of a page of `shown` (at least 1) internships, e.g. "Showing 1–10 of 34 internships". */
export function showingInternships(offset: number, shown: number, total: number): string {
  return `Showing ${pageRange(null, offset, shown, total)} ${total === 1 ? "internship" : "internships"}`;
}
