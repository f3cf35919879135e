/**
 * `GET /api/admin/stats`: the admin dashboard's figures; its `apiDocs` below are its description (docs/api.md, Money
 * operations; docs/decisions.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { readStats, statsQuerySchema, TOP } from "@/lib/stats/stats.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { StatsSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Money operations",
  GET: {
    summary: "The dashboard's figures",
    description:
      "Per day in India, oldest first and ending today: sign-ups, verified sign-ups, purchases, revenue and " +
      `refunds; the totals; the top ${TOP} toolkits by revenue and coupons by uses. Money in rupees. Answered from ` +
      "counters.",
    access: ["admin"],
    query: statsQuerySchema,
    responses: { 200: { description: "The figures", schema: StatsSchema } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { days } = validate(statsQuerySchema, queryOf(ctx.url));
    return Response.json(await readStats(ctx.state.services.kv, days));
  },
});
