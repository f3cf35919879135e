/**
 * `GET /api/banners`: the Ungatekeep page's banners; its `apiDocs` below are its description (docs/api.md, Ungatekeep;
 * docs/decisions.md, Ungatekeep and banners, "Banners").
 */
import { define } from "@/lib/platform/define.ts";
import { listBanners } from "@/lib/ungatekeep/banners.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { BannerSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  GET: {
    summary: "The active banners by position",
    description: "By `orderIndex`; inactive ones are left out.",
    responses: {
      200: { description: "The banners", schema: z.strictObject({ banners: z.array(BannerSchema) }) },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, true) });
  },
});
