/**
 * Islands end to end: the fixture islands are built with `buildAssets` (one esbuild run with
 * code splitting, plus Tailwind), served through `registerRoutes` and `loadAssets` under a
 * strict CSP, and driven in Chromium: an island becomes interactive, two islands share one
 * signal, and a page without islands loads no JavaScript.
 */
import { Hono } from "hono";
import { signal } from "@preact/signals";
import { registerRoutes } from "@/lib/web/app.ts";
import { loadAssets } from "@/lib/web/assets.ts";
import { buildAssets } from "@/lib/web/build.ts";
import type { AppProps, State } from "@/lib/web/types.ts";
import * as CounterModule from "@/tests/fixtures/web/islands/Counter.tsx";
import * as DisplayModule from "@/tests/fixtures/web/islands/Display.tsx";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { openBrowser } from "@/tests/helpers/browser.ts";

const root = new URL("../..", import.meta.url).pathname;
const Counter = CounterModule.default;
const Display = DisplayModule.default;
/** The platform's rules for scripts and styles: scripts from files only; styles also inline (the critical CSS). */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'";

const App = ({ Component }: AppProps) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <title>Hydration fixture</title>
    </head>
    <body>
      <main>
        <Component />
      </main>
    </body>
  </html>
);

function occurrences(text: string, marker: string): number {
  return text.split(marker).length - 1;
}

