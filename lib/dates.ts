/**
 * Browser-safe: dates and times as people read them on this site, one format everywhere, in
 * India's time (IST, UTC+05:30, no daylight saving), on the server and in the browser alike
 * (docs/decisions.md, Dates): a day as "24 Nov 2026", a moment as "24 Nov 2026, 7:31 pm IST"; in Hindi with the
 * month's Hindi name and the part of the day, "24 नवंबर 2026, शाम 7:31 IST" (docs/decisions.md, Languages).
 * A calendar date (`YYYY-MM-DD`, e.g. a deadline) is the day it names. Admin date-time inputs
 * (`datetime-local`) are filled and read in IST too, whatever the browser's own time zone.
 */

const IST = "Asia/Kolkata";
/** IST's offset from UTC, in milliseconds. */
const IST_OFFSET_MS = 330 * 60_000;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A language's day and time formats: English months short ("Nov"), Hindi months in full ("नवंबर"). */
interface DayFormats {
  istDay: Intl.DateTimeFormat;
  utcDay: Intl.DateTimeFormat;
  istTime: Intl.DateTimeFormat;
}

const formats = new Map<string, DayFormats>();

function formatsOf(lang: "en" | "hi"): DayFormats {
  let found = formats.get(lang);
  if (!found) {
    const locale = lang === "hi" ? "hi-IN" : "en-IN";
    const month = lang === "hi" ? "long" : "short";
    found = {
      istDay: new Intl.DateTimeFormat(locale, { day: "numeric", month, year: "numeric", timeZone: IST }),
      utcDay: new Intl.DateTimeFormat(locale, { day: "numeric", month, year: "numeric", timeZone: "UTC" }),
      // 12-hour, as both locales write it; Hindi names the part of the day ("रात 3:52"), never "am" or "pm".
      istTime: new Intl.DateTimeFormat(locale, {
        hour: "numeric",
        minute: "2-digit",
        timeZone: IST,
        ...lang === "hi" && { dayPeriod: "short" },
      }),
    };
    formats.set(lang, found);
  }
  return found;
}

/**
 * Days `formatDate` wrote, by language and value: a page writes the same few days (deadlines) many times, and an `Intl`
 * format costs microseconds each. At most `WRITTEN_KEPT`, then started afresh.
 */
const written = new Map<string, string>();
const WRITTEN_KEPT = 4096;

/**
 * The day of `value` in `lang`, e.g. "24 Nov 2026" or "24 नवंबर 2026": a calendar date as it is, a timestamp
 * (ISO 8601) as its day in IST. Anything unreadable is returned as given.
 */
export function formatDate(value: string, lang: "en" | "hi" = "en"): string {
  const key = `${lang}${value}`;
  let text = written.get(key);
  if (text !== undefined) return text;
  const { utcDay, istDay } = formatsOf(lang);
  if (CALENDAR_DATE.test(value)) text = utcDay.format(new Date(`${value}T00:00:00Z`));
  else {
    const time = Date.parse(value);
    text = Number.isNaN(time) ? value : istDay.format(time);
  }
  if (written.size >= WRITTEN_KEPT) written.clear();
  written.set(key, text);
  return text;
}

/**
 * The moment `iso` (ISO 8601) in IST in `lang`, e.g. "24 Nov 2026, 7:31 pm IST" or "24 नवंबर 2026, शाम 7:31 IST";
 * unreadable input as given.
 */
export function formatDateTime(iso: string, lang: "en" | "hi" = "en"): string {
  const { istDay, istTime } = formatsOf(lang);
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${istDay.format(time)}, ${istTime.format(time)} IST`;
}

/** The time of day of `iso` (ISO 8601) in IST in `lang`, e.g. "9:00 am IST" or "सुबह 9:00 IST"; unreadable input as given. */
export function formatTime(iso: string, lang: "en" | "hi" = "en"): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${formatsOf(lang).istTime.format(time)} IST`;
}

/** The value of a `datetime-local` input showing `iso` in IST (`YYYY-MM-DDTHH:mm`); "" for null. */
export function toIstInput(iso: string | null): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? "" : new Date(time + IST_OFFSET_MS).toISOString().slice(0, 16);
}

/** The moment a `datetime-local` value means when read as IST, as ISO 8601 (UTC); null when empty or invalid. */
export function fromIstInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const time = Date.parse(`${value}+05:30`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * The calendar day (`YYYY-MM-DD`) `value` falls on in IST: a calendar date is the day it names, a
 * timestamp (ISO 8601) the IST day of that moment; null when `value` is not a date.
 */
export function istDayOf(value: string): string | null {
  if (CALENDAR_DATE.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time + IST_OFFSET_MS).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The last IST day `istToday` wrote, and the span of IST-shifted times (ms) that fall on it. */
let lastDay = { from: 0, until: 0, day: "" };

/**
 * Today's date in IST (`YYYY-MM-DD`), the day closing rules count in (docs/decisions.md, Dates). The day last written is
 * kept with its span, so the many calls of one page (a card's deadline each) cost a comparison, not a date string.
 * @throws RangeError for an invalid `now`.
 */
export function istToday(now = new Date()): string {
  const shifted = now.getTime() + IST_OFFSET_MS;
  if (shifted >= lastDay.from && shifted < lastDay.until) return lastDay.day;
  const day = new Date(shifted).toISOString().slice(0, 10);
  const from = Math.floor(shifted / DAY_MS) * DAY_MS;
  lastDay = { from, until: from + DAY_MS, day };
  return day;
}
