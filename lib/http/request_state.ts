/**
 * The first step of every request (`routes/_middleware.ts`): its id and client address in `ctx.state`, the id sent
 * back as `X-Request-Id`, and a debug-level access log line. The address is the one per-address limits count
 * (docs/decisions.md, Running, "The client's address behind a proxy"): behind `proxyHops` proxies that append to
 * `X-Forwarded-For`, the hop the outermost one appended (what the client sent in front of it is ignored), else the
 * connection's peer; an IPv6 address counts as its /64, which one subscriber usually holds whole.
 */
import {
  convertIPv4BinaryToString,
  convertIPv4MappedIPv6ToIPv4,
  convertIPv6BinaryToString,
  convertIPv6ToBinary,
  isIPv4MappedIPv6,
} from "hono/utils/ipaddr";
import type { AppState } from "@/lib/platform/state.ts";
import type { MiddlewareHandler } from "@/lib/web/types.ts";

/**
 * The client's address: with `proxyHops` proxies in front, the `proxyHops`-th `X-Forwarded-For` hop from the right
 * (the left-most when there are fewer), else the peer's.
 */
function clientAddressOf(req: Request, proxyHops: number, peer: string): string {
  if (proxyHops > 0) {
    const hops = req.headers.get("x-forwarded-for")?.split(",").map((hop) => hop.trim()).filter(Boolean) ?? [];
    if (hops.length > 0) return hops[Math.max(0, hops.length - proxyHops)];
  }
  return peer;
}

/**
 * The subject of per-address limits for `address`: an IPv6 address (bracketed or not, with a zone or not) as its /64
 * (`2001:db8:1:2::/64`), an IPv4-mapped one as its IPv4 address; anything else (IPv4, or text that is no address) as
 * it is.
 */
function limitAddress(address: string): string {
  if (!address.includes(":")) return address;
  const ipv6 = (/^\[([^\]]*)\]/.exec(address)?.[1] ?? address).split("%")[0];
  let binary: bigint;
  try {
    binary = convertIPv6ToBinary(ipv6);
  } catch {
    return address;
  }
  if (isIPv4MappedIPv6(binary)) return convertIPv4BinaryToString(convertIPv4MappedIPv6ToIPv4(binary));
  return `${convertIPv6BinaryToString((binary >> 64n) << 64n)}/64`;
}

/** Sets `requestId` and `clientIp`, answers with `X-Request-Id`, and logs the request at debug level. */
export const requestState: MiddlewareHandler<AppState> = async (req, ctx) => {
  const { config, log } = ctx.state.services;
  const started = performance.now();
  ctx.state.requestId = crypto.randomUUID();
  ctx.state.clientIp = limitAddress(clientAddressOf(req, config.proxyHops, ctx.remoteAddr.hostname));
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
