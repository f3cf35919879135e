/**
 * `GET /api/opportunities/{id}`: `{success, opportunity}` for a published one; its owner and
 * admins also read it while awaiting review or rejected; else 404 `{error: "Opportunity not found"}`.
 * docs/decisions.md, Opportunities.
 */
import { define } from "@/lib/platform/define.ts";
import { getOpportunity } from "@/lib/opportunities/opportunities.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "One opportunity",
    description: "One awaiting review or rejected only for its owner and admins.",
    access: ["public", "session"],
    responses: {
      200: {
        description: "The opportunity",
        schema: z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true, opportunity });
  },
});
