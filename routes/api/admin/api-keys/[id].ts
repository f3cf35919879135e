/** `DELETE /api/admin/api-keys/{id}` → `{success: true}`; the key fails at once (CONTRACT.md §2). */
import { revokeApiKey } from "../../../../lib/api_keys/api_keys.ts";
import type { AppState } from "../../../../lib/platform/state.ts";
import type { Handlers } from "../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async DELETE(_req, ctx) {
    await revokeApiKey(ctx.state.services.kv, ctx.params.id);
    return Response.json({ success: true });
  },
};
