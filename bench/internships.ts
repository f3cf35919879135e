/**
 * Internship benchmark at scale (docs/performance.md, Scale): seeds `BENCH_OPEN` open internships (default 100,000;
 * about 5 % inactive and 3 % deleted, which go to the archive) and `BENCH_CLOSED` closed ones (default 0; deadlines
 * passed, created over the three years before) directly through the store in a child process (the open ones through
 * the chunked writer, the closed ones as a bulk archive seed), starts the real server (`main.ts`) on the file and
 * measures over HTTP from one client:
 * - process start to the first `GET /api/health` and to the first list answer, the KV bytes the read models' load
 *   read (its "read models loaded" log line) and the server's RSS once loaded;
 * - p50/p95 of open-list filters (each sample another page, so none is answered from the list body cache) and the
 *   time of each filter's first request;
 * - with `includeClosed=true`: the first answer of a fresh process, the first page (each sample another page size),
 *   deep pages, filtered pages, and 200 random filters each asked once (their archive matches not kept yet), then
 *   the RSS right after those and 2 s later (the server collects its garbage after a quiet second);
 * - p50/p95 of a create (API key) and an update (session), and the peak RSS.
 * The server runs with its scheduled jobs, or with `JOBS=off` on a file whose one-time organization link is not done
 * (`jobsSetting`). Prints a table with the targets and the machine's load average, then stops the server and removes
 * the file.
 * `BENCH_KV` names a KV file to keep instead: seeded when missing, reused as it is when present (its seed's setup is
 * kept beside it in `<file>.json`), so that a run can be repeated without seeding again.
 */
import {
  cpuMs,
  jobsSetting,
  percentile,
  type Platform,
  requestLatency,
  rssMb,
  SEED_INTO,
  seededOnce,
  seedInChild,
  seedOwners,
  startPlatform,
  stopPlatform,
  waitFor,
} from "./harness.ts";
import { createApiKey } from "@/lib/api_keys/api_keys.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { random, randomFilter, seedListings } from "./listings.ts";

const OPEN = Number(Deno.env.get("BENCH_OPEN") ?? 100_000);
const CLOSED = Number(Deno.env.get("BENCH_CLOSED") ?? 0);

if (Deno.args[0] === SEED_INTO) {
  console.log(JSON.stringify(await seed(Deno.args[1])));
  Deno.exit(0);
}

