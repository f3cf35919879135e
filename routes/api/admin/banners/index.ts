/**
 * `GET /api/admin/banners` (admin) → `{banners}`, inactive ones included; `POST` → 201 `{banner}`.
 * docs/decisions.md, Ungatekeep and banners, "Banners".
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { BannerCreateSchema, createBanner, listBanners } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: { summary: "List every banner, inactive ones included", access: ["admin"], responses: { 200: "`{banners}`" } },
  POST: { summary: "Create a banner", access: ["admin"], body: BannerCreateSchema, responses: { 201: "`{banner}`" } },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, false) });
  },
  async POST(req, ctx) {
    const input = await readBody(req, BannerCreateSchema);
    const { kv, files } = ctx.state.services;
    return Response.json({ banner: await createBanner(kv, files, input) }, { status: 201 });
  },
});
