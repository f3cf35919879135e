/**
 * `POST /api/admin/reports/{kind}/{targetId}/resolve`: an admin resolves a target's open reports; its `apiDocs` below
 * are its description (docs/api.md, Trust; docs/decisions.md, Trust, "Reports").
 */
import { define } from "@/lib/platform/define.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { REPORT_KINDS, type ReportKind, ResolveSchema, resolveTarget } from "@/lib/reports/reports.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { REFUSALS } from "@/lib/refusals.ts";

export const apiDocs = describeRoute({
  section: "Trust",
  POST: {
    summary: "Resolve every open report of a target",
    description: "With the action: `dismiss` (a listing the reports held is listed again, unless the never-pay rule " +
      "holds it too); `hide` (a listing rejected, a post unpublished, a comment deleted, an " +
      "organization's badge taken away); `delete` (a soft delete). Each reporter gets `report_resolved`, the owner of " +
      "what was hidden or deleted `content_removed`.",
    access: ["admin"],
    body: ResolveSchema,
    responses: {
      200: { description: "How many reports were resolved", schema: z.strictObject({ resolved: z.int() }) },
      400: "An action the kind does not take (deleting an organization)",
      404: "Nobody reported it",
      409: REFUSALS.reportsBeingResolved,
      503: "Busy: the target kept changing while it was hidden or deleted, or its reports while they were resolved; " +
        "try again after `Retry-After` (what was done stays done)",
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const kind = ctx.params.kind;
    if (!(REPORT_KINDS as readonly string[]).includes(kind)) throw new NotFoundError(REFUSALS.noReports);
    const body = await readBody(req, ResolveSchema);
    const { resolved } = await resolveTarget(ctx.state.services, {
      kind: kind as ReportKind,
      targetId: ctx.params.targetId,
      admin: ctx.state.user,
      body,
    });
    return Response.json({ resolved });
  },
});
