/**
 * `/internships` on a phone over a slow network: seeds the demo data into a temporary KV file,
 * starts `main.ts` (with its response compression) and opens the page in Chromium on a 390 × 844
 * phone viewport, the network throttled and the CPU slowed down 4× (a mid-range phone, as
 * Lighthouse's mobile run) through the DevTools protocol. Each profile runs
 * `BENCH_RUNS` times (default 3) with an empty cache and prints the median of:
 * - first card: ms from the start of navigation until the first internship card is painted
 *   inside the first screen (the first animation frame in which it is there and in view:
 *   frames are not produced before the render-blocking stylesheet has arrived);
 * - first contentful paint, DOMContentLoaded and hydration (`html[data-hydrated]`), in ms;
 * - layout shift: the cumulative layout shift until 1 s after hydration;
 * - bytes transferred for the page and its assets.
 * Profiles: Slow 3G (400 ms round trip, 400 kbit/s both ways) and Fast 3G (150 ms round trip,
 * 1.6 Mbit/s down, 750 kbit/s up). Target: first card ≤ 1.3 s on Slow 3G, layout shift < 0.1.
 * Run with `deno run -A bench/internships_phone.ts` after `deno task build`.
 */
import { chromium } from "playwright-core";
import { freePort, HOST, SERVER_ARGS, waitFor } from "./harness.ts";

const root = new URL("..", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);
const PHONE = { width: 390, height: 844 };
/** How many times slower than this machine's the phone's CPU runs (Lighthouse's mid-range phone). */
const CPU_SLOWDOWN = 4;

/** Network conditions in the units of `Network.emulateNetworkConditions`. */
interface Profile {
  name: string;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

const kbit = (n: number) => (n * 1000) / 8;
const PROFILES: Profile[] = [
  { name: "Slow 3G (400 ms, 400 kbit/s)", latency: 400, downloadThroughput: kbit(400), uploadThroughput: kbit(400) },
  { name: "Fast 3G (150 ms, 1.6 Mbit/s)", latency: 150, downloadThroughput: kbit(1600), uploadThroughput: kbit(750) },
];

/** Runs in the page from its first byte: records the first card's paint, paints and layout shifts. */
const PROBE = `
window.__probe = { firstCard: null, shift: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__probe.shift += entry.value;
}).observe({ type: "layout-shift", buffered: true });
(function frame() {
  const card = document.querySelector("#results-heading ~ ul article");
  if (card) {
    const rect = card.getBoundingClientRect();
    if (rect.height > 0 && rect.top >= 0 && rect.top < innerHeight) {
      window.__probe.firstCard = performance.now();
      return;
    }
  }
  requestAnimationFrame(frame);
})();`;

interface Sample {
  firstCard: number;
  fcp: number;
  domContentLoaded: number;
  hydrated: number;
  shift: number;
  bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = await Deno.makeTempDir({ prefix: "bench-phone-" });
const port = freePort();
const origin = `http://${HOST}:${port}`;
const env = {
  PORT: String(port),
  HOST,
  APP_URL: origin,
  KV_PATH: `${dir}/kv.sqlite3`,
  LOG_LEVEL: "error",
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

const browser = await chromium.launch({
  executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
});
try {
  await waitFor(`${origin}/api/health`);
  console.log(`/internships on a ${PHONE.width} × ${PHONE.height} phone viewport, median of ${RUNS} cold loads\n`);
  console.log("| Network | First card visible | FCP | DOMContentLoaded | Hydrated | Layout shift | Transferred |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const profile of PROFILES) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", { offline: false, ...profile });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
      let bytes = 0;
      cdp.on("Network.loadingFinished", (event: { encodedDataLength: number }) => bytes += event.encodedDataLength);
      await page.goto(`${origin}/internships`, { waitUntil: "load", timeout: 120_000 });
      await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 120_000 });
      const hydratedAt = await page.evaluate(() => performance.now());
      await page.waitForTimeout(1000);
      const probe = await page.evaluate(() => {
        const p = (globalThis as unknown as { __probe: { firstCard: number | null; shift: number } }).__probe;
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
        return { firstCard: p.firstCard ?? NaN, shift: p.shift, fcp, domContentLoaded: nav.domContentLoadedEventEnd };
      });
      samples.push({ ...probe, hydrated: hydratedAt, bytes });
      await context.close();
    }
    const ms = (key: keyof Sample) => `${Math.round(median(samples.map((s) => s[key])))} ms`;
    console.log(
      `| ${profile.name} | ${ms("firstCard")} | ${ms("fcp")} | ${ms("domContentLoaded")} | ${ms("hydrated")} | ` +
        `${median(samples.map((s) => s.shift)).toFixed(3)} | ${
          (median(samples.map((s) => s.bytes)) / 1024).toFixed(1)
        } KB |`,
    );
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
