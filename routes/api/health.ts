/** `GET /api/health`: 200 `{status: "ok"}` once the KV store answers (CONTRACT.md §1). */
import type { AppState } from "../../lib/platform/state.ts";
import type { Handlers } from "../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    await ctx.state.services.kv.get(["health"]);
    return Response.json({ status: "ok" });
  },
};
