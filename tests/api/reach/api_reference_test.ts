/**
 * `docs/api.md`'s endpoint entries are written from the routes' `apiDocs` (`lib/openapi/reference.ts`, `deno task docs`)
 * and `deno task check` runs `scripts/api_docs.ts --check`, which fails on a stale file: the committed file is current,
 * a copy with an entry changed by hand or a section's block missing fails, and every route is in it.
 */
import { assert, assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { markers, writeReference } from "@/lib/openapi/reference.ts";
import { apiRouteFiles, type DocumentedModule, openApiPath } from "@/lib/openapi/document.ts";
import manifest from "@/routes.gen.ts";

const root = new URL("../../..", import.meta.url).pathname;
const routes = manifest.routes as Record<string, DocumentedModule>;

/** Runs `scripts/api_docs.ts --check` on `path`: its exit code and what it printed. */
async function check(path: string): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/api_docs.ts", "--check", path],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test("the check passes on the committed reference and fails on a copy whose entries are stale", async () => {
  const current = await Deno.readTextFile(`${root}docs/api.md`);
  assertEquals((await check(`${root}docs/api.md`)).code, 0, "the API reference is current: run `deno task docs`");
  const dir = await Deno.makeTempDir();
  try {
    const stale = `${dir}/api.md`;
    await Deno.writeTextFile(stale, current.replace("Search internships.", "Search the internships."));
    const result = await check(stale);
    assertEquals(result.code, 1);
    assert(result.stderr.includes("is stale: run `deno task docs`"), result.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every route has its entry, and a section without its block is refused", async () => {
  const current = await Deno.readTextFile(`${root}docs/api.md`);
  const flat = current.replace(/\s+/g, " ");
  for (const file of apiRouteFiles(routes)) {
    assert(flat.includes(`- \`${openApiPath(file)}\` (\`${file.slice(2)}\`)`), `${file} has its entry`);
  }
  const { begin } = markers("Health");
  assertThrows(() => writeReference(current.replace(begin, ""), routes), /needs one/);
  assertThrows(() => writeReference(`${current}\n${markers("Nowhere").begin}\n`, routes), /unknown section/);
});
