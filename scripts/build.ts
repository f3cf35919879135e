/**
 * Builds islands and the stylesheet into `_build/` ahead of time (`deno task build`), prints each
 * island's size, and fails when one is over `ISLAND_BUDGET_BYTES` gzipped, so a regression fails
 * CI (the build runs before the tests) and the Deno Deploy build.
 */
import { buildAssets } from "@/lib/web/build.ts";
import { platformBuildOptions } from "@/lib/platform/build_options.ts";
import manifest from "@/routes.gen.ts";

/** Largest gzipped island, with the chunks it imports: 20 KB. */
export const ISLAND_BUDGET_BYTES = 20 * 1024;

const started = performance.now();
const result = await buildAssets({ ...platformBuildOptions(manifest), islandBudgetBytes: ISLAND_BUDGET_BYTES });
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
for (const [name, size] of Object.entries(result.islandSizes).sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`  ${name.padEnd(28)} ${kb(size.gzipBytes).padStart(9)} gzipped (${kb(size.bytes)})`);
}
if (result.serviceWorkerSize) {
  const size = result.serviceWorkerSize;
  console.log(
    `  ${"service worker (/sw.js)".padEnd(28)} ${kb(size.gzipBytes).padStart(9)} gzipped (${kb(size.bytes)})`,
  );
}
console.log(
  `Built ${Object.keys(result.islands).length} islands (budget ${
    kb(ISLAND_BUDGET_BYTES)
  } gzipped each) and ${result.css.length} stylesheet in ${Math.round(performance.now() - started)} ms`,
);
