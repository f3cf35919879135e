/**
 * What the platform's asset build makes (`deno task build`, and `prepareAssets` when `_build/` is missing): the
 * islands of the route manifest, the Tailwind stylesheet, and the service worker with its shell (docs/decisions.md,
 * Installable and offline, "Service worker").
 */
import type { BuildOptions } from "@/lib/web/build.ts";
import type { Manifest } from "@/lib/web/types.ts";
import { LANGUAGES } from "@/lib/i18n/languages.ts";
import { offlinePagePath } from "@/lib/offline/messages.ts";
import { webManifestPath } from "@/lib/offline/web_manifest.ts";

const root = new URL("../..", import.meta.url).pathname;

/**
 * The shell the service worker precaches, besides the boot module: the offline page in each language
 * (docs/decisions.md, Languages, "The offline page"), the manifest in each language and the icons.
 */
export const OFFLINE_SHELL = [
  ...LANGUAGES.map(offlinePagePath),
  ...LANGUAGES.map(webManifestPath),
  "/favicon.svg",
  "/icons/icon-192.png",
];

/**
 * What the offline page is rendered from: its route, `_app` (header, footer), the document around them and the
 * catalogues' words; with the modules they import, what the service worker's cache version follows besides the files
 * it precaches (docs/decisions.md, Installable and offline, "Service worker").
 */
export const OFFLINE_PAGE_MODULES = [
  "routes/offline.tsx",
  "routes/_app.tsx",
  "lib/web/render.ts",
  "lib/i18n/catalogue.ts",
];

/**
 * Islands get their messages already parsed (docs/decisions.md, Languages, "The library"), so their bundles take
 * `intl-messageformat`'s parser from its stand-in that only refuses to parse.
 */
export const ISLAND_ALIAS = {
  "@formatjs/icu-messageformat-parser": "@formatjs/icu-messageformat-parser/no-parser.js",
};

/** The build options for `manifest`'s islands (`islandBudgetBytes` is the caller's). */
export function platformBuildOptions(manifest: Manifest): BuildOptions {
  return {
    root,
    islands: Object.keys(manifest.islands),
    stylesheet: "static/styles.css",
    outDir: "_build",
    alias: ISLAND_ALIAS,
    serviceWorker: {
      entry: "lib/offline/service_worker.ts",
      precache: OFFLINE_SHELL,
      islands: ["OfflineContents"],
      staticDir: "static",
      pageModules: OFFLINE_PAGE_MODULES,
    },
  };
}
