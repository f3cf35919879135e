/**
 * Every route under `/api/admin` is for admins only: 401 without a session, 403 for other roles and for an admin whose
 * address is not verified (docs/decisions.md, Auth, "`ADMIN_EMAILS` counts once the address is verified").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn, assertVerifiedAdmin } from "@/lib/http/guards.ts";

export const handler = define.middleware((_req, ctx) => {
  assertSignedIn(ctx.state);
  assertVerifiedAdmin(ctx.state.user);
  return ctx.next();
});
