/**
 * `PATCH /api/admin/opportunities/{id}`: an admin reviews an opportunity; its `apiDocs` below are its description
 * (docs/api.md, Opportunities, "Review states"; docs/decisions.md, Opportunities, "Reject with a reason, resubmit";
 * review rules in `lib/opportunities/opportunities.ts`).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { readJson } from "@/lib/http/json.ts";
import { REASON_MAX, reviewOpportunity, ReviewSchema } from "@/lib/opportunities/opportunities.ts";
import { BUSY, count, describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema } from "@/lib/openapi/resources.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Admin",
  PATCH: {
    summary: "Approve or reject an opportunity",
    description:
      "`approve` publishes it (`isVerified` and `isActive` true); `reject` hides it (`isActive` false): it " +
      "leaves the queue and the record is kept, with the `reason` shown to the submitter, who may edit and " +
      "resubmit it. The submitter is notified when the state changed. Send the `updatedAt` you read with it: when " +
      "the submitter edited it since, nothing is decided and the answer is 409 (without `updatedAt` the current " +
      "text is decided on, for older clients).",
    access: ["admin"],
    body: ReviewSchema,
    responses: {
      200: {
        description: "Reviewed",
        schema: z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema }),
      },
      400: `Action must be approve or reject; Invalid reason (over ${count(REASON_MAX)} characters); or ` +
        "Invalid updatedAt (not an ISO 8601 time)",
      404: "Opportunity not found",
      409: REFUSALS.listingChanged,
      503: BUSY,
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
      if (parsed.error.issues.every((issue) => issue.path[0] === "updatedAt")) {
        throw new InvalidInputError("Invalid updatedAt");
      }
      throw new InvalidInputError("Action must be approve or reject");
    }
    const audit = adminAudit(ctx.state, { action: "opportunity.review", targetKind: "opportunity" });
    const opportunity = await reviewOpportunity(ctx.state.services.kv, {
      id: ctx.params.id,
      review: parsed.data,
      audit,
    });
    return Response.json({ success: true, opportunity });
  },
});