const kept = Deno.env.get("BENCH_KV");
const dir = kept ? null : await Deno.makeTempDir({ prefix: "internships-bench-" });
const kvPath = kept ?? `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

/** The machine's load average over the last minute, as `uptime` prints it. */
function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
}

/** Seeds owners, an API key, an admin session and the listings into `path`; returns what the requests need. */
async function seed(path: string) {
  const kv = await Deno.openKv(path);
  const owners = await seedOwners(kv);
  const seeded = await seedListings(kv, { open: OPEN, closed: CLOSED, owners: owners.map((o) => o.id) });
  const { key } = await createApiKey(kv, owners[0], { name: "bench" });
  const { token } = await createSession(kv, owners[0].id);
  kv.close();
  return {
    seedMs: seeded.seedMs,
    openMs: seeded.openMs,
    apiKey: key,
    cookie: `session=${token}`,
    someId: seeded.openIds[0],
  };
}

let platform: Platform | undefined;

/** `requestLatency` with the warm-ups at indices -1 to -20: pages before the measured ones, items of their own. */
const latency = (request: (i: number) => Promise<Response>, expect = 200) =>
  requestLatency(request, { expect, warmupIndex: (n) => -1 - n });

const rows: [string, string, string, string][] = [];
const ok = (met: boolean) => met ? "yes" : "NO";
const ms = (n: number) => `${fmt(n, 2)} ms`;
const row = (measure: string, result: string, target = "", met = "") => rows.push([measure, result, target, met]);

try {
  const seeded = await seededOnce(`${kvPath}.json`, Boolean(kept), () => {
    console.error(`Seeding ${fmt(OPEN, 0)} open and ${fmt(CLOSED, 0)} closed internships into ${kvPath} ...`);
    return seedInChild<Awaited<ReturnType<typeof seed>>>(new URL(import.meta.url), kvPath);
  });
  const { apiKey, cookie, someId } = seeded;
  const kvMb = (await Deno.stat(kvPath)).size / 1e6;
  console.error(`Seeded in ${fmt(seeded.seedMs / 1000, 1)} s (KV file ${fmt(kvMb, 0)} MB)`);

  const jobs = await jobsSetting(kvPath);
  const startedAt = performance.now();
  platform = startPlatform(kvPath, { RATE_LIMITS: "off", LOG_LEVEL: "info", JOBS: jobs }, { stdout: "piped" });
  const { origin, process: server } = platform;
  const loaded = (async () => {
    let text = "";
    for await (const part of server.stdout.pipeThrough(new TextDecoderStream())) {
      text += part;
      const line = text.split("\n").find((l) => l.includes('"read models loaded"'));
      if (line) return JSON.parse(line) as { ms: number; kvBytes: number };
    }
    throw new Error("the server ended before its read models loaded");
  })();
  await waitFor(`${origin}/api/health`, 60_000);
  const healthMs = performance.now() - startedAt, healthCpu = cpuMs(server.pid);
  await waitFor(`${origin}/api/internships?search=intern&types=remote`, 120_000);
  const listMs = performance.now() - startedAt, listCpu = cpuMs(server.pid);
  const { ms: loadMs, kvBytes } = await loaded;
  const startRss = rssMb(server.pid, "VmRSS");
  row("Start to first GET /api/health", `${fmt(healthMs, 0)} ms (server CPU ${fmt(healthCpu, 0)} ms)`, "", "");
  row(
    "Start to first GET /api/internships?search=intern&types=remote",
    `${fmt(listMs, 0)} ms (server CPU ${fmt(listCpu, 0)} ms)`,
    "≤ 1,500 ms",
    ok(listMs <= 1500),
  );
  row("Read models' load (in the server)", `${fmt(loadMs, 0)} ms`);
  row("KV bytes read by the load", `${fmt(kvBytes / 1e6, 1)} MB`, "≤ 25 MB", ok(kvBytes <= 25e6));
  row("Server RSS after start", `${fmt(startRss, 0)} MB`, "≤ 250 MB", ok(startRss <= 250));

  console.error("Open-list filters ...");
  const combos: [string, string][] = [
    ["(none: the default list)", ""],
    ["types=remote", "types=remote"],
    ["tags=python", "tags=python"],
    ["location=bengaluru", "location=bengaluru"],
    ["minStipend=10000", "minStipend=10000"],
    ["maxStipend=5000", "maxStipend=5000"],
    ["search=data analyst", "search=data%20analyst"],
    ["q=intern (matches nearly all)", "q=intern"],
    ["types=hybrid,onsite & tags=react & minStipend=15000", "types=hybrid,onsite&tags=react&minStipend=15000"],
    ["search=python & location=pune & maxStipend=20000", "search=python&location=pune&maxStipend=20000"],
    ["limit=100 & types=remote & tags=design", "limit=100&types=remote&tags=design"],
    ["sort=deadline", "sort=deadline"],
    ["sort=stipend", "sort=stipend"],
    ["sort=deadline & types=remote", "sort=deadline&types=remote"],
    ["sort=stipend & search=data analyst", "sort=stipend&search=data%20analyst"],
  ];
  const deepOpen = Math.floor(OPEN * 0.8);
  combos.push([`offset=${fmt(deepOpen, 0)} (deep page)`, ""]);
  combos.push([`offset=${fmt(deepOpen, 0)} & sort=stipend (deep page)`, "sort=stipend"]);
  for (const [label, query] of combos) {
    const base = label.startsWith("offset=") ? deepOpen : 0;
    const [p50, p95, first] = await latency((i) => fetch(`${origin}/api/internships?${query}&offset=${base + i + 20}`));
    row(
      `GET ?${label}`,
      `p50 ${fmt(p50, 2)} / p95 ${fmt(p95, 2)} ms, first ${fmt(first, 1)} ms`,
      "p95 ≤ 10 ms",
      ok(p95 <= 10),
    );
  }
  const [g50, g95] = await latency(() => fetch(`${origin}/api/internships/${someId}`));
  row("GET /api/internships/{id}", `p50 ${fmt(g50, 2)} / p95 ${fmt(g95, 2)} ms`);

  console.error("Lists with closed listings ...");
  const closedUrl = (query: string) => `${origin}/api/internships?includeClosed=true&${query}`;
  const t0 = performance.now();
  const first = await fetch(closedUrl("limit=10"));
  const total = (await first.json()).pagination.total as number;
  row("includeClosed=true, first answer in this process (archive read from KV)", ms(performance.now() - t0));
  const closedCombos: [string, (i: number) => string][] = [
    ["first page (page size varied)", (i) => `limit=${10 + Math.abs(i) % 90}`],
    [
      "deep pages (offset in the second half)",
      (i) => `offset=${Math.floor(total / 2) + Math.abs(i) * 997 % Math.floor(total / 2)}`,
    ],
    ["tags=python, pages", (i) => `tags=python&offset=${Math.abs(i) * 10}`],
    ["search=data analyst & location=pune", (i) => `search=data%20analyst&location=pune&offset=${Math.abs(i) % 50}`],
    ["types=remote & minStipend=10000, deep pages", (i) => `types=remote&minStipend=10000&offset=${Math.abs(i) * 300}`],
  ];
  for (const [label, query] of closedCombos) {
    const [p50, p95] = await latency((i) => fetch(closedUrl(query(i))));
    row(`includeClosed=true, ${label}`, `p50 ${fmt(p50, 2)} / p95 ${fmt(p95, 2)} ms`, "p95 ≤ 150 ms", ok(p95 <= 150));
  }
  const next = random(35);
  const fresh: number[] = [];
  for (let i = 0; i < 200; i++) {
    const offset = next() < 0.5 ? 0 : Math.floor(next() * 2000);
    const t1 = performance.now();
    const res = await fetch(closedUrl(`${randomFilter(next).toString()}&offset=${offset}&limit=${10 + i % 10}`));
    await res.arrayBuffer();
    fresh.push(performance.now() - t1);
    if (res.status !== 200) throw new Error(`status ${res.status}`);
  }
  fresh.sort((a, b) => a - b);
  row(
    "includeClosed=true, 200 random filters, each asked once",
    `p50 ${fmt(percentile(fresh, 50), 2)} / p95 ${fmt(percentile(fresh, 95), 2)} ms`,
    "p95 ≤ 150 ms",
    ok(percentile(fresh, 95) <= 150),
  );
  row("Server RSS right after 200 such queries", `${fmt(rssMb(server.pid, "VmRSS"), 0)} MB`);
  // The server gives garbage back once no request came for a second (`GrowthCollection`, lib/platform/heap.ts).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const afterRss = rssMb(server.pid, "VmRSS");
  row("Server RSS after 200 such queries, 2 s later", `${fmt(afterRss, 0)} MB`, "≤ 400 MB", ok(afterRss <= 400));

  console.error("Writes ...");
  const item = (i: number) => ({
    title: `Bench Intern ${i}`,
    link: "https://example.com/apply",
    hiringOrganization: "Bench Labs",
    type: "remote",
    tags: ["bench"],
    stipend: 10000,
  });
  const [c50, c95] = await latency((i) =>
    fetch(`${origin}/api/internships`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(item(i)),
    }), 201);
  row("POST /api/internships (API key)", `p50 ${fmt(c50, 2)} / p95 ${fmt(c95, 2)} ms`, "p95 ≤ 15 ms", ok(c95 <= 15));
  const [u50, u95] = await latency((i) =>
    fetch(`${origin}/api/internships/${someId}`, {
      method: "PUT",
      headers: { cookie, origin, "content-type": "application/json" },
      body: JSON.stringify({ stipend: 10000 + Math.abs(i) }),
    })
  );
  row(
    "PUT /api/internships/{id} (session)",
    `p50 ${fmt(u50, 2)} / p95 ${fmt(u95, 2)} ms`,
    "p95 ≤ 15 ms",
    ok(u95 <= 15),
  );
  row("Server peak RSS", `${fmt(rssMb(server.pid, "VmHWM"), 0)} MB`);
  row(
    "Seeding (bench setup, in a child process)",
    `${fmt(seeded.seedMs / 1000, 1)} s (open ones ${fmt(seeded.openMs / 1000, 1)} s), KV file ${fmt(kvMb, 0)} MB`,
  );

  console.log(
    `\nInternship benchmark: ${fmt(OPEN, 0)} open + ${fmt(CLOSED, 0)} closed internships (${
      fmt(total, 0)
    } listed with ` +
      `includeClosed), ${navigator.hardwareConcurrency} CPUs, Deno ${Deno.version.deno}, JOBS=${jobs}, load average at the end ${load()}\n`,
  );
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  await stopPlatform(platform);
  if (dir) await Deno.remove(dir, { recursive: true });
}
