/**
 * The last step of `routes/_middleware.ts` (docs/decisions.md, Push, "Outbox"): after a request that may have written
 * (any method but `GET` and `HEAD`) is answered without an error, starts the push outbox's drain in the background
 * (`startPushDelivery`, one per process at a time), so a notification the request raised reaches the phone in seconds,
 * not at the `push-outbox` job's next minute.
 */
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";
import { startPushDelivery } from "@/lib/push/outbox.ts";

/** Starts the push outbox's drain after a successful write request. */
export const pushDelivery: MiddlewareHandler<AppState> = async (req, ctx) => {
  const res = await ctx.next();
  if (req.method !== "GET" && req.method !== "HEAD" && res.status < 400) startPushDelivery(ctx.state.services);
  return res;
};
