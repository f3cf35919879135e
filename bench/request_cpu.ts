/**
 * The server's CPU time per request, by kind of request (docs/performance.md, Scale): the real server (`main.ts`) on a
 * KV file seeded as `bench/traffic.ts` seeds it (100,000 open internships and 1,000 students with sessions by default;
 * `BENCH_KV` keeps the file to repeat a run, a file `bench/traffic.ts` kept serves as it is), then for each kind
 * `BENCH_REQUESTS` requests (default 400, after 40 warm-up ones), 8 at a time, and the CPU time the server process used
 * meanwhile (user and system, from /proc). On a machine shared with other work a request's CPU time moves much less
 * than its latency does, so old and new code compare by this figure, run one after the other on the same file. The list
 * pages ask the random filters of the traffic mix (`randomFilter`, an offset for two in five); its `includeClosed=true`
 * lists (which read the archive of closed listings; no search for three in ten) are kinds of their own. Requests ask
 * for `Accept-Encoding: identity` unless the row names another. Prints one row per kind, with the server's RSS after
 * it and at its peak so far, and the load average. The server runs with its scheduled jobs, or with `JOBS=off` on a
 * file whose one-time organization link is not done (`jobsSetting`). `BENCH_ONLY=<text>` runs only the kinds whose
 * label contains it; `BENCH_PROFILE=<file>` takes a CPU profile of the server over the measured requests (a
 * `.cpuprofile`) and prints the functions with the most self time.
 */
import {
  cpuMs,
  freePort,
  jobsSetting,
  type Platform,
  rssMb,
  seededOnce,
  seedInChild,
  SERVER_ARGS,
  startCpuProfile,
  startPlatform,
  stopPlatform,
  waitFor,
} from "./harness.ts";
import { random, randomFilter } from "./listings.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 400);
const WARMUP = 40;
const PARALLEL = 8;
const CHROME_ENCODING = "gzip, deflate, br, zstd";
const ONLY = Deno.env.get("BENCH_ONLY");
const PROFILE = Deno.env.get("BENCH_PROFILE");

/** What `bench/traffic.ts --seed-into` writes: listing ids and students' session cookies. */
interface Seeded {
  openIds: string[];
  closedIds: string[];
  cookies: string[];
}

/** One kind of request: its label and the `i`th request's path and headers. */
interface Kind {
  label: string;
  request: (i: number) => { path: string; headers?: Record<string, string> };
}

const kept = Deno.env.get("BENCH_KV");
const dir = kept ? null : await Deno.makeTempDir({ prefix: "request-cpu-" });
const kvPath = kept ?? `${dir}/kv.sqlite3`;
let server: Platform | undefined;

