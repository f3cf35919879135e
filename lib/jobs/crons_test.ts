import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import type { Services } from "@/lib/platform/state.ts";
import { JOBS } from "./registry.ts";

/** A cron as `Deno.cron` was asked to register it. */
type Registered = { name: string; schedule: string; handler: () => Promise<void> };

Deno.test("the jobs run from one cron per schedule: at most 10, as Deno Deploy allows a free organization", async () => {
  const registered: Registered[] = [];
  const real = Object.getOwnPropertyDescriptor(Deno, "cron")!;
  Object.defineProperty(Deno, "cron", {
    configurable: true,
    value: (name: string, schedule: string, handler: () => Promise<void>) => {
      registered.push({ name, schedule, handler });
      return Promise.resolve();
    },
  });
  let crons: typeof import("./crons.ts");
  try {
    crons = await import("./crons.ts");
  } finally {
    Object.defineProperty(Deno, "cron", real);
  }
  assert(registered.length <= 10, `${registered.length} crons registered`);
  const alone = JOBS.filter((job) => job.alone);
  assertEquals(registered.length, new Set(JOBS.map((job) => job.schedule)).size + alone.length, "one a schedule");
  assertEquals(alone.map((job) => job.name), ["outbox"], "the outbox's backlog holds no other job");
  assertEquals(registered.find((cron) => cron.name === "outbox")?.schedule, "* * * * *");
  assertEquals(new Set(registered.map((cron) => cron.name)).size, registered.length, "names unique");
  for (const { name } of registered) assert(/^[A-Za-z0-9_-]{1,256}$/.test(name), name);

  // Each cron runs every job of its schedule (here with `JOBS=off`, so each says it skipped its work).
  const skipped: { job: string; schedule: string }[] = [];
  let schedule = "";
  const log = {
    debug: (_message: string, fields: { job: string }) => void skipped.push({ job: fields.job, schedule }),
  };
  crons.startJobs({ config: { jobs: false }, log } as unknown as Services);
  for (const cron of registered) {
    schedule = cron.schedule;
    await cron.handler();
  }
  assertEquals(
    skipped.toSorted((a, b) => a.job.localeCompare(b.job)),
    JOBS.map((job) => ({ job: job.name, schedule: job.schedule })).toSorted((a, b) => a.job.localeCompare(b.job)),
    "every job once, by the cron of its own schedule",
  );
});
