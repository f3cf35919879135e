/**
 * `GET /opportunities/{id}/calendar`: the "Add to calendar" download, an `.ics` file (RFC 5545)
 * with one all-day event over the opportunity's dates, for whoever may see the opportunity.
 */
import { getOpportunity } from "../../../lib/opportunities/opportunities.ts";
import { opportunityCalendar } from "../../../lib/opportunities/ics.ts";
import type { AppState } from "../../../lib/platform/state.ts";
import type { Handlers } from "../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user ?? null);
    const page = new URL(`/opportunities/${opportunity.id}`, ctx.url);
    return new Response(opportunityCalendar(opportunity, page.href, page.hostname), {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": `attachment; filename="opportunity-${opportunity.id}.ics"`,
      },
    });
  },
};
