/**
 * `PUT /api/admin/toolkits/{id}` (partial update, `isActive` and `showSaleBadge` included) → bare Toolkit,
 * and `DELETE` → `{success: true}` (its lessons and progress go; purchases stay as history). Admins only.
 * docs/api.md, Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { deleteToolkit, ToolkitUpdateSchema, updateToolkit } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema, ToolkitSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  PUT: {
    summary: "Change a toolkit",
    access: ["admin"],
    body: ToolkitUpdateSchema,
    responses: { 200: { description: "The toolkit", schema: ToolkitSchema } },
  },
  DELETE: {
    summary: "Delete a toolkit, its lessons and its learners' progress",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

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
