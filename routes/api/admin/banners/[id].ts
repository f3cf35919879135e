/**
 * `PATCH /api/admin/banners/{id}` (admin) partial update → `{banner}`; `DELETE` →
 * `{success: true}`. docs/decisions.md, Ungatekeep and banners, "Banners".
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { BannerUpdateSchema, deleteBanner, updateBanner } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  PATCH: { summary: "Change a banner", access: ["admin"], body: BannerUpdateSchema, responses: { 200: "`{banner}`" } },
  DELETE: {
    summary: "Delete a banner",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, BannerUpdateSchema);
    const { kv, files } = ctx.state.services;
    return Response.json({ banner: await updateBanner(kv, { files, id: ctx.params.id, patch }) });
  },
  async DELETE(_req, ctx) {
    const { kv, files } = ctx.state.services;
    await deleteBanner(kv, files, ctx.params.id);
    return Response.json({ success: true });
  },
});
