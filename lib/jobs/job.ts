/**
 * What a job is (docs/decisions.md, Background work): a name, a cron schedule (UTC) and a run that returns counts of
 * what it did, e.g. `{sent: 3, failed: 1}`. A run must be safe to repeat and to overlap with a run in another process:
 * it claims each record it works on (`lib/jobs/lease.ts`) and records what it did in the same write.
 */
import type { Services } from "@/lib/platform/state.ts";

/** What a run did, by kind; `POST /api/admin/jobs/{name}/run` answers them beside the job's name. */
export type JobCounts = Record<string, number>;

/** What a run works with: the platform's services, and the time the run counts as now. */
export interface JobContext extends Services {
  now: Date;
}

/** A job of the registry (`lib/jobs/registry.ts`). */
export interface Job {
  /** Unique; letters, digits, `-` and `_` (the path of `POST /api/admin/jobs/{name}/run` names it). */
  name: string;
  /** Five-field cron expression, UTC. */
  schedule: string;
  /**
   * Whether it runs from a cron of its own rather than the one of its schedule (`lib/jobs/crons.ts`): for a job whose
   * run may last long (a backlog), which would otherwise hold the schedule's other jobs until it ends.
   */
  alone?: boolean;
  run(ctx: JobContext): Promise<JobCounts>;
}
