/**
 * Ahead-of-time asset build: one esbuild run bundles the boot module and every island
 * (ESM, code splitting so all islands share one copy of Preact, minified, content-hashed
 * names), and the Tailwind CLI builds the stylesheet. Writes `<outDir>/assets/*` and
 * `<outDir>/manifest.json` (see `BuildManifest`). Deno Deploy runs it as `deno task build`.
 */
import * as esbuild from "esbuild";
import { basename, join, relative, resolve } from "node:path";
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

/**
 * Builds islands and CSS into `outDir`, replacing what was there.
 * @throws Error when esbuild or Tailwind fails, or when two islands have the same file name.
 */
export async function buildAssets(options: BuildOptions): Promise<BuildManifest> {
  const entryPoints: Record<string, string> = {
    boot: join(import.meta.dirname!, "client", "boot.ts"),
  };
  for (const file of options.islands) {
    const entry = `island-${islandName(file)}`;
    if (entry in entryPoints) throw new Error(`Two islands are named "${islandName(file)}": rename ${file}`);
    entryPoints[entry] = resolve(options.root, file);
  }

  const outDir = resolve(options.root, options.outDir);
  const assetsDir = join(outDir, "assets");
  await Deno.remove(outDir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  await Deno.mkdir(assetsDir, { recursive: true });

  let result: esbuild.BuildResult<{ metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints,
      outdir: assetsDir,
      absWorkingDir: options.root,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2020"],
      minify: options.minify !== false,
      jsx: "automatic",
      jsxImportSource: "preact",
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      metafile: true,
      logLevel: "silent",
    });
  } finally {
    await esbuild.stop();
  }

  const islands: Record<string, string> = {};
  let boot = "";
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const url = `/_build/${relative(assetsDir, resolve(options.root, output))}`;
    const name = basename(output).replace(/-[A-Z0-9]+\.js$/i, "");
    if (name === "boot") boot = url;
    else islands[name.replace(/^island-/, "")] = url;
  }
  const css = [await buildStylesheet(options, assetsDir)];
  const buildId = await hashOf(JSON.stringify({ boot, islands, css }));
  const manifest: BuildManifest = { buildId, boot, islands, css };
  await Deno.writeTextFile(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}
