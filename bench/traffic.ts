/**
 * Mixed traffic (docs/performance.md, Scale): `BENCH_OPEN` open (default 100,000) and `BENCH_CLOSED` closed (default
 * 0) internships and 1,000 students with sessions (three saved items each) are seeded through the store in a child
 * process; the real server (`main.ts`) starts on the file; then `autocannon` drives 200 concurrent simulated students
 * (`BENCH_CONNECTIONS`) from this process, beside the server on the same machine, for 10 s of warm-up
 * (`BENCH_WARMUP`: connections opened, code compiled; its answers are reported apart) and then 60 s measured
 * (`BENCH_SECONDS`), each student sending one request a second (`BENCH_RATE`; a student reads between clicks; 0 sends
 * each next request as soon as the last is answered, a stress test whose latencies are the queue of 200 waiting
 * requests). Students click independently: each starts at a random moment of the first second, so requests arrive
 * spread over each second rather than all 200 at once. The mix is realistic, API and HTML alike:
 * - half list pages with random filters and pages (a tenth with `includeClosed=true`),
 * - a quarter internship pages (HTML and API, open ones and some closed ones),
 * - the rest the home page, sign-in, saves (`PUT /api/me/saved/...`), the saved ids and the tracker;
 * about a third of the requests carry a student's session. Prints p50/p95/p99 overall and per kind, the request
 * rate, the server's CPU time per request and every error (a status other than the one expected, a socket error, a
 * timeout), with the load average. The server runs with its scheduled jobs, or with `JOBS=off` on a file whose one-time
 * organization link is not done (`jobsSetting`).
 * Requests carry no `Accept-Encoding` (answers go uncompressed) unless `BENCH_ENCODING` gives one, e.g.
 * `BENCH_ENCODING="gzip, deflate, br, zstd"` as Chrome sends it: then `Deno.serve` compresses the answers, as it does
 * for every browser, and the server's CPU per request includes that.
 * `BENCH_PROFILE=<file>` takes a CPU profile of the server while the traffic runs (written as a `.cpuprofile`) and
 * prints the functions with the most self time. `BENCH_KV` keeps the seeded file to repeat a run; a file
 * `bench/internships.ts` seeded keeps its listings (only the students are added), so the 1,000,000-listing file
 * serves both.
 */
import autocannon from "autocannon";
import {
  cpuMs,
  freePort,
  jobsSetting,
  percentile,
  type Platform,
  rssMb,
  SEED_INTO,
  seededOnce,
  seedInChild,
  startCpuProfile,
  startPlatform,
  stopPlatform,
  waitFor,
} from "./harness.ts";
import { random, randomFilter, seedListings } from "./listings.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { saveItem } from "@/lib/saved/saved.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { ArchiveBlock } from "@/lib/kv/chunked/archive_block.ts";
import { createUser } from "@/lib/users/users.ts";

const OPEN = Number(Deno.env.get("BENCH_OPEN") ?? 100_000);
const CLOSED = Number(Deno.env.get("BENCH_CLOSED") ?? 0);
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 200);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 60);
/** Seconds of the same traffic before the measured ones (connections opened, code compiled); reported apart. */
const WARMUP = Number(Deno.env.get("BENCH_WARMUP") ?? 10);
/** Requests a second per simulated student (0: no pause, the next request once the last is answered). */
const RATE = Number(Deno.env.get("BENCH_RATE") ?? 1);
const STUDENTS = 1000;
const PROFILE = Deno.env.get("BENCH_PROFILE");
/** The `Accept-Encoding` of every request (none by default). */
const ENCODING = Deno.env.get("BENCH_ENCODING");

if (Deno.args[0] === SEED_INTO) {
  console.log(JSON.stringify(await seed(Deno.args[1])));
  Deno.exit(0);
}

/** Seeds owners, listings and students with sessions and saved items; returns the ids and cookies requests use. */
async function seed(path: string) {
  const kv = await Deno.openKv(path);
  const owners: string[] = [];
  for (let i = 0; i < 5; i++) {
    owners.push(
      (await createUser(kv, {
        name: `Recruiter ${i}`,
        email: `recruiter${i}@bench.example`,
        emailVerified: true,
        role: "member",
      })).id,
    );
  }
  // A file seeded by `bench/internships.ts` (BENCH_KV) keeps its listings: only students are added.
  const { model, archive } = await internshipStore(kv);
  const listings = model.slots.live > 0
    ? {
      openIds: Array.from(model.columns.publicView().slots.subarray(0, 1000), (slot) => model.slots.ids[slot]),
      closedIds: await someArchived(kv, archive.keys.blocks),
      seedMs: 0,
    }
    : await seedListings(kv, { open: OPEN, closed: CLOSED, owners });
  const cookies: string[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const student = await createUser(kv, {
      name: `Student ${i}`,
      email: `student${i}@bench.example`,
      emailVerified: true,
      role: "user",
    });
    cookies.push(`session=${(await createSession(kv, student.id)).token}`);
    for (let j = 0; j < 3; j++) {
      const id = listings.openIds[(i * 3 + j) % listings.openIds.length];
      await saveItem(kv, { userId: student.id, kind: "internships", id, change: { note: undefined } });
    }
  }
  kv.close();
  return { openIds: listings.openIds, closedIds: listings.closedIds, cookies, seedMs: listings.seedMs };
}

