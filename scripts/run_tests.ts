/**
 * Runs `deno test -A --no-check --parallel` with this script's arguments beside one Chromium for the whole run
 * (docs/decisions.md, Tests, "One Chromium per run"): the browser server of `launchBrowserServer`, whose address the
 * test modules find in `SHARED_CHROMIUM_ENV`. Exits with the tests' exit code after closing the browser. When Chromium
 * goes away during the run it says so; the browser tests after that fail, naming the address they could not reach.
 * The test groups start longest first (`byLongestFirst`, docs/decisions.md, Tests, "Test groups"), one more at a time
 * than the machine has cores (`testJobs`) unless `DENO_JOBS` says otherwise.
 *
 * Usage: `deno run -A scripts/run_tests.ts [deno test arguments]` (`deno task test` and `deno task test:e2e` run it).
 */
import { launchBrowserServer, SHARED_CHROMIUM_ENV } from "@/tests/helpers/browser.ts";
import { byLongestFirst } from "@/tests/helpers/test_groups.ts";

if (Deno.env.get(SHARED_CHROMIUM_ENV)) {
  throw new Error(
    `scripts/run_tests.ts runs inside a test run (${SHARED_CHROMIUM_ENV} is set); it starts runs, not tests`,
  );
}
/**
 * How many test modules `deno test --parallel` runs at once: `DENO_JOBS` when set, else one more than the cores. A
 * browser test waits on Chromium (its renderer, its browser process and the protocol's server side, each in turn)
 * for most of its time, so a module per core left a core idle while two browser groups ran (docs/decisions.md, Tests,
 * "Modules at once").
 */
function testJobs(): string {
  return Deno.env.get("DENO_JOBS") ?? String(navigator.hardwareConcurrency + 1);
}

const server = await launchBrowserServer();
let closing = false;
server.process().on("exit", (code: number | null, signal: string | null) => {
  if (!closing) {
    console.error(`scripts/run_tests.ts: the shared Chromium exited during the run (code ${code}, ${signal})`);
  }
});

const tests = new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--no-check", "--parallel", ...byLongestFirst(Deno.args)],
  env: { [SHARED_CHROMIUM_ENV]: server.wsEndpoint(), DENO_JOBS: testJobs() },
}).spawn();
// Ctrl-C reaches `deno test` itself (the same process group); this process waits for it to end, then closes Chromium.
Deno.addSignalListener("SIGINT", () => {});
Deno.addSignalListener("SIGTERM", () => tests.kill("SIGTERM"));
const { code } = await tests.status;
closing = true;
await server.close();
Deno.exit(code);
