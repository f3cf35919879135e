/**
 * `POST /api/toolkits/{id}/progress` (session, a buyer of the toolkit) `{contentItemId, completed}`
 * → `{completedItemIds}`. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { z } from "zod";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

const ProgressBodySchema = z.object({ contentItemId: z.string().min(1).max(100), completed: z.boolean() });

export const apiDocs = describeRoute({
  POST: {
    summary: "Mark a lesson completed or not",
    access: ["session"],
    body: ProgressBodySchema,
    responses: { 200: "`{completedItemIds}`", 403: "Not a buyer of the toolkit" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { contentItemId, completed } = await readBody(req, ProgressBodySchema);
    const ids = await recordProgress(ctx.state.services.kv, {
      toolkitId: ctx.params.id,
      viewer: ctx.state.user,
      contentItemId,
      completed,
    });
    return Response.json({ completedItemIds: ids });
  },
});
