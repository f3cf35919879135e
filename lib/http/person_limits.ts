/**
 * Per-person limits of the write routes (docs/decisions.md, Errors and limits, "Per-person limits"): a route declares
 * the limit it falls under (`routeOptions.personLimit`, one name of `PERSON_LIMITS`), and this step of
 * `routes/_middleware.ts`, after the session, counts each write to it (POST, PUT, PATCH, DELETE; a limit with `reads`
 * counts every request) against the signed-in person, or without one against the client's address, or the path for a
 * limit marked `guestByPath` (a one-click unsubscribe link, whose token is its person) and the address under that
 * rule's far higher cap (one address making up paths counts there, first), through the rate-limit service
 * (`PERSON_LIMITS`, `lib/platform/rate_limits.ts`). Past the limit: 429 with `Retry-After`, before the route runs. They hold with `RATE_LIMITS=off`, which turns off the auth limits only.
 */
import { readRouteOptions } from "@/lib/platform/route_options.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";
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
      else {
        await rateLimits.hit(rule.guestByPath, `ip:${ctx.state.clientIp}`);
        await rateLimits.hit(rule, `path:${ctx.url.pathname}`);
      }
    }
  }
  return await ctx.next();
};
