/**
 * Lighthouse's mobile audit (npm `lighthouse`, its default mobile settings: a mid-range phone's screen, simulated slow
 * 4G and a 4× slower CPU) of `/` and `/internships` in English and in Hindi (`?lang=hi`, docs/decisions.md, Languages,
 * "Which language"), as a first visit: the demo data is seeded into a temporary KV file, `main.ts` serves it (with its
 * response compression) and Chromium (`CHROMIUM_PATH`, default `/usr/bin/chromium`) is driven by Lighthouse; each run
 * starts with empty storage, so no cache and no service worker yet. Each page runs `BENCH_RUNS` times (default 3), in
 * rounds of one run per page, and prints the median run (by performance score; every run's score beside it) with its
 * four category scores (0–100) and its FCP, LCP, TBT (ms), CLS and Speed Index (ms), then the accessibility,
 * best-practice and SEO audits those runs did not pass. Target (docs/performance.md, Lighthouse): performance ≥ 95 on
 * `/` and `/internships`. Lighthouse's simulated throttling scales the CPU time it observed, so a busy machine lowers
 * the scores: the load average is printed with them. Run with `deno task bench:lighthouse` (it builds first).
 */
import lighthouse from "lighthouse";
import { freePort, HOST, SERVER_ARGS, waitFor } from "./harness.ts";

const root = new URL("..", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);
const ALL_PAGES = [
  { path: "/", lang: "English" },
  { path: "/?lang=hi", lang: "Hindi" },
  { path: "/internships", lang: "English" },
  { path: "/internships?lang=hi", lang: "Hindi" },
];
/** `BENCH_PAGES=/internships` audits only the pages whose path starts with one of these (comma-separated). */
const only = Deno.env.get("BENCH_PAGES")?.split(",").filter(Boolean);
const PAGES = only ? ALL_PAGES.filter((page) => only.some((path) => page.path.split("?")[0] === path)) : ALL_PAGES;
/** `BENCH_DETAIL=1` also prints where the median run's main thread went and its long tasks. */
const DETAIL = Deno.env.get("BENCH_DETAIL") === "1";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

/** One Lighthouse run: category scores (0–100) and the metrics in ms (CLS unitless). */
interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** The audits of the categories other than performance that did not pass. */
  failed: string[];
  /** Main-thread time by kind of work (ms, Lighthouse's `mainthread-work-breakdown`) and the long tasks. */
  detail: string[];
}

/** The machine's 1-minute load average, from /proc. */
const loadAverage = () => Deno.readTextFileSync("/proc/loadavg").split(" ")[0];

const dir = await Deno.makeTempDir({ prefix: "bench-lighthouse-" });
const origin = `http://${HOST}:${freePort()}`;
const env = {
  PORT: new URL(origin).port,
  HOST,
  APP_URL: origin,
  KV_PATH: `${dir}/kv.sqlite3`,
  LOG_LEVEL: "error",
  JOBS: "off",
  NO_COLOR: "1",
};
const seeded = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", "scripts/seed.ts"], cwd: root, env })
  .output();
if (!seeded.success) throw new Error(new TextDecoder().decode(seeded.stderr));
const server = new Deno.Command(Deno.execPath(), {
  args: SERVER_ARGS,
  cwd: root,
  env,
  stdout: "null",
  stderr: "inherit",
}).spawn();

/**
 * A Chromium of its own profile for one audit, listening for Lighthouse on a free port: a fresh profile per run, since
 * Lighthouse's storage reset keeps cookies and the `lang` cookie of a Hindi run would turn the next page Hindi.
 */
