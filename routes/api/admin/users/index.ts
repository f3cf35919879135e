/**
 * `GET /api/admin/users` (admins, by `../_middleware.ts`): `search`, `role`, `limit`, `offset` →
 * `{users, pagination}`; an invalid query is 400 with the zod issue array (docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminUserListQuerySchema, listUsersForAdmin } from "@/lib/users/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Search users",
    access: ["admin"],
    query: adminUserListQuerySchema,
    responses: { 200: "`{users, pagination}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminUserListQuerySchema, queryOf(ctx.url));
    return Response.json(await listUsersForAdmin(ctx.state.services.kv, query));
  },
});
