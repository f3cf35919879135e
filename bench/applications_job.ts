/**
 * Timeout job benchmark (docs/performance.md, Applications benchmark): the `applications-timeout` job run in this
 * process over the applications benchmark's waiting applications (`BENCH_RECORD`, default 100,000, seeded by
 * `bench/applications.ts` into a temporary file, or copied from `BENCH_SEED_FILE`), with no requests beside it. It
 * prints what depends little on the machine's load, as the run of `bench/applications.ts` prints what a reader feels:
 * - the CPU the job used (in a first run), per thread (the event loop, KV's writer `sw`, V8's helpers), in s;
 * - its synchronous stretches (in a second run over a copy): the event loop's CPU between two turns of a probe that takes every turn it can
 *   (`setImmediate`), so each stretch is what a request arriving then would have waited for at most, measured in CPU
 *   time of the thread (`CLOCK_THREAD_CPUTIME_ID`), which a busy machine does not stretch as it stretches wall time;
 * - the wall time and the load average, for reference.
 */
import { setImmediate } from "node:timers";
import { timeOutApplications } from "@/lib/applications/timeout.ts";
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

/**
 * Runs the job once over the KV file at `path`; with `probe`, a probe takes every turn of the event loop it can and
 * notes the thread's CPU between two of its turns (a stretch of other work) when over 0.1 ms.
 */
async function runJob(path: string, probe: boolean) {
  const kv = await Deno.openKv(path);
  const stretches: number[] = [];
  let turns = 0;
  let running = true;
  let ended = threadCpu();
  const tick = () => {
    const started = threadCpu();
    turns++;
    if (started - ended > 0.1) stretches.push(started - ended);
    if (running) setImmediate(tick);
    ended = threadCpu();
  };
  if (probe) setImmediate(tick);
  const before = threadCpuMs(Deno.pid);
  const started = performance.now();
  const counts = await timeOutApplications(kv, {
    now: new Date(),
    appUrl: "http://localhost",
    giveWay: () => new Promise<void>((resolve) => setImmediate(resolve)),
  });
  const wallMs = performance.now() - started;
  running = false;
  const after = threadCpuMs(Deno.pid);
  kv.close();
  const cpu = Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - (before[kind] ?? 0)]));
  return { counts, wallMs, cpu, stretches, turns };
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
  await Deno.copyFile(kvPath, `${dir}/probed.sqlite3`);
  const plain = await runJob(kvPath, false);
  const probed = await runJob(`${dir}/probed.sqlite3`, true);

  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const stretches = probed.stretches.sort((a, b) => a - b);
  const longer = (ms: number) => stretches.filter((stretch) => stretch > ms);
  const sum = (list: number[]) => list.reduce((total, stretch) => total + stretch, 0);
  const at = (share: number) => (stretches.at(Math.floor(probed.turns * (1 - share)) * -1 - 1) ?? 0).toFixed(3);
  console.log(`\nTimeout job benchmark (load average ${loadBefore} before, ${load()} after)\n`);
  console.log(`Answer: ${JSON.stringify(plain.counts)}`);
  console.log(`Wall time: ${seconds(plain.wallMs)} (with the probe ${seconds(probed.wallMs)})`);
  console.log(
    `CPU: event loop ${seconds(plain.cpu.request ?? 0)}, KV writer ${seconds(plain.cpu.sw ?? 0)}, V8 helpers ${
      seconds(plain.cpu["V8 DefaultWorke"] ?? 0)
    }`,
  );
  console.log(
    `Synchronous stretches (event loop CPU between two turns, ${probed.turns.toLocaleString("en-US")} turns): p99.9 ${
      at(0.999)
    } ms, p99.99 ${at(0.9999)} ms, longest ${(stretches.at(-1) ?? 0).toFixed(3)} ms; over 0.5 ms: ${
      longer(0.5).length
    }, over 1 ms: ${longer(1).length} (${seconds(sum(longer(1)))} in all), over 2 ms: ${longer(2).length}, over 5 ms: ${
      longer(5).length
    }`,
  );
} finally {
  libc.close();
  await Deno.remove(dir, { recursive: true });
}
