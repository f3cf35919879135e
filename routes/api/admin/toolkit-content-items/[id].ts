/**
 * `PATCH /api/admin/toolkit-content-items/{id}` (partial) → `{contentItem}`, and `DELETE` →
 * `{success: true}`. Admins only. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { ContentItemUpdateSchema, deleteContentItem, updateContentItem } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  PATCH: {
    summary: "Change a lesson",
    access: ["admin"],
    body: ContentItemUpdateSchema,
    responses: { 200: "`{contentItem}`" },
  },
  DELETE: {
    summary: "Delete a lesson",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, ContentItemUpdateSchema);
    return Response.json({ contentItem: await updateContentItem(ctx.state.services.kv, ctx.params.id, patch) });
  },

  async DELETE(_req, ctx) {
    await deleteContentItem(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
});
