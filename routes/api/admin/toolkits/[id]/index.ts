/**
 * `PUT /api/admin/toolkits/{id}` (partial update, `isActive` and `showSaleBadge` included) → bare
 * Toolkit, and `DELETE` → `{success: true}` (its lessons and progress go; purchases stay as
 * history). Admins only. docs/decisions.md, Toolkits and payments, states "Toolkit".
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { deleteToolkit, ToolkitUpdateSchema, updateToolkit } from "@/lib/toolkits/catalog.ts";

export const handler = define.handlers({
  async PUT(req, ctx) {
    const patch = await readBody(req, ToolkitUpdateSchema);
    return Response.json(await updateToolkit(ctx.state.services.kv, ctx.params.id, patch));
  },

  async DELETE(_req, ctx) {
    await deleteToolkit(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
});
