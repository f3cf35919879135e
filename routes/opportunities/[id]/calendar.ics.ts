/**
 * `GET /opportunities/{id}/calendar.ics`: the opportunity as an iCalendar event to add to a
 * calendar (`lib/opportunities/ics.ts`), downloaded as `<title>.ics`. The same read rule as its
 * page: a published one for anyone, an unpublished one for its owner and admins; else 404. A closed one (its end date
 * before today) has no entry to add, and its page no longer offers one: 303 to that page, which says it closed
 * (docs/decisions.md, Opportunities).
 * Its own words are in the request's language, so it varies as a page does.
 */
import { define } from "@/lib/platform/define.ts";
import { getOpportunity } from "@/lib/opportunities/opportunities.ts";
import { calendarFile } from "@/lib/opportunities/ics.ts";
import { seeOther } from "@/lib/http/form_posts.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    if (opportunity.isClosed) return seeOther(`/opportunities/${opportunity.id}`);
    const pageUrl = `${ctx.state.services.config.appUrl}/opportunities/${opportunity.id}`;
    const name = opportunity.title.replace(/[^\w -]+/g, "").trim().replace(/\s+/g, "-").slice(0, 60) || "opportunity";
    return new Response(calendarFile(opportunity, { pageUrl, t: ctx.state.t }), {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-language": ctx.state.lang,
        "vary": "Accept-Language, Cookie",
        "content-disposition": `attachment; filename="${name}.ics"`,
      },
    });
  },
});
