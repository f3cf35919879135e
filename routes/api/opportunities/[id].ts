/**
 * `GET /api/opportunities/{id}`: `{success, opportunity}` for a published one; its owner and
 * admins also read it while awaiting review or rejected; else 404 `{error: "Opportunity not found"}`.
 * docs/decisions.md, Opportunities.
 */
import { define } from "@/lib/platform/define.ts";
import { getOpportunity } from "@/lib/opportunities/opportunities.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true, opportunity });
  },
});
