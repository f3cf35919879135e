/**
 * `GET /api/admin/users` (admins, by `../_middleware.ts`): `search`, `role`, `limit`, `offset` →
 * `{users, pagination}`; an invalid query is 400 with the zod issue array (docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminUserListQuerySchema, listUsersForAdmin } from "@/lib/users/admin.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminUserListQuerySchema, queryOf(ctx.url));
    return Response.json(await listUsersForAdmin(ctx.state.services.kv, query));
  },
});
