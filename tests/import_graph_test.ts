/**
 * Folder roles that hold (README, Layout; docs/decisions.md, Islands). Esbuild's metafile of the
 * islands' bundles is walked from each island: no island may reach a server module (a project
 * module that touches Deno KV or lives in a server folder, or a server-only npm package), and a
 * finding names the chain of imports that drags it in. The source of `lib/` is read for its
 * imports: `lib/` (its unit tests aside) imports nothing from `components/`, `islands/`, `routes/`,
 * `routes.gen.ts`, `main.ts` or `tests/` (the composition root passes the manifest in). No module under
 * `components/` reaches, through static value imports, a module that touches KV (one under `lib/kv/`, or
 * `lib/kv.ts`, or one whose text names Deno's KV or cron API: the domain modules that own keys), and `components/` holds
 * nothing but components: `.tsx` modules (their unit tests aside) whose every value export is named in PascalCase (a
 * component, or a context such as `SiteContext`); labels, formats, hooks and class names live under `lib/`. `lib/`
 * keeps its three layers (README, Layout): a domain module (`lib/<domain>/`) imports nothing of the web layer, so no
 * route handler, request reading or API description lives in a domain, and only the web layer applies rate limits. No
 * module is part of an import cycle (static value imports; a type-only import is erased). An admin list island bundles
 * only the list parts it uses (each island counts against a budget). Fixtures that break each rule prove that the
 * checks can fail.
 */
import type { Metafile } from "esbuild";
import { join, normalize, relative } from "node:path";
import { bundleIslands } from "@/lib/web/build.ts";
import { ISLAND_ALIAS } from "@/lib/platform/build_options.ts";
import manifest from "@/routes.gen.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** Project folders and files that only the server may load. */
const SERVER_PATHS =
  /^(lib\/(platform|http|kv|mail|jobs|payments|auth|account|demo|openapi|files)\/|lib\/kv\.ts$|lib\/i18n\/catalogue\.ts$|locales\/|routes\/|routes\.gen\.ts$|main\.ts$)/;
/** npm packages that only the server may load. */
const SERVER_PACKAGES = new Set([
  "nodemailer",
  "razorpay",
  "smtp-server",
  "@node-rs/argon2",
  "hono",
  "oauth4webapi",
  "sanitize-html",
  "marked",
  "linkedom",
  "@xmldom/xmldom",
  "file-type",
  "hash-wasm",
]);
/** A module whose text names these touches Deno KV or the cron scheduler. */
const TOUCHES_KV = /\bDeno\.(openKv|Kv|AtomicOperation|KvU64|cron)\b/;

