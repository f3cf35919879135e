/**
 * `GET` and `POST /api/opportunities`: the published opportunities and submissions; its `apiDocs` below are its
 * description (docs/api.md, Opportunities, "Review states"; docs/decisions.md, Opportunities).
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import {
  EARLIEST_DATE,
  listOpportunities,
  MAX_SPAN_YEARS,
  MAX_YEARS_AHEAD,
  OpportunityCreateSchema,
  OpportunityQuerySchema,
  submitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

export const apiDocs = describeRoute({
  section: "Opportunities",
  GET: {
    summary: "Published opportunities, open ones first",
    description: "Open ones by the soonest end date, then closed ones (the end date's day in India is past) by the " +
      "latest; `includeClosed=false` leaves those out. Each carries `isClosed`. `type` is comma-separated; `search` " +
      "(or `q`) matches every word in the title, description, organizer and location. `mine=true` lists the caller's " +
      "own in every review state, newest first, and needs a session (401).",
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
      401: "`mine=true` without a session",
    },
  },
  POST: {
    summary: "Submit an opportunity",
    description: "A `user`'s submission awaits review (`isVerified` false), seen only by its owner and admins; a " +
      "member's or admin's is published at once. " +
      `Dates run from ${EARLIEST_DATE} to ${MAX_YEARS_AHEAD} years after today, the end at most ${MAX_SPAN_YEARS} ` +
      "years after the start (400 at the field). `isVerified`, `isActive`, `userId`, `id` and times in the body are " +
      "ignored.",
    access: ["session"],
    body: OpportunityCreateSchema,
    responses: {
      201: {
        description: "Submitted",
        schema: z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema }),
      },
      503: BUSY,
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
