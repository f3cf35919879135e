/**
 * The names of the service worker's caches (docs/decisions.md, Installable and offline, "Service worker"), each named
 * by what its contents depend on. Browser-safe.
 */
import type { ServiceWorkerBuild } from "@/lib/web/build.ts";

/** The caches of one service worker. */
export interface CacheNames {
  /** What it precaches (the offline page in each language, the boot module, icons): by the worker's version. */
  shell: string;
  /** Pages visited: by the build's output, whose files they name and whose rules they inline. */
  pages: string;
  /** Built files the visited pages used: by the build's output. */
  assets: string;
  /** Lessons a person chose to keep offline, with their built files: one name for good, dropped only by the person. */
  kept: string;
}

/**
 * The cache names of a worker built with `build`: a deploy that changes only what the shell holds (words, the offline
 * page, an icon) renames the shell alone, so a phone keeps its visited pages; a new build output renames all but `kept`.
 */
export function cacheNames(
  { version, buildVersion }: Pick<ServiceWorkerBuild, "version" | "buildVersion">,
): CacheNames {
  return { shell: `shell-${version}`, pages: `pages-${buildVersion}`, assets: `assets-${buildVersion}`, kept: "kept" };
}

/** Whether `name` is a cache a worker names by version (and deletes when it is not its own). */
export function isVersionedCache(name: string): boolean {
  return /^(shell|pages|assets)-/.test(name);
}
