/**
 * `GET /api/admin/opportunities` (admins, by `../_middleware.ts`): `status` (default `pending`),
 * `search`, `limit` (default 50, max 100), `offset` → `{opportunities, pagination, counts}` with
 * the counts per state for the queue's tabs. CONTRACT.md §5 and §8.
 */
import { queryOf, validate } from "../../../../lib/http/json.ts";
import { listReviewQueue } from "../../../../lib/opportunities/opportunities.ts";
import { AdminQueueQuerySchema } from "../../../../lib/opportunities/schema.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const query = validate(AdminQueueQuerySchema, queryOf(ctx.url));
    return Response.json(await listReviewQueue(ctx.state.services.kv, query));
  },
};
