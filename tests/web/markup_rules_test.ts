/**
 * Rules the markup of islands, components and pages keeps, read from their sources.
 *
 * One text-input style: a control that an island, component or page writes itself takes its
 * classes from `INPUT` (or `ROW_INPUT` in a list row or table cell) in `lib/browser/styles.ts`, or is a
 * `TextField`, never a hand-written copy of them that drifts apart (a missing focus ring, another border).
 *
 * No emoji-only characters: a phone or desktop without an emoji font (many Linux desktops, older Android) draws them
 * as empty boxes, so an inline SVG icon stands instead; symbols that fonts carry as text (✓, ⚠, →) are fine.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The border and padding of `INPUT` or `ROW_INPUT`, spelled by hand. */
const HAND_SPELLED_INPUT = /rounded-md border border-slate-400 (bg-white )?px-[23] py-(1|1\.5|2)\b/;

/** A character shown as emoji by default, or the selector that asks for emoji presentation. */
const EMOJI = /\p{Emoji_Presentation}|\uFE0F/u;

/** The `.ts` and `.tsx` files under `folder` (relative to the repository), recursively. */
async function* sources(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/**
 * The lines of the island, component and page sources and of the browser-safe modules they share (tests aside) that
 * match `pattern`, as `path:line`.
 */
async function linesMatching(pattern: RegExp, skip: string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const folder of ["islands", "components", "routes", "lib/browser"]) {
    for await (const path of sources(folder)) {
      if (skip.includes(path) || /_test\.tsx?$/.test(path)) continue;
      const lines = (await Deno.readTextFile(`${ROOT}${path}`)).split("\n");
      lines.forEach((line, i) => pattern.test(line) && found.push(`${path}:${i + 1}`));
    }
  }
  return found;
}

Deno.test("no island, component or page spells the input style by hand", async () => {
  assertEquals(
    await linesMatching(HAND_SPELLED_INPUT, ["lib/browser/styles.ts"]),
    [],
    "use INPUT or ROW_INPUT from lib/browser/styles.ts",
  );
});

Deno.test("no island, component or page writes an emoji", async () => {
  assertEquals(await linesMatching(EMOJI), [], "use an inline SVG icon");
});
