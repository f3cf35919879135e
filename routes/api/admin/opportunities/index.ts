/**
 * `GET /api/admin/opportunities`: the review queue; its `apiDocs` below are its description (docs/api.md, Admin;
 * docs/decisions.md, Opportunities; docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { AdminOpportunityQuerySchema, adminQueue } from "@/lib/opportunities/opportunities.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "The review queue of opportunities",
    description: "By review state (`status`, `pending` unless given; `all` for every state), newest first; `search` " +
      "matches every word. `counts` holds the number in each state (the tabs).",
    access: ["admin"],
    query: AdminOpportunityQuerySchema,
    responses: {
      200: {
        description: "A page of the queue with the count of each review state",
        schema: z.strictObject({
          opportunities: z.array(OpportunitySchema),
          pagination: PaginationSchema,
          counts: z.strictObject({ pending: z.int(), approved: z.int(), rejected: z.int(), all: z.int() }),
        }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminOpportunityQuerySchema, queryOf(ctx.url));
    return Response.json(await adminQueue(ctx.state.services.kv, query));
  },
});
