import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { assert, assertEquals, assertThrows } from "@/tests/helpers/assert.ts";
import { createTranslator, type MessageKey, translatorOf } from "./translator.ts";

const MESSAGES: Record<string, string> = {
  "t.plain": "Filters",
  "t.apostrophe": "Don't wait",
  "t.hello": "Hi {name},",
  "t.count": "{count, plural, one {# internship} other {# internships}}",
  "t.rich": "Read the <link>terms</link>, {name}.",
  "u.other": "Elsewhere",
};

function translator(lang: "en" | "hi", messages = MESSAGES) {
  return createTranslator(lang, { get: (key) => messages[key], keys: () => Object.keys(messages) });
}

const key = (name: string) => name as MessageKey;

Deno.test("a translator formats placeholders and plurals in its locale", () => {
  const t = translator("en");
  assertEquals(t(key("t.plain")), "Filters");
  assertEquals(t(key("t.apostrophe")), "Don't wait");
  assertEquals(t(key("t.hello"), { name: "Asha" }), "Hi Asha,");
  assertEquals(t(key("t.count"), { count: 1 }), "1 internship");
  assertEquals(t(key("t.count"), { count: 100000 }), "1,00,000 internships");
  const hi = translator("hi", { "t.count": "{count, plural, one {# इंटर्नशिप} other {# इंटर्नशिप}}" });
  assertEquals(hi(key("t.count"), { count: 0 }), "0 इंटर्नशिप");
});

Deno.test("a missing key or value is an error naming it", () => {
  const t = translator("en");
  assertThrows(() => t(key("t.nope")), /No message "t.nope" in en/);
  assertThrows(() => t(key("t.hello")), /t\.hello/);
});

Deno.test("rich messages put elements in place of tags and placeholders", () => {
  const t = translator("en");
  const children = t.rich(key("t.rich"), {
    link: (chunks) => h("a", { href: "/terms" }, chunks),
    name: h("b", null, "Asha"),
  });
  assertEquals(renderToString(h("p", null, children)), '<p>Read the <a href="/terms">terms</a>, <b>Asha</b>.</p>');
});

Deno.test("dates and amounts follow the language: Hindi month names, Indian grouping in both", () => {
  assertEquals(translator("en").date("2026-11-26"), "26 Nov 2026");
  assertEquals(translator("hi").date("2026-11-26"), "26 नवंबर 2026");
  assertEquals(translator("hi").date("2026-11-25T20:00:00Z"), "26 नवंबर 2026", "a moment is its day in India");
  assertEquals(translator("en").rupees(100000), "₹1,00,000");
  assertEquals(translator("hi").rupees(100000), "₹1,00,000");
  assertEquals(translator("hi").rupees(399.2), "₹399.20");
  assertEquals(translator("hi").number(1234567), "12,34,567");
});

Deno.test("an island's text holds only its prefixes, parsed, and formats the same without the parser", () => {
  const t = translator("en");
  const text = t.island(["t."]);
  assertEquals(Object.keys(text.messages).sort(), ["t.apostrophe", "t.count", "t.hello", "t.plain", "t.rich"]);
  assertEquals(text.messages["t.plain"], "Filters");
  assertEquals(text.messages["t.apostrophe"], "Don't wait", "plain text travels as a string");
  assert(Array.isArray(text.messages["t.count"]), "a message with values travels parsed");
  const island = translatorOf(JSON.parse(JSON.stringify(text)));
  assertEquals(island(key("t.count"), { count: 2 }), "2 internships");
  assertEquals(island(key("t.apostrophe")), "Don't wait");
  assertThrows(() => island(key("u.other")), /No message "u.other"/);
  assertEquals(island.island(["t.hello"]).messages, { "t.hello": text.messages["t.hello"] }, "a nested island's part");
});

Deno.test("an island's translator makes no Intl format before one is used (its locale data costs the hydration)", () => {
  const made: string[] = [];
  const Original = Intl.NumberFormat;
  Intl.NumberFormat = new Proxy(Original, {
    construct(target, args) {
      made.push(String(args[0]));
      return Reflect.construct(target, args);
    },
  });
  try {
    const island = translatorOf({ lang: "hi", messages: { "t.plain": "फ़िल्टर" } });
    assertEquals(island(key("t.plain")), "फ़िल्टर");
    assertEquals(made, [], "created and used for a plain message");
    assertEquals(island.number(100000), "1,00,000");
    assertEquals(made, ["hi-IN"], "made on first use");
    island.number(5);
    assertEquals(made.length, 1, "and kept");
  } finally {
    Intl.NumberFormat = Original;
  }
});
