/**
 * Built and static assets, loaded into memory once at start so that serving them needs no
 * file system access. `_build/manifest.json` (written by `build.ts`) names the content-hashed
 * boot module, island modules and stylesheet; files under `/_build/` are served with
 * `Cache-Control: immutable`, files under `static/` with revalidation by ETag, and the service worker (when the build
 * has one) at `/sw.js` with `Cache-Control: no-cache`, so a browser checks for a new one on every visit.
 */
import { extname, join, relative } from "node:path";
import type { CssIndex } from "./critical_css.ts";

/** The build manifest written by `buildAssets`. URLs are absolute paths. */
export interface BuildManifest {
  buildId: string;
  boot: string;
  islands: Record<string, string>;
  /**
   * The chunks each entry module (the boot module and every island, by URL) imports statically, transitively, as URLs:
   * a page preloads them with the entry (docs/decisions.md, Islands, "Preloaded chunks"). Builds before it lack it.
   */
  chunks?: Record<string, string[]>;
  css: string[];
  /** The service worker, when the build has one: served at `/sw.js`, registered by the module `register`. */
  serviceWorker?: { register: string; version: string };
  /** The file of the stylesheet's critical CSS index in the build folder; without it pages link the stylesheet only. */
  criticalCss?: string;
}

/** One file ready to serve. */
export interface AssetFile {
  body: Uint8Array;
  contentType: string;
  etag: string;
  /** The `Cache-Control` it is served with. */
  cacheControl: string;
}

/** The loaded assets: the manifest plus every servable file by URL path, and the critical CSS index if built. */
export interface Assets {
  manifest: BuildManifest;
  files: Map<string, AssetFile>;
  cssIndex?: CssIndex;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".avif": "image/avif",
  ".html": "text/html; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".pdf": "application/pdf",
};

async function etagOf(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", body as Uint8Array<ArrayBuffer>));
  return `"${Array.from(digest.slice(0, 10), (b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile) yield path;
  }
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";

async function assetFile(path: string, cacheControl: string): Promise<AssetFile> {
  const body = await Deno.readFile(path);
  return {
    body,
    contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
    etag: await etagOf(body),
    cacheControl,
  };
}

/** Adds every file under `dir` to `files` at `urlPrefix` + its relative path. */
async function addDir(
  files: Map<string, AssetFile>,
  { dir, urlPrefix, cacheControl }: { dir: string; urlPrefix: string; cacheControl: string },
) {
  for await (const path of walk(dir)) {
    files.set(urlPrefix + relative(dir, path).split("\\").join("/"), await assetFile(path, cacheControl));
  }
}

/**
 * Loads `<buildDir>/manifest.json`, the built files and the files of `staticDir`.
 * @throws Error when the build is missing (run `deno task build`).
 */
export async function loadAssets(buildDir: string, staticDir: string): Promise<Assets> {
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(join(buildDir, "manifest.json")));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`No build found in ${buildDir}: run \`deno task build\` first`);
    }
    throw error;
  }
  const files = new Map<string, AssetFile>();
  await addDir(files, { dir: staticDir, urlPrefix: "/", cacheControl: REVALIDATE });
  await addDir(files, { dir: join(buildDir, "assets"), urlPrefix: "/_build/", cacheControl: IMMUTABLE });
  if (manifest.serviceWorker) files.set("/sw.js", await assetFile(join(buildDir, "sw.js"), "no-cache"));
  const cssIndex: CssIndex | undefined = manifest.criticalCss
    ? JSON.parse(await Deno.readTextFile(join(buildDir, manifest.criticalCss)))
    : undefined;
  return { manifest, files, cssIndex };
}

/** Answers a GET or HEAD for an asset, honouring `If-None-Match`; null when there is no such file. */
export function serveAsset(assets: Assets, req: Request, pathname: string): Response | null {
  const file = assets.files.get(pathname);
  if (!file) return null;
  const headers = new Headers({
    "content-type": file.contentType,
    "x-content-type-options": "nosniff",
    etag: file.etag,
    "cache-control": file.cacheControl,
  });
  const ifNoneMatch = req.headers.get("if-none-match")?.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (ifNoneMatch?.includes(file.etag) || ifNoneMatch?.includes("*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === "HEAD" ? null : file.body as Uint8Array<ArrayBuffer>, { headers });
}
