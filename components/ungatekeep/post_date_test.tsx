import { renderToString } from "preact-render-to-string";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { PostDate } from "./PostCard.tsx";
import { TextContext } from "@/lib/i18n/context.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { Lang } from "@/lib/i18n/languages.ts";

const NOW = new Date("2026-11-28T06:00:00Z");
const DAY = 24 * 3600 * 1000;

/** The words of a post's date `ms` before `NOW` (after it when negative), in `lang`. */
function dateWords(lang: Lang, ms: number): string {
  const html = renderToString(
    <TextContext.Provider value={translatorFor(lang)}>
      <PostDate iso={new Date(NOW.getTime() - ms).toISOString()} now={NOW} />
    </TextContext.Provider>,
  );
  return html.replace(/<[^>]+>/g, "");
}

Deno.test("a post's date says how long ago in the catalogue's words, हफ़्ते in Hindi", () => {
  assertEquals(dateWords("hi", 15 * DAY), "2 हफ़्ते पहले");
  assertEquals(dateWords("hi", 1 * DAY), "कल");
  assertEquals(dateWords("hi", 3 * 3600 * 1000), "3 घंटे पहले");
  assertEquals(dateWords("hi", 10 * 1000), "अभी-अभी");
  assertEquals(dateWords("en", 15 * DAY), "2 weeks ago");
  assertEquals(dateWords("en", 1 * DAY), "yesterday");
  assertEquals(dateWords("en", 61 * 1000), "1 minute ago");
  assertEquals(dateWords("en", -2 * 3600 * 1000), "in 2 hours");
});
