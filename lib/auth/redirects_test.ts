import { AuthError } from "@/lib/errors.ts";
import { assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { checkRedirect, withQuery } from "./redirects.ts";

const APP = "https://careers.example";

Deno.test("checkRedirect keeps same-origin paths and URLs", () => {
  assertEquals(checkRedirect("callbackURL", undefined, APP), undefined);
  assertEquals(checkRedirect("callbackURL", "/", APP), "/");
  assertEquals(checkRedirect("callbackURL", "/onboarding?step=2#top", APP), "/onboarding?step=2#top");
  assertEquals(checkRedirect("callbackURL", "https://careers.example/a?b=1", APP), "https://careers.example/a?b=1");
  assertEquals(checkRedirect("callbackURL", "/a/../b", APP), "/b");
  assertEquals(checkRedirect("callbackURL", "/..%2f/evil.example", APP), "/..%2f/evil.example");
  assertEquals(checkRedirect("callbackURL", "https://careers.example/..//x", APP), "https://careers.example//x");
});

Deno.test("checkRedirect returns only targets that stay on the origin when a browser resolves them again", () => {
  const inputs = ["/", "/a/./b/../c", "/%2e/x", "/a/%2e%2e/b?c=//d#//e", "/a//b", "/~user", "/a\\b"];
  for (const input of inputs) {
    const target = checkRedirect("callbackURL", input, APP)!;
    assertEquals(new URL(target, "https://careers.example/deep/page").origin, "https://careers.example", input);
    assertEquals(checkRedirect("callbackURL", target, APP), target, `stable: ${input}`);
  }
});

Deno.test("checkRedirect refuses every way off the origin with 400 INVALID_<FIELD>", () => {
  const hostile = [
    "",
    "dashboard",
    "//evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " //evil.example",
    "https://evil.example",
    "https://careers.example.evil.example/",
    "https://careers.example@evil.example/",
    "http://careers.example/",
    "https://careers.example:444/",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/" + "a".repeat(2048),
    // Paths that become `//host` once URL resolution removes dot segments.
    "/..//evil.example",
    "/../..//evil.example/path?q=1",
    "/.%2e//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/.%2E//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/./..//evil.example",
    "/.//evil.example",
    "/a/..\\/evil.example",
    "/..\\/evil.example",
    "/..\\\\evil.example",
    "/a/..\t//evil.example",
    "/..\t//evil.example",
    "/\t..//evil.example",
    "/\\\\evil.example",
    "\t//evil.example",
    "/\r\n/evil.example",
    "/.\n.//evil.example",
  ];
  for (const value of hostile) {
    assertThrows(() => checkRedirect("newUserCallbackURL", value, APP), (error: unknown) => {
      return error instanceof AuthError && error.code === "INVALID_NEW_USER_CALLBACK_URL" &&
        error.message === "Invalid newUserCallbackURL";
    }, JSON.stringify(value));
  }
});

Deno.test("withQuery adds a parameter to a path or a URL, keeping the rest", () => {
  assertEquals(withQuery("/welcome", APP, { error: "INVALID_TOKEN" }), "/welcome?error=INVALID_TOKEN");
  assertEquals(withQuery("/w?x=1#h", APP, { error: "E" }), "/w?x=1&error=E#h");
  assertEquals(withQuery("https://careers.example/r", APP, { token: "t" }), "https://careers.example/r?token=t");
});
