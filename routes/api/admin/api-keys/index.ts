/**
 * `GET /api/admin/api-keys` → `{apiKeys}` and `POST` `{name}` → 201 `{apiKey, key}` (the key is
 * shown only here). Admin only by place (docs/decisions.md, Auth, "Ingest user").
 */
import { define } from "@/lib/platform/define.ts";
import { ApiKeyCreateSchema, createApiKey, listApiKeys } from "@/lib/api_keys/api_keys.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

export const apiDocs = describeRoute({
  GET: { summary: "List API keys (never the keys themselves)", access: ["admin"], responses: { 200: "`{apiKeys}`" } },
  POST: {
    summary: "Create an ingest API key",
    description: "The key is in this answer only.",
    access: ["admin"],
    body: ApiKeyCreateSchema,
    responses: { 201: "`{apiKey, key}`" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ apiKeys: await listApiKeys(ctx.state.services.kv) });
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const { name } = await readBody(req, ApiKeyCreateSchema);
    const created = await createApiKey(ctx.state.services.kv, ctx.state.user, name);
    return Response.json(created, { status: 201 });
  },
});
