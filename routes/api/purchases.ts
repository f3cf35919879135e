/** `GET /api/purchases` (session): the caller's purchases, newest first, each with `toolkit {id, title}` or null. CONTRACT.md §6. */
import { assertSignedIn } from "../../lib/http/guards.ts";
import type { AppState } from "../../lib/platform/state.ts";
import { purchaseHistory } from "../../lib/toolkits/learning.ts";
import type { Handlers } from "../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    return Response.json({ purchases: await purchaseHistory(ctx.state.services.kv, ctx.state.user.id) });
  },
};
