/** `GET /api/health`: 200 `{status: "ok"}` once the KV store answers (docs/decisions.md, Running). */
import { define } from "@/lib/platform/define.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    await ctx.state.services.kv.get(["health"]);
    return Response.json({ status: "ok" });
  },
});
