/** Every route under `/api/admin` is for admins only: 401 without a session, 403 for other roles. */
import { define } from "@/lib/platform/define.ts";
import { assertRole, assertSignedIn } from "@/lib/http/guards.ts";

export const handler = define.middleware((_req, ctx) => {
  assertSignedIn(ctx.state);
  assertRole(ctx.state.user, "admin");
  return ctx.next();
});
