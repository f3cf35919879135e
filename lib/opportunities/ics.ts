/**
 * An opportunity as an iCalendar file (RFC 5545) for "Add to calendar": one all-day `VEVENT`
 * from `startDate` to `endDate` inclusive (`DTEND` is the day after, as RFC 5545 §3.6.1 makes
 * an all-day end exclusive), with the title, description, location and link. Text values are
 * escaped (`\`, `;`, `,`, line breaks), lines end with CRLF and are folded at 75 octets. The words the file adds of
 * its own (the organizer's label) are in the reader's language (docs/decisions.md, Languages).
 */
import type { Translate } from "@/lib/i18n/translator.ts";
import type { Opportunity } from "./schema.ts";

const encoder = new TextEncoder();

/** `value` escaped as an RFC 5545 TEXT value (§3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n");
}

/** `line` folded so that no line is longer than 75 octets (RFC 5545 §3.1), never splitting a character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** `YYYY-MM-DD` as an iCalendar DATE, `days` later. */
function icsDate(date: string, days = 0): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10).replaceAll("-", "");
}

/**
 * The `.ics` text of `opportunity` for a reader of `t`'s language; `pageUrl` is its page on the platform (the event's
 * URL when it has no application link), `now` the moment the file is made (`DTSTAMP`).
 */
export function calendarFile(
  opportunity: Omit<Opportunity, "moderation">,
  { pageUrl, t, now = new Date() }: { pageUrl: string; t: Translate; now?: Date },
): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const organizer = opportunity.organizer &&
    t("opportunities.detail.calendarOrganizer", { organizer: opportunity.organizer });
  const description = [opportunity.description, organizer, pageUrl].filter(Boolean).join("\n\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Career Community//Opportunities//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${opportunity.id}@career-community`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${icsDate(opportunity.startDate)}`,
    `DTEND;VALUE=DATE:${icsDate(opportunity.endDate, 1)}`,
    `SUMMARY:${escapeText(opportunity.title)}`,
    `DESCRIPTION:${escapeText(description)}`,
    ...opportunity.location ? [`LOCATION:${escapeText(opportunity.location)}`] : [],
    `URL:${opportunity.link ?? pageUrl}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
