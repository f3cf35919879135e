/**
 * `deno task test` runs every test module of the repository exactly once (docs/decisions.md, Tests, "Test groups"):
 * the task names its roots (folders, files, globs) instead of letting `deno test` find everything, because the
 * modules a test group (`tests/groups/`) runs must not also run file by file. A module that no root and no
 * group reaches, or that two reach, fails here. `test:unit`, `test:api` and `test:e2e` together run the same modules.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import {
  byLongestFirst,
  groupFiles,
  importTestModules,
  TEST_GROUPS,
  type TestGroup,
} from "@/tests/helpers/test_groups.ts";

const ROOT = new URL("..", import.meta.url);
const TEST_FILE = /_test\.tsx?$/;
const SKIPPED = new Set(["node_modules", "_build", "data", ".git"]);

/** Every test module under `dir` (relative to the repository, ending in `/`), as repository paths. */
function testFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    if (entry.isDirectory && !SKIPPED.has(entry.name)) found.push(...testFilesUnder(`${dir}${entry.name}/`));
    else if (entry.isFile && TEST_FILE.test(entry.name)) found.push(`${dir}${entry.name}`);
  }
  return found;
}

/** The paths a `deno test` root names: a folder's test modules, a glob's matches (`*` within a name) or one file. */
function expandRoot(root: string): string[] {
  if (root.endsWith("/")) return testFilesUnder(root);
  if (!root.includes("*")) return [root];
  const slash = root.lastIndexOf("/");
  const dir = root.slice(0, slash + 1);
  const name = new RegExp(`^${root.slice(slash + 1).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`);
  return [...Deno.readDirSync(new URL(dir, ROOT))].filter((entry) => entry.isFile && name.test(entry.name))
    .map((entry) => `${dir}${entry.name}`).sort();
}

/** The test modules a module given to `deno test` runs: a group's (`tests/groups/<name>.ts`), else the module itself. */
function modulesRun(path: string, groups: Record<string, TestGroup>): string[] {
  const name = path.match(/^tests\/groups\/(\w+)\.ts$/)?.[1];
  if (name === undefined || !Object.hasOwn(groups, name)) return [path];
  return groupFiles(groups[name]);
}

/** The roots a task's `deno test` (or `scripts/run_tests.ts`, which passes its arguments on) is given. */
function rootsOf(task: string): string[] {
  const run = task.split("&&").map((part) => part.trim().split(/\s+/)).find((words) =>
    words[1] === "test" || words.includes("scripts/run_tests.ts")
  );
  if (run === undefined) return [];
  const start = run[1] === "test" ? 2 : run.indexOf("scripts/run_tests.ts") + 1;
  return run.slice(start).filter((word) => !word.startsWith("-"));
}

/** Test modules that `tasks` run other than exactly once, as `path: n times`, against `all`. */
function coverageOf(tasks: string[], all: string[], groups: Record<string, TestGroup> = TEST_GROUPS): string[] {
  const runs = new Map<string, number>(all.map((path) => [path, 0]));
  for (const task of tasks) {
    for (const root of rootsOf(task)) {
      for (const path of expandRoot(root).flatMap((file) => modulesRun(file, groups))) {
        runs.set(path, (runs.get(path) ?? 0) + 1);
      }
    }
  }
  const known = new Set(all);
  return [...runs].filter(([path, n]) => n !== 1 || !known.has(path))
    .map(([path, n]) => known.has(path) ? `${path}: ${n} times` : `${path}: not a test module`).sort();
}

const tasks: Record<string, string> = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT))).tasks;

Deno.test("deno task test runs every test module of the repository once", () => {
  const all = testFilesUnder("");
  assert(all.length > 200, `${all.length} test modules found`);
  assertEquals(coverageOf([tasks.test], all), []);
});

Deno.test("test:unit, test:api and test:e2e together run every test module once", () => {
  assertEquals(
    coverageOf([tasks["test:unit"], tasks["test:api"], tasks["test:e2e"]], testFilesUnder("")),
    [],
  );
});

Deno.test("every group has its module, and every module in tests/groups/ is a group", () => {
  const modules = [...Deno.readDirSync(new URL("tests/groups/", ROOT))].map((entry) => entry.name.replace(/\.ts$/, ""));
  assertEquals(modules.sort(), Object.keys(TEST_GROUPS).sort());
});

Deno.test("a module no root reaches, one run twice, a slice gap and a module that is no group are caught", () => {
  const auth = groupFiles({ folder: "tests/api/auth/" });
  const all = [...auth, "tests/web/routes_test.ts"];
  const split = (to: string, from: string) => ({
    api_auth: { folder: "tests/api/auth/", to },
    api_auth_2: { folder: "tests/api/auth/", from },
  });
  const both = "deno test tests/groups/api_auth.ts tests/groups/api_auth_2.ts tests/web/routes_test.ts";
  assertEquals(coverageOf([both], all, split("p", "p")), []);
  assertEquals(coverageOf(["deno test -A tests/web/routes_test.ts"], all), auth.map((path) => `${path}: 0 times`));
  const whole = { api_auth: { folder: "tests/api/auth/" } };
  assertEquals(coverageOf([`deno test -A tests/groups/api_auth.ts ${auth[0]} tests/web/routes_test.ts`], all, whole), [
    `${auth[0]}: 2 times`,
  ]);
  const gap = auth.filter((path) => path >= "tests/api/auth/p" && path < "tests/api/auth/s");
  assert(gap.length > 0, "the slice gap leaves modules out");
  assertEquals(coverageOf([both], all, split("p", "s")), gap.map((path) => `${path}: 0 times`));
  assertEquals(coverageOf(["deno test tests/groups/api_none.ts tests/web/routes_test.ts"], all, {}), [
    ...auth.map((path) => `${path}: 0 times`),
    "tests/groups/api_none.ts: not a test module",
  ]);
});

Deno.test("a slice below a folder takes the paths from it that sort in [from, to), subfolders included", () => {
  const api = (from?: string, to?: string) => groupFiles({ folder: "tests/api/", below: true, from, to });
  assertEquals(api("auth/", "b"), groupFiles({ folder: "tests/api/auth/" }));
  const halves = [...api(undefined, "m"), ...api("m")];
  assertEquals(halves, api());
  assert(halves.some((path) => path.split("/").length > 3), "subfolders are included");
  assert(halves.some((path) => path.split("/").length === 3), "files of the folder itself are included");
});

Deno.test("a group module that fails to load is reported, and the modules after it still load", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const loaded = `test-groups-${crypto.randomUUID()}`;
    await Deno.writeTextFile(`${dir}/a_test.ts`, `throw new Error("broken at load");`);
    await Deno.writeTextFile(`${dir}/b_test.ts`, `(globalThis as Record<string, unknown>)["${loaded}"] = true;`);
    const failures: [string, string][] = [];
    await importTestModules(
      ["a_test.ts", "b_test.ts"].map((name) => new URL(`file://${dir}/${name}`).href),
      (url, error) => failures.push([url.split("/").pop()!, (error as Error).message]),
    );
    assertEquals(failures, [["a_test.ts", "broken at load"]]);
    assertEquals((globalThis as Record<string, unknown>)[loaded], true, "the module after the broken one loaded");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scripts/run_tests.ts starts the groups longest first (TEST_GROUPS' order), then the other roots as given", () => {
  const names = Object.keys(TEST_GROUPS);
  const groups = names.map((name) => `tests/groups/${name}.ts`);
  const given = ["components/", "tests/web/", ...[...groups].sort(), "tests/platform/"];
  assertEquals(byLongestFirst(given), [...groups, "components/", "tests/web/", "tests/platform/"]);
});
