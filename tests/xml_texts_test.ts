/** `xmlTexts` (`tests/fixtures/html.ts`) reads what `texts(xmlDocument(…))` reads, and refuses what xmldom refuses. */
import { assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { texts, xmlDocument, xmlTexts } from "@/tests/fixtures/html.ts";

Deno.test("xmlTexts reads each element's text as xmldom does: entities, CDATA, nesting, prefixes", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="http://www.w3.org/1999/xhtml">
<url><loc>https://a.example/?q=1&amp;lang=hi</loc><x:loc>prefixed</x:loc></url>
<url><loc><![CDATA[<b>]]> and <loc>inner</loc> after</loc></url>
<url><loc/></url>
</urlset>`;
  for (const name of ["loc", "x:loc", "url", "none"]) {
    assertEquals(xmlTexts(xml, name), texts(xmlDocument(xml), name), name);
  }
  assertEquals(xmlTexts(xml, "loc").length, 4);
});

Deno.test("xmlTexts throws on a document that is not well-formed", () => {
  for (const xml of ["<a><b></a>", "<a>&nbsp;</a>", "<a></a><b></b>", "<a x='1' x='2'/>", "<p:a/>", "<a>"]) {
    assertThrows(() => xmlTexts(xml, "a"), Error, xml);
    assertThrows(() => xmlDocument(xml), Error, xml);
  }
});
