/**
 * The repository explains itself. A citation is `docs/<file>.md, <Section>` or
 * `docs/<file>.md, <Section>, "<Item>"`, where `<Section>` is exactly a `## ` heading of that file and `<Item>` exactly
 * the bold lead-in (`- **Item.**`) of an entry under it; a bare `docs/<file>.md` names the whole file. Any other shape
 * (a numbered rule, a heading with words added, a sub-heading that is not a bold lead-in) fails, in the sources and in
 * the docs themselves. Nothing cites documents outside the repository or issue numbers, and `.env.example` lists every
 * variable `app.config.ts` reads. The README stays a page that shows the layers of `lib/` and how to add things.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const root = new URL("..", import.meta.url).pathname;
const SOURCE_DIRS = ["lib", "routes", "islands", "components", "scripts", "bench", "tests"];
const DOCS = ["decisions.md", "api.md", "performance.md"];

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${root}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Every source file, the docs, the README and `.env.example`, as `[path, text]`. */
async function allFiles(): Promise<[string, string][]> {
  const paths: string[] = [];
  for (const dir of SOURCE_DIRS) for await (const path of sourceFiles(dir)) paths.push(path);
  paths.push("main.ts", "dev.ts", "app.config.ts", "README.md", ".env.example", ...DOCS.map((file) => `docs/${file}`));
  return await Promise.all(
    paths.map(async (path) => [path, await Deno.readTextFile(`${root}${path}`)] as [string, string]),
  );
}

