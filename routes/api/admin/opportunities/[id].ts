/**
 * `PATCH /api/admin/opportunities/{id}` `{action: "approve"|"reject"}` (admins, by
 * `../_middleware.ts`) → 200 `{success: true, opportunity}`; other action 400, unknown id 404.
 * States table "Opportunity", CONTRACT.md §5.
 */
import { readBody } from "../../../../lib/http/json.ts";
import { reviewOpportunity } from "../../../../lib/opportunities/opportunities.ts";
import { ReviewSchema } from "../../../../lib/opportunities/schema.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async PATCH(req, ctx) {
    const { action } = await readBody(req, ReviewSchema);
    const opportunity = await reviewOpportunity(ctx.state.services.kv, ctx.params.id, action);
    return Response.json({ success: true, opportunity });
  },
};
