/**
 * `GET /api/admin/log`: the admin audit log; its `apiDocs` below are its description (docs/api.md, Admin;
 * docs/decisions.md, Admin, "Audit log").
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { AdminLogEntrySchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "Read the admin audit log",
    description: "Newest first: every write an admin made, kept a year. `action` and `adminId` filter (both: " +
      "entries matching both); `cursor` is the previous page's `nextCursor`. `adminId` is null once that admin's " +
      "account was deleted.",
    access: ["admin"],
    query: adminLogQuerySchema,
    responses: {
      200: {
        description: "A page of entries, newest first",
        schema: z.strictObject({
          entries: z.array(AdminLogEntrySchema),
          nextCursor: z.string().nullable().describe("Reads the next older page; null on the last"),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(adminLogQuerySchema, queryOf(ctx.url));
    return Response.json(await listAdminLog(ctx.state.services.kv, query));
  },
});
