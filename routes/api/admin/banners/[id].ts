/** `PATCH /api/admin/banners/{id}` (admin) partial update → `{banner}`; `DELETE` → `{success: true}`. CONTRACT.md §7 "Banners". */
import { readBody } from "../../../../lib/http/json.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import { BannerUpdateSchema, deleteBanner, updateBanner } from "../../../../lib/ungatekeep/banners.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async PATCH(req, ctx) {
    const patch = await readBody(req, BannerUpdateSchema);
    const { kv, files } = ctx.state.services;
    return Response.json({ banner: await updateBanner(kv, files, ctx.params.id, patch) });
  },
  async DELETE(_req, ctx) {
    const { kv, files } = ctx.state.services;
    await deleteBanner(kv, files, ctx.params.id);
    return Response.json({ success: true });
  },
};
