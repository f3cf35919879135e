/**
 * Writes `routes.gen.ts` from the files under `routes/` and `islands/`.
 * `--check`: writes nothing and exits 1 when the committed file is stale.
 */
import { generateManifest } from "@/lib/web/manifest_gen.ts";

const root = new URL("..", import.meta.url).pathname;
const path = `${root}routes.gen.ts`;
const text = await generateManifest(root);
if (Deno.args.includes("--check")) {
  const current = await Deno.readTextFile(path).catch(() => "");
  if (current !== text) {
    console.error("routes.gen.ts is stale: run `deno task gen`");
    Deno.exit(1);
  }
} else {
  await Deno.writeTextFile(path, text);
}
