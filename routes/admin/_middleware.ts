/**
 * Every page under `/admin` is for admins (specification "Authentication" 7 and 8, as pages):
 * a guest reading one is sent to `/sign-in?callbackURL=<the page>`; a signed-in non-admin gets
 * status 403, with the body that `_layout.tsx` renders in place of the page. A state-changing
 * request from anyone but an admin is refused before any handler runs (401 or 403).
 */
import { assertRole, assertSignedIn } from "../../lib/http/guards.ts";
import type { AppState } from "../../lib/platform/state.ts";
import type { MiddlewareHandler } from "../../lib/web/types.ts";

export const handler: MiddlewareHandler<AppState> = async (req, ctx) => {
  const read = req.method === "GET" || req.method === "HEAD";
  const { user } = ctx.state;
  if (!user && read) {
    const target = new URLSearchParams({ callbackURL: ctx.url.pathname + ctx.url.search });
    return new Response(null, { status: 302, headers: { location: `/sign-in?${target}` } });
  }
  if (!read) {
    assertSignedIn(ctx.state);
    assertRole(ctx.state.user, "admin");
  }
  const res = await ctx.next();
  if (user?.role === "admin") return res;
  return new Response(res.body, { status: 403, headers: res.headers });
};
