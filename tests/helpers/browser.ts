/**
 * Browser tests (docs/decisions.md, Tests, "One Chromium per run"): Debian's Chromium driven by playwright-core, and an
 * axe-core check. `deno task test` and `test:e2e` start one Chromium for the whole run (`scripts/run_tests.ts`, a
 * Playwright browser server whose address is in `SHARED_CHROMIUM_ENV`); a test module connects to it on its first
 * `openBrowser` and disconnects after its last test, and each test opens contexts of its own on it (what the test
 * opened is closed when it ends). A module run without that variable (`deno test tests/e2e/x_test.ts` by hand)
 * launches a Chromium of its own instead. The executable is `CHROMIUM`: `CHROMIUM_PATH` when set, else Debian's
 * Chromium headless shell (`chromium-headless-shell`, the same Blink without the desktop browser around it, which
 * spends a third less CPU on the same test) when it is installed, else `/usr/bin/chromium`.
 */
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  chromium,
  type Download,
  type Page,
} from "playwright-core";
import { assertEquals } from "./assert.ts";

const axeSource = Deno.readTextFileSync(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));

/** The headless shell's executable itself (the package's `/usr/bin/chromium-headless-shell` is a script around it). */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/** The Chromium executable browser tests launch (see above). */
export const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The flags every Chromium of the tests runs with, beside Playwright's own. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The environment variable holding the WebSocket address of the run's shared Chromium (`launchBrowserServer`), set by
 * `scripts/run_tests.ts` for the `deno test` it runs.
 */
export const SHARED_CHROMIUM_ENV = "TEST_CHROMIUM_WS";

/**
 * Launches a headless Chromium of its own with the flags this workplace needs. Close it with `await using`. Tests take
 * the run's shared one (or the module's) through `openBrowser` instead.
 */
export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/**
 * Launches the Chromium a whole test run shares, as a Playwright browser server on localhost (`wsEndpoint()` is its
 * address; a client sees only the contexts it opened, and they are closed when it disconnects). Close it with
 * `close()` after the run.
 */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * This module's browser: the run's shared Chromium when `SHARED_CHROMIUM_ENV` names one, else a Chromium of its own.
 * @throws Error naming the address when the shared Chromium cannot be reached (it crashed or the run ended), within
 * 30 s.
 */
async function connectOrLaunch(): Promise<Browser> {
  const endpoint = Deno.env.get(SHARED_CHROMIUM_ENV);
  if (!endpoint) return await launchBrowser();
  try {
    return await chromium.connect(endpoint, { timeout: 30_000 });
  } catch (error) {
    throw new Error(
      `the run's shared Chromium (${SHARED_CHROMIUM_ENV}=${endpoint}) cannot be reached, it may have crashed: ${
        error instanceof Error ? error.message : error
      }`,
    );
  }
}

/** This test module's Chromium, connected (or launched) by the first `openBrowser`, again if it went away. */
let moduleBrowser: Promise<Browser> | undefined;

Deno.test.afterAll(async () => {
  const browser = await moduleBrowser?.catch(() => undefined);
  moduleBrowser = undefined;
  await browser?.close();
});

/** A test's share of the Chromium: what it opens is its own, and closed when it is disposed. */
export interface TestBrowser extends AsyncDisposable {
  /** A new context (its own cookies and storage). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a new context of its own. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The Chromium for one test: the run's shared one (connected on first use, disconnected after the module's last test)
 * or, without `SHARED_CHROMIUM_ENV`, the module's own (launched on first use, closed after its last test). Dispose it
 * with `await using`: it closes every context the test opened.
 */
export async function openBrowser(): Promise<TestBrowser> {
  const launched = moduleBrowser && await moduleBrowser.catch(() => undefined);
  if (!launched?.isConnected()) moduleBrowser = connectOrLaunch();
  const browser = await moduleBrowser!;
  const contexts: BrowserContext[] = [];
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context;
  };
  return {
    newContext,
    newPage: async (options) => await (await newContext(options)).newPage(),
    async [Symbol.asyncDispose]() {
      await Promise.all(contexts.map((context) => context.close().catch(() => {})));
    },
  };
}

