import { assertEquals } from "@/tests/helpers/assert.ts";
import { preferredLanguage, requestLanguage } from "./language.ts";

Deno.test("Accept-Language: Hindi only when it is preferred over English", () => {
  assertEquals(preferredLanguage(null), null);
  assertEquals(preferredLanguage("fr-FR, de"), null);
  assertEquals(preferredLanguage("hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7"), "hi");
  assertEquals(preferredLanguage("en-IN,en;q=0.9,hi;q=0.8"), "en");
  assertEquals(preferredLanguage("en;q=0.5, hi;q=0.6"), "hi");
  assertEquals(preferredLanguage("hi, en"), "hi", "the same quality: the first named");
  assertEquals(preferredLanguage("en, hi"), "en");
  assertEquals(preferredLanguage("ta-IN, hi;q=0.5"), "hi");
  assertEquals(preferredLanguage("hi;q=0, en;q=0.1"), "en", "q=0 means not wanted");
});

Deno.test("the language order: URL, setting, cookie, Accept-Language, English", () => {
  const req = (cookie?: string, accept?: string) =>
    new Request("http://x/", {
      headers: { ...(cookie ? { cookie } : {}), ...(accept ? { "accept-language": accept } : {}) },
    });
  const url = (query = "") => new URL(`http://x/${query}`);
  assertEquals(requestLanguage(req(), url(), undefined).lang, "en");
  assertEquals(requestLanguage(req(undefined, "hi"), url(), undefined).lang, "hi");
  assertEquals(requestLanguage(req("lang=en", "hi"), url(), undefined).lang, "en", "the cookie beats the header");
  assertEquals(requestLanguage(req("lang=hi"), url(), { language: "en" }).lang, "en", "the setting beats the cookie");
  assertEquals(requestLanguage(req("lang=en"), url("?lang=hi"), { language: "en" }), {
    lang: "hi",
    asked: "hi",
    cookie: "en",
  });
  assertEquals(requestLanguage(req("lang=xx", "hi"), url("?lang=fr"), undefined).lang, "hi", "unknown values ignored");
});