/** Per `## ` heading of a markdown text, the bold lead-ins of its entries (without their final `.` or `:`). */
function sectionsOf(markdown: string): Map<string, Set<string>> {
  const sections = new Map<string, Set<string>>();
  let items: Set<string> | undefined;
  for (const line of markdown.split("\n")) {
    const heading = line.match(/^## (.+)$/);
    if (heading) sections.set(heading[1].trim(), items = new Set());
    const bold = line.match(/^- \*\*(.+?)[.:]?\*\*/);
    if (bold && items) items.add(bold[1]);
  }
  return sections;
}

type Sections = Record<string, Map<string, Set<string>>>;

/**
 * The citations of `text` that name no heading or bold lead-in of the docs, or do not have the one shape. Comment
 * line breaks (`\n * `, `\n// `, indentation) are read as spaces, so a citation may wrap; a path split by one
 * (`docs/` at a line's end) is seen and refused, so that a rename still finds it.
 */
function badCitations(text: string, sections: Sections): string[] {
  const flat = text.replace(/\s*\n\s*(?:\*(?!\*)|\/\/)?\s*/g, " ");
  const bad: string[] = [];
  for (const m of flat.matchAll(/docs\/\s*(decisions|api|performance)\.md/g)) {
    const file = sections[`${m[1]}.md`];
    const rest = flat.slice(m.index + m[0].length);
    const shown = `${m[0]}${rest.slice(0, 60)}`;
    if (/\s/.test(m[0])) {
      bad.push(shown);
      continue;
    }
    if (!rest.startsWith(", ")) {
      // A bare reference to the whole file.
      if (/^(?:$|[).;`]|\s(?!\())/.test(rest)) continue;
      bad.push(shown);
      continue;
    }
    const section = rest.slice(2).match(/^[^()[\];:,."`]*/)![0];
    const after = rest.slice(2 + section.length);
    if (!file.has(section) || section !== section.trim()) {
      bad.push(shown);
      continue;
    }
    const item = after.match(/^, "([^"]+)"/);
    if (item && !file.get(section)!.has(item[1])) bad.push(shown);
    else if (!/^(?:$|[).;`]|, docs\/)/.test(after.slice(item ? item[0].length : 0))) bad.push(shown);
  }
  return bad;
}

/** Words that cite documents outside the repository, an issue number or a numbered rule. */
const OUTSIDE = new RegExp(
  [
    /CONTRACT\.md|DESIGN\.md|\.\.\/shared|\bspecification\b|\bcontractual\b/,
    /\bissues? #?\d|(?:^|[\s(])#\d{1,4}\b(?![\w-])/,
    /\brules? \d|\bfeed rules?\b|\bstates table|\bstates? "[A-Z]|"[A-Z][\w ]*" \d/,
  ].map((part) => part.source).join("|"),
  "i",
);

async function allSections(): Promise<Sections> {
  const sections: Sections = {};
  for (const file of DOCS) sections[file] = sectionsOf(await Deno.readTextFile(`${root}docs/${file}`));
  return sections;
}

Deno.test("a citation must name a heading, or a bold lead-in under it, exactly", () => {
  const sections: Sections = {
    "decisions.md": sectionsOf("# D\n\n## Sessions\n\n- **Renewal.** Slides.\n- Plain.\n\n## Auth\n\n- Any."),
    "api.md": sectionsOf("# A\n\n## Authentication\n\n- Route."),
    "performance.md": new Map(),
  };
  const good = [
    "/** Sessions (docs/decisions.md, Sessions). */",
    '/** Renewal (docs/decisions.md, Sessions, "Renewal"; docs/api.md, Authentication). */',
    "/**\n * Sign-in (docs/api.md, Authentication, docs/decisions.md,\n * Auth): wrapped.\n */",
    "// See docs/decisions.md.",
  ];
  for (const text of good) assertEquals(badCitations(text, sections), [], text);
  const bad = [
    "(docs/api.md, Authentication 7 and 8)",
    "(docs/decisions.md, Sessions rule 2)",
    "(docs/decisions.md, Session)",
    "(docs/decisions.md, Sessions and Auth)",
    '(docs/decisions.md, Sessions "Renewal")',
    '(docs/decisions.md, Sessions, "Plain")',
    '(docs/decisions.md, Auth, "Renewal")',
    '(docs/decisions.md, Sessions: "Renewal")',
    "(docs/decisions.md, Sessions: renewal)",
    "(docs/decisions.md, Sessions, its renewal)",
    '(docs/decisions.md (Sessions, "Renewal"))',
    "(docs/api.md, Authentication and docs/decisions.md, Auth)",
    '/**\n * Renewal (docs/\n * decisions.md, Sessions, "Renewal").\n */',
  ];
  for (const text of bad) assertEquals(badCitations(text, sections).length, 1, text);
});

Deno.test("every docs/<file>.md section the sources and docs cite exists", async () => {
  const sections = await allSections();
  const missing: string[] = [];
  for (const [path, text] of await allFiles()) {
    if (path === "tests/docs_test.ts") continue;
    for (const citation of badCitations(text, sections)) missing.push(`${path}: ${citation}`);
  }
  assertEquals(missing, []);
});

Deno.test("nothing cites a document outside the repository, an issue number or a numbered rule", async () => {
  const outside = [
    "DESIGN.md",
    "the specification",
    "contractual",
    "(#10: pages)",
    "issue 18",
    "Rule 5:",
    'states "Toolkit"',
    '("Authentication" 9: a name',
  ];
  for (const text of outside) {
    assert(OUTSIDE.test(text), text);
  }
  for (const text of ['fill="#334155"', "color:#111827", "&#39;", "white, #747775 border", "RFC 5545 §3.1"]) {
    assert(!OUTSIDE.test(text), text);
  }
  const offending: string[] = [];
  for (const [path, text] of await allFiles()) {
    if (path === "tests/docs_test.ts") continue;
    for (const [index, line] of text.split("\n").entries()) {
      if (OUTSIDE.test(line)) offending.push(`${path}:${index + 1}: ${line.trim()}`);
    }
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

Deno.test("the README stays a page: at most 150 lines, with the layers of lib/ and the steps of Adding things", async () => {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const lines = readme.trimEnd().split("\n").length;
  assert(lines <= 150, `README.md has ${lines} lines`);
  for (const layer of ["web layer", "platform services", "domains"]) assert(readme.includes(`  ${layer} `), layer);
  const adding = sectionsOf(readme).get("Adding things");
  for (const step of ["A route", "A domain", "Export and deletion", "A job", "An e-mail", "A notification type"]) {
    assert(adding?.has(step), `Adding things: ${step}`);
  }
});

/** Every file under `lib/` and `routes/` as `[path, text]`. */
async function codeFiles(): Promise<[string, string][]> {
  const paths: string[] = [];
  for (const dir of ["lib", "routes"]) for await (const path of sourceFiles(dir)) paths.push(path);
  return await Promise.all(
    paths.map(async (path) => [path, await Deno.readTextFile(`${root}${path}`)] as [string, string]),
  );
}

/** Whether `text` defines and exports `name` (a re-export does not count). */
function defines(text: string, name: string): boolean {
  return new RegExp(`^export (?:async )?(?:function\\*?|const|let|class|type|interface) ${name}\\b`, "m").test(text);
}

Deno.test("every function the README names is exported by lib/ or routes/, and every name it places in a file is defined there", async () => {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const files = await codeFiles();
  const functions = new Set([...readme.matchAll(/`([a-z]+[A-Z]\w*)(?:`|\()/g)].map((m) => m[1]));
  assert(functions.has("assertVerifiedAdmin") && functions.has("addNotification"), "the functions were found");
  assertEquals([...functions].filter((name) => !files.some(([, text]) => defines(text, name))), []);
  const placed = [...readme.matchAll(/`(\w+)`,?\s*\(?`(lib\/[\w/]+\.tsx?)`/g)].map((m) => [m[1], m[2]]);
  assert(placed.length >= 4, "the names placed in files were found");
  const misplaced = placed.filter(([name, path]) => !defines(files.find(([file]) => file === path)?.[1] ?? "", name));
  assertEquals(misplaced, []);
});

/** The text of the entry of `markdown` under `## section` whose bold lead-in is `item`, up to the next entry. */
function entryOf(markdown: string, section: string, item: string): string {
  const start = markdown.indexOf(`\n## ${section}\n`);
  const from = markdown.indexOf(`\n- **${item}`, start);
  assert(start >= 0 && from > start, `${section}, "${item}"`);
  const next = markdown.slice(from + 1).search(/\n(?:- |## )/);
  return markdown.slice(from + 1, next < 0 ? undefined : from + 1 + next);
}

/** The code names (in backticks) of the list in `text` after `marker` and its `):`, up to the sentence's end. */
function namesAfter(text: string, marker: string): string[] {
  const at = text.indexOf(marker);
  assert(at >= 0, marker);
  const list = text.slice(text.indexOf("):", at) + 2);
  return [...list.slice(0, list.search(/\.(?:\s|$)/)).matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

Deno.test("the lists in docs/decisions.md name what the code's constants hold", async () => {
  const decisions = await Deno.readTextFile(`${root}docs/decisions.md`);
  const { NOTIFICATION_TYPES } = await import("@/lib/notifications/types.ts");
  const records = entryOf(decisions, "Notifications", "Records");
  const types = [...records.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]);
  assertEquals(types.sort(), [...NOTIFICATION_TYPES].sort());
  const { EXPORT_SECTIONS } = await import("@/lib/account/export.ts");
  const exported = namesAfter(entryOf(decisions, "Data rights", "Export"), "(`EXPORT_SECTIONS`");
  assertEquals(exported, EXPORT_SECTIONS.map((section) => section.name));
  const { DELETION_STEPS } = await import("@/lib/account/deletion.ts");
  const deleted = namesAfter(entryOf(decisions, "Data rights", "Deletion"), "(`DELETION_STEPS`");
  assertEquals(deleted, DELETION_STEPS.map((step) => step.name));
});
