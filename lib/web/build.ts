/**
 * Ahead-of-time asset build: one esbuild run bundles the boot module and every island
 * (ESM, code splitting so all islands share one copy of Preact, minified, content-hashed
 * names), and the Tailwind CLI builds the stylesheet, indexed for pages' critical CSS (`css_index.ts`, written to
 * `<outDir>/critical.json`). With a service worker, a second run bundles it alone into
 * `<outDir>/sw.js` with its precache list and versions (of what it precaches, and of the built files) defined as
 * `SERVICE_WORKER`, and the first adds
 * the small module that registers it on every page (with the menus' Escape key, `client/menus.ts`). Writes `<outDir>/assets/*` and `<outDir>/manifest.json` (see
 * `BuildManifest`). Deno Deploy runs it as `deno task build`.
 */
import * as esbuild from "esbuild";
import { basename, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { BuildManifest } from "./assets.ts";
import { indexStylesheet } from "./css_index.ts";
import { islandName } from "./islands.ts";

/** The stylesheet's index for critical CSS, in the build folder (not served). */
const CRITICAL_CSS_INDEX = "critical.json";

/** What to build, with paths relative to `root`. */
export interface BuildOptions {
  root: string;
  /** Island source files, e.g. `islands/Counter.tsx`; the island's name is the file name. */
  islands: string[];
  /** The Tailwind input stylesheet. */
  stylesheet: string;
  outDir: string;
  minify?: boolean;
  /**
   * Largest gzipped size in bytes of one island: its module plus every chunk it imports, transitively (what the
   * browser fetches to hydrate it, beyond the boot module); and apart, as `<island> (on demand)`, what its `import()`s
   * fetch beyond that.
   */
  islandBudgetBytes?: number;
  /** A service worker to build, if any (see `ServiceWorkerOptions`). */
  serviceWorker?: ServiceWorkerOptions;
  /** Imports the browser bundles take from another module (esbuild's `alias`): a package → its stand-in. */
  alias?: Record<string, string>;
}

/**
 * A service worker: its source, bundled alone (no shared chunks, classic script), which reads
 * `SERVICE_WORKER: {version, buildVersion, precache}` (`ServiceWorkerBuild`). `precache` is `precache` here plus the boot module and
 * each of `islands`, each module with every chunk it imports (a page hydrates offline from them alone). Not the
 * stylesheet: pages inline their rules and link none. A precached path is a built file (`/_build/…`), a file of
 * `staticDir`, or else a page the server renders from `pageModules` (see `serviceWorkerVersion`).
 */
export interface ServiceWorkerOptions {
  entry: string;
  precache: string[];
  islands: string[];
  /** The folder (relative to the root) whose files the server serves at their path, e.g. `static`. */
  staticDir: string;
  /** The server modules the precached pages are rendered from (route, `_app`, document), relative to the root. */
  pageModules: string[];
}

/**
 * What a service worker built by `buildAssets` finds in its `SERVICE_WORKER` constant; its caches are named by the two
 * versions (`cacheNames`, `lib/offline/caches.ts`).
 */
export interface ServiceWorkerBuild {
  /** The version of what it precaches (`serviceWorkerVersion`): new content gets a new worker and a new shell cache. */
  version: string;
  /**
   * The version of the build's output (`builtFilesVersion`), which the pages a phone visited and the built files they
   * use depend on: only a new build output drops them.
   */
  buildVersion: string;
  /** URL paths to fetch and keep when it installs. */
  precache: string[];
}

/** The size of one island's module with the chunks it imports, in bytes. */
export interface IslandSize {
  bytes: number;
  gzipBytes: number;
}

/**
 * What `buildAssets` wrote, with the size of each island (and, as `<island> (on demand)`, of what its `import()`s
 * fetch beyond it) and of the service worker (when there is one).
 */
export interface BuildResult extends BuildManifest {
  islandSizes: Record<string, IslandSize>;
  serviceWorkerSize?: IslandSize;
}

async function hashOf(text: string | Uint8Array): Promise<string> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every file under `dir`, recursively, as paths relative to it, sorted. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) found.push(...await filesUnder(dir, path));
    else if (entry.isFile) found.push(path);
  }
  return found.sort();
}

/** Whether `path` is a file. */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * The project files (relative to `root`, outside `node_modules/`) that `modules` import, transitively, themselves
 * included: the text the server renders a page from. npm packages are left out (the lockfile pins them).
 */
