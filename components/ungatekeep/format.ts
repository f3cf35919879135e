/** Dates of the Ungatekeep feed: relative ("3 days ago") with the exact date for the hover title. */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const exact = new Intl.DateTimeFormat("en-IN", { dateStyle: "long", timeStyle: "short", timeZone: "Asia/Kolkata" });

/** "3 days ago", "in 2 hours", "just now" for the ISO timestamp `iso` seen at `now`. */
export function relativeTime(iso: string, now = new Date()): string {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** The exact date and time in India, e.g. "22 November 2026 at 10:30 pm". */
export function exactTime(iso: string): string {
  return exact.format(new Date(iso));
}
