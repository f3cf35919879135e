/** `GET /api/health`: 200 `{status: "ok"}` once the KV store answers (docs/decisions.md, Running). */
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "Whether the service is up (the KV store answers)",
    responses: { 200: { description: "Up", schema: z.strictObject({ status: z.literal("ok") }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    await ctx.state.services.kv.get(["health"]);
    return Response.json({ status: "ok" });
  },
});