async function moduleGraph(root: string, modules: string[]): Promise<string[]> {
  try {
    const result = await esbuild.build({
      entryPoints: modules.map((module) => resolve(root, module)),
      absWorkingDir: root,
      bundle: true,
      write: false,
      outdir: "graph",
      platform: "node",
      format: "esm",
      packages: "external",
      jsx: "automatic",
      jsxImportSource: "preact",
      metafile: true,
      logLevel: "silent",
      plugins: [projectAlias(root)],
    });
    return Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules/")).sort();
  } finally {
    await esbuild.stop();
  }
}

/**
 * The version of the build's output in `outDir` (relative to `root`): a hash of every file in it by path and bytes (the
 * built modules and the stylesheet's index, which pages inline). The pages a phone visited name these built files and
 * inline those rules, so the caches of visited pages and built files are named by it (docs/decisions.md, Installable
 * and offline, "Service worker"): a deploy that changes only words, the offline page or an icon keeps them.
 */
export async function builtFilesVersion({ root, outDir }: { root: string; outDir: string }): Promise<string> {
  const parts: string[] = [];
  const built = resolve(root, outDir);
  for (const file of await filesUnder(built)) {
    parts.push(`build ${file} ${await hashOf(await Deno.readFile(join(built, file)))}`);
  }
  return await hashOf(parts.join("\n"));
}

/**
 * The version of a service worker that precaches `precache` (docs/decisions.md, Installable and offline, "Service
 * worker"), which names its shell cache: a hash of everything it keeps, so that a deploy that changes any of it installs
 * a new worker and fills a new shell cache, and one that changes none of it keeps the worker: the build's output (its
 * version `buildVersion`, from `builtFilesVersion`), each precached file of `staticDir` by its bytes, and, for the
 * precached paths that are pages (neither built nor static), the text of every project module `pageModules` import.
 * @throws Error when a page is precached and `pageModules` is empty.
 */
export async function serviceWorkerVersion(
  { root, buildVersion, precache, staticDir, pageModules }: {
    root: string;
    buildVersion: string;
    precache: readonly string[];
    staticDir: string;
    pageModules: readonly string[];
  },
): Promise<string> {
  const parts = [`build ${buildVersion}`];
  const pages: string[] = [];
  for (const path of [...precache].sort()) {
    if (path.startsWith("/_build/")) continue;
    const file = resolve(root, staticDir, new URL(path, "http://localhost").pathname.slice(1));
    if (await isFile(file)) parts.push(`static ${path} ${await hashOf(await Deno.readFile(file))}`);
    else pages.push(path);
  }
  if (pages.length > 0) {
    if (pageModules.length === 0) throw new Error(`Service worker precaches pages but names no modules: ${pages}`);
    parts.push(`pages ${pages.join(" ")}`);
    for (const module of await moduleGraph(root, [...pageModules])) {
      parts.push(`module ${module} ${await hashOf(await Deno.readFile(resolve(root, module)))}`);
    }
  }
  return await hashOf(parts.join("\n"));
}

/**
 * The classes of `index` that the text of `files` names (the words of its strings: a class an island draws is written
 * out in its source, as Tailwind requires to build it, and minifying keeps strings).
 */