/** The name axe-core's script is compiled under: one name, so a renderer compiles it once for all its documents. */
const AXE_URL = "axe-core/axe.min.js";

/**
 * Puts axe-core into the page's current document as a script compiled under `AXE_URL` through the DevTools protocol
 * (so the page's CSP does not block it). V8 keeps a compiled script by its source and name for the renderer process,
 * so the renderer compiles axe once for all the documents it checks; `page.evaluate` of the source (an `eval`)
 * compiled it again in every document (about 45 ms of the renderer's main thread each time instead of 25 ms).
 * @throws Error with the exception the script threw.
 */
async function injectAxe(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send("Runtime.enable");
    const compiled = await session.send("Runtime.compileScript", {
      expression: axeSource,
      sourceURL: AXE_URL,
      persistScript: true,
    });
    const ran = compiled.scriptId
      ? await session.send("Runtime.runScript", { scriptId: compiled.scriptId })
      : undefined;
    const exception = compiled.exceptionDetails ?? ran?.exceptionDetails;
    if (exception) throw new Error(`axe-core did not load: ${exception.exception?.description ?? exception.text}`);
  } finally {
    await session.detach().catch(() => {});
  }
}

/**
 * Violations of impact `serious` or `critical` that axe-core finds on the page, as short lines. axe-core (560 KB) is
 * put into a document once, by its first check (`injectAxe`); later checks of the same document reuse it. A check is
 * most of what a page's renderer spends in these tests (about 0.5 s of its main thread per document, half of it the
 * contrast rule; docs/decisions.md, Tests, "Where a run's time goes").
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  if (!await page.evaluate(() => "axe" in globalThis)) await injectAxe(page);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  }) as { id: string; impact: string; nodes: number; help: string }[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.nodes} nodes): ${v.help}`);
}

/**
 * Fails when axe-core finds a serious or critical violation on the page, once nothing on it is busy (a list dims its
 * rows while a load runs, on purpose and for that moment only).
 */
export async function assertAccessible(page: Page, label = page.url()): Promise<void> {
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached" });
  assertEquals(await seriousA11yViolations(page), [], `accessibility violations on ${label}`);
}

/**
 * `assertAccessible` for a page of a context with JavaScript off, where axe cannot run: its markup is served again, at
 * its address, to a page with scripts on whose own scripts are blocked, and axe checks that page.
 */
export async function assertAccessibleWithoutScript(page: Page, label = page.url()): Promise<void> {
  const [html, url] = [await page.content(), page.url()];
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize() });
  try {
    const copy = await context.newPage();
    await copy.route("**/*", (route) => {
      const request = route.request();
      if (request.url() === url) return route.fulfill({ body: html, contentType: "text/html; charset=utf-8" });
      return request.resourceType() === "script" ? route.abort() : route.continue();
    });
    await copy.goto(url);
    await assertAccessible(copy, label);
  } finally {
    await context.close();
  }
}

/** Waits until the page's islands are hydrated (the boot module marks `<html data-hydrated>`). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

/** Opens `url`, a page with islands, and waits until they are hydrated. */
export async function openHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

/**
 * Counts the page's own `fetch` calls from the call until the answer's body has been read (or the call failed), and
 * the calls started so far, on `globalThis.__fetches`. Installed by `trackFetches`; read by `fetchesDrawn`.
 */
const FETCH_TRACKER = `(() => {
  const state = { pending: 0, started: 0, waiters: [] };
  const done = () => {
    state.pending--;
    if (state.pending === 0) for (const wake of state.waiters.splice(0)) wake();
  };
  const original = globalThis.fetch;
  globalThis.fetch = function (...args) {
    state.pending++;
    state.started++;
    return original.apply(this, args).then((response) => {
      for (const read of ["json", "text", "arrayBuffer", "blob", "formData"]) {
        const method = response[read];
        let counted = false;
        response[read] = function () {
          const body = method.call(this);
          if (counted) return body;
          counted = true;
          return body.finally(done);
        };
      }
      return response;
    }, (error) => {
      done();
      throw error;
    });
  };
  Object.defineProperty(globalThis, "__fetches", { value: state });
})();`;

