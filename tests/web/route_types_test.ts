/**
 * Route modules take their types from `define` (README, Adding things): a handler is typed by
 * `define.handlers`, and a route's own function that takes the handler's context types it as
 * `RouteContext` from `@/lib/platform/define.ts`. No file under `routes/` spells the state type
 * (`AppState`) or imports the web layer's handler types, which would bind it a second time.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The state type spelled by hand, or the web layer's handler types imported beside `define`. */
const SPELLS_STATE = /\bAppState\b|["']@\/lib\/web\/types\.ts["']|["'](\.\.\/)+lib\/web\/types\.ts["']/;

/** The `.ts` and `.tsx` files under `folder` (relative to the repository), recursively. */
async function* sources(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Each line of `text` that spells the state type, as `path:line`. */
function spellings(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => SPELLS_STATE.test(line) ? [`${path}:${i + 1}`] : []);
}

Deno.test("no route spells the state type: handlers and their contexts are typed through define", async () => {
  const found: string[] = [];
  for await (const path of sources("routes")) found.push(...spellings(path, await Deno.readTextFile(`${ROOT}${path}`)));
  assertEquals(found, [], "use define.handlers, or RouteContext from @/lib/platform/define.ts");
});

Deno.test("a handler typed by hand with the state type is caught", () => {
  const route = [
    'import type { AppState } from "@/lib/platform/state.ts";',
    'import type { Handler } from "@/lib/web/types.ts";',
    "const update: Handler<unknown, AppState> = (_req, ctx) => Response.json(ctx.params);",
  ].join("\n");
  assertEquals(spellings("routes/x.ts", route), ["routes/x.ts:1", "routes/x.ts:2", "routes/x.ts:3"]);
});
