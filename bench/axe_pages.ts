/**
 * What an accessibility check costs per page (docs/decisions.md, Tests, "Where a run's time goes"): seeds the demo data
 * into the test app, opens each page at 360 px in a new context as the browser tests do (the admin signed in, `/`
 * also as a guest) and prints, per page, its elements, its HTML in KB, and the CPU its renderer process spends on one
 * axe-core check as the tests make it (`seriousA11yViolations`, the document's first, axe compiled by the new
 * renderer), in ms: the median of `BENCH_RUNS` (default 3), each in a fresh context. The CPU is the renderer's own
 * (DevTools `SystemInfo.getProcessInfo`), so it is comparable on a loaded machine; the machine's load is printed beside.
 * Run with `deno run -A bench/axe_pages.ts [path ...]` after `deno task build`.
 */
import { createTestApp } from "@/tests/helpers/app.ts";
import { launchBrowser, seriousA11yViolations, signInBrowser } from "@/tests/helpers/browser.ts";
import { PHONE } from "@/tests/helpers/phone.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { percentile } from "./harness.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);
const PATHS = Deno.args.length ? Deno.args : [
  "guest /",
  "/",
  "/internships",
  "/opportunities",
  "/toolkits",
  "/ungatekeep",
  "/me/tracker",
  "/profile",
  "/admin",
  "/admin/users",
  "/admin/internships",
  "/api/docs",
];

await using app = await createTestApp({ listen: true });
await seedDemoData(app.kv);
const admin = await getUserByEmail(app.kv, "admin@demo.careers");
const cookie = `session=${(await createSession(app.kv, admin!.id)).token}`;
await using browser = await launchBrowser();
const devtools = await browser.newBrowserCDPSession();

/** CPU seconds of every renderer process the browser has now. */
async function rendererCpu(): Promise<number> {
  const { processInfo } = await devtools.send("SystemInfo.getProcessInfo");
  return processInfo.filter((p) => p.type === "renderer").reduce((sum, p) => sum + p.cpuTime, 0);
}

console.log(`load ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}, ${RUNS} runs`);
console.log("page".padEnd(24), "elements".padStart(8), "HTML KB".padStart(8), "axe CPU ms".padStart(10));
for (const entry of PATHS) {
  const [guest, path] = entry.startsWith("guest ") ? [true, entry.slice(6)] : [false, entry];
  const cpu: number[] = [];
  let elements = 0;
  let html = 0;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    if (!guest) await signInBrowser(context, app.origin, { cookie });
    const page = await context.newPage();
    const response = await page.goto(app.origin + path);
    html = (await response!.body()).length;
    elements = await page.evaluate(() => document.getElementsByTagName("*").length);
    const before = await rendererCpu();
    await seriousA11yViolations(page);
    cpu.push((await rendererCpu()) - before);
    await context.close();
  }
  const median = percentile(cpu.sort((a, b) => a - b), 50);
  console.log(
    entry.padEnd(24),
    String(elements).padStart(8),
    (html / 1024).toFixed(0).padStart(8),
    (median * 1000).toFixed(0).padStart(10),
  );
}
