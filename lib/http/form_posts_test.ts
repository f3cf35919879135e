import { assertEquals } from "@/tests/helpers/assert.ts";
import { formBodyKind, isPageFormPost, isPlainFormPost, prefersHtml } from "./form_posts.ts";

Deno.test("prefersHtml: a browser's navigation prefers a page; fetch, JSON clients and no header do not", () => {
  const cases: [string | null, boolean][] = [
    ["text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", true],
    ["text/html", true],
    ["text/*", true],
    ["*/*", false],
    [null, false],
    ["", false],
    ["application/json", false],
    ["application/json, text/plain, */*", false],
    ["text/html;q=0.5, application/json", false],
    ["text/html;q=0, */*", false],
    ["application/json;q=0.5, text/html", true],
  ];
  for (const [accept, expected] of cases) assertEquals(prefersHtml(accept), expected, String(accept));
});

Deno.test("isPlainFormPost: a form body outside /api/ from a client that prefers a page", () => {
  const post = (path: string, type: string, accept = "text/html,*/*;q=0.8") =>
    isPlainFormPost(
      new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": type, accept } }),
      new URL(`http://localhost${path}`),
    );
  assertEquals(post("/language", "application/x-www-form-urlencoded"), true);
  assertEquals(post("/profile/resume", "multipart/form-data; boundary=x"), true);
  assertEquals(post("/api/me/resume", "multipart/form-data; boundary=x"), false);
  assertEquals(post("/language", "application/json"), false);
  assertEquals(post("/language", "application/x-www-form-urlencoded", "*/*"), false);
});

Deno.test("isPageFormPost: a form body outside /api/, whatever the client accepts", () => {
  const post = (path: string, type: string) =>
    isPageFormPost(
      new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": type, accept: "*/*" } }),
      new URL(`http://localhost${path}`),
    );
  assertEquals(post("/language", "application/x-www-form-urlencoded"), true);
  assertEquals(post("/profile/resume", "Multipart/Form-Data; boundary=x"), true);
  assertEquals(post("/api/me/settings", "application/x-www-form-urlencoded"), false);
  assertEquals(post("/language", "application/json"), false);
  assertEquals(post("/language", "text/plain"), false);
});

Deno.test("formBodyKind: a form's body by its media type, parameters and case aside; the one definition", () => {
  const kind = (type: string) =>
    formBodyKind(new Request("http://localhost/profile", { method: "POST", headers: { "content-type": type } }));
  assertEquals(kind("application/x-www-form-urlencoded"), "urlencoded");
  assertEquals(kind("Application/X-WWW-Form-Urlencoded ; charset=UTF-8"), "urlencoded");
  assertEquals(kind("multipart/form-data; boundary=----x"), "multipart");
  assertEquals(kind("Multipart/Form-Data;boundary=x"), "multipart");
  // Another media type that only begins like a form's is not one.
  assertEquals(kind("multipart/form-data-extra; boundary=x"), undefined);
  assertEquals(kind("application/x-www-form-urlencoded-v2"), undefined);
  assertEquals(kind("multipart/mixed; boundary=x"), undefined);
  assertEquals(kind("application/json"), undefined);
  assertEquals(formBodyKind(new Request("http://localhost/profile", { method: "POST" })), undefined);
  const page = new URL("http://localhost/language");
  const post = new Request(page, { method: "POST", headers: { "content-type": "multipart/form-data-extra" } });
  assertEquals(isPageFormPost(post, page), false, "nor a page's form post");
});
