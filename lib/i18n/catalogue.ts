/**
 * Server-only: the message catalogues (docs/decisions.md, Languages, "Catalogues"). One JSON file per area and
 * language, `locales/<lang>/<area>.json`, of flat keys (`"filters.heading"`) and ICU messages; a message's full key is
 * its area and its key, `internships.filters.heading`. English is the reference: `MessageKey` is made from the English
 * files, so a key that does not exist fails the type check; a test holds the Hindi files to the same keys and the
 * same placeholders (`lib/i18n/catalogue_test.ts`). Islands never import this module: they get their messages as
 * props (`Translate.island`).
 *
 * To add an area: create both files and add them to `EN` and `HI` below.
 */
import enAdmin from "@/locales/en/admin.json" with { type: "json" };
import enApplications from "@/locales/en/applications.json" with { type: "json" };
import enAuth from "@/locales/en/auth.json" with { type: "json" };
import enCommon from "@/locales/en/common.json" with { type: "json" };
import enFields from "@/locales/en/fields.json" with { type: "json" };
import enHome from "@/locales/en/home.json" with { type: "json" };
import enInternships from "@/locales/en/internships.json" with { type: "json" };
import enLayout from "@/locales/en/layout.json" with { type: "json" };
import enLegal from "@/locales/en/legal.json" with { type: "json" };
import enMail from "@/locales/en/mail.json" with { type: "json" };
import enMe from "@/locales/en/me.json" with { type: "json" };
import enNotifications from "@/locales/en/notifications.json" with { type: "json" };
import enOpportunities from "@/locales/en/opportunities.json" with { type: "json" };
import enProfile from "@/locales/en/profile.json" with { type: "json" };
import enToolkits from "@/locales/en/toolkits.json" with { type: "json" };
import enTrust from "@/locales/en/trust.json" with { type: "json" };
import enUngatekeep from "@/locales/en/ungatekeep.json" with { type: "json" };
import hiAdmin from "@/locales/hi/admin.json" with { type: "json" };
import hiApplications from "@/locales/hi/applications.json" with { type: "json" };
import hiAuth from "@/locales/hi/auth.json" with { type: "json" };
import hiCommon from "@/locales/hi/common.json" with { type: "json" };
import hiFields from "@/locales/hi/fields.json" with { type: "json" };
import hiHome from "@/locales/hi/home.json" with { type: "json" };
import hiInternships from "@/locales/hi/internships.json" with { type: "json" };
import hiLayout from "@/locales/hi/layout.json" with { type: "json" };
import hiLegal from "@/locales/hi/legal.json" with { type: "json" };
import hiMail from "@/locales/hi/mail.json" with { type: "json" };
import hiMe from "@/locales/hi/me.json" with { type: "json" };
import hiNotifications from "@/locales/hi/notifications.json" with { type: "json" };
import hiOpportunities from "@/locales/hi/opportunities.json" with { type: "json" };
import hiProfile from "@/locales/hi/profile.json" with { type: "json" };
import hiToolkits from "@/locales/hi/toolkits.json" with { type: "json" };
import hiTrust from "@/locales/hi/trust.json" with { type: "json" };
import hiUngatekeep from "@/locales/hi/ungatekeep.json" with { type: "json" };
import { createTranslator, type IslandText, type Translate } from "./translator.ts";
import { DEFAULT_LANG, type Lang } from "./languages.ts";
import { REFUSAL_KEYS } from "@/lib/refusals.ts";

/** The English catalogue by area: the reference every other language follows. */
const EN = {
  admin: enAdmin,
  applications: enApplications,
  auth: enAuth,
  common: enCommon,
  fields: enFields,
  home: enHome,
  internships: enInternships,
  layout: enLayout,
  legal: enLegal,
  mail: enMail,
  me: enMe,
  notifications: enNotifications,
  opportunities: enOpportunities,
  profile: enProfile,
  toolkits: enToolkits,
  trust: enTrust,
  ungatekeep: enUngatekeep,
};

/** An area of the catalogue (a file name under `locales/<lang>/`). */
export type Area = keyof typeof EN;

/** A message's full key: its area and its key within the area, e.g. `"layout.header.signIn"`. */
export type MessageKey = { [A in Area]: `${A}.${keyof typeof EN[A] & string}` }[Area];

/** Messages of one area: key → ICU text. */
export type AreaMessages = Record<string, string>;

/** The Hindi catalogue by area. */
const HI: Record<Area, AreaMessages> = {
  admin: hiAdmin,
  applications: hiApplications,
  auth: hiAuth,
  common: hiCommon,
  fields: hiFields,
  home: hiHome,
  internships: hiInternships,
  layout: hiLayout,
  legal: hiLegal,
  mail: hiMail,
  me: hiMe,
  notifications: hiNotifications,
  opportunities: hiOpportunities,
  profile: hiProfile,
  toolkits: hiToolkits,
  trust: hiTrust,
  ungatekeep: hiUngatekeep,
};

/** Every catalogue, by language and area. */
export const CATALOGUES: Record<Lang, Record<Area, AreaMessages>> = { en: EN, hi: HI };

/** The messages of `lang` by full key. */
function flatten(lang: Lang): Map<string, string> {
  const messages = new Map<string, string>();
  for (const [area, entries] of Object.entries(CATALOGUES[lang])) {
    for (const [key, text] of Object.entries(entries)) messages.set(`${area}.${key}`, text);
  }
  return messages;
}

const translators = new Map<Lang, Translate>();

/** The translator of the language a person reads (their `language`, else English): for e-mails and notifications. */
export function translatorOfPerson(person: { language?: Lang }): Translate {
  return translatorFor(person.language ?? DEFAULT_LANG);
}

/**
 * The server's translator of `lang`: every message of the catalogue, each parsed once on first use and kept for the
 * life of the process. Its islands' text (`Translate.island`) is made once per set of prefixes and kept, frozen: a
 * page renders its islands on every request, and the same object keeps each island's translator (`translatorOf`) and
 * its encoding in the page (`serialize`).
 */
export function translatorFor(lang: Lang): Translate {
  let found = translators.get(lang);
  if (!found) {
    const messages = flatten(lang);
    found = createTranslator(lang, { get: (key) => messages.get(key), keys: () => messages.keys() }, {
      refusals: REFUSAL_KEYS,
    });
    const island = found.island;
    const islandTexts = new Map<string, IslandText>();
    found.island = (prefixes) => {
      const key = prefixes.join("\0");
      let text = islandTexts.get(key);
      if (!text) islandTexts.set(key, text = deepFreeze(structuredClone(island(prefixes))));
      return text;
    };
    translators.set(lang, found);
  }
  return found;
}

/** `value` with every object in it frozen (the serializer keeps the encoding of such a value, `serialize`). */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
