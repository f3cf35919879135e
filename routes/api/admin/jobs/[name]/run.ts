/**
 * `POST /api/admin/jobs/{name}/run` (admins, by `../../_middleware.ts`) → 200 `{job, ...counts}`: runs a job of the
 * registry now, also with `JOBS=off`; an unknown name is 404 `{error: "Job not found"}` (docs/api.md, Background work).
 */
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  POST: {
    summary: "Run a job now",
    description: "Runs a scheduled job by hand (`outbox`, `account-deletions`, …) and answers what it did.",
    access: ["admin"],
    responses: { 200: "`{job, ...counts}`", 404: '`{error: "Job not found"}`' },
  },
});

export const handler = define.handlers({
  async POST(_req, ctx) {
    const job = findJob(ctx.params.name);
    if (!job) throw new NotFoundError("Job not found");
    const { services } = ctx.state;
    return Response.json(await services.requests.aside(() => runJob(job, services)));
  },
});
