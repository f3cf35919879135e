/**
 * `GET /api/admin/stats?days=30` (admins): the dashboard's figures per IST day, totals, top toolkits and coupons,
 * from counters kept as records change (docs/api.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { readStats, statsQuerySchema } from "@/lib/stats/stats.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "The dashboard's figures",
    description: "Per IST day (`days` 7–365): sign-ups, verified sign-ups, purchases, revenue and refunds in rupees.",
    access: ["admin"],
    query: statsQuerySchema,
    responses: { 200: "`{days, totals, topToolkits, coupons}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const { days } = validate(statsQuerySchema, queryOf(ctx.url));
    return Response.json(await readStats(ctx.state.services.kv, days));
  },
});
