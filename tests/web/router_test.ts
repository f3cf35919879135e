/** The web layer's router: Hono's TrieRouter matches, with static route paths' matches kept. */
import type { Result } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { StaticPathRouter } from "@/lib/web/router.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

const PATTERNS = [
  "/",
  "/api/internships",
  "/api/internships/:id",
  "/api/admin/posts/preview",
  "/api/admin/posts/:id",
  "/api/:path{.+}",
  "/items/new",
  "/items/:id",
];

function routers() {
  const trie = new TrieRouter<string>();
  const kept = new StaticPathRouter<string>();
  for (const pattern of PATTERNS) {
    trie.add("ALL", pattern, `all ${pattern}`);
    kept.add("ALL", pattern, `all ${pattern}`);
  }
  trie.add("POST", "/api/internships", "post /api/internships");
  kept.add("POST", "/api/internships", "post /api/internships");
  return { trie, kept };
}

Deno.test("the router answers what Hono's TrieRouter answers, for static, parameter and catch-all paths", () => {
  const { trie, kept } = routers();
  const paths = [
    "/",
    "/api/internships",
    "/api/internships/",
    "/api/internships/abc",
    "/api/admin/posts/preview",
    "/api/admin/posts/42",
    "/api/nope",
    "/api/a/b/c",
    "/api",
    "/items/new",
    "/items/7",
    "/nope",
  ];
  for (const method of ["GET", "POST", "HEAD", "BREW"]) {
    for (const path of paths) {
      // Twice: the second answer of a static path is the kept one.
      for (let i = 0; i < 2; i++) {
        assertEquals(kept.match(method, path), trie.match(method, path), `${method} ${path}`);
      }
    }
  }
});

Deno.test("a static route path's match is worked out once per method; other paths are searched every time", () => {
  const { kept } = routers();
  const first = kept.match("GET", "/api/internships");
  assert(kept.match("GET", "/api/internships") === first, "the kept match is answered again");
  assert(kept.match("POST", "/api/internships") !== first, "each method has its own match");
  assertEquals((kept.match("POST", "/api/internships") as Result<string>)[0].map(([handler]) => handler), [
    "all /api/internships",
    "all /api/:path{.+}",
    "post /api/internships",
  ]);
  assert(kept.match("GET", "/api/internships/abc") !== kept.match("GET", "/api/internships/abc"));
  assert(
    kept.match("BREW", "/api/internships") !== kept.match("BREW", "/api/internships"),
    "unknown methods are not kept",
  );
});

Deno.test("a route added after a match is part of the next match of a kept path", () => {
  const kept = new StaticPathRouter<string>();
  kept.add("ALL", "/a", "first");
  assertEquals(kept.match("GET", "/a")[0].map(([handler]) => handler), ["first"]);
  kept.add("GET", "/a", "second");
  assertEquals(kept.match("GET", "/a")[0].map(([handler]) => handler), ["first", "second"]);
});
