import { assertEquals } from "@/tests/helpers/assert.ts";
import { capMarks, stripInvisible, TextSchema } from "./text.ts";

Deno.test("stripInvisible removes NUL, controls, zero-width characters and bidi overrides", () => {
  const cases: [string, string][] = [
    ["Asha\u0000 Rao", "Asha Rao"],
    ["A\u0001\u0008\u000B\u000C\u001F\u007Fsha", "Asha"],
    ["Ad\u200Bmin", "Admin"],
    ["\uFEFFTitle\u2060\u2061\u2064", "Title"],
    ["a\u180Eb", "ab"],
    ["invoice\u202Egpj.exe", "invoicegpj.exe"],
    ["\u202A\u202B\u202C\u202Dx\u2066\u2067\u2068\u2069", "x"],
    ["Ad\u200Dmin Ad\u200Cmin", "Admin Admin"],
    ["\u200D\u200Cstart", "start"],
    ["1\u200D2 .\u200D.", "12 .."],
  ];
  for (const [input, output] of cases) assertEquals(stripInvisible(input), output, JSON.stringify(input));
});

Deno.test("stripInvisible keeps tabs, line breaks, and the joiners scripts and emoji need", () => {
  const kept = [
    "Line one\nLine two\r\n\tindented",
    "\u0D28\u0D3F\u0D7C\u0D2E\u0D4D\u200D\u0D2E\u0D3F\u0D24", // Malayalam with a ZWJ after a virama
    "\u0915\u094D\u200C\u0937", // Hindi क्‌ष with a ZWNJ
    "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645", // Persian می‌خواهم
    "\u{1F469}\u200D\u{1F4BB}", // 👩‍💻
    "\u{1F44B}\u{1F3FD}\u200D", // a skin tone then a joiner
    "\u2764\uFE0F\u200D\u{1F525}", // ❤️‍🔥
    "Zoë O'Neil — café",
  ];
  for (const text of kept) assertEquals(stripInvisible(text), text, JSON.stringify(text));
});

Deno.test("TextSchema strips before trimming and length checks", () => {
  const title = TextSchema.trim().min(1).max(5);
  assertEquals(title.safeParse("\u200B\u202E").success, false);
  assertEquals(title.safeParse(" \u200Babc\u0000de\u2066 ").data, "abcde");
  assertEquals(title.safeParse("ab\u200Bcdef").success, false);
});

Deno.test("TextSchema stores line breaks as line feeds, before length checks", () => {
  const text = TextSchema.max(5);
  assertEquals(TextSchema.parse("a\r\nb\rc\n"), "a\nb\nc\n");
  // A browser's form sends "ab\r\ncd" for what an island sends as "ab\ncd": both are five characters.
  assertEquals(text.safeParse("ab\r\ncd").data, "ab\ncd");
});

Deno.test("TextSchema keeps at most four combining marks a character, so stacked marks cannot cover other lines", () => {
  const zalgo = `Z${"\u0301\u0316".repeat(50)}algo${"\u0300".repeat(7)}`;
  assertEquals(TextSchema.parse(zalgo), "Z\u0301\u0316\u0301\u0316algo\u0300\u0300\u0300\u0300");
  // Joiners and other format characters between the marks do not start a new stack.
  assertEquals(capMarks(`a${"\u0301\u200C".repeat(6)}b`), `a${"\u0301\u200C".repeat(4)}${"\u200C".repeat(2)}b`);
  assertEquals(capMarks("\u0301".repeat(9)), "\u0301".repeat(4));
});

Deno.test("capMarks keeps the marks the scripts of India, Urdu, Vietnamese and emoji use", () => {
  const kept = [
    "\u0921\u093C\u0940\u0902", // Hindi ड़ीं: a nukta, a vowel sign, an anusvara
    "\u0905\u0917\u094D\u0928\u093F\u0951\u092E\u094D", // Vedic अग्नि॑म्
    "\u0A38\u0A3F\u0A71\u0A16", // Punjabi ਸਿੱਖ
    "\u0BA4\u0BAE\u0BBF\u0BB4\u0BCD", // Tamil தமிழ்
    "\u0645\u064F\u062D\u064E\u0645\u0651\u064E\u062F", // Urdu مُحَمَّد
    "Vie\u0323\u0302t Nam", // Việt in decomposed form
    "1\uFE0F\u20E3 \u2764\uFE0F\u200D\u{1F525}", // a keycap, ❤️‍🔥
  ];
  for (const text of kept) assertEquals(TextSchema.parse(text), text, JSON.stringify(text));
});
