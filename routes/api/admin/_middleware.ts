/** Every route under `/api/admin` is for admins only: 401 without a session, 403 for other roles. */
import { assertRole, assertSignedIn } from "../../../lib/http/guards.ts";
import type { AppState } from "../../../lib/platform/state.ts";
import type { MiddlewareHandler } from "../../../lib/web/types.ts";

export const handler: MiddlewareHandler<AppState> = (_req, ctx) => {
  assertSignedIn(ctx.state);
  assertRole(ctx.state.user, "admin");
  return ctx.next();
};
