/**
 * What the benchmark scripts share: the loopback host they serve on, a free port, waiting for a
 * server to answer, percentiles of latency samples, a process's resident memory, the platform
 * started on a KV file as `deno task start` starts it, and the listing owners the seeds write.
 */
import { createUser, type User } from "@/lib/users/users.ts";
import { linkProgress } from "@/lib/organizations/link.ts";
import config from "../deno.json" with { type: "json" };

/**
 * The arguments of `deno` that start the server, as the `start` task gives them (`run`, its flags, `main.ts`): a
 * benchmark measures the server with the V8 flags production runs with (docs/performance.md, Scale, "Heap growth").
 */
export const SERVER_ARGS: string[] = config.tasks.start.split(/\s+/).slice(1);

/**
 * The `JOBS` setting a benchmark server on the KV file `kvPath` runs with: "on", as in production, unless the one-time
 * organization link is not done in the file (one seeded before `bench/listings.ts` stored its listings linked): then
 * "off", said on stderr, since the link would walk every listing from the server's first minute boundary on and its
 * writes would slow the requests measured at random moments of the run (docs/performance.md, Scale, "Jobs during a
 * run").
 */
export async function jobsSetting(kvPath: string): Promise<"on" | "off"> {
  const kv = await Deno.openKv(kvPath);
  try {
    if ((await linkProgress(kv))?.done) return "on";
  } finally {
    kv.close();
  }
  console.error(`The organization link is not done in ${kvPath}: the server runs with JOBS=off`);
  return "off";
}

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

/**
 * The CPU time in ms a process has used so far (user and system, from /proc): on a shared machine a start's CPU time
 * says what it costs, where its wall time also says how busy the neighbours were.
 */
export function cpuMs(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The CPU time in ms each kind of thread of a process has used so far (from /proc): `request` for its main thread (the
 * one that runs the server's JavaScript and answers requests), the others by their thread name without its number
 * (`worker` for Web Workers, `tokio-runtime-w` for the runtime's pool, `sw` for the KV store's writer, …).
 */
export function threadCpuMs(pid: number): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const { name: tid } of Deno.readDirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue; // the thread ended meanwhile
    }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const kind = tid === String(pid) ? "request" : comm.replace(/-?\d+$/, "");
    const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    kinds[kind] = (kinds[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return kinds;
}

/** The argument a benchmark script takes to seed a KV file in a child process: `<script> --seed-into <kv path>`. */
export const SEED_INTO = "--seed-into";

/**
 * Runs `script` with `SEED_INTO kvPath` in a child process (`env` on top of this process's environment) and returns
 * what it printed, parsed as JSON (what it seeded).
 * @throws Error when the child fails.
 */
export async function seedInChild<T>(script: URL, kvPath: string, env: Record<string, string> = {}): Promise<T> {
  const seeding = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script.pathname, SEED_INTO, kvPath],
    env,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!seeding.success) throw new Error(`Seeding with ${script.pathname} failed`);
  return JSON.parse(new TextDecoder().decode(seeding.stdout));
}

/**
 * What was seeded into a kept KV file, read from the JSON file `setup` beside it; else what `seed` seeds, written to
 * `setup` when `keep` (a temporary KV file is seeded afresh every run).
 */
export async function seededOnce<T>(setup: string, keep: boolean, seed: () => Promise<T>): Promise<T> {
  if (keep && await Deno.stat(setup).then(() => true, () => false)) {
    console.error(`Reusing the seed recorded in ${setup}`);
    return JSON.parse(await Deno.readTextFile(setup));
  }
  const seeded = await seed();
  if (keep) await Deno.writeTextFile(setup, JSON.stringify(seeded));
  return seeded;
}

/** The platform started by `startPlatform`: its origin (`http://127.0.0.1:{port}`) and its process. */
export interface Platform {
  origin: string;
  process: Deno.ChildProcess;
}

/**
 * Starts the real server (`main.ts`, a separate process) on the KV file `kvPath` at a free port of `HOST`, with
 * `LOG_LEVEL=error` and `env` on top; its output is dropped but for errors, or piped with `stdout: "piped"` (read
 * `process.stdout`). With `inspectPort` its V8 inspector listens there (for `startCpuProfile`). Wait for it with
 * `waitFor`; end it with `stopPlatform`.
 */
export function startPlatform(
  kvPath: string,
  env: Record<string, string> = {},
  options: { inspectPort?: number; stdout?: "piped" } = {},
): Platform {
  const origin = `http://${HOST}:${freePort()}`;
  const { inspectPort, stdout = "null" } = options;
  const process = new Deno.Command(Deno.execPath(), {
    args: inspectPort ? [SERVER_ARGS[0], `--inspect=${HOST}:${inspectPort}`, ...SERVER_ARGS.slice(1)] : SERVER_ARGS,
    cwd: new URL("..", import.meta.url).pathname,
    env: { KV_PATH: kvPath, PORT: new URL(origin).port, HOST, APP_URL: origin, LOG_LEVEL: "error", ...env },
    stdout,
    stderr: "inherit",
  }).spawn();
  return { origin, process };
}