async function startChromium(profile: string): Promise<{ port: number } & AsyncDisposable> {
  const port = freePort();
  const process = new Deno.Command(Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium", {
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const stop = async () => {
    process.kill("SIGTERM");
    await process.status;
  };
  try {
    await waitFor(`http://${HOST}:${port}/json/version`, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, [Symbol.asyncDispose]: stop };
}

/** The main thread's work by kind (ms) and the long tasks (start, duration, script) of one run's audits. */
function detailOf(audits: Record<string, { details?: unknown }>): string[] {
  const items = (id: string) => ((audits[id]?.details ?? {}) as { items?: Record<string, unknown>[] }).items ?? [];
  const ms = (value: unknown) => `${Math.round(Number(value))} ms`;
  return [
    "main thread: " + items("mainthread-work-breakdown").map((item) => `${item.groupLabel} ${ms(item.duration)}`)
      .join(", "),
    ...items("long-tasks").map((task) => `long task at ${ms(task.startTime)}: ${ms(task.duration)} (${task.url})`),
  ];
}

/** How many times an audit whose trace Lighthouse could not record (`NO_NAVSTART`: "run Lighthouse again") is tried. */
const TRACE_ATTEMPTS = 3;

/**
 * One audit of `url`: the categories' scores and the metrics. An audit whose trace went unrecorded is run again, in a
 * fresh Chromium, up to {@link TRACE_ATTEMPTS} times. @throws Error when Lighthouse reports another runtime error.
 */
async function audit(url: string): Promise<Run> {
  for (let attempt = 1;; attempt++) {
    await using chromium = await startChromium(await Deno.makeTempDir({ dir, prefix: "chromium-" }));
    const result = await lighthouse(url, {
      port: chromium.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    const lhr = result?.lhr;
    if (lhr?.runtimeError?.code === "NO_NAVSTART" && attempt < TRACE_ATTEMPTS) continue;
    if (!lhr || lhr.runtimeError) throw new Error(`${url}: ${lhr?.runtimeError?.message ?? "no result"}`);
    return runOf(lhr);
  }
}

/** One Lighthouse result. */
type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

/** The scores, metrics, failed audits and main-thread detail of one Lighthouse result. */
function runOf(lhr: Result): Run {
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? NaN) * 100)]),
    ) as Run["scores"],
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    speedIndex: metric("speed-index"),
    failed: CATEGORIES.filter((id) => id !== "performance").flatMap((id) =>
      (lhr.categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${id}: ${ref.id}`)
    ),
    detail: detailOf(lhr.audits),
  };
}

try {
  await waitFor(`${origin}/api/health`, 60_000);
  console.log(
    `Lighthouse mobile, first visit, median of ${RUNS} runs by performance score; load average ${loadAverage()}`,
  );
  console.log("");
  console.log(
    "| Page | Language | Performance (each run) | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | Speed Index |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  // Round by round, every page once a round, so a busy spell of the machine falls on all pages alike.
  const runsOf: Run[][] = PAGES.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (const [i, page] of PAGES.entries()) runsOf[i].push(await audit(`${origin}${page.path}`));
  }
  const failed: string[] = [];
  const details: string[] = [];
  for (const [i, page] of PAGES.entries()) {
    const runs = runsOf[i];
    const each = runs.map((run) => run.scores.performance).join(", ");
    runs.sort((a, b) => a.scores.performance - b.scores.performance);
    const median = runs[Math.floor(runs.length / 2)];
    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log(
      `| \`${page.path}\` | ${page.lang} | ${median.scores.performance} (${each}) | ${median.scores.accessibility} | ` +
        `${median.scores["best-practices"]} | ${median.scores.seo} | ${ms(median.fcp)} | ${ms(median.lcp)} | ` +
        `${ms(median.tbt)} | ${median.cls.toFixed(3)} | ${ms(median.speedIndex)} |`,
    );
    for (const audit of median.failed) failed.push(`${page.path}: ${audit}`);
    if (DETAIL) details.push(`${page.path}:`, ...median.detail.map((line) => `  ${line}`));
  }
  if (details.length > 0) console.log(`\nThe median runs' main thread:\n${details.join("\n")}`);
  if (failed.length > 0) console.log(`\nAudits that did not pass:\n${failed.map((line) => `- ${line}`).join("\n")}`);
  console.log("");
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
