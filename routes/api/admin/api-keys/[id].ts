/** `DELETE /api/admin/api-keys/{id}` → `{success: true}`; the key fails at once (docs/decisions.md, Auth). */
import { define } from "@/lib/platform/define.ts";
import { revokeApiKey } from "@/lib/api_keys/api_keys.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  DELETE: {
    summary: "Revoke an API key",
    access: ["admin"],
    responses: { 200: { description: "Revoked", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async DELETE(_req, ctx) {
    await revokeApiKey(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
});
