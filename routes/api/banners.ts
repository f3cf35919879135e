/**
 * `GET /api/banners` (public) → `{banners}`: the active banners by `orderIndex`. docs/decisions.md,
 * Ungatekeep and banners, "Banners".
 */
import { define } from "@/lib/platform/define.ts";
import { listBanners } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: { summary: "The active banners by position", responses: { 200: "`{banners}`" } },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, true) });
  },
});
