/**
 * Browser-safe: what the application tracker shows of a saved item (docs/decisions.md, Student space): its title,
 * organization, page and last day, and the "closes in N days" warning, in India's days.
 */
import { istDayOf, istToday } from "@/lib/dates.ts";
import { daysUntil } from "@/lib/browser/internship_format.ts";
import type { SavedItem, SavedStatus, TrackerItem } from "@/lib/saved/schema.ts";
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** The catalogue messages of the tracker's statuses, in their order. */
export const STATUS_KEYS: Record<SavedStatus, MessageKey> = {
  saved: "me.tracker.status.saved",
  applied: "me.tracker.status.applied",
  interviewing: "me.tracker.status.interviewing",
  offer: "me.tracker.status.offer",
  rejected: "me.tracker.status.rejected",
};

/** A warning shows while this many days or fewer are left. */
export const WARN_DAYS = 7;

/** What a tracker row shows of an item. */
export interface TrackerRow {
  /** The listing's title; null once the listing was removed. */
  title: string | null;
  organization: string | null;
  href: string | null;
  /** The last day (`YYYY-MM-DD`): an internship's deadline, an opportunity's end date; null for none. */
  lastDay: string | null;
  /** Whole days from today to the last day (negative once it passed, `deadlineStatus` words it); null for none. */
  days: number | null;
  /** Whether `closing` is a warning: closing within `WARN_DAYS` while the item is still only saved or applied. */
  warn: boolean;
}

/** What the tracker carries of `item` (its record and `TrackerListing`): the last day in India's days. */
export function trackerItemOf(item: SavedItem): TrackerItem {
  const { listing: _listing, ...record } = item;
  if (item.kind === "internships") {
    const listing = item.listing;
    const lastDay = listing?.deadline ? istDayOf(listing.deadline) : null;
    return {
      ...record,
      listing: listing && { title: listing.title, organization: listing.hiringOrganization, lastDay },
    };
  }
  const listing = item.listing;
  return {
    ...record,
    listing: listing && { title: listing.title, organization: listing.organizer, lastDay: listing.endDate },
  };
}

/** The row of `item` at `now` (days counted in India). */
export function trackerRow(item: TrackerItem, now = new Date()): TrackerRow {
  const listing = item.listing;
  if (!listing) {
    return {
      title: null,
      organization: null,
      href: null,
      lastDay: null,
      days: null,
      warn: false,
    };
  }
  const { lastDay } = listing;
  const days = lastDay === null ? null : daysUntil(lastDay, istToday(now));
  return {
    title: listing.title,
    organization: listing.organization,
    href: `/${item.kind}/${item.id}`,
    lastDay,
    days,
    warn: days !== null && days >= 0 && days <= WARN_DAYS && (item.status === "saved" || item.status === "applied"),
  };
}
