/**
 * Clocks for tests. The rate limits count hits in fixed windows (docs/decisions.md, Errors and limits, "Per-person
 * limits"): a test that fills a window and expects the next hit refused must not see the window end between its hits,
 * as the real clock may; `createTestApp({ rateLimitClock: stillClock() })` keeps every hit in one window.
 */

/**
 * A rate-limit clock (ms since the epoch) held 1 s into the current minute (so 1 s into a 10-second or 10-minute window
 * too): every hit of a test falls in one window however slowly a loaded machine runs it, and a refusal's Retry-After
 * is the window's rest.
 */
export function stillClock(): () => number {
  const at = Date.now() - (Date.now() % 60_000) + 1_000;
  return () => at;
}
