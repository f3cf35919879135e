/**
 * Reading a job's cron schedule (docs/decisions.md, Background work, "Last runs"): the next time it fires, and what it
 * says in words an admin reads in India's time. A schedule is five fields (minute, hour, day of the month, month, day
 * of the week), in UTC, as `Deno.cron` takes them; a field is `*`, a number, a range `a-b`, a step `*∕n` or `a-b/n`,
 * or a list of those joined by commas.
 */

/** The five fields' ranges: minute, hour, day of the month, month, day of the week (0 and 7 both Sunday). */
const FIELDS = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]] as const;

/** A schedule's fields as the values each allows, and whether the two day fields were restricted (not `*`). */
interface Parsed {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
}

/** The values one field allows. @throws Error for a part outside the field's range or not of the forms above. */
function fieldValues(text: string, [low, high]: readonly [number, number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const match = part.match(/^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/);
    if (!match) throw new Error(`Unreadable cron field "${text}"`);
    const from = match[1] === "*" ? low : Number(match[2]);
    const to = match[1] === "*" ? high : match[3] === undefined ? (match[4] ? high : from) : Number(match[3]);
    const step = match[4] === undefined ? 1 : Number(match[4]);
    if (from < low || to > high || from > to || step < 1) throw new Error(`Cron field "${text}" out of range`);
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

/** The schedule's fields. @throws Error when it is not five readable fields. */
function parse(schedule: string): Parsed {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`A cron schedule has five fields: "${schedule}"`);
  const [minutes, hours, days, months, weekdays] = fields.map((field, i) => fieldValues(field, FIELDS[i]));
  if (weekdays.has(7)) weekdays.add(0);
  return { minutes, hours, days, months, weekdays, anyDay: fields[2] === "*", anyWeekday: fields[4] === "*" };
}

/** Whether the UTC day of `at` is one of the schedule's (when both day fields are restricted, either matches). */
function dayMatches(parsed: Parsed, at: Date): boolean {
  const day = parsed.days.has(at.getUTCDate());
  const weekday = parsed.weekdays.has(at.getUTCDay());
  if (parsed.anyDay || parsed.anyWeekday) return day && weekday;
  return day || weekday;
}

/**
 * The first minute after `after` at which `schedule` (UTC) fires, or null when none comes within five years (a day that
 * never exists, such as 31 February).
 * @throws Error when the schedule cannot be read.
 */
export function nextRunTime(schedule: string, after: Date): Date | null {
  const parsed = parse(schedule);
  const at = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  const until = after.getTime() + 5 * 366 * 24 * 3_600_000;
  while (at.getTime() <= until) {
    if (!parsed.months.has(at.getUTCMonth() + 1)) {
      at.setUTCMonth(at.getUTCMonth() + 1, 1);
      at.setUTCHours(0, 0);
    } else if (!dayMatches(parsed, at)) {
      at.setUTCDate(at.getUTCDate() + 1);
      at.setUTCHours(0, 0);
    } else if (!parsed.hours.has(at.getUTCHours())) {
      at.setUTCHours(at.getUTCHours() + 1, 0);
    } else if (!parsed.minutes.has(at.getUTCMinutes())) {
      at.setUTCMinutes(at.getUTCMinutes() + 1);
    } else {
      return at;
    }
  }
  return null;
}

/**
 * A schedule as words take it, in IST (UTC+05:30): every minute, every `minutes` minutes, every hour at `minute` past,
 * daily at `time` (`HH:MM`, IST), or, for any other schedule, `other` (its cron text, UTC).
 */
export type ScheduleWords =
  | { every: "minute" }
  | { every: "minutes"; minutes: number }
  | { every: "hour"; minute: number }
  | { every: "day"; time: string }
  | { every: "other"; cron: string };

/** What `schedule` says, in IST (see `ScheduleWords`). */
export function scheduleWords(schedule: string): ScheduleWords {
  const [minute, hour, ...rest] = schedule.trim().split(/\s+/);
  if (rest.length === 3 && rest.every((field) => field === "*")) {
    if (minute === "*" && hour === "*") return { every: "minute" };
    const step = minute.match(/^\*\/(\d+)$/);
    // A step that divides the hour fires every `step` minutes around the clock, whatever the offset.
    if (step && hour === "*" && 60 % Number(step[1]) === 0) return { every: "minutes", minutes: Number(step[1]) };
    if (/^\d+$/.test(minute) && Number(minute) < 60) {
      if (hour === "*") return { every: "hour", minute: (Number(minute) + 30) % 60 };
      if (/^\d+$/.test(hour) && Number(hour) < 24) {
        const ist = (Number(hour) * 60 + Number(minute) + 330) % 1440;
        const time = `${String(Math.floor(ist / 60)).padStart(2, "0")}:${String(ist % 60).padStart(2, "0")}`;
        return { every: "day", time };
      }
    }
  }
  return { every: "other", cron: schedule };
}
