/**
 * Browser-safe: the languages the platform is written in (docs/decisions.md, Languages): English and Hindi, each with
 * the locale its dates and amounts are formatted in (Indian English, Hindi in India) and its own name as a switch
 * shows it.
 */

/** The languages, English first (the fallback). */
export const LANGUAGES = ["en", "hi"] as const;

/** A language code, as `?lang=`, the `lang` cookie, the `language` setting and `<html lang>` carry it. */
export type Lang = typeof LANGUAGES[number];

/** The language used when nothing else decides. */
export const DEFAULT_LANG: Lang = "en";

/** The `Intl` locale of each language: Indian digit grouping and India's calendar words in both. */
export const LOCALES: Record<Lang, string> = { en: "en-IN", hi: "hi-IN" };

/** Each language's name in itself, as the language switch shows it. */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: "English", hi: "हिन्दी" };

/** The Open Graph locale of each language (`og:locale`). */
export const OG_LOCALES: Record<Lang, string> = { en: "en_IN", hi: "hi_IN" };

/** Whether `value` is a language code of the platform. */
export function isLang(value: unknown): value is Lang {
  return value === "en" || value === "hi";
}

/** The query parameter that chooses a page's language (`?lang=hi`). */
export const LANG_PARAM = "lang";

/**
 * `pathAndQuery` (a same-origin path with its query, e.g. `/internships?types=remote`) with `lang` set to `lang`,
 * other parameters kept in their order: the same page in another language.
 */
export function withLang(pathAndQuery: string, lang: Lang): string {
  const url = new URL(pathAndQuery, "http://localhost");
  url.searchParams.set(LANG_PARAM, lang);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `pathAndQuery` without a `lang` parameter (the page's own URL, whatever language it is read in). */
export function withoutLang(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, "http://localhost");
  url.searchParams.delete(LANG_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}
