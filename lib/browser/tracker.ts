/**
 * Browser-safe: what the application tracker shows of a saved item (docs/decisions.md, Student space): its title,
 * organization, page and last day, and the "closes in N days" warning, in India's days.
 */
import { istDayOf, istToday } from "@/lib/dates.ts";
import { daysUntil, describeDeadline } from "@/lib/browser/internship_format.ts";
import type { SavedItem, SavedStatus } from "@/lib/saved/schema.ts";

/** Labels of the tracker's statuses, in their order. */
export const STATUS_LABELS: Record<SavedStatus, string> = {
  saved: "Saved",
  applied: "Applied",
  interviewing: "Interviewing",
  offer: "Offer",
  rejected: "Rejected",
};

/** A warning shows while this many days or fewer are left. */
export const WARN_DAYS = 7;

/** What a tracker row shows of `item`. */
export interface TrackerRow {
  title: string;
  organization: string | null;
  href: string | null;
  /** The last day (`YYYY-MM-DD`): an internship's deadline, an opportunity's end date; null for none. */
  lastDay: string | null;
  /** "Closes today", "Closes in 3 days", "Closed"…; null when there is no last day. */
  closing: string | null;
  /** Whether `closing` is a warning: closing within `WARN_DAYS` while the item is still only saved or applied. */
  warn: boolean;
}

/** The row of `item` at `now` (days counted in India). */
export function trackerRow(item: SavedItem, now = new Date()): TrackerRow {
  const listing = item.listing;
  if (!listing) {
    return {
      title: "A listing that was removed",
      organization: null,
      href: null,
      lastDay: null,
      closing: null,
      warn: false,
    };
  }
  const internship = item.kind === "internships" ? item.listing : null;
  const opportunity = item.kind === "opportunities" ? item.listing : null;
  const lastDay = internship ? (internship.deadline ? istDayOf(internship.deadline) : null) : opportunity!.endDate;
  const days = lastDay === null ? null : daysUntil(lastDay, istToday(now));
  const closing = describeDeadline(lastDay, now)?.status ?? null;
  return {
    title: listing.title,
    organization: internship ? internship.hiringOrganization : opportunity!.organizer,
    href: `/${item.kind}/${item.id}`,
    lastDay,
    closing,
    warn: days !== null && days >= 0 && days <= WARN_DAYS && (item.status === "saved" || item.status === "applied"),
  };
}
