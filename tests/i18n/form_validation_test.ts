/**
 * No browser-made validation bubbles (docs/decisions.md, Languages, "Field errors"): the browser words its own
 * constraint checks (`required`, `min`, `type="email"`, …) in its own language, English on a Hindi page, so every
 * `<form>` in `components/`, `islands/` and `routes/` whose fields carry a constraint attribute is `noValidate`, and
 * the platform says the problem with its catalogue's sentence (the island before it asks, the server without
 * JavaScript).
 */
import { join } from "node:path";
import { assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const FOLDERS = ["components", "islands", "routes"];

/** An attribute the browser checks itself before a submit. */
const CONSTRAINT = /\s(?:required|min|max|step|pattern)(?=[\s=/>])|\stype="(?:email|url|number)"/;

/** The forms of `source` (its opening tag and what it holds up to its `</form>`) that check a constraint themselves. */
export function formsValidatedByBrowser(source: string): { line: number; tag: string }[] {
  const found: { line: number; tag: string }[] = [];
  const tags = /<form\b|<\/form>/g;
  const open: number[] = [];
  for (const match of source.matchAll(tags)) {
    if (match[0] === "<form") {
      open.push(match.index);
      continue;
    }
    const start = open.pop();
    if (start === undefined) continue;
    const form = source.slice(start, match.index);
    const tagEnd = form.search(/\n\s*>|[^=]>\s*\n/);
    const tag = tagEnd < 0 ? form : form.slice(0, tagEnd + 1);
    if (CONSTRAINT.test(form) && !/\snoValidate\b/.test(tag)) {
      found.push({ line: source.slice(0, start).split("\n").length, tag: tag.split("\n")[0].trim() });
    }
  }
  return found;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (entry.name.endsWith(".tsx") && !entry.name.endsWith("_test.tsx")) files.push(path);
  }
  return files;
}

Deno.test("every form whose fields the browser would check is noValidate", async () => {
  const found: string[] = [];
  for (const file of (await Promise.all(FOLDERS.map(sourceFiles))).flat().sort()) {
    const source = await Deno.readTextFile(join(ROOT, file));
    for (const form of formsValidatedByBrowser(source)) found.push(`${file}:${form.line} ${form.tag}`);
  }
  assertEquals(found, []);
});

Deno.test("the form scan finds a checked field in a form without noValidate, and only there", () => {
  const source = `
    <form method="post" class="x">
      <TextField type="email" />
    </form>
    <form method="post" noValidate>
      <input required />
    </form>
    <form
      method="get"
      onSubmit={go}
    >
      <input type="number" min="0" />
    </form>
    <form method="post"><input name="q" maxLength={20} aria-valuemin={0} /></form>
    <form method="post">
      <textarea name="reason" required></textarea>
    </form>`;
  assertEquals(formsValidatedByBrowser(source).map((form) => form.line), [2, 8, 15]);
});
