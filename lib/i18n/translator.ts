/**
 * Browser-safe: `Translate`, the function every page, component, island and e-mail takes its words from
 * (docs/decisions.md, Languages). A message is ICU MessageFormat (placeholders `{name}`, `{count, plural, one {…}
 * other {…}}`, `{kind, select, …}`, tags `<link>…</link>` for rich text) formatted by `intl-messageformat` in the
 * language's locale (`LOCALES`). On the server the messages are the catalogue's strings, parsed once each and kept; an
 * island gets only the messages of the key prefixes it uses (`IslandText`), already parsed (plain text as a string,
 * anything else as its syntax tree), so the browser never needs the parser: the island bundles alias it away
 * (docs/decisions.md, Languages, "The library").
 *
 * Dates and amounts are written the same way in both languages' locales: a day as "26 Nov 2026" / "26 नवंबर 2026", an
 * amount as "₹1,00,000" (Indian grouping, `lib/money.ts`).
 */
import type { ComponentChild, ComponentChildren } from "preact";
import { IntlMessageFormat } from "intl-messageformat";
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { formatDate, formatDateTime } from "@/lib/dates.ts";
import { formatMinorUnits, formatRupees } from "@/lib/money.ts";
import type { MessageKey } from "./catalogue.ts";
import { type Lang, LOCALES } from "./languages.ts";

export type { MessageKey };

/** A message as it travels: ICU source (server), plain text, or a parsed syntax tree (islands). */
export type Message = string | MessageFormatElement[];

/**
 * What an island receives as its `text` prop: its language and the messages of the prefixes it uses, by key; with
 * `refusals`, each domain refusal among them as its message's key by the `sentenceId` of the API's English sentence (so
 * the island words a refusal without bundling every sentence or carrying English; docs/decisions.md, Languages,
 * "Refusals on pages").
 */
export interface IslandText {
  lang: Lang;
  messages: Record<string, Message>;
  refusals?: Record<string, string>;
}

