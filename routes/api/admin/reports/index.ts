/**
 * `GET /api/admin/reports`: reports grouped by target; its `apiDocs` below are its description (docs/api.md, Trust;
 * docs/decisions.md, Trust, "Reports").
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { AdminReportQuerySchema, reportedTargets } from "@/lib/reports/reports.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PaginationSchema, ReportedTargetSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  GET: {
    summary: "Reported targets, most reported first",
    description: "`status=open` (default): targets with open reports, counted by reason, most reported first; " +
      "`resolved`: targets whose reports are all resolved, the latest resolved first.",
    access: ["admin"],
    query: AdminReportQuerySchema,
    responses: {
      200: {
        description: "A page of reported targets",
        schema: z.strictObject({ targets: z.array(ReportedTargetSchema), pagination: PaginationSchema }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminReportQuerySchema, queryOf(ctx.url));
    return Response.json(await reportedTargets(ctx.state.services.kv, query, ctx.state.t));
  },
});
