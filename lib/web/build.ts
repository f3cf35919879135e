/**
 * Ahead-of-time asset build: one esbuild run bundles the boot module and every island
 * (ESM, code splitting so all islands share one copy of Preact, minified, content-hashed
 * names), and the Tailwind CLI builds the stylesheet. Writes `<outDir>/assets/*` and
 * `<outDir>/manifest.json` (see `BuildManifest`). Deno Deploy runs it as `deno task build`.
 */
import * as esbuild from "esbuild";
import { basename, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { BuildManifest } from "./assets.ts";
import { islandName } from "./islands.ts";

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
   * Largest gzipped size in bytes of one island: its module plus every chunk it imports,
   * transitively (what the browser fetches to hydrate it, beyond the boot module).
   */
  islandBudgetBytes?: number;
}

/** The size of one island's module with the chunks it imports, in bytes. */
export interface IslandSize {
  bytes: number;
  gzipBytes: number;
}

/** What `buildAssets` wrote, with the size of each island. */
export interface BuildResult extends BuildManifest {
  islandSizes: Record<string, IslandSize>;
}

async function hashOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function buildStylesheet(options: BuildOptions, assetsDir: string): Promise<string> {
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
  return `/_build/${name}`;
}

/** Each island's module and the chunks it imports statically, transitively, as esbuild output paths. */
function islandClosure(outputs: esbuild.Metafile["outputs"], entry: string): string[] {
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of outputs[output]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
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
function entryPointsOf(root: string, islands: string[]): Record<string, string> {
  const entryPoints: Record<string, string> = {
    boot: join(import.meta.dirname!, "client", "boot.ts"),
  };
  for (const file of islands) {
    const entry = `island-${islandName(file)}`;
    if (entry in entryPoints) throw new Error(`Two islands are named "${islandName(file)}": rename ${file}`);
    entryPoints[entry] = resolve(root, file);
  }
  return entryPoints;
}

async function bundle(
  { root, entryPoints, outdir, minify }: {
    root: string;
    entryPoints: Record<string, string>;
    outdir: string;
    minify: boolean;
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
  options: { root: string; islands: string[]; outDir: string },
): Promise<esbuild.Metafile> {
  const entryPoints = entryPointsOf(options.root, options.islands);
  const outdir = resolve(options.root, options.outDir);
  await Deno.mkdir(outdir, { recursive: true });
  return await bundle({ root: options.root, entryPoints, outdir, minify: false });
}

/**
 * Builds islands and CSS into `outDir`, replacing what was there, and measures each island.
 * @throws Error when esbuild or Tailwind fails, when two islands have the same file name, or
 *   when an island is over `islandBudgetBytes` gzipped (naming each one and its size).
 */
export async function buildAssets(options: BuildOptions): Promise<BuildResult> {
  const entryPoints = entryPointsOf(options.root, options.islands);
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
  });

  const islands: Record<string, string> = {};
  const islandSizes: Record<string, IslandSize> = {};
  let boot = "";
  for (const [output, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    const url = `/_build/${relative(assetsDir, resolve(options.root, output))}`;
    const name = basename(output).replace(/-[A-Z0-9]+\.js$/i, "");
    if (name === "boot") {
      boot = url;
      continue;
    }
    const island = name.replace(/^island-/, "");
    islands[island] = url;
    islandSizes[island] = await sizeOf(options.root, islandClosure(outputs, output));
  }
  const budget = options.islandBudgetBytes;
  const over = Object.entries(islandSizes).filter(([, size]) => budget !== undefined && size.gzipBytes > budget);
  if (over.length > 0) {
    const list = over.map(([name, size]) => `${name} ${size.gzipBytes} bytes`).join(", ");
    throw new Error(`Islands over the budget of ${budget} gzipped bytes: ${list}`);
  }
  const css = [await buildStylesheet(options, assetsDir)];
  const buildId = await hashOf(JSON.stringify({ boot, islands, css }));
  const manifest: BuildManifest = { buildId, boot, islands, css };
  await Deno.writeTextFile(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { ...manifest, islandSizes };
}
