import { assertEquals } from "@/tests/helpers/assert.ts";
import { contentHtml, contentSegments } from "./content.ts";

Deno.test("contentSegments: text, line breaks and http(s) links only", () => {
  assertEquals(contentSegments("a\r\nb\n\nc"), [
    { text: "a" },
    { br: true },
    { text: "b" },
    { br: true },
    { br: true },
    {
      text: "c",
    },
  ]);
  assertEquals(contentSegments("see (https://x.example/a_(b)), then http://y.example."), [
    { text: "see (" },
    { href: "https://x.example/a_(b)" },
    { text: "), then " },
    { href: "http://y.example" },
    { text: "." },
  ]);
  assertEquals(contentSegments("javascript:alert(1) ftp://x.example data:text/html,x https://"), [
    { text: "javascript:alert(1) ftp://x.example data:text/html,x https://" },
  ]);
});

Deno.test("contentHtml: escapes everything and links with rel nofollow ugc noopener", () => {
  assertEquals(
    contentHtml(`<a href="https://e.example/?a=1&b='2'">x</a>`),
    '&lt;a href=&quot;<a href="https://e.example/?a=1&amp;b=" rel="nofollow ugc noopener">https://e.example/?a=1&amp;b=</a>' +
      "&#39;2&#39;&quot;&gt;x&lt;/a&gt;",
  );
  assertEquals(contentHtml("line one\nline two"), "line one<br>line two");
});
