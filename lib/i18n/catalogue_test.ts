/**
 * The catalogues hold together (docs/decisions.md, Languages, "Catalogues"): every area has the same keys in English
 * and Hindi, each message parses as ICU MessageFormat, a key's two messages use the same placeholders and tags (and the
 * same choices of each select), and a Hindi message that reads exactly as the English one is a name kept on purpose
 * (`SAME_IN_BOTH`), not one left untranslated; a message quotes with curly quotes only.
 */
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { CATALOGUES, type MessageKey, translatorFor } from "./catalogue.ts";
import { NOTIFICATION_TYPES } from "@/lib/notifications/types.ts";
import { choiceKey } from "@/lib/browser/choice_labels.ts";
import {
  DOMAIN_PREFERENCES,
  EDUCATION_LEVELS,
  FIELDS_OF_STUDY,
  OPPORTUNITY_INTERESTS,
  STRUGGLES,
} from "@/lib/onboarding/onboarding.ts";

/**
 * Messages that read the same in both languages on purpose: names, numerals with a sign ("99+"), and English terms a
 * Hindi page keeps.
 */
const SAME_IN_BOTH = new Set<MessageKey>([
  "layout.siteName",
  "layout.nav.ungatekeep",
  "layout.footer.api",
  "layout.footer.rss",
  "mail.signature",
  "common.errors.fieldLine",
  "applications.pipeline.tab",
  "toolkits.receipt.gstin",
  "applications.size.kb",
  "applications.size.mb",
  "notifications.bell.many",
  "admin.outbox.countMore",
]);

/**
 * The placeholders, tags and select choices of a message, as sorted text. A plural counts as its placeholder: Hindi
 * may write `{count}` where English needs `{count, plural, one {…} other {…}}`.
 */
function shape(elements: MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date) {
      found.add(`{${element.value}}`);
    }
    if (element.type === TYPE.tag) {
      found.add(`<${element.value}>`);
      shape(element.children, found);
    }
    if (element.type === TYPE.select) {
      found.add(`{${element.value}, select, ${Object.keys(element.options).sort().join(" ")}}`);
      for (const option of Object.values(element.options)) shape(option.value, found);
    }
    if (element.type === TYPE.plural) {
      found.add(`{${element.value}}`);
      for (const option of Object.values(element.options)) shape(option.value, found);
    }
  }
  return found;
}

Deno.test("both catalogues hold the same areas and keys", () => {
  assertEquals(Object.keys(CATALOGUES.hi).sort(), Object.keys(CATALOGUES.en).sort());
  for (const [area, english] of Object.entries(CATALOGUES.en)) {
    const hindi = CATALOGUES.hi[area as keyof typeof CATALOGUES.hi];
    const missing = Object.keys(english).filter((key) => !(key in hindi));
    const extra = Object.keys(hindi).filter((key) => !(key in english));
    assertEquals({ area, missing, extra }, { area, missing: [], extra: [] });
  }
});

Deno.test("every message parses, and its Hindi uses the same placeholders, tags and choices", () => {
  for (const [area, english] of Object.entries(CATALOGUES.en)) {
    const hindi = CATALOGUES.hi[area as keyof typeof CATALOGUES.hi];
    for (const [key, text] of Object.entries(english)) {
      const name = `${area}.${key}`;
      const en = [...shape(parse(text))].sort();
      const hi = [...shape(parse(hindi[key] ?? ""))].sort();
      assertEquals({ name, hi }, { name, hi: en });
      assert(hindi[key].trim() !== "", `${name} has Hindi text`);
    }
  }
});

Deno.test("a Hindi message the same as its English one is on the list of names kept on purpose", () => {
  const same: string[] = [];
  for (const [area, english] of Object.entries(CATALOGUES.en)) {
    const hindi = CATALOGUES.hi[area as keyof typeof CATALOGUES.hi];
    for (const [key, text] of Object.entries(english)) {
      if (hindi[key] === text && !SAME_IN_BOTH.has(`${area}.${key}` as MessageKey)) same.push(`${area}.${key}`);
    }
  }
  assertEquals(same, []);
});

