/**
 * Test groups (docs/decisions.md, Tests, "Test groups"): one `deno test` module that runs the test modules of a
 * folder, so that `deno task test` loads the app's module graph and warms its caches once per folder instead of once
 * per file. `deno test` gives every test module a fresh isolate, without V8's code cache: a module that imports the
 * app and answers its first `/api` request costs about 0.8 s of CPU before its own tests start.
 *
 * A group module (`tests/groups/<name>.ts`, named without `_test` so that a plain `deno test` does not find it) calls
 * `importTests` with its folder: every `*_test.ts`/`*_test.tsx` directly in that folder is imported, in name order, and
 * its `Deno.test` calls register in the group's module. Each file keeps its own module scope; what files may share is
 * what the tests of one file already share: the modules of `lib/` (whose caches are keyed by the KV or app that made
 * them), so a test builds its own app, KV and people. A file runs alone as before: `deno test -A tests/api/x_test.ts`.
 */

/** Names of the test modules directly in `folder` (`*_test.ts`, `*_test.tsx`), sorted. */
export function testFilesIn(folder: URL): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(folder)) {
    if (entry.isFile && /_test\.tsx?$/.test(entry.name)) names.push(entry.name);
  }
  return names.sort();
}

/** Imports every test module directly in `folder` (a directory URL ending in `/`), in name order. */
export async function importTests(folder: URL): Promise<void> {
  for (const name of testFilesIn(folder)) await import(new URL(name, folder).href);
}
