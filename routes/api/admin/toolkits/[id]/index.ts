/**
 * `PUT` and `DELETE /api/admin/toolkits/{id}`: change or delete a toolkit; its `apiDocs` below are its description
 * (docs/api.md, Toolkits, "Toolkit states"; docs/decisions.md, Toolkits and payments).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { deleteToolkit, ToolkitUpdateSchema, updateToolkit, withOwnFilePaths } from "@/lib/toolkits/catalog.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema, ToolkitSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  PUT: {
    summary: "Change a toolkit (the fields given)",
    description: "`isActive` lists it in the marketplace or not; `showSaleBadge` included. Answers the bare toolkit. " +
      "An `originalPrice` below `price` (as they would be afterwards): 400. A cover upload (`/api/files/{id}`) the " +
      "change replaces or removes is deleted unless a banner, post or other cover names it.",
    access: ["admin"],
    body: ToolkitUpdateSchema,
    responses: { 200: { description: "The toolkit", schema: ToolkitSchema }, 404: "Toolkit not found" },
  },
  DELETE: {
    summary: "Delete a toolkit, its lessons and its learners' progress",
    description: "Purchases stay as payment history; its buyers lose access. Its cover upload is deleted unless a " +
      "banner, post or other cover names it.",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Toolkit not found" },
  },
});

export const handler = define.handlers({
  async PUT(req, ctx) {
    const patch = withOwnFilePaths(await readBody(req, ToolkitUpdateSchema), ctx.state.services.config.appUrl);
    const audit = adminAudit(ctx.state, { action: "toolkit.update", targetKind: "toolkit" });
    const { kv, files, log } = ctx.state.services;
    return Response.json(await updateToolkit(kv, { id: ctx.params.id, patch, audit, images: { files, log } }));
  },

  async DELETE(_req, ctx) {
    const audit = adminAudit(ctx.state, { action: "toolkit.delete", targetKind: "toolkit" });
    const { kv, files, log } = ctx.state.services;
    await deleteToolkit(kv, { id: ctx.params.id, audit, images: { files, log } });
    return Response.json({ success: true });
  },
});