/** Islands that talk to the service worker rather than fetch: their pages wait for the network to go idle instead. */
const SERVICE_WORKER_ISLANDS = ["KeepOffline", "OfflineContents"];

/**
 * Makes `fetchesDrawn` work in every page of `context` opened from now on (an init script that counts the page's
 * `fetch` calls until their answers are read).
 */
export async function trackFetches(context: BrowserContext): Promise<void> {
  await context.addInitScript(FETCH_TRACKER);
}

/**
 * Waits until the page has loaded, its islands are hydrated, everything they fetched (on their own, after hydration,
 * one fetch leading to the next) has arrived and been drawn, its images and fonts are in, and nothing is busy: the page
 * as a person sees it once it is done. The page's context must have `trackFetches`. Unlike Playwright's `networkidle`
 * (500 ms without a request, waited after every page) it waits for exactly that work: after each round of answers read,
 * one animation frame and one task (where Preact runs its effects, which may start the next fetch), until a round
 * starts no fetch. A page with an island that asks the service worker (`SERVICE_WORKER_ISLANDS`) waits for the network
 * to go idle as well. Fails after `timeoutMs` (generous, for a loaded machine) with what is still pending.
 */
export async function fetchesDrawn(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForLoadState("load");
  const islands = page.locator("#__islands");
  if (await islands.count()) {
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: timeoutMs });
    const { modules } = JSON.parse(await islands.textContent() ?? "{}") as { modules?: Record<string, string> };
    if (SERVICE_WORKER_ISLANDS.some((name) => modules && name in modules)) await page.waitForLoadState("networkidle");
  }
  const problem = await page.evaluate(async (timeoutMs) => {
    type Tracker = { pending: number; started: number; waiters: (() => void)[] };
    const state = (globalThis as unknown as { __fetches?: Tracker }).__fetches;
    if (!state) return "fetches are not tracked in this context (trackFetches)";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`${state.pending} fetches still pending after ${timeoutMs} ms`), timeoutMs);
    });
    // One frame and then one task: Preact runs effects (which may fetch) in a task after the next frame.
    const turn = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    const idle = () => state.pending === 0 ? Promise.resolve() : new Promise<void>((wake) => state.waiters.push(wake));
    const settled = (async () => {
      for (;;) {
        await idle();
        const started = state.started;
        await turn();
        await turn();
        if (state.pending === 0 && state.started === started) break;
      }
      const images = [...document.images].filter((image) => image.loading !== "lazy" && !image.complete);
      await Promise.all(images.map((image) =>
        new Promise((resolve) => {
          image.addEventListener("load", resolve);
          image.addEventListener("error", resolve);
        })
      ));
      await document.fonts.ready;
      return "";
    })();
    const outcome = await Promise.race([settled, timedOut]);
    clearTimeout(timer);
    return outcome;
  }, timeoutMs);
  if (problem) throw new Error(`${page.url()}: ${problem}`);
  await page.locator('[aria-busy="true"]').first().waitFor({ state: "detached", timeout: timeoutMs });
}

/**
 * The text of a finished download. Read through Playwright's stream, since a download of the run's shared Chromium
 * (a browser Playwright connected to) has no local path.
 */
export async function downloadedText(download: Download): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of await download.createReadStream()) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Signs the browser context in as `user` (a `createTestUser` cookie `session=<value>`) on `origin`. */
export async function signInBrowser(context: BrowserContext, origin: string, user: { cookie: string }): Promise<void> {
  const value = user.cookie.slice(user.cookie.indexOf("=") + 1);
  await context.addCookies([{ name: "session", value, url: origin }]);
}

/**
 * The header's account menu (from the `lg` breakpoint up, a signed-in person's own pages and "Sign out" are behind
 * it), opened; it closes again on the next page.
 */
export async function openAccountMenu(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).locator("summary", { hasText: "Account menu:" }).click();
}
