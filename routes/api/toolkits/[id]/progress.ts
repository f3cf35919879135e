/**
 * `POST /api/toolkits/{id}/progress` (session, a buyer of the toolkit) `{contentItemId, completed}`
 * → `{completedItemIds, certificateUrl}` (the certificate page once every lesson is complete).
 * docs/decisions.md, Toolkits and payments; docs/decisions.md, Money operations, "Certificates".
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `progress` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "progress" };

const ProgressBodySchema = z.object({ contentItemId: z.string().min(1).max(100), completed: z.boolean() });

export const apiDocs = describeRoute({
  POST: {
    summary: "Mark a lesson completed or not",
    access: ["session"],
    body: ProgressBodySchema,
    responses: {
      200: "`{completedItemIds, certificateUrl}`; `certificateUrl` is null until every lesson is complete",
      403: "Not a buyer of the toolkit",
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
