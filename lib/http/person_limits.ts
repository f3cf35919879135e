/**
 * Per-person limits of the write routes (docs/decisions.md, Errors and limits, "Per-person limits"): a route declares
 * the limit it falls under (`routeOptions.personLimit`, one name of `PERSON_LIMITS`), and this step of
 * `routes/_middleware.ts`, after the session, counts each write to it (POST, PUT, PATCH, DELETE; a limit with `reads`
 * counts every request) against the signed-in person, or without one against the client's address, through the
 * rate-limit service (`PERSON_LIMITS`, `lib/platform/rate_limits.ts`). Past the limit: 429 with `Retry-After`, before
 * the route runs. A limit marked `guestByPath` (a one-click unsubscribe link, whose token is its person) is counted for
 * a guest by the route itself once it has read the token (`countGuestByPath`): a known token against its path, an
 * unknown one against the client's address under that rule's cap, so a mail provider's many one-click requests from one
 * address all go through and one address making up paths is refused. They hold with `RATE_LIMITS=off`, which turns off
 * the auth limits only.
 */
import { readRouteOptions } from "@/lib/platform/route_options.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { HandlerContext, MiddlewareHandler } from "@/lib/web/types.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Counts the request against its route's per-person limit (see the module docstring). */
export const personLimits: MiddlewareHandler<AppState> = async (req, ctx) => {
  const name = readRouteOptions(ctx).personLimit;
  if (name) {
    const rule = PERSON_LIMITS[name];
    if (rule.reads || WRITES.has(req.method)) {
      const { rateLimits } = ctx.state.services;
      if (ctx.state.user) await rateLimits.hit(rule, `user:${ctx.state.user.id}`);
      else if (!rule.guestByPath) await rateLimits.hit(rule, `ip:${ctx.state.clientIp}`);
    }
  }
  return await ctx.next();
};

/**
 * Counts a guest's write to a route whose limit is marked `guestByPath`, once the route has read the token in its path
 * and before it writes anything: `tokenKnown`, against the path under the route's limit; otherwise against the client's
 * address under the `guestByPath` cap. Does nothing for a signed-in person (`personLimits` counted them).
 * @throws RateLimitedError (429, `Retry-After`) past either limit; Error when the route's limit is not `guestByPath`.
 */
export async function countGuestByPath(
  ctx: Pick<HandlerContext<unknown, AppState>, "state" | "url" | "routeOptions">,
  tokenKnown: boolean,
): Promise<void> {
  const name = readRouteOptions(ctx).personLimit;
  const rule = name && PERSON_LIMITS[name];
  if (!rule || !rule.guestByPath) throw new Error(`${ctx.url.pathname}: its route's limit is not counted by path`);
  if (ctx.state.user) return;
  const { rateLimits } = ctx.state.services;
  if (tokenKnown) await rateLimits.hit(rule, `path:${ctx.url.pathname}`);
  else await rateLimits.hit(rule.guestByPath, `ip:${ctx.state.clientIp}`);
}
