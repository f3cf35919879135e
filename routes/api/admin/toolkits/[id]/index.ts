/**
 * `PUT /api/admin/toolkits/{id}` (partial update, `isActive` and `showSaleBadge` included) → bare
 * Toolkit, and `DELETE` → `{success: true}` (its lessons and progress go; purchases stay as
 * history). Admins only. CONTRACT.md §6, states "Toolkit".
 */
import { readBody } from "../../../../../lib/http/json.ts";
import type { AppState } from "../../../../../lib/platform/state.ts";
import { deleteToolkit, ToolkitUpdateSchema, updateToolkit } from "../../../../../lib/toolkits/catalog.ts";
import type { Handlers } from "../../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async PUT(req, ctx) {
    const patch = await readBody(req, ToolkitUpdateSchema);
    return Response.json(await updateToolkit(ctx.state.services.kv, ctx.params.id, patch));
  },

  async DELETE(_req, ctx) {
    await deleteToolkit(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
};