/** Ends a server `startPlatform` started (SIGTERM) and waits for it; nothing when it is gone already. */
export async function stopPlatform(platform: Platform | undefined): Promise<void> {
  if (!platform) return;
  try {
    platform.process.kill("SIGTERM");
    await platform.process.status;
  } catch {
    // already gone
  }
}

/**
 * p50 and p95 in ms of `samples` sequential GETs of `url(i)` (i from 0) with `headers`, after `warmup` requests
 * (i from `samples` on, so a warm-up never caches a measured page), and the last JSON body answered.
 * @throws Error when an answer is not 200.
 */
export async function latencyOf(
  url: (i: number) => string,
  { headers = {}, warmup = 20, samples = 300 }: { headers?: HeadersInit; warmup?: number; samples?: number } = {},
): Promise<{ p50: number; p95: number; body: unknown }> {
  const times: number[] = [];
  let body: unknown;
  for (let n = 0; n < warmup + samples; n++) {
    const i = n < warmup ? samples + n : n - warmup;
    const started = performance.now();
    const res = await fetch(url(i), { headers });
    body = await res.json();
    if (res.status !== 200) throw new Error(`${url(i)} answered ${res.status}`);
    if (n >= warmup) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), body };
}

/**
 * p50 and p95 in ms of `samples` sequential requests `request(i)` (i from 0), after 20 warm-ups `request(warmupIndex(n))`
 * (n from 0; by default i from `samples` on, so a warm-up never repeats a measured request), and the first warm-up's
 * time in ms.
 * @throws Error when an answer's status is not `expect`.
 */
export async function requestLatency(
  request: (i: number) => Promise<Response>,
  { expect = 200, samples = 300, warmupIndex = (n: number) => samples + n }: {
    expect?: number;
    samples?: number;
    warmupIndex?: (n: number) => number;
  } = {},
): Promise<[number, number, number]> {
  const timed = async (i: number) => {
    const started = performance.now();
    const res = await request(i);
    await res.arrayBuffer();
    if (res.status !== expect) throw new Error(`status ${res.status}, expected ${expect}`);
    return performance.now() - started;
  };
  let first = 0;
  for (let n = 0; n < 20; n++) {
    const time = await timed(warmupIndex(n));
    if (n === 0) first = time;
  }
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await timed(i));
  times.sort((a, b) => a - b);
  return [percentile(times, 50), percentile(times, 95), first];
}

/** Creates the five listing owners a benchmark seed writes (`owner{i}@bench.example`, the first an admin). */
export async function seedOwners(kv: Deno.Kv): Promise<User[]> {
  const owners: User[] = [];
  for (let i = 0; i < 5; i++) {
    owners.push(
      await createUser(kv, {
        name: `Bench owner ${i}`,
        email: `owner${i}@bench.example`,
        emailVerified: true,
        role: i === 0 ? "admin" : "member",
      }),
    );
  }
  return owners;
}

/** A CPU profile being taken of a process started with `--inspect=HOST:port`, over the inspector's WebSocket. */
export interface CpuProfiler {
  /** Stops the profile; writes it (Chrome's `.cpuprofile` JSON) to `path`; returns the top functions by self time. */
  stop(path: string, top?: number): Promise<string[]>;
}

/**
 * Starts V8's sampling profiler in the process whose inspector listens at `HOST:port` (started with
 * `--inspect=127.0.0.1:port`; waits up to 30 s for it).
 * @throws Error when the inspector does not answer.
 */
export async function startCpuProfile(port: number): Promise<CpuProfiler> {
  let targets: { webSocketDebuggerUrl: string }[] = [];
  for (let i = 0; i < 300 && targets.length === 0; i++) {
    targets = await fetch(`http://${HOST}:${port}/json/list`).then((res) => res.json(), () => []);
    if (targets.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (targets.length === 0) throw new Error(`No inspector at ${HOST}:${port}`);
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
  };
  let id = 0;
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 1000 });
  await send("Profiler.start");
  return {
    async stop(path, top = 15) {
      const { profile } = await send("Profiler.stop") as { profile: CpuProfile };
      socket.close();
      await Deno.writeTextFile(path, JSON.stringify(profile));
      return topFunctions(profile, top);
    },
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The `top` functions of `profile` by self time: `share % ms function file:line`. */
function topFunctions(profile: CpuProfile, top: number): string[] {
  const self = new Map<number, number>();
  profile.samples.forEach((node, i) => self.set(node, (self.get(node) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  for (const { id, callFrame } of profile.nodes) {
    const where = callFrame.url ? ` ${callFrame.url.split("/").slice(-2).join("/")}:${callFrame.lineNumber + 1}` : "";
    const name = `${callFrame.functionName || "(anonymous)"}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + (self.get(id) ?? 0));
  }
  const total = [...byFunction.values()].reduce((sum, us) => sum + us, 0) || 1;
  return [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) =>
    `${(100 * us / total).toFixed(1).padStart(5)} % ${(us / 1000).toFixed(0).padStart(6)} ms ${name}`
  );
}
