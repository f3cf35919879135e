/**
 * `GET /api/health`: whether the service is up; its `apiDocs` below are its description (docs/api.md, Health;
 * docs/decisions.md, Running).
 */
import { define } from "@/lib/platform/define.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Health",
  GET: {
    summary: "Whether the service is up",
    description: "200 once the KV store answers a read.",
    responses: { 200: { description: "Up", schema: z.strictObject({ status: z.literal("ok") }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    await ctx.state.services.kv.get(["health"]);
    return Response.json({ status: "ok" });
  },
});
