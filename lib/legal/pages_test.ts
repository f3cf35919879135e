import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { LANGUAGES } from "@/lib/i18n/languages.ts";
import { LEGAL_PAGES, legalMarkdown, legalPageFile } from "./pages.ts";

/** The lines of a Markdown text that are headings (`## …`). */
const headings = (markdown: string) => markdown.split("\n").filter((line) => /^#{1,6} /.test(line));
/** The targets of a Markdown text's links, in order. */
const links = (markdown: string) => [...markdown.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);

Deno.test("every English legal page has its Hindi twin with as many headings, the same links and placeholders", async () => {
  for (const name of LEGAL_PAGES) {
    const english = await Deno.readTextFile(legalPageFile(name, "en"));
    for (const lang of LANGUAGES.filter((lang) => lang !== "en")) {
      const file = legalPageFile(name, lang);
      const text = await Deno.readTextFile(file).catch(() => "");
      assert(text, `${file.pathname} is missing`);
      assertEquals(headings(text).length, headings(english).length, `${name}: headings in ${lang}`);
      assertEquals(links(text), links(english), `${name}: links in ${lang}`);
      for (const placeholder of ["{{siteName}}", "{{siteUrl}}"]) {
        assertEquals(text.includes(placeholder), english.includes(placeholder), `${name}: ${placeholder} in ${lang}`);
      }
      assert(/[\u0900-\u097F]/.test(text), `${name} in ${lang} is written in Devanagari`);
    }
  }
});

Deno.test("a legal page without a file in the reader's language falls back to English; a Hindi one is read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = new URL(`file://${dir}/`);
    await Deno.writeTextFile(new URL("terms.md", base), "English terms");
    assertEquals(await legalMarkdown("terms", "hi", base), "English terms");
    await Deno.mkdir(new URL("hi/", base));
    await Deno.writeTextFile(new URL("hi/terms.md", base), "हिन्दी शर्तें");
    assertEquals(await legalMarkdown("terms", "hi", base), "हिन्दी शर्तें");
    assertEquals(await legalMarkdown("terms", "en", base), "English terms");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
