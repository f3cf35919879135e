/**
 * An opportunity as an iCalendar file (RFC 5545): one all-day `VEVENT` from its start date to
 * the day after its end date (`DTEND` is exclusive), text fields escaped and lines folded at
 * 75 octets.
 */
import type { Opportunity } from "./types.ts";

/** Escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n");
}

/** Folds a content line into chunks of at most 75 octets, continuation lines starting with a space. */
function fold(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const n = encoder.encode(char).length;
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += n;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

function compactDate(date: string): string {
  return date.replaceAll("-", "");
}

function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The `.ics` text of `o`; `url` is its page, `now` the stamp time. */
export function opportunityCalendar(o: Opportunity, url: string, host: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const description = [o.description, o.organizer ? `Organizer: ${o.organizer}` : "", o.link ?? ""]
    .filter(Boolean).join("\n\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Career Community//Opportunities//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:opportunity-${o.id}@${host}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${compactDate(o.startDate)}`,
    `DTEND;VALUE=DATE:${compactDate(dayAfter(o.endDate))}`,
    `SUMMARY:${escapeText(o.title)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `LOCATION:${escapeText(o.location)}`,
    `URL:${url}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
