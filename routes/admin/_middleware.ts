/**
 * Every page under `/admin` is for admins (docs/api.md, Authentication, "Roles"). The guard stops
 * the request before any page handler runs: a guest reading a page is sent to
 * `/sign-in?callbackURL=<the page>`, a signed-in non-admin gets the 403 page, and a state-changing
 * request from anyone but an admin gets 401 or 403 `{error}`.
 */
import { define } from "@/lib/platform/define.ts";
import { assertRole, assertSignedIn } from "@/lib/http/guards.ts";

export const handler = define.middleware((_req, ctx) => {
  assertSignedIn(ctx.state);
  assertRole(ctx.state.user, "admin");
  return ctx.next();
});
