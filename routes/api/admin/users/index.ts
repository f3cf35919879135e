/**
 * `GET /api/admin/users`: the admin's user list; its `apiDocs` below are its description (docs/api.md, Admin;
 * docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminUserListQuerySchema, listUsersForAdmin } from "@/lib/users/admin.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { AdminUserSchema, PaginationSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "Search users",
    description: "Newest first; `search`: every word starts a word of the name or of the e-mail address, its part " +
      "before the `@` or its domain, in any case; `role` filters. `total` counts up to 1,000 matches; `more` says " +
      "more match.",
    access: ["admin"],
    query: adminUserListQuerySchema,
    responses: {
      200: {
        description: "A page of users",
        schema: z.strictObject({ users: z.array(AdminUserSchema), pagination: PaginationSchema, more: z.boolean() }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminUserListQuerySchema, queryOf(ctx.url));
    return Response.json(await listUsersForAdmin(ctx.state.services.kv, query));
  },
});
