/**
 * `PATCH /api/admin/opportunities/{id}` (admins) `{action: "approve" | "reject", reason?}` → 200
 * `{success: true, opportunity}`; another action: 400 `{error: "Action must be approve or reject"}`; a reason over
 * 1,000 characters: 400 `{error: "Invalid reason"}`; unknown id: 404. The reason of a rejection is shown to the
 * submitter (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"). docs/api.md, Opportunities,
 * "Review states"; review rules in `lib/opportunities/opportunities.ts`.
 */
import { define } from "@/lib/platform/define.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { readJson } from "@/lib/http/json.ts";
import { REASON_MAX, reviewOpportunity, ReviewSchema } from "@/lib/opportunities/opportunities.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  PATCH: {
    summary: "Approve or reject an opportunity",
    access: ["admin"],
    body: ReviewSchema,
    responses: {
      200: {
        description: "Reviewed",
        schema: z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema }),
      },
    },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const parsed = ReviewSchema.safeParse(await readJson(req));
    if (!parsed.success) {
      if (parsed.error.issues.every((issue) => issue.path[0] === "reason")) {
        const message = `Use at most ${REASON_MAX.toLocaleString("en-IN")} characters.`;
        throw new InvalidInputError("Invalid reason", [{ field: "reason", message }]);
      }
      throw new InvalidInputError("Action must be approve or reject");
    }
    const opportunity = await reviewOpportunity(ctx.state.services.kv, ctx.params.id, parsed.data);
    return Response.json({ success: true, opportunity });
  },
});