/** A short name of a sentence (FNV-1a, 32 bits, base 36): how an island's text names the refusals it words. */
export function sentenceId(sentence: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sentence.length; i++) hash = Math.imul(hash ^ sentence.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** Values of a message's placeholders. */
export type Values = Record<string, string | number | Date | null | undefined>;

/** Values of a rich message: placeholders may be elements, and each tag a function of its content. */
export type RichValues = Record<
  string,
  string | number | Date | null | undefined | ComponentChild | ((chunks: ComponentChildren[]) => ComponentChild)
>;

/** Where a translator finds its messages. */
export interface MessageSource {
  get(key: string): Message | undefined;
  keys(): Iterable<string>;
}

/**
 * Formats the message `key` with `values` in the translator's language. Also carries the language, rich text, the
 * island subset and the date and amount formats of that language.
 * @throws Error when the key is not among its messages, or a placeholder's value is missing.
 */
export interface Translate {
  (key: MessageKey, values?: Values): string;
  /** The language, e.g. `"hi"`. */
  readonly lang: Lang;
  /** Its `Intl` locale, e.g. `"hi-IN"`. */
  readonly locale: string;
  /** Whether the message `key` is known. */
  has(key: string): boolean;
  /**
   * A domain's refusal, the API's English sentence, in this language, with `values` (a refusal that quotes another
   * service: `lib/i18n/refusal_detail.ts`); undefined when its words are not carried.
   */
  refusal(sentence: string, values?: Values): string | undefined;
  /** The message `key` as children: tags become what their functions return, element values stay elements. */
  rich(key: MessageKey, values: RichValues): ComponentChildren;
  /** A message whose key is made at run time (a label by value): `key` must name a message. */
  dynamic(key: string, values?: Values): string;
  /** The messages under `prefixes` (e.g. `"auth.signUp."`), as an island's `text` prop. */
  island(prefixes: readonly string[]): IslandText;
  /** A calendar date or a timestamp as its day in India, e.g. "26 Nov 2026" / "26 नवंबर 2026". */
  date(value: string): string;
  /** A moment in India's time, e.g. "26 Nov 2026, 7:31 pm IST". */
  dateTime(value: string): string;
  /** A number with Indian grouping, e.g. "1,00,000". */
  number(value: number): string;
  /** Rupees as "₹1,00,000" or "₹399.20". */
  rupees(rupees: number): string;
  /** An amount in minor units of `currency` (paise for INR). */
  minorUnits(minor: number, currency?: string): string;
}

/** True when the ICU text `source` cannot hold anything but its own characters. */
function isPlain(source: string): boolean {
  return !/[{}<'#]/.test(source);
}

/**
 * A translator over `source` in `lang`. Messages are parsed the first time they are used and kept with this
 * translator, so a long-lived one (the server's, per language) parses each message once. With `literal` (an island's
 * messages), a string message is plain text as it stands and never parsed. `refusals` maps the API's English sentence
 * of each domain refusal to its message's key (`Translate.refusal`; an island's text carries those of its messages, by
 * `sentenceId`, which `byId` says).
 */
export function createTranslator(
  lang: Lang,
  source: MessageSource,
  { literal = false, refusals = new Map<string, string>(), byId = false }: {
    literal?: boolean;
    refusals?: ReadonlyMap<string, string>;
    byId?: boolean;
  } = {},
): Translate {
  const locale = LOCALES[lang];
  const formats = new Map<string, IntlMessageFormat | string>();
  // Made on first use: the first `Intl` formatter of a locale loads its data, which costs a page's hydration tens of
  // ms on a phone when no island writes a number (docs/performance.md, Lighthouse, "Hydration").
  let numbers: Intl.NumberFormat | undefined;

  const formatOf = (key: string): IntlMessageFormat | string => {
    let format = formats.get(key);
    if (format !== undefined) return format;
    const message = source.get(key);
    if (message === undefined) throw new Error(`No message "${key}" in ${lang}`);
    format = typeof message === "string" && (literal || isPlain(message))
      ? message
      : new IntlMessageFormat(message, locale);
    formats.set(key, format);
    return format;
  };

  const format = (key: string, values?: RichValues): string | (string | ComponentChild)[] => {
    const found = formatOf(key);
    if (typeof found === "string") return found;
    try {
      return found.format(values as Record<string, never>) as string | (string | ComponentChild)[];
    } catch (error) {
      throw new Error(`Message "${key}" in ${lang}: ${(error as Error).message}`);
    }
  };

  const translate = ((key: MessageKey, values?: Values) => {
    const text = format(key, values);
    return Array.isArray(text) ? text.join("") : text;
  }) as Translate;

  return Object.assign(translate, {
    lang,
    locale,
    has: (key: string) => formats.has(key) || source.get(key) !== undefined,
    refusal(sentence: string, values?: Values): string | undefined {
      const key = refusals.get(byId ? sentenceId(sentence) : sentence);
      return key !== undefined && source.get(key) !== undefined ? translate(key as MessageKey, values) : undefined;
    },
    rich: (key: MessageKey, values: RichValues): ComponentChildren => format(key, values) as ComponentChildren,
    dynamic: (key: string, values?: Values) => translate(key as MessageKey, values),
    island(prefixes: readonly string[]): IslandText {
      const messages: Record<string, Message> = {};
      const carried: Record<string, string> = {};
      for (const [sentence, key] of refusals) {
        if (prefixes.some((prefix) => key.startsWith(prefix))) carried[sentenceId(sentence)] = key;
      }
      for (const key of source.keys()) {
        if (!prefixes.some((prefix) => key.startsWith(prefix))) continue;
        const found = formatOf(key);
        if (typeof found === "string") messages[key] = found;
        else {
          const ast = found.getAst();
          messages[key] = ast.length === 0 ? "" : ast.length === 1 && ast[0].type === 0 ? ast[0].value : ast;
        }
      }
      return Object.keys(carried).length > 0 ? { lang, messages, refusals: carried } : { lang, messages };
    },
    date: (value: string) => formatDate(value, lang),
    dateTime: (value: string) => formatDateTime(value, lang),
    number: (value: number) => (numbers ??= new Intl.NumberFormat(locale)).format(value),
    rupees: (rupees: number) => formatRupees(rupees, lang),
    minorUnits: (minor: number, currency?: string) => formatMinorUnits(minor, currency, lang),
  });
}

/** Translators of islands' `text` props, one per prop object, so an island's re-renders reuse its parsed messages. */
const islandTranslators = new WeakMap<IslandText, Translate>();

/** The translator of an island's `text` prop (see `IslandText`). */
export function translatorOf(text: IslandText): Translate {
  let found = islandTranslators.get(text);
  if (!found) {
    const { messages } = text;
    found = createTranslator(text.lang, { get: (key) => messages[key], keys: () => Object.keys(messages) }, {
      literal: true,
      refusals: new Map(Object.entries(text.refusals ?? {})),
      byId: true,
    });
    islandTranslators.set(text, found);
  }
  return found;
}
