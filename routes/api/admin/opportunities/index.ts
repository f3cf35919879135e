/**
 * `GET /api/admin/opportunities` (admins, by `_middleware.ts`): the review queue. `status`
 * `pending` (default), `approved`, `rejected` or `all`; `search`; `limit` (default 50, max 100);
 * `offset`. Answers `{opportunities, pagination, counts: {pending, approved, rejected, all}}`.
 * docs/decisions.md, Opportunities and Admin lists.
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { AdminOpportunityQuerySchema, adminQueue } from "@/lib/opportunities/opportunities.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminOpportunityQuerySchema, queryOf(ctx.url));
    return Response.json(await adminQueue(ctx.state.services.kv, query));
  },
});
