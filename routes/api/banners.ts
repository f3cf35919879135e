/** `GET /api/banners` (public) → `{banners}`: the active banners by `orderIndex`. CONTRACT.md §7 "Banners". */
import type { AppState } from "../../lib/platform/state.ts";
import { listBanners } from "../../lib/ungatekeep/banners.ts";
import type { Handlers } from "../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    return Response.json({ banners: await listBanners(ctx.state.services.kv, true) });
  },
};
