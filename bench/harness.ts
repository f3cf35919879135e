/**
 * What the benchmark scripts share: the loopback host they serve on, a free port, waiting for a
 * server to answer, percentiles of latency samples, and a process's resident memory.
 */

/** Every benchmark server listens here (loopback only). */
export const HOST = "127.0.0.1";

/** A TCP port free on `HOST` right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: HOST, port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Resolves once `url` answers with a 2xx status (or with `status`).
 * @throws Error when it has not within `deadlineMs` milliseconds.
 */
export async function waitFor(url: string, deadlineMs = 30_000, status?: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (status === undefined ? res.ok : res.status === status) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer in ${deadlineMs} ms`);
}

/** The `p`th percentile (0–100) of `sorted` (ascending). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A process's resident memory in MB: now (`VmRSS`) or at its peak (`VmHWM`), from /proc. */
export function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}