async function classesNamedIn(root: string, files: string[], known: Set<string>): Promise<string[]> {
  const found = new Set<string>();
  for (const file of files) {
    const text = await Deno.readTextFile(resolve(root, file));
    for (const word of text.split(/[\s"'`{}]+/)) if (known.has(word)) found.add(word);
    for (const word of text.split(/\s+/)) if (known.has(word)) found.add(word);
  }
  return [...found].sort();
}

/**
 * Builds the stylesheet into `assetsDir` and writes its index (`CRITICAL_CSS_INDEX`) with the classes each island's
 * files (`islandFiles`, by island name) name; returns the stylesheet's URL path.
 */
async function buildStylesheet(
  options: BuildOptions,
  assetsDir: string,
  islandFiles: Record<string, string[]>,
): Promise<string> {
  const temp = join(assetsDir, "styles.tmp.css");
  const args = ["run", "-A", "npm:@tailwindcss/cli@4.3.3", "-i", join(options.root, options.stylesheet), "-o", temp];
  if (options.minify !== false) args.push("--minify");
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.root,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (code !== 0) throw new Error(`Tailwind build failed:\n${new TextDecoder().decode(stderr)}`);
  const css = await Deno.readTextFile(temp);
  const name = `styles-${await hashOf(css)}.css`;
  await Deno.rename(temp, join(assetsDir, name));
  const index = indexStylesheet(css);
  const known = new Set(index.entries.flatMap((entry) => entry.selectors?.flatMap((s) => s.classes) ?? []));
  index.islands = {};
  for (const [island, files] of Object.entries(islandFiles)) {
    index.islands[island] = await classesNamedIn(options.root, files, known);
  }
  await Deno.writeTextFile(join(assetsDir, "..", CRITICAL_CSS_INDEX), JSON.stringify(index));
  return `/_build/${name}`;
}

/**
 * Each island's module and the chunks it imports statically, transitively, as esbuild output paths; with `onDemand`
 * also those it imports with `import()` (what it may fetch later).
 */
function islandClosure(outputs: esbuild.Metafile["outputs"], entry: string, { onDemand = false } = {}): string[] {
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of outputs[output]?.imports ?? []) {
      const followed = imported.kind === "import-statement" || (onDemand && imported.kind === "dynamic-import");
      if (followed && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  return [...seen];
}

async function sizeOf(root: string, files: string[]): Promise<IslandSize> {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const body = await Deno.readFile(resolve(root, file));
    bytes += body.byteLength;
    gzipBytes += gzipSync(body, { level: 9 }).byteLength;
  }
  return { bytes, gzipBytes };
}

/** Resolves the import map's `@/` alias (the project root) for esbuild, as Deno does. */
function projectAlias(root: string): esbuild.Plugin {
  return {
    name: "project-alias",
    setup(build) {
      build.onResolve({ filter: /^@\// }, (args) => ({ path: resolve(root, args.path.slice(2)) }));
    },
  };
}

/** esbuild's entry points: the boot module and `island-<name>` per island. */
function entryPointsOf(root: string, islands: string[], serviceWorker: boolean): Record<string, string> {
  const entryPoints: Record<string, string> = {
    boot: join(import.meta.dirname!, "client", "boot.ts"),
  };
  if (serviceWorker) entryPoints["register-sw"] = join(import.meta.dirname!, "client", "register_sw.ts");
  for (const file of islands) {
    const entry = `island-${islandName(file)}`;
    if (entry in entryPoints) throw new Error(`Two islands are named "${islandName(file)}": rename ${file}`);
    entryPoints[entry] = resolve(root, file);
  }
  return entryPoints;
}

async function bundle(
  { root, entryPoints, outdir, minify, alias }: {
    root: string;
    entryPoints: Record<string, string>;
    outdir: string;
    minify: boolean;
    alias?: Record<string, string>;
  },
): Promise<esbuild.Metafile> {
  try {
    const result = await esbuild.build({
      entryPoints,
      outdir,
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2020"],
      minify,
      jsx: "automatic",
      jsxImportSource: "preact",
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      metafile: true,
      logLevel: "silent",
      alias,
      plugins: [projectAlias(root)],
    });
    return result.metafile;
  } finally {
    await esbuild.stop();
  }
}

/**
 * Bundles the boot module and every island as `buildAssets` does, into `outDir` (relative to
 * `root`; created if missing), and returns esbuild's metafile: its `inputs` are the import graph
 * of what the browser gets, as paths relative to `root` (an npm package's files under
 * `node_modules/`).
 * @throws Error when esbuild fails or when two islands have the same file name.
 */
export async function bundleIslands(
  options: { root: string; islands: string[]; outDir: string; alias?: Record<string, string> },
): Promise<esbuild.Metafile> {
  const entryPoints = entryPointsOf(options.root, options.islands, false);
  const outdir = resolve(options.root, options.outDir);
  await Deno.mkdir(outdir, { recursive: true });
  return await bundle({ root: options.root, entryPoints, outdir, minify: false, alias: options.alias });
}

/**
 * Builds islands and CSS into `outDir`, replacing what was there, and measures each island.
 * @throws Error when esbuild or Tailwind fails, when two islands have the same file name, or
 *   when an island is over `islandBudgetBytes` gzipped (naming each one and its size).
 */
export async function buildAssets(options: BuildOptions): Promise<BuildResult> {
  const entryPoints = entryPointsOf(options.root, options.islands, options.serviceWorker !== undefined);
  const outDir = resolve(options.root, options.outDir);
  const assetsDir = join(outDir, "assets");
  await Deno.remove(outDir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  await Deno.mkdir(assetsDir, { recursive: true });
  const { outputs } = await bundle({
    root: options.root,
    entryPoints,
    outdir: assetsDir,
    minify: options.minify !== false,
    alias: options.alias,
  });

  const islands: Record<string, string> = {};
  const islandSizes: Record<string, IslandSize> = {};
  const closures: Record<string, string[]> = {};
  /** Each island's files with those it imports on demand. */
  const everything: Record<string, string[]> = {};
  const urlOf = (output: string) => `/_build/${relative(assetsDir, resolve(options.root, output))}`;
  let boot = "";
  let bootClosure: string[] = [];
  let register = "";
  for (const [output, meta] of Object.entries(outputs)) {
    // A module an island imports with `import()` is an entry point of esbuild's too, written as a chunk.
    if (!meta.entryPoint || basename(output).startsWith("chunk-")) continue;
    const url = urlOf(output);
    const name = basename(output).replace(/-[A-Z0-9]+\.js$/i, "");
    if (name === "boot") {
      boot = url;
      bootClosure = islandClosure(outputs, output).map(urlOf);
      continue;
    }
    if (name === "register-sw") {
      register = url;
      continue;
    }
    const island = name.replace(/^island-/, "");
    islands[island] = url;
    closures[island] = islandClosure(outputs, output);
    islandSizes[island] = await sizeOf(options.root, closures[island]);
    everything[island] = islandClosure(outputs, output, { onDemand: true });
    const onDemand = everything[island].filter((file) => !closures[island].includes(file));
    if (onDemand.length > 0) islandSizes[`${island} (on demand)`] = await sizeOf(options.root, onDemand);
  }
  const budget = options.islandBudgetBytes;
  const over = Object.entries(islandSizes).filter(([, size]) => budget !== undefined && size.gzipBytes > budget);
  if (over.length > 0) {
    const list = over.map(([name, size]) => `${name} ${size.gzipBytes} bytes`).join(", ");
    throw new Error(`Islands over the budget of ${budget} gzipped bytes: ${list}`);
  }
  const css = [await buildStylesheet(options, assetsDir, everything)];
  const buildId = await hashOf(JSON.stringify({ boot, islands, css }));
  const chunks: Record<string, string[]> = { [boot]: bootClosure.filter((url) => url !== boot) };
  for (const [island, url] of Object.entries(islands)) {
    chunks[url] = closures[island].map(urlOf).filter((chunk) => chunk !== url);
  }
  const manifest: BuildManifest = { buildId, boot, islands, chunks, css, criticalCss: CRITICAL_CSS_INDEX };
  let serviceWorkerSize: IslandSize | undefined;
  const worker = options.serviceWorker;
  if (worker) {
    const unknown = worker.islands.filter((name) => !closures[name]);
    if (unknown.length > 0) throw new Error(`Service worker precaches unknown islands: ${unknown.join(", ")}`);
    const precache = [
      ...new Set([
        ...worker.precache,
        ...bootClosure,
        ...worker.islands.flatMap((name) => closures[name].map(urlOf)),
      ]),
    ];
    const { staticDir, pageModules } = worker;
    const buildVersion = await builtFilesVersion({ root: options.root, outDir });
    const version = await serviceWorkerVersion({ root: options.root, buildVersion, precache, staticDir, pageModules });
    const file = join(outDir, "sw.js");
    await bundleServiceWorker({
      root: options.root,
      entry: worker.entry,
      outfile: file,
      build: { version, buildVersion, precache },
      minify: options.minify !== false,
    });
    manifest.serviceWorker = { register, version };
    serviceWorkerSize = await sizeOf(options.root, [file]);
  }
  await Deno.writeTextFile(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return serviceWorkerSize ? { ...manifest, islandSizes, serviceWorkerSize } : { ...manifest, islandSizes };
}

/** Bundles the service worker `entry` alone into `outfile`, with `build` as its `SERVICE_WORKER` constant. */
async function bundleServiceWorker(
  { root, entry, outfile, build, minify }: {
    root: string;
    entry: string;
    outfile: string;
    build: ServiceWorkerBuild;
    minify: boolean;
  },
): Promise<void> {
  try {
    await esbuild.build({
      entryPoints: [resolve(root, entry)],
      outfile,
      absWorkingDir: root,
      bundle: true,
      format: "iife",
      platform: "browser",
      target: ["es2020"],
      minify,
      define: { SERVICE_WORKER: JSON.stringify(build) },
      logLevel: "silent",
      plugins: [projectAlias(root)],
    });
  } finally {
    await esbuild.stop();
  }
}
