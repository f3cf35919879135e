/**
 * `DELETE /api/admin/api-keys/{id}`: revokes an ingest API key; its `apiDocs` below are its description (docs/api.md,
 * Admin; docs/decisions.md, Auth, "Ingest user").
 */
import { define } from "@/lib/platform/define.ts";
import { revokeApiKey } from "@/lib/api_keys/api_keys.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { SuccessSchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  DELETE: {
    summary: "Revoke an API key",
    description: "The key fails at once.",
    access: ["admin"],
    responses: { 200: { description: "Revoked", schema: SuccessSchema }, 404: "API key not found" },
  },
});

export const handler = define.handlers({
  async DELETE(_req, ctx) {
    const audit = adminAudit(ctx.state, { action: "api_key.revoke", targetKind: "api_key" });
    await revokeApiKey(ctx.state.services.kv, ctx.params.id, audit);
    return Response.json({ success: true });
  },
});
