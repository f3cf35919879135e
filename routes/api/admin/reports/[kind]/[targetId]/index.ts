/**
 * `GET /api/admin/reports/{kind}/{targetId}`: a reported target and its reports; its `apiDocs` below are its
 * description (docs/api.md, Trust; docs/decisions.md, Trust, "Reports").
 */
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { REPORT_KINDS, type ReportKind, targetReports } from "@/lib/reports/reports.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AdminReportSchema, ReportedTargetSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import { REFUSALS } from "@/lib/refusals.ts";

export const apiDocs = describeRoute({
  section: "Trust",
  GET: {
    summary: "A reported target and its reports",
    description: "The target with its page (`url`, null once it has none) and `status`; every report newest first, " +
      "with who sent it (null for a deleted account) and how it was resolved: an admin's action, or `removed` with " +
      "who removed it by other means (its author, an admin, a suspension, its post's deletion, an admin's reject " +
      "of a listing in moderation).",
    access: ["admin"],
    responses: {
      200: {
        description: "The target and its reports",
        schema: z.strictObject({
          target: ReportedTargetSchema.extend({ url: z.string().nullable(), status: z.enum(["open", "resolved"]) }),
          reports: z.array(AdminReportSchema),
        }),
      },
      404: "Nobody reported it",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const kind = ctx.params.kind;
    if (!(REPORT_KINDS as readonly string[]).includes(kind)) throw new NotFoundError(REFUSALS.noReports);
    return Response.json(
      await targetReports(ctx.state.services.kv, {
        kind: kind as ReportKind,
        targetId: ctx.params.targetId,
        t: ctx.state.t,
      }),
    );
  },
});