/** The ids of up to 200 archived listings (from the first blocks of the archive). */
async function someArchived(kv: Deno.Kv, blocks: Deno.KvKey): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of kv.list<Uint8Array>({ prefix: blocks }, { limit: 5 })) {
    const block = new ArchiveBlock(entry.value);
    for (let i = 0; i < block.count && ids.length < 200; i += 7) ids.push(block.id(i));
  }
  return ids;
}

type Kind = "list" | "listing" | "home" | "sign-in" | "save" | "saved ids" | "tracker";

/** One simulated request: its kind, path, method and body, with or without a student's session. */
interface Planned {
  kind: Kind;
  path: string;
  method: "GET" | "PUT";
  body?: string;
  cookie?: string;
}

/** The next request of the mix (see the module docstring). */
function planner(next: () => number, seeded: Awaited<ReturnType<typeof seed>>): () => Planned {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  return () => {
    const cookie = next() < 0.35 ? pick(seeded.cookies) : undefined;
    const r = next();
    if (r < 0.5) {
      const params = randomFilter(next);
      if (next() < 0.1) params.set("includeClosed", "true");
      if (next() < 0.4) params.set("offset", String(Math.floor(next() * 20) * 10));
      if (next() < 0.3) params.delete("search");
      return { kind: "list", method: "GET", cookie, path: `${next() < 0.5 ? "/api" : ""}/internships?${params}` };
    }
    if (r < 0.75) {
      const id = next() < 0.9 || seeded.closedIds.length === 0 ? pick(seeded.openIds) : pick(seeded.closedIds);
      return { kind: "listing", method: "GET", cookie, path: `${next() < 0.5 ? "/api" : ""}/internships/${id}` };
    }
    const rest = next();
    if (rest < 0.3) return { kind: "home", method: "GET", cookie, path: "/" };
    if (rest < 0.45) return { kind: "sign-in", method: "GET", path: "/sign-in" };
    const student = cookie ?? pick(seeded.cookies);
    if (rest < 0.65) {
      const id = pick(seeded.openIds);
      return { kind: "save", method: "PUT", cookie: student, path: `/api/me/saved/internships/${id}`, body: "{}" };
    }
    if (rest < 0.8) return { kind: "saved ids", method: "GET", cookie: student, path: "/api/me/saved/ids" };
    return { kind: "tracker", method: "GET", cookie: student, path: "/me/tracker" };
  };
}

