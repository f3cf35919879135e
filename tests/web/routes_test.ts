/** File routes: URL patterns of `routes/` files, their matching order, and folder prefixes. */
import { compareRoutes, fileStem, folderMatcher, routePattern } from "@/lib/web/routes.ts";
import { assert, assertEquals, assertThrows } from "@/tests/helpers/assert.ts";

const pattern = (file: string) => routePattern(file).pattern;

Deno.test("index files map to their folder's path", () => {
  assertEquals(pattern("./routes/index.tsx"), "/");
  assertEquals(pattern("./routes/api/items/index.ts"), "/api/items");
});

Deno.test("nested files map to nested paths, with any module extension", () => {
  assertEquals(pattern("./routes/about.tsx"), "/about");
  assertEquals(pattern("./routes/api/health.ts"), "/api/health");
  assertEquals(pattern("./routes/a/b/c.jsx"), "/a/b/c");
  assertEquals(pattern("./routes/robots.txt.ts"), "/robots.txt");
  assertEquals(pattern("./routes/sign-in.tsx"), "/sign-in");
});

Deno.test("[param] files and folders become named parameters", () => {
  assertEquals(pattern("./routes/items/[id].tsx"), "/items/:id");
  assertEquals(pattern("./routes/users/[userId]/posts/[postId].ts"), "/users/:userId/posts/:postId");
  assertEquals(pattern("./routes/users/[userId]/index.tsx"), "/users/:userId");
});

Deno.test("[...rest] becomes a catch-all parameter of one or more segments", () => {
  assertEquals(pattern("./routes/api/[...path].ts"), "/api/:path{.+}");
  assertEquals(pattern("./routes/[...slug].tsx"), "/:slug{.+}");
});

Deno.test("(group) folders add no path segment", () => {
  assertEquals(pattern("./routes/(marketing)/pricing.tsx"), "/pricing");
  assertEquals(pattern("./routes/(marketing)/index.tsx"), "/");
  assertEquals(pattern("./routes/admin/(tables)/users/[id].tsx"), "/admin/users/:id");
});

Deno.test("invalid file or folder names are refused with the file named", () => {
  for (
    const file of [
      "./routes/a b.tsx",
      "./routes/[a-b].tsx",
      "./routes/[].tsx",
      "./routes/[..rest].tsx",
      "./routes/pre[id].tsx",
      "./routes/bad folder/x.tsx",
      "./routes/:id.tsx",
    ]
  ) {
    assertThrows(
      () => routePattern(file),
      { message: new RegExp(`Invalid route segment .* in ${escape(file)}`) },
      file,
    );
  }
});

Deno.test("fileStem is the base name without extension", () => {
  assertEquals(fileStem("./routes/api/[id].ts"), "[id]");
  assertEquals(fileStem("./routes/_middleware.ts"), "_middleware");
  assertEquals(fileStem("./routes/(g)/_layout.tsx"), "_layout");
});

Deno.test("compareRoutes: static segments before parameters before catch-alls", () => {
  const files = [
    "./routes/[...all].tsx",
    "./routes/items/[...rest].tsx",
    "./routes/items/[id].tsx",
    "./routes/[slug].tsx",
    "./routes/items/new.tsx",
    "./routes/index.tsx",
    "./routes/items/[id]/edit.tsx",
    "./routes/items/[id]/[...rest].tsx",
    "./routes/about.tsx",
  ];
  const sorted = files.map(routePattern).sort(compareRoutes).map((p) => p.pattern);
  const before = (a: string, b: string) => sorted.indexOf(a) < sorted.indexOf(b);
  const pairs: [string, string][] = [
    ["/items/new", "/items/:id"],
    ["/items/:id", "/items/:rest{.+}"],
    ["/items/new", "/items/:rest{.+}"],
    ["/about", "/:slug"],
    ["/:slug", "/:all{.+}"],
    ["/items/:id", "/:slug"],
    ["/items/:id/edit", "/items/:id/:rest{.+}"],
    ["/items/:id", "/items/:id/:rest{.+}"],
    ["/items/:id/:rest{.+}", "/items/:rest{.+}"],
    ["/items/:rest{.+}", "/:all{.+}"],
    ["/", "/:all{.+}"],
  ];
  for (const [a, b] of pairs) assertEquals(before(a, b), true, `${a} before ${b} in ${sorted.join(" ")}`);
});

Deno.test("compareRoutes: a longer route of the same kinds comes first, a catch-all prefix after it", () => {
  const cmp = (a: string, b: string) => compareRoutes(routePattern(a), routePattern(b));
  assertEquals(cmp("./routes/a/b.tsx", "./routes/a.tsx") < 0, true);
  assertEquals(cmp("./routes/a/[x]/[y].tsx", "./routes/a/[x].tsx") < 0, true);
  assertEquals(cmp("./routes/[x]/b.tsx", "./routes/[...rest].tsx") < 0, true);
  assertEquals(cmp("./routes/a.tsx", "./routes/a.tsx"), 0);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("folderMatcher: a _middleware folder covers its own path and everything below it", () => {
  const root = folderMatcher("./routes/_middleware.ts");
  assert(root("/") && root("/anything/at/all"));
  const admin = folderMatcher("./routes/(shop)/admin/_middleware.ts");
  for (const path of ["/admin", "/admin/", "/admin/users/1"]) assert(admin(path), path);
  for (const path of ["/administrator", "/", "/api/admin"]) assert(!admin(path), path);
  const item = folderMatcher("./routes/items/[id]/_middleware.ts");
  for (const path of ["/items/5", "/items/new", "/items/5/edit"]) assert(item(path), path);
  for (const path of ["/items", "/items/", "/itemsx/5"]) assert(!item(path), path);
  const rest = folderMatcher("./routes/docs/[...slug]/_middleware.ts");
  assert(rest("/docs/a/b/c") && !rest("/docs") && !rest("/docs/"));
  const dotted = folderMatcher("./routes/v1.0/_middleware.ts");
  assert(dotted("/v1.0/x") && !dotted("/v1x0/x"));
});
