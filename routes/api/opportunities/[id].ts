/**
 * `GET /api/opportunities/{id}`: `{success, opportunity}` for a published one; its owner and
 * admins also read it while awaiting review or rejected; else 404 `{error: "Opportunity not found"}`.
 * CONTRACT.md §5.
 */
import { getOpportunity } from "../../../lib/opportunities/opportunities.ts";
import type { AppState } from "../../../lib/platform/state.ts";
import type { Handlers } from "../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true, opportunity });
  },
};
