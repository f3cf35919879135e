/** `GET /api/admin/banners` (admin) → `{banners}`, inactive ones included; `POST` → 201 `{banner}`. CONTRACT.md §7 "Banners". */
import { readBody } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { BannerCreateSchema, createBanner, listBanners } from "../../../../lib/ungatekeep/banners.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, false) });
  },
  async POST(req, ctx) {
    const input = await readBody(req, BannerCreateSchema);
    const { kv, files } = ctx.state.services;
    return Response.json({ banner: await createBanner(kv, files, input) }, { status: 201 });
  },
};
