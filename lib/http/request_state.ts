/**
 * The first step of every request (`routes/_middleware.ts`): its id and client address in
 * `ctx.state`, the id sent back as `X-Request-Id`, and a debug-level access log line.
 */
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/** The client's address: the first `X-Forwarded-For` hop behind a trusted proxy, else the peer's. */
function clientIpOf(req: Request, trustProxy: boolean, peer: string): string {
  if (trustProxy) {
    const first = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return first;
  }
  return peer;
}

/** Sets `requestId` and `clientIp`, answers with `X-Request-Id`, and logs the request at debug level. */
export const requestState: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { config, log } = ctx.state.services;
  const started = performance.now();
  ctx.state.requestId = crypto.randomUUID();
  ctx.state.clientIp = clientIpOf(req, config.trustProxy, ctx.remoteAddr.hostname);
  const res = await ctx.next();
  res.headers.set("x-request-id", ctx.state.requestId);
  if (log.enabled("debug")) {
    log.debug("request", {
      requestId: ctx.state.requestId,
      method: req.method,
      path: ctx.url.pathname,
      status: res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  }
  return res;
};
