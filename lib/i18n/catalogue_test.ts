/**
 * The catalogues hold together (docs/decisions.md, Languages, "Catalogues"): every area has the same keys in English
 * and Hindi, each message parses as ICU MessageFormat, a key's two messages use the same placeholders and tags (and the
 * same choices of each select), and a Hindi message that reads exactly as the English one is a name kept on purpose
 * (`SAME_IN_BOTH`), not one left untranslated.
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

Deno.test("Hindi words one idea one way: optional is ज़रूरी नहीं, a receipt रसीद (a tax invoice named inside it)", () => {
  const twice: string[] = [];
  for (const [area, hindi] of Object.entries(CATALOGUES.hi)) {
    for (const [key, text] of Object.entries(hindi as Record<string, string>)) {
      if (text.includes("वैकल्पिक") || text.replaceAll("रसीद (टैक्स इनवॉइस)", "").includes("इनवॉइस")) {
        twice.push(`${area}.${key}`);
      }
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
