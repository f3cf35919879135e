/**
 * `GET /api/admin/opportunities` (admins, by `_middleware.ts`): the review queue. `status`
 * `pending` (default), `approved`, `rejected` or `all`; `search`; `limit` (default 50, max 100);
 * `offset`. Answers `{opportunities, pagination, counts: {pending, approved, rejected, all}}`.
 * CONTRACT.md §5 and §8.
 */
import { queryOf, validate } from "../../../../lib/http/json.ts";
import { AdminOpportunityQuerySchema, adminQueue } from "../../../../lib/opportunities/opportunities.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const query = validate(AdminOpportunityQuerySchema, queryOf(ctx.url));
    return Response.json(await adminQueue(ctx.state.services.kv, query));
  },
};
