/**
 * Timeout job benchmark (docs/performance.md, Applications benchmark): the `applications-timeout` job run in this
 * process over the applications benchmark's waiting applications (`BENCH_RECORD`, default 100,000, seeded by
 * `bench/applications.ts` into a temporary file, or copied from `BENCH_SEED_FILE`), with no requests beside it. It
 * prints what depends little on the machine's load, as the run of `bench/applications.ts` prints what a reader feels:
 * - the CPU the job used (in a first run, taking its turns as the server's job does: `InFlightRequests.turns`), per
 *   thread (the event loop, KV's writer `sw`, V8's helpers), in s;
 * - its stretches between two looks of the event loop at its sockets (in a run over a copy, and in one more per
 *   `BENCH_TURNS` kind of turn: `io` as the server takes them, `immediate` as `setImmediate`, the job's turns before
 *   27 Nov 2026): a probe writes one byte on a loopback connection and reads it back, over and over, and notes the
 *   event loop's CPU between two of its reads, so each stretch is what a request arriving then would have waited for
 *   before the server read it, measured in CPU time of the thread (`CLOCK_THREAD_CPUTIME_ID`), which a busy machine
 *   does not stretch as it stretches wall time;
 * - the wall time and the load average, for reference.
 */
import { setImmediate } from "node:timers";
import { timeOutApplications } from "@/lib/applications/timeout.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import { openLoopback } from "@/lib/platform/io_turn.ts";
import { seedInChild, threadCpuMs } from "./harness.ts";

const RECORD = Number(Deno.env.get("BENCH_RECORD") ?? 100_000);
const CLOCK_THREAD_CPUTIME_ID = 3;

const libc = Deno.dlopen("libc.so.6", { clock_gettime: { parameters: ["i32", "buffer"], result: "i32" } });
const clock = new BigInt64Array(2);
const clockBytes = new Uint8Array(clock.buffer);
/** The CPU time (ms) the calling thread has used so far. */
function threadCpu(): number {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, clockBytes);
  return Number(clock[0]) * 1000 + Number(clock[1]) / 1e6;
}

/** How the job's pieces yield: as the server's job does (`io`), or by `setImmediate` (`immediate`). */
type TurnKind = "io" | "immediate";

/**
 * Runs the job once over the KV file at `path`, its pieces yielding by `turns`; with `probe`, a probe notes the event
 * loop's CPU between two looks at its sockets when over 0.1 ms (a stretch of other work).
 */
async function runJob(path: string, turns: TurnKind, probe: boolean) {
  const kv = await Deno.openKv(path);
  const stretches: number[] = [];
  let looks = 0;
  let running = true;
  const probing = probe
    ? (async () => {
      const pair = await openLoopback();
      if (!pair) throw new Error("the probe needs a loopback connection");
      const [writer, reader] = pair;
      const one = new Uint8Array(1);
      const buffer = new Uint8Array(64);
      let ended = threadCpu();
      while (running) {
        await writer.write(one);
        await reader.read(buffer);
        const started = threadCpu();
        looks++;
        if (started - ended > 0.1) stretches.push(started - ended);
        ended = threadCpu();
      }
      writer.close();
      reader.close();
    })()
    : Promise.resolve();
  await using requests = new InFlightRequests().turns();
  const before = threadCpuMs(Deno.pid);
  const started = performance.now();
  const counts = await timeOutApplications(kv, {
    now: new Date(),
    appUrl: "http://localhost",
    giveWay: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    turn: turns === "io" ? () => requests.next() : () => new Promise<void>((resolve) => setImmediate(resolve)),
  });
  const wallMs = performance.now() - started;
  running = false;
  await probing;
  const after = threadCpuMs(Deno.pid);
  kv.close();
  const cpu = Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - (before[kind] ?? 0)]));
  return { counts, wallMs, cpu, stretches, looks };
}

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const dir = await Deno.makeTempDir({ prefix: "applications-job-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
try {
  const seedFile = Deno.env.get("BENCH_SEED_FILE");
  if (seedFile) {
    await Deno.copyFile(seedFile, kvPath);
  } else {
    console.error(`Seeding ${RECORD.toLocaleString("en-US")} waiting applications into ${kvPath} ...`);
    await seedInChild(new URL("./applications.ts", import.meta.url), kvPath, {
      BENCH_PIPELINE: "0",
      BENCH_RECORD: String(RECORD),
    });
  }
  const loadBefore = load();
  const kinds = (Deno.env.get("BENCH_TURNS") ?? "io").split(",") as TurnKind[];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cpuOf = (cpu: Record<string, number>) =>
    `event loop ${seconds(cpu.request ?? 0)}, KV writer ${seconds(cpu.sw ?? 0)}, V8 helpers ${
      seconds(cpu["V8 DefaultWorke"] ?? 0)
    }`;
  const lines: string[] = [];
  await Deno.copyFile(kvPath, `${dir}/plain.sqlite3`);
  const plain = await runJob(`${dir}/plain.sqlite3`, "io", false);
  lines.push(`Answer: ${JSON.stringify(plain.counts)}`);
  lines.push(`Wall time: ${seconds(plain.wallMs)}; CPU: ${cpuOf(plain.cpu)}`);
  for (const kind of kinds) {
    await Deno.copyFile(kvPath, `${dir}/probed.sqlite3`);
    const probed = await runJob(`${dir}/probed.sqlite3`, kind, true);
    const stretches = probed.stretches.sort((a, b) => a - b);
    const longer = (ms: number) => stretches.filter((stretch) => stretch > ms);
    const sum = (list: number[]) => list.reduce((total, stretch) => total + stretch, 0);
    const at = (share: number) => (stretches.at(Math.floor(probed.looks * (1 - share)) * -1 - 1) ?? 0).toFixed(3);
    lines.push(
      `Turns by ${kind}: stretches between two looks at the sockets (${
        probed.looks.toLocaleString("en-US")
      } looks): p99 ${at(0.99)} ms, p99.9 ${at(0.999)} ms, longest ${
        (stretches.at(-1) ?? 0).toFixed(3)
      } ms; over 0.5 ms: ${longer(0.5).length}, over 1 ms: ${longer(1).length} (${
        seconds(sum(longer(1)))
      } in all), over 2 ms: ${longer(2).length}, over 5 ms: ${longer(5).length}; wall time ${seconds(probed.wallMs)}`,
    );
  }
  console.log(`\nTimeout job benchmark (load average ${loadBefore} before, ${load()} after)\n`);
  for (const line of lines) console.log(line);
} finally {
  libc.close();
  await Deno.remove(dir, { recursive: true });
}
