/**
 * One text-input style: a control that an island, component or page writes itself takes its
 * classes from `INPUT` (or `ROW_INPUT` in a list row or table cell) in `components/forms.tsx`, or is a
 * `TextField`, never a hand-written copy of them that drifts apart (a missing focus ring, another border).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The border and padding of `INPUT` or `ROW_INPUT`, spelled by hand. */
const HAND_SPELLED_INPUT = /rounded-md border border-slate-400 (bg-white )?px-[23] py-(1|1\.5|2)\b/;

/** The `.ts` and `.tsx` files under `folder` (relative to the repository), recursively. */
async function* sources(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("no island, component or page spells the input style by hand", async () => {
  const found: string[] = [];
  for (const folder of ["islands", "components", "routes"]) {
    for await (const path of sources(folder)) {
      if (path === "components/forms.tsx") continue;
      const lines = (await Deno.readTextFile(`${ROOT}${path}`)).split("\n");
      lines.forEach((line, i) => HAND_SPELLED_INPUT.test(line) && found.push(`${path}:${i + 1}`));
    }
  }
  assertEquals(found, [], "use INPUT or ROW_INPUT from components/forms.tsx");
});
