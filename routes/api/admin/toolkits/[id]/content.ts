/** `GET /api/admin/toolkits/{id}/content` → `{contentItems}` by `orderIndex`, bodies included. Admins only. CONTRACT.md §6. */
import type { AppState } from "../../../../../lib/platform/state.ts";
import { listContentItems, readToolkit } from "../../../../../lib/toolkits/catalog.ts";
import type { Handlers } from "../../../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    await readToolkit(kv, ctx.params.id, ctx.state.user);
    return Response.json({ contentItems: await listContentItems(kv, ctx.params.id) });
  },
};
