/**
 * Per-person limits of the write routes (docs/decisions.md, Errors and limits, "Per-person limits"): a route declares
 * the limit it falls under (`routeOptions.personLimit`, one name of `PERSON_LIMITS`), and this step of
 * `routes/_middleware.ts`, after the session, counts each write to it (POST, PUT, PATCH, DELETE; a limit with `reads`
 * counts every request) against the signed-in person, or the client's address without one (a one-click unsubscribe
 * link), through the fixed windows of `rate_limit.ts`. Past the limit: 429 with `Retry-After`, before the route runs.
 * They hold with `RATE_LIMITS=off`, which turns off the auth limits only.
 */
import { PERSON_LIMIT_NAMES, readRouteOptions } from "@/lib/platform/route_options.ts";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";
import { hitRateLimit, type RateLimitRule } from "./rate_limit.ts";

const TEN_MINUTES = 10 * 60_000;

/**
 * The limits, per person and 10 minutes: far above what a person does by hand, low enough that a script cannot turn a
 * route into a write flood. `reads` marks a limit that counts reads too (the data export, which reads everything).
 */
export const PERSON_LIMITS: Record<PersonLimitName, RateLimitRule & { reads?: boolean }> = {
  reactions: { name: "person_reactions", limit: 300, windowMs: TEN_MINUTES },
  saved: { name: "person_saved", limit: 600, windowMs: TEN_MINUTES },
  alerts: { name: "person_alerts", limit: 120, windowMs: TEN_MINUTES },
  settings: { name: "person_settings", limit: 60, windowMs: TEN_MINUTES },
  notifications: { name: "person_notifications", limit: 300, windowMs: TEN_MINUTES },
  push: { name: "person_push", limit: 60, windowMs: TEN_MINUTES },
  profile: { name: "person_profile", limit: 60, windowMs: TEN_MINUTES },
  comments: { name: "person_comment_edits", limit: 120, windowMs: TEN_MINUTES },
  progress: { name: "person_progress", limit: 600, windowMs: TEN_MINUTES },
  export: { name: "person_export", limit: 10, windowMs: TEN_MINUTES, reads: true },
  unsubscribe: { name: "person_unsubscribe", limit: 60, windowMs: TEN_MINUTES },
  submissions: { name: "person_submissions", limit: 30, windowMs: TEN_MINUTES },
  checkout: { name: "person_checkout", limit: 60, windowMs: TEN_MINUTES },
};

/** A limit a route may declare (the route options list the names). */
export type PersonLimitName = typeof PERSON_LIMIT_NAMES[number];

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Counts the request against its route's per-person limit (see the module docstring). */
export const personLimits: MiddlewareHandler<AppState> = async (req, ctx) => {
  const name = readRouteOptions(ctx).personLimit;
  if (name) {
    const rule = PERSON_LIMITS[name];
    if (rule.reads || WRITES.has(req.method)) {
      const subject = ctx.state.user ? `user:${ctx.state.user.id}` : `ip:${ctx.state.clientIp}`;
      await hitRateLimit(ctx.state.services.kv, { rule, subject });
    }
  }
  return await ctx.next();
};
