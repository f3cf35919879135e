/**
 * `GET` and `POST /api/admin/banners`: the banners of the Ungatekeep page; its `apiDocs` below are its description
 * (docs/api.md, Admin; docs/decisions.md, Ungatekeep and banners, "Banners").
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { BannerCreateSchema, createBanner, listBanners } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { BannerSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "List every banner, inactive ones included",
    description: "By `orderIndex`.",
    access: ["admin"],
    responses: {
      200: { description: "The banners", schema: z.strictObject({ banners: z.array(BannerSchema) }) },
    },
  },
  POST: {
    summary: "Create a banner",
    description: "Active unless `isActive` is false. An `imageId` must name an uploaded image (400 otherwise).",
    access: ["admin"],
    body: BannerCreateSchema,
    responses: { 201: { description: "The banner", schema: z.strictObject({ banner: BannerSchema }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, false) });
  },
  async POST(req, ctx) {
    const input = await readBody(req, BannerCreateSchema);
    const { kv, files } = ctx.state.services;
    const audit = adminAudit(ctx.state, { action: "banner.create", targetKind: "banner" });
    return Response.json({ banner: await createBanner(kv, { files, input, audit }) }, { status: 201 });
  },
});
