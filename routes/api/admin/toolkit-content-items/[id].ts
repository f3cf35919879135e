/**
 * `PATCH /api/admin/toolkit-content-items/{id}` (partial) → `{contentItem}`, and `DELETE` →
 * `{success: true}`. Admins only. docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { ContentItemUpdateSchema, deleteContentItem, updateContentItem } from "@/lib/toolkits/catalog.ts";

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
