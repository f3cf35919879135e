/**
 * Reading a job's cron schedule (docs/decisions.md, Background work, "Last runs"): the next time it fires, and what it
 * says in words an admin reads in India's time. A schedule is five fields (minute, hour, day of the month, month, day
 * of the week), in UTC, as `Deno.cron` takes them.
 */
import { Cron } from "croner";

/**
 * The first minute after `after` at which `schedule` (UTC) fires (`croner`, which reads the day fields as cron does:
 * either matches when both are restricted), or null when none comes, such as for 31 February.
 * @throws Error when the schedule cannot be read.
 */
export function nextRunTime(schedule: string, after: Date): Date | null {
  return new Cron(schedule, { timezone: "UTC", paused: true }).nextRun(after);
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
