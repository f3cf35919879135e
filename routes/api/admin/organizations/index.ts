/**
 * `GET /api/admin/organizations?search=&verified=&limit=&offset=` (admins) → `{organizations, pagination}`: by name,
 * each with its count of live listings (`internships`); `search` matches part of the name in any case, `verified`
 * `true` or `false` narrows to verified or unverified ones. docs/api.md, Trust; docs/decisions.md, Trust,
 * "Organizations".
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { AdminOrganizationQuerySchema, listForAdmin } from "@/lib/organizations/organizations.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OrganizationSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Trust",
  GET: {
    summary: "Every organization, by name",
    description: "Each with `internships`, its count of live listings; `search` matches part of the name in any " +
      "case, `verified` narrows to verified or unverified ones.",
    access: ["admin"],
    query: AdminOrganizationQuerySchema,
    responses: {
      200: {
        description: "A page of organizations with their live listing counts",
        schema: z.strictObject({
          organizations: z.array(OrganizationSchema.extend({ internships: z.int() })),
          pagination: PaginationSchema,
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminOrganizationQuerySchema, queryOf(ctx.url));
    return Response.json(await listForAdmin(ctx.state.services.kv, query));
  },
});
