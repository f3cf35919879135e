/**
 * `PATCH /api/admin/opportunities/{id}` (admins) `{action: "approve" | "reject"}` → 200 `{success: true, opportunity}`;
 * another action: 400 `{error: "Action must be approve or reject"}`; unknown id: 404. docs/api.md, Opportunities,
 * "Review states"; docs/decisions.md, Opportunities; review rules in `lib/opportunities/opportunities.ts`.
 */
import { define } from "@/lib/platform/define.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { readBody } from "@/lib/http/json.ts";
import { reviewOpportunity, ReviewSchema } from "@/lib/opportunities/opportunities.ts";
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
    const { action } = await readBody(
      req,
      ReviewSchema,
      () => new InvalidInputError("Action must be approve or reject"),
    );
    const opportunity = await reviewOpportunity(ctx.state.services.kv, ctx.params.id, action);
    return Response.json({ success: true, opportunity });
  },
});
