/**
 * The repository explains itself: every "docs/<file>.md, <Section>" a code comment cites names a
 * section heading of that file, no source cites documents outside the repository, and
 * `.env.example` lists every variable `app.config.ts` reads.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const root = new URL("..", import.meta.url).pathname;
const SOURCE_DIRS = ["lib", "routes", "islands", "components", "scripts", "bench", "tests"];

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${root}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

async function allSources(): Promise<[string, string][]> {
  const files: [string, string][] = [];
  for (const dir of SOURCE_DIRS) {
    for await (const path of sourceFiles(dir)) files.push([path, await Deno.readTextFile(`${root}${path}`)]);
  }
  for (const path of ["main.ts", "dev.ts", "app.config.ts"]) {
    files.push([path, await Deno.readTextFile(`${root}${path}`)]);
  }
  return files;
}

/** The `## ` headings of a docs file. */
async function headings(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${root}docs/${file}`);
  return [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());
}

Deno.test("every docs/<file>.md section a source cites exists", async () => {
  const sections: Record<string, string[]> = {};
  for (const file of ["decisions.md", "api.md", "performance.md"]) sections[file] = await headings(file);
  const missing: string[] = [];
  for (const [path, text] of await allSources()) {
    // "docs/decisions.md, Toolkits and payments", possibly wrapped onto the next comment line.
    for (const m of text.matchAll(/docs\/(decisions|api|performance)\.md,\s*(?:\*\s*)?([A-Z][\w ]*)/g)) {
      const cited = m[2].trim();
      const found = sections[`${m[1]}.md`].some((heading) => cited === heading || cited.startsWith(heading + " "));
      if (!found) missing.push(`${path}: docs/${m[1]}.md, ${cited}`);
    }
  }
  assertEquals(missing, []);
});

Deno.test("no source cites a document outside the repository or an issue number", async () => {
  const offending: string[] = [];
  for (const [path, text] of await allSources()) {
    if (path === "tests/docs_test.ts") continue;
    if (/CONTRACT\.md|\.\.\/shared\/|issue #\d+/.test(text)) offending.push(path);
  }
  assertEquals(offending, []);
});

Deno.test(".env.example lists every variable app.config.ts reads", async () => {
  const config = await Deno.readTextFile(`${root}app.config.ts`);
  const example = await Deno.readTextFile(`${root}.env.example`);
  const read = new Set([...config.matchAll(/^\s+([A-Z][A-Z0-9_]+): z\./gm)].map((m) => m[1]));
  assert(read.size > 10, "the variables were found");
  const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
  assertEquals([...read].filter((name) => !listed.has(name)), []);
});
