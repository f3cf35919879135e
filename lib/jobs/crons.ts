/**
 * The crons (docs/decisions.md, Background work): one `Deno.cron` per job of `JOBS`, registered when this module is
 * evaluated, at top level, where Deno Deploy finds them. Only `main.ts` imports this module; the services exist only
 * once `main.ts` has made them, so each cron's handler waits for `startJobs(services)`. With `JOBS=off` a cron skips
 * its work (preview deployments run crons too); a run by hand does not.
 */
import type { Services } from "@/lib/platform/state.ts";
import { JOBS, runScheduled } from "./registry.ts";

const services = Promise.withResolvers<Services>();

/** Hands the crons the services they run with; until then a cron that fires waits. */
export function startJobs(ready: Services): void {
  services.resolve(ready);
}

for (const job of JOBS) {
  Deno.cron(job.name, job.schedule, async () => await runScheduled(job, await services.promise));
}
