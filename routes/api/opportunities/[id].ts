/**
 * `GET` and `PUT /api/opportunities/{id}`: one opportunity, and its submitter's edit; its `apiDocs` below are its
 * description (docs/api.md, Opportunities, "Review states"; docs/decisions.md, Opportunities, "Reject with a reason,
 * resubmit").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { getOpportunity, OpportunityCreateSchema, resubmitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Edits and submissions fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

const Answer = z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema });

export const apiDocs = describeRoute({
  section: "Opportunities",
  GET: {
    summary: "One opportunity",
    description: "A published one for anyone; one awaiting review or rejected only for its owner and admins.",
    access: ["public", "session"],
    responses: { 200: { description: "The opportunity", schema: Answer }, 404: "Opportunity not found" },
  },
  PUT: {
    summary: "Edit a submission and send it to review again",
    description: "Its submitter, with the fields of a submission, while it awaits review or after review rejected " +
      "it; it then awaits review again.",
    access: ["session"],
    body: OpportunityCreateSchema,
    responses: {
      200: { description: "Resubmitted, awaiting review", schema: Answer },
      404: "Opportunity not found (also another person's)",
      409: "Your submission is published already, rejected by moderation, or held by students' reports",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const opportunity = await getOpportunity(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true, opportunity });
  },
  async PUT(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, OpportunityCreateSchema);
    const opportunity = await resubmitOpportunity(ctx.state.services.kv, {
      user: ctx.state.user,
      id: ctx.params.id,
      input,
    });
    return Response.json({ success: true, opportunity });
  },
});
