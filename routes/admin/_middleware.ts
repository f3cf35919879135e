/**
 * Every page under `/admin` is for admins (docs/api.md, Authentication, "Roles"). The guard stops
 * the request before any page handler runs: a guest reading a page is sent to
 * `/sign-in?callbackURL=<the page>`, a signed-in non-admin gets the 403 page, and a state-changing
 * request from anyone but an admin gets 401 or 403 `{error}`. An admin whose address is not verified is refused as a
 * non-admin, told to verify it first (docs/decisions.md, Auth, "`ADMIN_EMAILS` counts once the address is verified").
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn, assertVerifiedAdmin } from "@/lib/http/guards.ts";

export const handler = define.middleware((_req, ctx) => {
  assertSignedIn(ctx.state);
  assertVerifiedAdmin(ctx.state.user);
  return ctx.next();
});
