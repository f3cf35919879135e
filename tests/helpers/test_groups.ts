/**
 * Test groups (docs/decisions.md, Tests, "Test groups"): one `deno test` module that runs several test modules, so
 * that `deno task test` loads the app's module graph (and playwright-core) and warms its caches once per group instead
 * of once per file. `deno test` gives every test module a fresh isolate, without V8's code cache: a module that imports
 * the app and answers its first `/api` request costs about 0.8 s of CPU before its own tests start, a browser test
 * module about 1 s more than its tests.
 *
 * A group module (`tests/groups/<name>.ts`, named without `_test` so that a plain `deno test` does not find it) calls
 * `importGroup(import.meta.url)`: the test modules `TEST_GROUPS[name]` names are imported, in name order, and their
 * `Deno.test` calls register in the group's module. Each file keeps its own module scope; what the files of a group
 * share is what the tests of one file already share: the modules of `lib/` (whose caches are keyed by the KV or app
 * that made them) and the helpers (one Chromium), so a test builds its own app, KV, people and browser context. A file
 * runs alone as before: `deno test -A tests/api/x_test.ts`.
 */

/**
 * The test modules directly in `folder` (from the repository's root, ending in `/`), or with `below`, in `folder` and
 * its subfolders, whose paths from `folder` sort in [from, to) (`auth/sign_in_test.ts` sorts between `auth/` and `b`).
 */
export interface TestGroup {
  folder: string;
  from?: string;
  to?: string;
  below?: boolean;
}

/**
 * The groups, by the name of their module in `tests/groups/`: the unit tests beside the code in `lib/`, the web layer's
 * tests (`tests/web/`), `tests/api/` in four slices of its paths, and `tests/e2e/` in slices of its file names (`e2e_0`
 * took in `e2e_1`'s; a new file or folder falls into the slice its path sorts into; a heavy module may stand alone).
 * Fewer, larger groups cost less: each group's isolate compiles and warms the app, its OpenAPI document and its
 * validators anew (docs/decisions.md, Tests, "Test groups"). Listed longest first, the order in which `scripts/run_tests.ts` starts them (`byLongestFirst`): with two at a time, the last minutes
 * then hold small modules on both cores instead of one long group alone on one.
 */
export const TEST_GROUPS: Record<string, TestGroup> = {
  e2e_6: { folder: "tests/e2e/", from: "phone", to: "po" },
  e2e_9: { folder: "tests/e2e/", from: "toolkits" },
  e2e_3: { folder: "tests/e2e/", from: "hi", to: "internships_t" },
  api_2: { folder: "tests/api/", below: true, from: "reach/", to: "s" },
  e2e_8: { folder: "tests/e2e/", from: "s", to: "toolkits" },
  api_1: { folder: "tests/api/", below: true, from: "internships/", to: "reach/" },
  e2e_2: { folder: "tests/e2e/", from: "fo", to: "hi" },
  api_0: { folder: "tests/api/", below: true, to: "internships/" },
  e2e_4: { folder: "tests/e2e/", from: "internships_t", to: "o" },
  e2e_7: { folder: "tests/e2e/", from: "po", to: "s" },
  api_3: { folder: "tests/api/", below: true, from: "s" },
  e2e_5: { folder: "tests/e2e/", from: "o", to: "phone" },
  e2e_0: { folder: "tests/e2e/", to: "fo" },
  lib: { folder: "lib/", below: true },
  web: { folder: "tests/web/" },
};

/**
 * `paths` (arguments of `deno test`) with the group modules (`tests/groups/<name>.ts`) first, in `TEST_GROUPS`' order
 * (longest first), then the others as given. `deno test --parallel` starts the modules named as files in the order
 * given, before those it finds in folders.
 */
export function byLongestFirst(paths: string[]): string[] {
  const names = Object.keys(TEST_GROUPS);
  const rank = (path: string) => {
    const name = path.match(/(?:^|\/)tests\/groups\/(\w+)\.ts$/)?.[1];
    const index = name === undefined ? -1 : names.indexOf(name);
    return index === -1 ? names.length : index;
  };
  return paths.map((path, index) => ({ path, index, rank: rank(path) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ path }) => path);
}

const ROOT = new URL("../../", import.meta.url);

/** The repository paths of `group`'s test modules (`*_test.ts`, `*_test.tsx`), sorted. */
export function groupFiles(group: TestGroup): string[] {
  const paths: string[] = [];
  const visit = (folder: string) => {
    for (const entry of Deno.readDirSync(new URL(folder, ROOT))) {
      if (entry.isDirectory && group.below) visit(`${folder}${entry.name}/`);
      if (!entry.isFile || !/_test\.tsx?$/.test(entry.name)) continue;
      const path = `${folder}${entry.name}`.slice(group.folder.length);
      if ((group.from === undefined || path >= group.from) && (group.to === undefined || path < group.to)) {
        paths.push(`${group.folder}${path}`);
      }
    }
  };
  visit(group.folder);
  return paths.sort();
}

/**
 * Imports the test modules of the group whose module is `moduleUrl` (`tests/groups/<name>.ts`), in name order
 * (`importTestModules`).
 * @throws Error when `TEST_GROUPS` has no group of that name.
 */
export async function importGroup(moduleUrl: string): Promise<void> {
  const name = new URL(moduleUrl).pathname.split("/").pop()!.replace(/\.ts$/, "");
  const group = TEST_GROUPS[name];
  if (group === undefined) throw new Error(`tests/groups/${name}.ts: no such group in TEST_GROUPS`);
  await importTestModules(groupFiles(group).map((path) => new URL(path, ROOT).href));
}

/**
 * Imports the test modules at `urls` in turn. One that fails to load (a syntax error, a throw at its top level) does
 * not stop the others: `failed` is told its URL and error, and the next is imported; by default it registers a test
 * `<url> loads` that fails with that error, so the run reports it.
 */
export async function importTestModules(
  urls: string[],
  failed: (url: string, error: unknown) => void = (url, error) =>
    Deno.test(`${url} loads`, () => {
      throw error;
    }),
): Promise<void> {
  for (const url of urls) {
    try {
      await import(url);
    } catch (error) {
      failed(url, error);
    }
  }
}