Deno.test("islands hydrate in Chromium and share one Preact and one signal", async (t) => {
  const outDir = await Deno.makeTempDir({ prefix: "web-build-" });
  try {
    const manifest = await buildAssets({
      root,
      islands: ["tests/fixtures/web/islands/Counter.tsx", "tests/fixtures/web/islands/Display.tsx"],
      stylesheet: "tests/fixtures/web/styles.css",
      outDir,
    });

    await t.step("the build writes content-hashed files to an absolute outDir", async () => {
      assertMatch(manifest.boot, /^\/_build\/boot-[A-Z0-9]{8}\.js$/);
      assertEquals(Object.keys(manifest.islands).sort(), ["Counter", "Display"]);
      for (const url of Object.values(manifest.islands)) assertMatch(url, /^\/_build\/island-\w+-[A-Z0-9]{8}\.js$/);
      assertEquals(manifest.css.length, 1);
      assertMatch(manifest.css[0], /^\/_build\/styles-[0-9a-f]{12}\.css$/);
      const written = JSON.parse(await Deno.readTextFile(`${outDir}/manifest.json`));
      const { islandSizes, ...writtenManifest } = manifest;
      assertEquals(written, writtenManifest);
      assertEquals(Object.keys(islandSizes).sort(), ["Counter", "Display"]);
      for (const size of Object.values(islandSizes)) {
        assert(size.gzipBytes > 0 && size.gzipBytes < size.bytes, JSON.stringify(size));
      }
      assert(
        islandSizes.Counter.bytes > islandSizes.Display.bytes,
        "Counter counts the Display and Preact chunks it imports",
      );
      const css = await Deno.readTextFile(`${outDir}/assets/${manifest.css[0].slice("/_build/".length)}`);
      assert(css.includes(".font-bold") && css.includes(".p-4"), "Tailwind picked up the islands' classes");
      const index = JSON.parse(await Deno.readTextFile(`${outDir}/critical.json`));
      assert(index.islands.Display.includes("font-bold"), "the index knows the classes each island draws");
      assert(index.islands.Counter.includes("p-4"), JSON.stringify(index.islands));
      assert(index.islands.Counter.includes("font-bold"), "with those of the modules it imports");
      assert(!index.islands.Display.includes("p-4"), JSON.stringify(index.islands));
    });

    await t.step("every island imports shared chunks and Preact is bundled once", async () => {
      const files = new Map<string, string>();
      for await (const entry of Deno.readDir(`${outDir}/assets`)) {
        if (entry.name.endsWith(".js")) {
          files.set(entry.name, await Deno.readTextFile(`${outDir}/assets/${entry.name}`));
        }
      }
      for (const url of [manifest.boot, ...Object.values(manifest.islands)]) {
        const source = files.get(url.slice("/_build/".length))!;
        assertMatch(source, /from"\.\/chunk-[A-Z0-9]{8}\.js"/, `${url} imports a shared chunk`);
      }
      const all = [...files.values()].join("\n");
      // Preact's core keeps this regular expression (its list of unitless CSS properties) once.
      assertEquals(occurrences(all, "acit|ex(?:s|g|n|p|$)|rph|grid"), 1, "one copy of Preact");
      assertEquals(occurrences(all, 'Symbol.for("preact-signals")'), 1, "one copy of @preact/signals");
    });

    const app = new Hono<{ Variables: { state: State } }>();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set("content-security-policy", CSP);
    });
    registerRoutes(app, {
      routes: {
        "./routes/_app.tsx": { default: App },
        "./routes/islands.tsx": {
          default: () => {
            const count = signal(5);
            return (
              <>
                <h1>Islands</h1>
                <Counter count={count} label="Add one" />
                <Display count={count} />
              </>
            );
          },
        },
        "./routes/plain.tsx": { default: () => <h1>Plain</h1> },
      },
      islands: { "./islands/Counter.tsx": CounterModule, "./islands/Display.tsx": DisplayModule },
      baseUrl: import.meta.url,
    }, { assets: await loadAssets(outDir, `${outDir}/no-static-files`) });
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
    const origin = `http://127.0.0.1:${server.addr.port}`;

    await using browser = await openBrowser();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      const text = message.text();
      // Failed loads are reported below with their URL; Chromium asks for a favicon on its own.
      if (text.startsWith("Failed to load resource")) return;
      if (message.type() === "error" || message.type() === "warning") problems.push(text);
    });
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (response.status() >= 400 && path !== "/favicon.ico") problems.push(`${response.status()} ${path}`);
    });
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });

    await t.step("the island page loads its scripts from files only, under script-src 'self'", async () => {
      const res = await page.goto(`${origin}/islands`);
      assertEquals(res?.status(), 200);
      assertEquals(res?.headers()["content-security-policy"], CSP);
      await page.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
      const inline = await page.$$eval("script", (elements) =>
        elements
          .filter((script) => !(script as HTMLScriptElement).src)
          .map((script) => (script as HTMLScriptElement).type));
      assertEquals(inline, ["application/json"], "the only inline script is the props JSON");
      assert(scripts.includes(manifest.boot), scripts.join(" "));
      for (const url of Object.values(manifest.islands)) {
        assert(scripts.includes(url), `${url} in ${scripts.join(" ")}`);
      }
      assert(scripts.some((url) => url.includes("/chunk-")), scripts.join(" "));
      // Every module the page runs is announced in its head, chunks too, so none waits for the one importing it.
      const preloaded = await page.$$eval(
        'link[rel="modulepreload"]',
        (links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname),
      );
      assertEquals(
        [...new Set(preloaded)].sort(),
        [...new Set(scripts.filter((url) => url !== manifest.boot))].sort(),
      );
      assertEquals(problems, []);
    });

    const counts = () => page.$$eval("output", (outputs) => outputs.map((output) => output.textContent));

    await t.step("hydration keeps the server markup: the nested island is not rendered twice", async () => {
      assertEquals(await counts(), ["5", "5"]);
    });

    await t.step("clicking the island's button updates its count", async () => {
      await page.click("#increment");
      await page.waitForFunction(() => document.querySelector(".counter output")?.textContent === "6");
      await page.click("#increment");
      await page.waitForFunction(() => document.querySelector(".counter output")?.textContent === "7");
    });

    await t.step("a signal passed to two islands is one signal: the other island updates too", async () => {
      assertEquals(await counts(), ["7", "7"]);
      await page.click("main > p.display .reset");
      await page.waitForFunction(() => document.querySelector(".counter output")?.textContent === "0");
      assertEquals(await counts(), ["0", "0"]);
      assertEquals(problems, []);
    });

    await t.step("a page without islands loads no JavaScript", async () => {
      scripts.length = 0;
      const res = await page.goto(`${origin}/plain`);
      assertEquals(res?.status(), 200);
      assertEquals(await page.textContent("h1"), "Plain");
      assertEquals(await page.$$eval("script", (elements) => elements.length), 0);
      assertEquals(scripts, []);
      assertEquals(problems, []);
    });
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
