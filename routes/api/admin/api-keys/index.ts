/**
 * `GET` and `POST /api/admin/api-keys`: the ingest API keys; its `apiDocs` below are its description (docs/api.md,
 * Admin; docs/decisions.md, Auth, "Ingest user").
 */
import { define } from "@/lib/platform/define.ts";
import { ApiKeyCreateSchema, createApiKey, listApiKeys } from "@/lib/api_keys/api_keys.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { z } from "zod";
import { ApiKeySchema } from "@/lib/openapi/resources.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "List API keys (never the keys themselves)",
    access: ["admin"],
    responses: { 200: { description: "The keys", schema: z.strictObject({ apiKeys: z.array(ApiKeySchema) }) } },
  },
  POST: {
    summary: "Create an ingest API key",
    description: "The key is in this answer only; it posts internships as the admin who created it (`Authorization: " +
      "Bearer <key>`), and fails once revoked or once that admin is no longer an admin.",
    access: ["admin"],
    body: ApiKeyCreateSchema,
    responses: {
      201: {
        description: "Created: `key` is the secret, shown only here",
        schema: z.strictObject({ apiKey: ApiKeySchema, key: z.string() }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ apiKeys: await listApiKeys(ctx.state.services.kv) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { name } = await readBody(req, ApiKeyCreateSchema);
    const audit = adminAudit(ctx.state, { action: "api_key.create", targetKind: "api_key" });
    const created = await createApiKey(ctx.state.services.kv, ctx.state.user, { name, audit });
    return Response.json(created, { status: 201 });
  },
});
