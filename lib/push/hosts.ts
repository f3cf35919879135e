/**
 * Which push services a subscription may name (docs/decisions.md, Push, "Subscriptions"): the endpoint's host must be
 * one of `PUSH_HOSTS`, so the server never posts to an address a client chose. Browser-safe and pure.
 */

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Whether `endpoint` may be posted to under the rules `hosts` (lower case): `host` allows that host on any port,
 * `host:port` that port only, `*.domain` any host below `domain`. The scheme is https, or http for a loopback host
 * that is listed (tests run a fake push service there). Anything unparsable, or with a user name, is refused.
 */
export function endpointAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.test(url.hostname))) return false;
  const host = url.hostname.toLowerCase();
  const port = url.port;
  return hosts.some((rule) => {
    const colon = rule.lastIndexOf(":");
    const bracketed = rule.startsWith("[");
    const hasPort = colon > 0 && (!bracketed || rule.indexOf("]") < colon);
    const ruleHost = hasPort ? rule.slice(0, colon) : rule;
    if (hasPort && rule.slice(colon + 1) !== port) return false;
    return ruleHost.startsWith("*.")
      ? host.endsWith(ruleHost.slice(1)) && host.length > ruleHost.length - 1
      : host === ruleHost;
  });
}
