import { assertEquals } from "@/tests/helpers/assert.ts";
import { absoluteUrl } from "./json_ld.ts";

Deno.test("absoluteUrl writes every path as URL does, plain paths without parsing them, on its own origin", () => {
  const origins = [
    "http://127.0.0.1:8000",
    "https://Example.COM",
    "https://example.com:443",
    "https://careers.example",
  ];
  const paths = [
    "/",
    "/share.png",
    "/internships?offset=20",
    "/internships/rss.xml?search=data+analyst&types=remote%2Chybrid",
    "/a/./b",
    "/a/../b",
    "/.",
    "/..",
    "/a/..?x",
    "/a/.b",
    "/a/...",
    "/%2e%2e/x",
    "/a?x=%2e%2e",
    "/x y",
    "/ü",
    "/a?b c",
    "/a?'q'",
    "/a#part",
    "/a\\b",
    "https://other.example/x",
  ];
  for (const origin of origins) {
    for (const path of paths) assertEquals(absoluteUrl(origin, path), new URL(path, origin + "/").href, path);
    // Where URL would read another host, the path stays a path of the origin.
    for (const path of ["//elsewhere.example/x", "/\\elsewhere.example/x", "\\/elsewhere.example"]) {
      const url = new URL(absoluteUrl(origin, path));
      assertEquals(url.origin, new URL(origin).origin, path);
      assertEquals(url.pathname, new URL(`${origin}${path}`).pathname, path);
    }
  }
});
