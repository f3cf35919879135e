import { assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { nextRunTime, scheduleWords } from "./schedule.ts";
import { JOBS } from "./registry.ts";

const next = (schedule: string, after: string) => nextRunTime(schedule, new Date(after))?.toISOString() ?? null;

Deno.test("a schedule's next run is the first minute after the time given that it names, in UTC", () => {
  assertEquals(next("* * * * *", "2026-11-29T13:05:30Z"), "2026-11-29T13:06:00.000Z");
  assertEquals(next("* * * * *", "2026-11-29T13:05:00Z"), "2026-11-29T13:06:00.000Z", "never the time itself");
  assertEquals(next("*/5 * * * *", "2026-11-29T13:05:00Z"), "2026-11-29T13:10:00.000Z");
  assertEquals(next("*/15 * * * *", "2026-11-29T23:59:00Z"), "2026-11-30T00:00:00.000Z");
  assertEquals(next("5 * * * *", "2026-11-29T13:05:00Z"), "2026-11-29T14:05:00.000Z");
  assertEquals(next("30 3 * * *", "2026-11-29T03:29:59Z"), "2026-11-29T03:30:00.000Z");
  assertEquals(next("30 3 * * *", "2026-11-29T03:30:00Z"), "2026-11-30T03:30:00.000Z");
  assertEquals(next("0 22 * * *", "2026-12-31T22:00:00Z"), "2027-01-01T22:00:00.000Z", "into the next year");
  assertEquals(next("0 9 * * 1", "2026-11-29T12:00:00Z"), "2026-11-30T09:00:00.000Z", "a Monday");
  assertEquals(next("0 0 1,15 * *", "2026-11-29T12:00:00Z"), "2026-12-01T00:00:00.000Z");
  assertEquals(next("0 0 1 * 0", "2026-11-29T12:00:00Z"), "2026-12-01T00:00:00.000Z", "either day field");
  assertEquals(next("0 0 31 2 *", "2026-11-29T12:00:00Z"), null, "a day that never comes");
  for (const bad of ["* * * *", "60 * * * *", "a * * * *", "*/0 * * * *"]) {
    assertThrows(() => nextRunTime(bad, new Date()), Error);
  }
});

Deno.test("a schedule in words, in IST: every minute, every n minutes, hourly, daily, or its cron", () => {
  assertEquals(scheduleWords("* * * * *"), { every: "minute" });
  assertEquals(scheduleWords("*/5 * * * *"), { every: "minutes", minutes: 5 });
  assertEquals(scheduleWords("5 * * * *"), { every: "hour", minute: 35 });
  assertEquals(scheduleWords("30 3 * * *"), { every: "day", time: "09:00" });
  assertEquals(scheduleWords("0 22 * * *"), { every: "day", time: "03:30" });
  assertEquals(scheduleWords("*/7 * * * *"), { every: "other", cron: "*/7 * * * *" });
  assertEquals(scheduleWords("0 0 1 * *"), { every: "other", cron: "0 0 1 * *" });
  for (const job of JOBS) assertEquals(nextRunTime(job.schedule, new Date()) !== null, true, job.name);
});
