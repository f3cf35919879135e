/** Builds islands and the stylesheet into `_build/` ahead of time (`deno task build`). */
import { buildAssets } from "../lib/web/build.ts";
import manifest from "../routes.gen.ts";

const root = new URL("..", import.meta.url).pathname;
const started = performance.now();
const result = await buildAssets({
  root,
  islands: Object.keys(manifest.islands),
  stylesheet: "static/styles.css",
  outDir: "_build",
});
console.log(
  `Built ${Object.keys(result.islands).length} islands and ${result.css.length} stylesheet in ${
    Math.round(performance.now() - started)
  } ms`,
);
