/**
 * Islands take the wire types of the server modules that answer them (docs/decisions.md, Islands): what `fetchJson` or
 * `useAdminList` reads an answer into is built from types imported from those modules (`import type`), never a copy
 * spelled by hand. In `islands/` and `lib/browser/`, each type argument of those calls, and each local type alias it
 * names, may wrap imported types in a small object (`{ user: AuthUserView }`) whose properties are an imported type,
 * an array of one, or a single scalar (`{ unreadCount: number }`); a locally declared `interface`, a nested object
 * shape or an array of scalars there is a hand copy.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/** TypeScript's own generic helpers, which name no wire shape. */
const BUILT_IN = new Set(["Record", "Pick", "Omit", "Partial", "Readonly", "ReadonlyArray", "Array", "NonNullable"]);

/** The `.ts` and `.tsx` files under `folder` (relative to the repository), recursively, tests aside. */
async function* sources(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The text between the `<` at `start` and its matching `>`. */
function angleGroup(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "<") depth++;
    else if (text[i] === ">" && text[i - 1] !== "=" && --depth === 0) return text.slice(start + 1, i);
  }
  return text.slice(start + 1);
}

/** The text from `start` to the `;` that ends its statement (one outside every brace). */
function statementRest(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
    else if (text[i] === ";" && depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** The `{…}` groups of `type` at its top level, without their braces. */
function objectShapes(type: string): string[] {
  const shapes: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < type.length; i++) {
    if (type[i] === "{" && depth++ === 0) from = i + 1;
    else if (type[i] === "}" && --depth === 0) shapes.push(type.slice(from, i));
  }
  return shapes;
}

/** Why `type` (a type argument or a local alias's body) is spelled by hand, or null when it is built of imports. */
function handSpelled(type: string, interfaces: Set<string>): string | null {
  const local = [...type.matchAll(/\b[A-Z]\w*/g)].map(([name]) => name).find((name) => interfaces.has(name));
  if (local) return `the interface ${local} declared here`;
  for (const shape of objectShapes(type)) {
    if (shape.includes("{")) return "a nested object shape";
    if (/\b(string|number|boolean)\[\]/.test(shape)) return "an array of scalars";
  }
  return null;
}

/** Each hand-spelled answer type of `text` (the source of `path`), as `path: Call<…> (reason)`. */
function handCopies(path: string, text: string): string[] {
  const interfaces = new Set([...text.matchAll(/^(?:export )?interface (\w+)/gm)].map((m) => m[1]));
  const aliases = new Map<string, string>();
  for (const match of text.matchAll(/^(?:export )?type (\w+) = /gm)) {
    aliases.set(match[1], statementRest(text, match.index + match[0].length));
  }
  const found: string[] = [];
  for (const match of text.matchAll(/\b(fetchJson|useAdminList)</g)) {
    const args = angleGroup(text, match.index + match[1].length);
    if (args.trim() === "T" || args.trim() === "Data") continue;
    const named = [...args.matchAll(/\b[A-Z]\w*/g)].map(([name]) => name).filter((name) => !BUILT_IN.has(name));
    const reasons = [args, ...named.map((name) => aliases.get(name) ?? "")].map((t) => handSpelled(t, interfaces));
    const reason = reasons.find((r) => r !== null);
    if (reason) found.push(`${path}: ${match[1]}<${args.replace(/\s+/g, " ")}> (${reason})`);
  }
  return found;
}

Deno.test("islands read answers into the server's types, not hand copies", async () => {
  const found: string[] = [];
  for (const folder of ["islands", "lib/browser"]) {
    for await (const path of sources(folder)) {
      found.push(...handCopies(path, await Deno.readTextFile(`${ROOT}${path}`)));
    }
  }
  assertEquals(found, []);
});

Deno.test("a hand-declared answer, a nested shape and an array of scalars are caught; wrapped imports are not", () => {
  const island = [
    'import type { AuthUserView } from "@/lib/auth/views.ts";',
    "interface Quote {",
    "  free: boolean;",
    "}",
    'type Row = Pick<AuthUserView, "id"> & {',
    "  user: { name: string } | null;",
    "};",
    "type Saved = { user: AuthUserView } | { users: AuthUserView[] };",
    'fetchJson<Quote>("/a");',
    'fetchJson<{ user: { id: string; role: Role } }>("/b");',
    'fetchJson<{ ids: string[]; url: string | null }>("/c");',
    "useAdminList<Row, { rows: Row[] }>({});",
    'fetchJson<{ user: AuthUserView }>("/d");',
    'fetchJson<Saved>("/e");',
    'fetchJson<{ unreadCount: number }>("/f");',
  ].join("\n");
  assertEquals(handCopies("islands/X.tsx", island), [
    "islands/X.tsx: fetchJson<Quote> (the interface Quote declared here)",
    "islands/X.tsx: fetchJson<{ user: { id: string; role: Role } }> (a nested object shape)",
    "islands/X.tsx: fetchJson<{ ids: string[]; url: string | null }> (an array of scalars)",
    "islands/X.tsx: useAdminList<Row, { rows: Row[] }> (a nested object shape)",
  ]);
});