try {
  const seeded = await seededOnce(`${kvPath}.traffic.json`, Boolean(kept), () => {
    console.error("Seeding through bench/traffic.ts ...");
    return seedInChild<Seeded>(new URL("./traffic.ts", import.meta.url), kvPath);
  });

  const filters = (seed: number) => {
    const next = random(seed);
    return (_i: number) => {
      const params = randomFilter(next);
      if (next() < 0.4) params.set("offset", String(Math.floor(next() * 20) * 10));
      return `?${params}`;
    };
  };
  /** The traffic mix's `includeClosed=true` lists: a random filter, an offset for two in five, no search for three in ten. */
  const closedFilters = (seed: number) => {
    const next = random(seed);
    return (_i: number) => {
      const params = randomFilter(next);
      params.set("includeClosed", "true");
      if (next() < 0.4) params.set("offset", String(Math.floor(next() * 20) * 10));
      if (next() < 0.3) params.delete("search");
      return `?${params}`;
    };
  };
  const cookie = (i: number) => ({ cookie: seeded.cookies[i % seeded.cookies.length] });
  const listPage = filters(1), listPageSignedIn = filters(2), apiList = filters(3), apiListSignedIn = filters(4);
  const closedPage = closedFilters(5), closedApi = closedFilters(6);
  const id = (i: number) => seeded.openIds[(i * 7) % seeded.openIds.length];
  const kinds: Kind[] = [
    { label: "GET /internships?<random filter>, guest", request: (i) => ({ path: `/internships${listPage(i)}` }) },
    {
      label: "GET /internships?<random filter>, signed in",
      request: (i) => ({ path: `/internships${listPageSignedIn(i)}`, headers: cookie(i) }),
    },
    {
      label: "GET /api/internships?<random filter>, guest",
      request: (i) => ({ path: `/api/internships${apiList(i)}` }),
    },
    {
      label: "GET /api/internships?<random filter>, signed in",
      request: (i) => ({ path: `/api/internships${apiListSignedIn(i)}`, headers: cookie(i) }),
    },
    {
      label: "GET /internships?includeClosed=true&<random filter>, guest",
      request: (i) => ({ path: `/internships${closedPage(i)}` }),
    },
    {
      label: "GET /api/internships?includeClosed=true&<random filter>, guest",
      request: (i) => ({ path: `/api/internships${closedApi(i)}` }),
    },
    { label: "GET /internships/{id}, guest", request: (i) => ({ path: `/internships/${id(i)}` }) },
    {
      label: "GET /internships/{id}, signed in",
      request: (i) => ({ path: `/internships/${id(i)}`, headers: cookie(i) }),
    },
    { label: "GET /, signed in", request: (i) => ({ path: "/", headers: cookie(i) }) },
    { label: "GET /sign-in", request: () => ({ path: "/sign-in" }) },
    { label: "GET /me/tracker", request: (i) => ({ path: "/me/tracker", headers: cookie(i) }) },
    {
      label: `GET / as a guest, Accept-Encoding "${CHROME_ENCODING}"`,
      request: () => ({ path: "/", headers: { "accept-encoding": CHROME_ENCODING } }),
    },
  ];

  const inspectPort = freePort();
  server = startPlatform(kvPath, { RATE_LIMITS: "off", JOBS: await jobsSetting(kvPath) }, {
    inspectPort: PROFILE ? inspectPort : undefined,
  });
  const { origin } = server;
  await waitFor(`${origin}/api/internships`, 120_000);
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  console.log(
    `\nServer CPU per request (${SERVER_ARGS.join(" ")}), ${REQUESTS} requests of each kind, ${PARALLEL} at a time`,
  );
  console.log(`load average before: ${load()}\n`);
  console.log("| Request | server CPU ms | wall ms per request | server RSS after / peak MB |\n|---|---|---|---|");
  const send = async (kind: Kind, i: number) => {
    const { path, headers = {} } = kind.request(i);
    // `fetch` would send an `Accept-Encoding` of its own: `identity` asks for the answer as it is.
    const accept = {
      accept: path.startsWith("/api") ? "application/json" : "text/html",
      "accept-encoding": "identity",
    };
    const res = await fetch(`${origin}${path}`, { headers: { ...accept, ...headers } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  };
  const run = async (kind: Kind, from: number, count: number) => {
    let at = from;
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      while (at < from + count) await send(kind, at++);
    }));
  };
  for (const kind of kinds.filter(({ label }) => !ONLY || label.includes(ONLY))) {
    await run(kind, REQUESTS, WARMUP);
    const profiler = PROFILE ? await startCpuProfile(inspectPort) : null;
    const cpuBefore = cpuMs(server.process.pid), started = performance.now();
    await run(kind, 0, REQUESTS);
    const cpu = cpuMs(server.process.pid) - cpuBefore, wall = performance.now() - started;
    const rss = `${rssMb(server.process.pid, "VmRSS").toFixed(0)} / ${rssMb(server.process.pid, "VmHWM").toFixed(0)}`;
    console.log(`| ${kind.label} | ${(cpu / REQUESTS).toFixed(2)} | ${(wall / REQUESTS).toFixed(2)} | ${rss} |`);
    if (profiler) {
      console.log(
        `\nServer CPU profile (${PROFILE}), most self time:\n${(await profiler.stop(PROFILE!, 40)).join("\n")}\n`,
      );
    }
  }
  console.log(`\nload average after: ${load()}`);
} finally {
  await stopPlatform(server);
  if (dir) await Deno.remove(dir, { recursive: true });
}