const kept = Deno.env.get("BENCH_KV");
const dir = kept ? null : await Deno.makeTempDir({ prefix: "traffic-bench-" });
const kvPath = kept ?? `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
let server: Platform | undefined;

try {
  const seeded = await seededOnce(`${kvPath}.traffic.json`, Boolean(kept), () => {
    console.error(`Seeding ${fmt(OPEN, 0)} open and ${fmt(CLOSED, 0)} closed internships, ${STUDENTS} students ...`);
    return seedInChild<Awaited<ReturnType<typeof seed>>>(new URL(import.meta.url), kvPath);
  });

  const jobs = await jobsSetting(kvPath);
  const inspectPort = freePort();
  server = startPlatform(kvPath, { RATE_LIMITS: "off", JOBS: jobs }, {
    inspectPort: PROFILE ? inspectPort : undefined,
  });
  const { origin } = server;
  await waitFor(`${origin}/api/internships`, 120_000);
  // Warm the pages once (the first request of each kind builds what later ones reuse).
  for (const path of ["/", "/internships", "/sign-in", `/internships/${seeded.openIds[0]}`]) {
    await (await fetch(`${origin}${path}`)).arrayBuffer();
  }

  const next = random(2026);
  const plan = planner(next, seeded);
  const samples = new Map<Kind, number[]>();
  const errors = new Map<string, number>();
  const countError = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
  const loadBefore = Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  console.error(`Driving ${CONNECTIONS} simulated students for ${WARMUP} s of warm-up and ${SECONDS} s measured ...`);
  const warmup: number[] = [];
  /** Answers to requests sent in [measuredFrom, measuredUntil) (`performance.now()` ms) are the measured ones. */
  let measuredFrom = Infinity;
  let measuredUntil = Infinity;
  /** What a simulated student sends next, and what is recorded of its answer. */
  const request = {
    setupRequest(request: Record<string, unknown>, context: Record<string, unknown>) {
      const planned = plan();
      context.planned = planned;
      context.started = performance.now();
      const headers: Record<string, string> = {
        accept: planned.path.startsWith("/api") ? "application/json" : "text/html",
      };
      if (planned.cookie) headers.cookie = planned.cookie;
      if (ENCODING) headers["accept-encoding"] = ENCODING;
      if (planned.method === "PUT") {
        headers.origin = origin;
        headers["content-type"] = "application/json";
      }
      return { ...request, method: planned.method, path: planned.path, headers, body: planned.body };
    },
    onResponse(status: number, _body: string, context: Record<string, unknown>) {
      const planned = context.planned as Planned;
      const started = context.started as number;
      const ms = performance.now() - started;
      if (status !== 200) countError(`${planned.kind}: status ${status}`);
      if (started < measuredFrom) warmup.push(ms);
      if (started < measuredFrom || started >= measuredUntil) return;
      let list = samples.get(planned.kind);
      if (!list) samples.set(planned.kind, list = []);
      list.push(ms);
    },
  };
  // With a rate, each simulated student is an autocannon instance of its own connection, started at a random moment
  // of the first period: students click independently of each other. (One instance of 200 connections starts every
  // connection's one-second timer in the same millisecond, so the 200 requests of each second arrived together.)
  const runs = RATE > 0
    ? Array.from({ length: CONNECTIONS }, async () => {
      await new Promise((resolve) => setTimeout(resolve, next() * 1000 / RATE));
      return await autocannon({
        url: origin,
        connections: 1,
        connectionRate: RATE,
        duration: WARMUP + SECONDS + 1 / RATE,
        timeout: 10,
        requests: [request],
      });
    })
    : [
      autocannon({
        url: origin,
        connections: CONNECTIONS,
        duration: WARMUP + SECONDS + 1,
        timeout: 10,
        requests: [request],
      }),
    ];
  await new Promise((resolve) => setTimeout(resolve, WARMUP * 1000));
  measuredFrom = performance.now();
  const profiler = PROFILE ? await startCpuProfile(inspectPort) : null;
  const cpuBefore = cpuMs(server.process.pid);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuredUntil = performance.now();
  const serverCpu = cpuMs(server.process.pid) - cpuBefore;
  const hot = profiler ? await profiler.stop(PROFILE!) : [];
  const results: { errors: number; timeouts: number }[] = await Promise.all(runs);
  const loadAfter = Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
  const socketErrors = results.reduce((sum, result) => sum + result.errors, 0);
  const timeouts = results.reduce((sum, result) => sum + result.timeouts, 0);
  if (socketErrors > 0) errors.set("socket errors", socketErrors);
  if (timeouts > 0) errors.set("timeouts (10 s)", timeouts);
  const rss = rssMb(server.process.pid, "VmHWM");

  const all = [...samples.values()].flat().sort((a, b) => a - b);
  const line = (label: string, list: number[]) => {
    const sorted = list.toSorted((a, b) => a - b);
    if (sorted.length === 0) return `| ${label} | 0 | – | – | – |`;
    return `| ${label} | ${fmt(sorted.length, 0)} | ${fmt(percentile(sorted, 50), 1)} | ${
      fmt(percentile(sorted, 95), 1)
    } | ${fmt(percentile(sorted, 99), 1)} |`;
  };
  console.log(
    `\nMixed traffic: ${CONNECTIONS} simulated students (${
      RATE > 0 ? `${fmt(RATE)} request/s each` : "no pause between requests"
    }${ENCODING ? `, Accept-Encoding "${ENCODING}"` : ""}) for ${SECONDS} s after ${WARMUP} s of warm-up, against ${
      fmt(OPEN, 0)
    } open + ${fmt(CLOSED, 0)} ` +
      `closed internships, ${navigator.hardwareConcurrency} CPUs, JOBS=${jobs}, load average ${loadBefore} before, ${loadAfter} after\n`,
  );
  console.log("| Requests | count | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|");
  console.log(line("all", all));
  for (const [kind, list] of [...samples].sort((a, b) => b[1].length - a[1].length)) console.log(line(kind, list));
  console.log(line(`warm-up (first ${WARMUP} s, not counted above)`, warmup));
  console.log(
    `\n${fmt(all.length / SECONDS, 0)} requests/s; server CPU ${fmt(serverCpu / Math.max(1, all.length), 2)} ms a ` +
      `request (${fmt(serverCpu / 10 / SECONDS, 0)} % of one CPU); server peak RSS ${fmt(rss, 0)} MB; errors: ${
        errors.size === 0 ? "none" : [...errors].map(([what, n]) => `${what} × ${n}`).join(", ")
      }`,
  );
  if (profiler) console.log(`\nServer CPU profile (${PROFILE}), most self time:\n${hot.join("\n")}`);
  if (all.length === 0) throw new Error("No request was answered");
  console.log(
    `Targets: p95 ≤ 50 ms ${percentile(all, 95) <= 50 ? "met" : "NOT met"}, p99 ≤ 150 ms ${
      percentile(all, 99) <= 150 ? "met" : "NOT met"
    }, no errors ${errors.size === 0 ? "met" : "NOT met"}`,
  );
} finally {
  await stopPlatform(server);
  if (dir) await Deno.remove(dir, { recursive: true });
}