/**
 * Words a Hindi message must not use, each with the one the catalogue uses for its idea (docs/decisions.md, Languages,
 * "Hindi for students"); स्टूडेंट is checked apart, as it is kept in the admin area and set phrases.
 */
const NOT_OUR_WORD: Record<string, string> = {
  "वैकल्पिक": "ज़रूरी नहीं",
  "अगर चाहें": "ज़रूरी नहीं",
  "नोटिफ़िकेशन": "सूचना, सूचनाएँ",
  "सर्टिफ़िकेट": "प्रमाणपत्र",
  "रिव्यू": "जाँच",
  "सप्ताह": "हफ़्ता",
  "कृपया": "the request said plainly",
  "खत्म": "ख़त्म",
  "गलत": "ग़लत",
};

/** The text of a message's literals (what a reader sees, without placeholders, tags' names or choices' keys). */
function literalText(elements: MessageFormatElement[]): string {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return element.value;
    if (element.type === TYPE.tag) return ` ${literalText(element.children)} `;
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      return Object.values(element.options).map((option) => ` ${literalText(option.value)} `).join("");
    }
    return " ";
  }).join("");
}

Deno.test("Hindi words one idea one way: optional is ज़रूरी नहीं, a receipt रसीद (a tax invoice named inside it)", () => {
  const twice: string[] = [];
  for (const [area, hindi] of Object.entries(CATALOGUES.hi)) {
    const english = CATALOGUES.en[area as keyof typeof CATALOGUES.en] as Record<string, string>;
    for (const [key, text] of Object.entries(hindi as Record<string, string>)) {
      const words = Object.keys(NOT_OUR_WORD).filter((word) => text.includes(word));
      if (text.replaceAll("रसीद (टैक्स इनवॉइस)", "").includes("इनवॉइस")) words.push("इनवॉइस");
      if (area !== "admin" && text.replaceAll("स्टूडेंट सोसाइटी", "").includes("स्टूडेंट")) words.push("स्टूडेंट");
      if (/\(optional/i.test(english[key]) && !text.includes("ज़रूरी नहीं")) words.push("optional");
      if (words.length > 0) twice.push(`${area}.${key}: ${words.join(", ")}`);
    }
  }
  assertEquals(twice, []);
});

Deno.test("the tracker's columns and an application's statuses name a status they share in the same words", () => {
  for (const lang of ["en", "hi"] as const) {
    const t = translatorFor(lang);
    for (const status of ["applied", "offer", "rejected"] as const) {
      assertEquals(t(`me.tracker.status.${status}`), t(`applications.status.${status}`), `${lang}: ${status}`);
    }
  }
});

/**
 * Latin words a Hindi message may hold: names, formats and units, and the English a reader types or sees as it is
 * (addresses and paths are told apart by their `://`, `@`, `.` or `/`).
 */
const LATIN_IN_HINDI = new Set([
  ..."Career Community Ungatekeep Google LinkedIn Razorpay UPI GST GSTIN PDF CSV RSS API JSON HTML IST URL ID".split(
    " ",
  ),
  ..."Markdown JavaScript PNG JPEG WebP GIF KB MB UG PG AI UTC http https YYYY-MM-DD".split(" "),
]);

/** Hindi messages whose Latin words are examples of what to type, in English as typed. */
const LATIN_EXAMPLES = new Set<MessageKey>([
  "admin.apiKeys.howToUse",
  "me.alerts.tagsHint",
  "internships.filters.tagsHint",
  "internships.form.tagsHint",
  "internships.form.titlePlaceholder",
  "profile.form.roleHint",
]);

Deno.test("a Hindi message holds no Latin word but names, formats and examples", () => {
  const latin: string[] = [];
  for (const [area, hindi] of Object.entries(CATALOGUES.hi)) {
    for (const [key, text] of Object.entries(hindi as Record<string, string>)) {
      if (LATIN_EXAMPLES.has(`${area}.${key}` as MessageKey)) continue;
      const words = literalText(parse(text)).split(/[\s,;()"“”'।:?!]+/)
        .filter((word) => /[A-Za-z]/.test(word) && !/^\/|:\/\/|@|\w[./]\w/.test(word))
        .filter((word) => !LATIN_IN_HINDI.has(word.replace(/[.]$/, "")));
      if (words.length > 0) latin.push(`${area}.${key}: ${words.join(" ")}`);
    }
  }
  assertEquals(latin, []);
});

Deno.test("the server's translators format every message that needs no values", () => {
  for (const lang of ["en", "hi"] as const) {
    const t = translatorFor(lang);
    for (const [area, messages] of Object.entries(CATALOGUES[lang])) {
      for (const [key, text] of Object.entries(messages)) {
        if (shape(parse(text)).size === 0) assertEquals(typeof t(`${area}.${key}` as MessageKey), "string");
      }
    }
  }
});

Deno.test("every notification type has its name and description for the settings page", () => {
  for (const type of NOTIFICATION_TYPES) {
    for (const lang of ["en", "hi"] as const) {
      const t = translatorFor(lang);
      assert(t.has(`notifications.type.${type}`) && t.has(`notifications.typeHint.${type}`), `${lang} ${type}`);
    }
  }
});

Deno.test("every onboarding and profile choice has its words, the English one reading as the value", () => {
  const en = translatorFor("en");
  const values = [
    ...EDUCATION_LEVELS,
    ...FIELDS_OF_STUDY,
    ...OPPORTUNITY_INTERESTS,
    ...DOMAIN_PREFERENCES,
    ...STRUGGLES,
  ];
  for (const value of values) {
    assert(en.has(choiceKey(value)), value);
    assertEquals(en.dynamic(choiceKey(value)).toLowerCase(), value.toLowerCase());
    assert(/[\u0900-\u097F]/.test(translatorFor("hi").dynamic(choiceKey(value))), `${value} in Devanagari`);
  }
});

Deno.test("the Hindi catalogue names the member role one way on every page: मेंबर, as students say it", () => {
  const other = Object.entries(CATALOGUES.hi).flatMap(([area, messages]) =>
    Object.entries(messages as Record<string, string>)
      .filter(([, text]) => /(?<!पूर्व )सदस्य/.test(text))
      .map(([key]) => `${area}.${key}`)
  );
  assertEquals(other, [], "keys that call a member सदस्य (a former member stays पूर्व सदस्य)");
  assertEquals(translatorFor("hi")("admin.roles.member"), translatorFor("hi")("common.role.member"));
});

Deno.test("the Hindi catalogue spells buying one way on every page: ख़रीद, with its nukta", () => {
  const other = Object.entries(CATALOGUES.hi).flatMap(([area, messages]) =>
    Object.entries(messages as Record<string, string>)
      .filter(([, text]) => text.includes("\u0916\u0930\u0940\u0926"))
      .map(([key]) => `${area}.${key}`)
  );
  assertEquals(other, [], "keys that spell ख़रीद (buy, purchase) without its nukta as खरीद");
});

Deno.test("messages quote one way in both languages: curly quotes, never straight double ones", () => {
  const straight = (["en", "hi"] as const).flatMap((lang) =>
    Object.entries(CATALOGUES[lang]).flatMap(([area, messages]) =>
      Object.entries(messages as Record<string, string>)
        .filter(([, text]) => text.includes('"'))
        .map(([key]) => `${lang}: ${area}.${key}`)
    )
  );
  assertEquals(straight, [], "keys that quote a title, a reason or a label with straight quotes");
});
