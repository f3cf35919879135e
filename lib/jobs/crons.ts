/**
 * The crons (docs/decisions.md, Background work, "Crons over KV records"): one `Deno.cron` per schedule of `JOBS`
 * (`cronGroups`), registered when this module is evaluated, at top level, where Deno Deploy finds them; each run starts
 * every job of its schedule at once (`runScheduled`: a failing job is logged, the others go on) and ends with the last.
 * One per schedule, not one per job: Deno Deploy registers at most 10 crons per revision on a free organization, and
 * bills each run as a request. The e-mail outbox, whose run lasts as long as a backlog takes to send (a digest's
 * thousands of mails), has its own (`alone`), so it never holds the minute's other jobs. Only `main.ts` imports this module; the services exist only once `main.ts` has made
 * them, so each cron's handler waits for `startJobs(services)`. With `JOBS=off` a cron skips its work (preview
 * deployments run crons too); a run by hand does not.
 */
import type { Services } from "@/lib/platform/state.ts";
import type { Job } from "./job.ts";
import { JOBS, runScheduled } from "./registry.ts";

const services = Promise.withResolvers<Services>();

/** Hands the crons the services they run with; until then a cron that fires waits. */
export function startJobs(ready: Services): void {
  services.resolve(ready);
}

/** One cron: its name, its schedule, and the jobs of that schedule, in the order of `JOBS`. */
export interface CronGroup {
  name: string;
  schedule: string;
  jobs: Job[];
}

/**
 * The crons that run `jobs`: one per distinct schedule, named `jobs_` and the schedule's fields (`*` as `x`, `*∕5` as
 * `every5`, `,` as `and`), e.g. `jobs_every5_x_x_x_x` (letters, digits, `-` and `_`, as `Deno.cron` requires), and
 * one for each job marked `alone`, named as the job.
 */
export function cronGroups(jobs: readonly Job[]): CronGroup[] {
  const groups = new Map<string, CronGroup>();
  for (const job of jobs) {
    const name = job.alone
      ? job.name
      : `jobs_${
        job.schedule.replaceAll("*/", "every").replaceAll("*", "x").replaceAll(",", "and").replaceAll(" ", "_")
      }`;
    const group = groups.get(name) ?? { name, schedule: job.schedule, jobs: [] };
    group.jobs.push(job);
    groups.set(name, group);
  }
  return [...groups.values()];
}

for (const { name, schedule, jobs } of cronGroups(JOBS)) {
  Deno.cron(name, schedule, async () => {
    const ready = await services.promise;
    await Promise.all(jobs.map((job) => runScheduled(job, ready)));
  });
}
