/**
 * `PATCH` and `DELETE /api/admin/banners/{id}`: change or delete a banner; its `apiDocs` below are its description
 * (docs/api.md, Admin; docs/decisions.md, Ungatekeep and banners, "Banners").
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { BannerUpdateSchema, deleteBanner, updateBanner } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { BannerSchema, SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  PATCH: {
    summary: "Change a banner (the fields given)",
    description: "An `imageId` must name an uploaded image (400 otherwise). An image the change replaces or removes " +
      "is deleted.",
    access: ["admin"],
    body: BannerUpdateSchema,
    responses: {
      200: { description: "The banner", schema: z.strictObject({ banner: BannerSchema }) },
      404: "Banner not found",
    },
  },
  DELETE: {
    summary: "Delete a banner and its image",
    description: "The image is deleted unless another banner, a post, a toolkit cover or a lesson uses it.",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Banner not found" },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    const patch = await readBody(req, BannerUpdateSchema);
    const { kv, files, log } = ctx.state.services;
    const audit = adminAudit(ctx.state, { action: "banner.update", targetKind: "banner" });
    return Response.json({ banner: await updateBanner(kv, { files, log, id: ctx.params.id, patch, audit }) });
  },
  async DELETE(_req, ctx) {
    const { kv, files, log } = ctx.state.services;
    const audit = adminAudit(ctx.state, { action: "banner.delete", targetKind: "banner" });
    await deleteBanner(kv, { files, log, id: ctx.params.id, audit });
    return Response.json({ success: true });
  },
});
