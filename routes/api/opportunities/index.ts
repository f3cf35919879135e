/**
 * `GET /api/opportunities` (public: published ones, open ones first, `type`, `search`, `includeClosed`, `limit`,
 * `offset`; `mine=true` lists the signed-in caller's own in every state, 401 without a session)
 * and `POST /api/opportunities` (a signed-in user's submission: 201; a `user`'s waits for review,
 * a member's or admin's is published at once). docs/decisions.md, Opportunities.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import {
  listOpportunities,
  OpportunityCreateSchema,
  OpportunityQuerySchema,
  submitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

export const apiDocs = describeRoute({
  GET: {
    summary: "Published opportunities, open ones first",
    description: "Open ones by the soonest end date, then closed ones by the latest (`includeClosed=false` leaves " +
      "them out). `mine=true`: the caller's own in every review state, newest first (needs a session).",
    access: ["public", "session"],
    query: OpportunityQuerySchema,
    responses: {
      200: {
        description: "A page of opportunities",
        schema: z.strictObject({
          success: z.literal(true),
          opportunities: z.array(OpportunitySchema),
          pagination: PaginationSchema,
        }),
      },
    },
  },
  POST: {
    summary: "Submit an opportunity",
    description: "A user's waits for review; a member's or admin's is published at once.",
    access: ["session"],
    body: OpportunityCreateSchema,
    responses: {
      201: {
        description: "Submitted",
        schema: z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(OpportunityQuerySchema, queryOf(ctx.url));
    const page = await listOpportunities(ctx.state.services.kv, query, ctx.state.user);
    return Response.json({ success: true, ...page });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, OpportunityCreateSchema);
    const opportunity = await submitOpportunity(ctx.state.services.kv, ctx.state.user, input);
    return Response.json({ success: true, opportunity }, { status: 201 });
  },
});
