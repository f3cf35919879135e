/**
 * `POST /api/toolkits/{id}/progress`: a buyer marks a lesson completed or not; its `apiDocs` below are its
 * description (docs/api.md, Toolkits, "Lessons"; docs/decisions.md, Money operations).
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { BUSY, describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { ProgressSchema } from "@/lib/openapi/resources.ts";

/** Writes fall under the per-person limit `progress` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "progress" };

const ProgressBodySchema = z.object({ contentItemId: z.string().min(1).max(100), completed: z.boolean() });

export const apiDocs = describeRoute({
  section: "Toolkits",
  POST: {
    summary: "Mark a lesson completed or not",
    description: "For a buyer of the toolkit. `certificateUrl` is the learner's certificate page once every lesson " +
      "is complete, else null.",
    access: ["session"],
    body: ProgressBodySchema,
    responses: {
      200: { description: "The lessons completed", schema: ProgressSchema },
      403: "Not a buyer of the toolkit",
      404: "Toolkit not found, or the lesson is not one of it",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { contentItemId, completed } = await readBody(req, ProgressBodySchema);
    const { kv } = ctx.state.services;
    return Response.json(
      await recordProgress(kv, { toolkitId: ctx.params.id, viewer: ctx.state.user, contentItemId, completed }),
    );
  },
});
