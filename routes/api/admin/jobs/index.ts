/**
 * `GET /api/admin/jobs`: every background job with its schedule, its next run, its last run and its last failure; its
 * `apiDocs` below are its description (docs/api.md, Background work; docs/decisions.md, Background work, "Last runs").
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { JOBS } from "@/lib/jobs/registry.ts";
import { jobStatuses } from "@/lib/jobs/runs.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { JobStatusSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Background work",
  GET: {
    summary: "List the jobs and their last runs",
    description: "Every job in the registry's order: its cron schedule (UTC), when that next runs it, its last run " +
      "that succeeded (start, duration, counts) and its last run that failed (start, duration, error), each from its " +
      "cron or by hand. `scheduled` false: `JOBS=off`, the crons skip their work here (a run by hand still runs). A " +
      "job removed from the registry is not listed; the `removed-jobs` job deletes its records a week after its last " +
      "run. Reading writes nothing.",
    access: ["admin"],
    responses: {
      200: {
        description: "The jobs",
        schema: z.strictObject({
          scheduled: z.boolean().describe("False with `JOBS=off`: no job runs from its schedule"),
          jobs: z.array(JobStatusSchema),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { kv, config } = ctx.state.services;
    const jobs = await jobStatuses(kv, { jobs: JOBS, scheduled: config.jobs, now: new Date() });
    return Response.json({ scheduled: config.jobs, jobs });
  },
});
