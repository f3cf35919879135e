/**
 * `GET /api/opportunities/{id}`: `{success, opportunity}` for a published one; its owner and
 * admins also read it while awaiting review or rejected; else 404 `{error: "Opportunity not found"}`.
 * `PUT /api/opportunities/{id}` (session): the submitter edits a submission awaiting review or rejected by review with
 * the fields of a submission; it awaits review again → 200 `{success, opportunity}`; a published one, or one moderation
 * rejected: 409; another person's: 404. docs/decisions.md, Opportunities, "Reject with a reason, resubmit".
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { getOpportunity, OpportunityCreateSchema, resubmitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { OpportunitySchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Edits and submissions fall under the per-person limit `submissions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "submissions" };

const Answer = z.strictObject({ success: z.literal(true), opportunity: OpportunitySchema });

export const apiDocs = describeRoute({
  GET: {
    summary: "One opportunity",
    description: "One awaiting review or rejected only for its owner and admins.",
    access: ["public", "session"],
    responses: { 200: { description: "The opportunity", schema: Answer } },
  },
  PUT: {
    summary: "Edit a submission and send it to review again",
    description: "Its submitter, while it awaits review or after review rejected it; it then awaits review. " +
      "409 once published or rejected by moderation.",
    access: ["session"],
    body: OpportunityCreateSchema,
    responses: { 200: { description: "Resubmitted, awaiting review", schema: Answer } },
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