/** The npm package of a bundled file (`node_modules/.deno/x@1/node_modules/@scope/name/…` → `@scope/name`). */
function packageOf(path: string): string | null {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const [first, second] = path.slice(at + "node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** Why `path` (relative to ROOT) is a server module, or null when the browser may have it. */
function serverReason(path: string): string | null {
  const pkg = packageOf(path);
  if (pkg !== null) return SERVER_PACKAGES.has(pkg) ? `the server package ${pkg}` : null;
  if (SERVER_PATHS.test(path)) return "a server folder";
  return TOUCHES_KV.test(Deno.readTextFileSync(join(ROOT, path))) ? "it touches Deno KV" : null;
}

/**
 * Every server module the bundle of each island reaches, as `island → … → module (reason)`, the
 * first chain found (breadth first: the shortest) per module.
 */
function islandLeaks(meta: Metafile, islands: string[]): string[] {
  const leaks: string[] = [];
  for (const island of islands.map((file) => relative(ROOT, join(ROOT, file)))) {
    assert(meta.inputs[island], `${island} is in the bundle's import graph`);
    const from = new Map<string, string | null>([[island, null]]);
    const queue = [island];
    while (queue.length > 0) {
      const path = queue.shift()!;
      const reason = serverReason(path);
      if (reason !== null) {
        const chain = [path];
        for (let at = from.get(path); at; at = from.get(at)) chain.unshift(at);
        leaks.push(`${chain.join(" → ")} (${reason})`);
        continue;
      }
      for (const imported of meta.inputs[path]?.imports ?? []) {
        if (imported.external || from.has(imported.path)) continue;
        from.set(imported.path, path);
        queue.push(imported.path);
      }
    }
  }
  return leaks;
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s(?:[^;"'`]*?\sfrom\s)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
/** Where `lib/` must not reach: the layers above it and the tests. */
const ABOVE_LIB = /^(components|islands|routes|tests)\/|^(routes\.gen|main)\.ts$/;

/** Every `.ts`/`.tsx` file under `dir` (relative to ROOT) but the unit tests beside the code. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** Each import (types included) of the files under `dir` that resolves above `lib/`, as `file → target`. */
function upwardImports(dir: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    for (const match of Deno.readTextFileSync(join(ROOT, file)).matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      const target = specifier.startsWith("@/")
        ? specifier.slice(2)
        : specifier.startsWith(".")
        ? relative(ROOT, normalize(join(ROOT, file, "..", specifier)))
        : null;
      if (target !== null && ABOVE_LIB.test(target)) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

/**
 * A static value import or re-export: `import`/`export … from` that is not `import type`/`export type`
 * and names at least one binding without `type` (a type-only one is erased), or a side-effect `import "…"`.
 * Group 1 is `type ` on a type-only declaration, group 2 the bindings, group 3 the specifier.
 */
const STATIC_IMPORT = /^[ \t]*(?:import|export)[ \t]+(type[ \t]+)?(?:([^;"'`]*?)[ \t\n]*from[ \t]*)?["']([^"']+)["']/gm;

/** True when the bindings of an import declaration are all marked `type` (`{ type A, type B }`). */
function onlyTypes(bindings: string): boolean {
  const braces = /^\{([^}]*)\}$/s.exec(bindings.trim());
  if (!braces) return false;
  const names = braces[1].split(",").map((name) => name.trim()).filter((name) => name !== "");
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

/** The project modules (relative to ROOT) that `file` imports statically as values; npm and JSR packages aside. */
function valueImports(file: string): string[] {
  const targets: string[] = [];
  for (const [, typeOnly, bindings, specifier] of Deno.readTextFileSync(join(ROOT, file)).matchAll(STATIC_IMPORT)) {
    if (typeOnly || (bindings !== undefined && onlyTypes(bindings))) continue;
    if (specifier.startsWith("@/")) targets.push(specifier.slice(2));
    else if (specifier.startsWith(".")) targets.push(relative(ROOT, normalize(join(ROOT, file, "..", specifier))));
  }
  return targets;
}

/** Why `path` touches KV (or the cron scheduler), or null when it does not. */
function kvReason(path: string): string | null {
  if (/^lib\/kv\/|^lib\/kv\.ts$/.test(path)) return "a KV module";
  return TOUCHES_KV.test(Deno.readTextFileSync(join(ROOT, path))) ? "it touches Deno KV" : null;
}

/**
 * Every module that touches KV which a file under `dir` reaches through static value imports, as
 * `component → … → module (reason)`: the shortest chain per component and module.
 */
function componentKvReach(dir: string): string[] {
  const found: string[] = [];
  for (const component of sourceFiles(dir)) {
    const from = new Map<string, string | null>([[component, null]]);
    const queue = [component];
    while (queue.length > 0) {
      const path = queue.shift()!;
      const reason = path === component ? null : kvReason(path);
      if (reason !== null) {
        const chain = [path];
        for (let at = from.get(path); at; at = from.get(at)) chain.unshift(at);
        found.push(`${chain.join(" → ")} (${reason})`);
        continue;
      }
      for (const imported of valueImports(path)) {
        if (from.has(imported)) continue;
        from.set(imported, path);
        queue.push(imported);
      }
    }
  }
  return found;
}

async function bundled(islands: string[]): Promise<Metafile> {
  const outDir = await Deno.makeTempDir();
  try {
    return await bundleIslands({ root: ROOT, islands, outDir, alias: ISLAND_ALIAS });
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
}

Deno.test("no island's bundle reaches a server module", async () => {
  const islands = Object.keys(manifest.islands);
  assert(islands.length > 20, "the manifest lists the islands");
  assertEquals(islandLeaks(await bundled(islands), islands), []);
});

/** Every module the bundle of `island` reaches through its static imports (paths relative to ROOT). */
function reachedBy(meta: Metafile, island: string): Set<string> {
  const seen = new Set([island]);
  for (const path of seen) {
    for (const imported of meta.inputs[path]?.imports ?? []) {
      if (!imported.external && imported.kind !== "dynamic-import") seen.add(imported.path);
    }
  }
  return seen;
}

Deno.test("an admin list bundles the list parts it uses: no delete hook without deletes, no pages without pages", async () => {
  const [users, coupons] = ["islands/AdminUsersTable.tsx", "islands/AdminCouponsTable.tsx"];
  const meta = await bundled([users, coupons]);
  const ofUsers = reachedBy(meta, users);
  assert(ofUsers.has("components/AdminList.tsx"), "the users table is an admin list");
  assert(!ofUsers.has("lib/browser/use_confirm_delete.ts"), "it deletes nothing: the delete hook stays out");
  assert(!ofUsers.has("components/Pagination.tsx"), "its plain pages are the list's own");
  const ofCoupons = reachedBy(meta, coupons);
  assert(ofCoupons.has("lib/browser/use_confirm_delete.ts"), "the coupons table deletes");
  assert(!ofCoupons.has("lib/browser/pagination.ts"), "it has no pages: nor what words them");
});

Deno.test("an island that imports a domain module is caught with the chain that drags KV in", async () => {
  const island = "tests/fixtures/imports/islands/LeakyCoupon.tsx";
  const leaks = islandLeaks(await bundled([island]), [island]);
  assert(
    leaks.includes(`${island} → lib/coupons/coupons.ts (it touches Deno KV)`),
    `found: ${leaks.join("\n")}`,
  );
});

Deno.test("lib/ imports nothing from components/, islands/, routes/, main.ts or tests/", () => {
  assertEquals(upwardImports("lib"), []);
});

Deno.test("an upward import from lib/ is caught", () => {
  assertEquals(upwardImports("tests/fixtures/imports/lib"), [
    "tests/fixtures/imports/lib/upward.ts → components/forms.tsx",
  ]);
});

Deno.test("no component reaches a module that touches KV through value imports", () => {
  assertEquals(componentKvReach("components"), []);
});

Deno.test("a component whose value import drags a domain module in is caught; type-only imports are not", () => {
  assertEquals(componentKvReach("tests/fixtures/imports/components"), [
    "tests/fixtures/imports/components/ClosedBadge.tsx → tests/fixtures/imports/components/closing.ts → " +
    "lib/internships/internships.ts (it touches Deno KV)",
    "tests/fixtures/imports/components/closing.ts → lib/internships/internships.ts (it touches Deno KV)",
  ]);
});

/** The names a module exports as values (`export function`, `const`, `let`, `class`, `{ … }`); types left out. */
function valueExportNames(text: string): string[] {
  const names: string[] = [];
  for (const [, name] of text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+(\w+)/gm)) {
    names.push(name);
  }
  for (const [, typeOnly, list] of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    if (typeOnly) continue;
    for (const part of list.split(",").map((p) => p.trim()).filter((p) => p && !p.startsWith("type "))) {
      names.push(part.split(/\s+as\s+/).at(-1)!);
    }
  }
  return names;
}

/** What under `dir` is not a component: a file that is not `.tsx`, or a value export not named in PascalCase. */
function nonComponents(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of Deno.readDirSync(join(ROOT, at))) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (/_test\.tsx?$/.test(entry.name)) continue;
      else if (!entry.name.endsWith(".tsx")) found.push(`${path} is not a component module`);
      else {
        for (const name of valueExportNames(Deno.readTextFileSync(join(ROOT, path)))) {
          if (!/^[A-Z][a-z0-9]\w*$/.test(name)) found.push(`${path} exports ${name}`);
        }
      }
    }
  };
  walk(dir);
  return found.sort();
}

Deno.test("components/ holds nothing but components", () => {
  assertEquals(nonComponents("components"), []);
});

Deno.test("a module under components/ that is not a component, or exports something else beside one, is caught", () => {
  assertEquals(nonComponents("tests/fixtures/imports/components"), [
    "tests/fixtures/imports/components/Badge.tsx exports BADGE_CLASS",
    "tests/fixtures/imports/components/Badge.tsx exports badgeText",
    "tests/fixtures/imports/components/closing.ts is not a component module",
  ]);
});

/** The folders of `lib/` that are its web layer or its platform services; every other folder is a domain. */
const NOT_DOMAINS = new Set([
  "web",
  "http",
  "openapi",
  "seo",
  "offline",
  "browser",
  "platform",
  "kv",
  "jobs",
  "mail",
  "files",
  "payments",
  "push",
]);
/** The web layer, which a domain never imports: the platform's request side, but not the services it hands on. */
const WEB_LAYER =
  /^lib\/(web|http|openapi|seo|offline)\/|^lib\/platform\/(app|define|route_options|csp|header_gate|build_options|server|rate_limits)\.ts$/;

/** Each import (types included) by a domain module under `lib` (relative to ROOT) of the web layer: `file → target`. */
function domainWebImports(lib: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(join(ROOT, lib))) {
    if (!entry.isDirectory || NOT_DOMAINS.has(entry.name)) continue;
    for (const file of sourceFiles(`${lib}/${entry.name}`)) {
      for (const match of Deno.readTextFileSync(join(ROOT, file)).matchAll(SPECIFIER)) {
        const specifier = match[1] ?? match[2];
        const target = specifier.startsWith("@/")
          ? specifier.slice(2)
          : specifier.startsWith(".")
          ? relative(ROOT, normalize(join(ROOT, file, "..", specifier)))
          : null;
        if (target !== null && WEB_LAYER.test(target)) found.push(`${file} → ${target}`);
      }
    }
  }
  return found.sort();
}

Deno.test("no domain module imports the web layer: route handlers and request reading live in routes/ and lib/http/", () => {
  assert([...Deno.readDirSync(join(ROOT, "lib"))].filter((e) => e.isDirectory && !NOT_DOMAINS.has(e.name)).length > 15);
  assertEquals(domainWebImports("lib"), []);
});

Deno.test("a route handler in a domain folder is caught; the services a domain is handed are not", () => {
  assertEquals(domainWebImports("tests/fixtures/imports/lib"), [
    "tests/fixtures/imports/lib/shop/refund_route.ts → lib/http/json.ts",
    "tests/fixtures/imports/lib/shop/refund_route.ts → lib/platform/define.ts",
  ]);
});

Deno.test("only the web layer applies the rate limits: routes, the password sign-in they share, the per-person step", () => {
  const outside: string[] = [];
  for (const dir of ["lib", "components", "islands"]) {
    for (const file of sourceFiles(dir)) {
      if (/\brateLimits\.hit\(/.test(Deno.readTextFileSync(join(ROOT, file)))) outside.push(file);
    }
  }
  assertEquals(outside, ["lib/http/password_sign_in.ts", "lib/http/person_limits.ts"]);
  const routes = sourceFiles("routes").filter((file) =>
    /\brateLimits\.hit\(/.test(Deno.readTextFileSync(join(ROOT, file)))
  );
  assert(routes.length >= 8, `routes applying rate limits: ${routes.join(", ")}`);
});

Deno.test("every admin power is checked through isAdmin: the role alone grants nothing until the address is verified", () => {
  const byRole = /\brole\s*[!=]==\s*"admin"/;
  const files = ["lib", "routes", "components", "islands"].flatMap((dir) => sourceFiles(dir))
    .filter((file) => byRole.test(Deno.readTextFileSync(join(ROOT, file)))).sort();
  // isAdmin itself; the role as data: a role change (whether it demotes), no suspending an admin (and the users table
  // offering none), the demo's accounts, the log's filter of admins by role, the badge on an admin's comment (only a
  // verified address comments, so the role there is the power's).
  assertEquals(files, [
    "islands/AdminUsersTable.tsx",
    "islands/PostDiscussion.tsx",
    "lib/demo/opportunities.ts",
    "lib/demo/seed.ts",
    "lib/users/admin.ts",
    "lib/users/roles.ts",
    "lib/users/suspension.ts",
    "routes/admin/log.tsx",
  ]);
});

/** The import cycles among the modules under `dirs` (static value imports), each as its modules sorted. */
function importCycles(dirs: string[]): string[][] {
  const files = dirs.flatMap((dir) => dir.endsWith(".ts") ? [dir] : sourceFiles(dir));
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, valueImports(file).filter((target) => known.has(target))]));
  // Tarjan's strongly connected components: a component of more than one module is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop()!;; top = stack.pop()!) {
      onStack.delete(top);
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

Deno.test("no module is part of an import cycle", () => {
  assertEquals(importCycles(["lib", "components", "islands", "routes", "main.ts"]), []);
});

Deno.test("an import cycle is caught; a type-only import back is not one", () => {
  assertEquals(importCycles(["tests/fixtures/imports/cycle"]), [[
    "tests/fixtures/imports/cycle/orders.ts",
    "tests/fixtures/imports/cycle/refunds.ts",
  ]]);
});
