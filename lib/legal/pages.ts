/**
 * The legal pages a payment gateway and the law ask for (docs/decisions.md, Data rights): `/privacy`, `/terms`,
 * `/refunds` (cancellation and refunds) and `/contact`. Their text is Markdown in `content/legal/<page>.md` (English)
 * and `content/legal/hi/<page>.md` (Hindi), which a deployer edits (the repository has defaults; docs/decisions.md,
 * Data rights, "Legal pages"); `{{siteName}}` and `{{siteUrl}}` in it become the site's name and public origin, and
 * `{{writeTo}}` the sentence of how to write to the operator (the grievance address below only when one is set). It is
 * rendered with the sanitizer of Ungatekeep posts, once per file and process.
 */
import { renderMarkdown } from "@/lib/ungatekeep/markdown.ts";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/languages.ts";

/**
 * The legal pages by path segment; each is shown with its title and description from the catalogue
 * (`legal.page.<name>.title`, `legal.page.<name>.description`).
 */
export const LEGAL_PAGES = ["privacy", "terms", "refunds", "contact"] as const;

/** One of the legal pages. */
export type LegalPageName = typeof LEGAL_PAGES[number];

/** Where the English Markdown files are; each other language's are in a folder named by its code beside them. */
export const LEGAL_CONTENT_DIR = new URL("../../content/legal/", import.meta.url);

/**
 * The Markdown file of legal page `name` in `lang` under folder `dir` (`<page>.md` in English, `<lang>/<page>.md`
 * otherwise).
 */
export function legalPageFile(name: LegalPageName, lang: Lang, dir = LEGAL_CONTENT_DIR): URL {
  return new URL(lang === DEFAULT_LANG ? `${name}.md` : `${lang}/${name}.md`, dir);
}

/**
 * The Markdown of page `name` in `lang` under folder `dir`, the English one when there is no file in `lang`.
 * @throws Deno.errors.NotFound when the English file is missing too.
 */
export async function legalMarkdown(name: LegalPageName, lang: Lang, dir = LEGAL_CONTENT_DIR): Promise<string> {
  try {
    return await Deno.readTextFile(legalPageFile(name, lang, dir));
  } catch (error) {
    if (lang === DEFAULT_LANG || !(error instanceof Deno.errors.NotFound)) throw error;
    return await Deno.readTextFile(legalPageFile(name, DEFAULT_LANG, dir));
  }
}

const rendered = new Map<string, Promise<string>>();

/** What the placeholders of the Markdown stand for (`{{siteName}}`, `{{siteUrl}}`, `{{writeTo}}`). */
export interface LegalValues {
  siteName: string;
  siteUrl: string;
  /** How to write to the operator: to the grievance address below when one is set, else that none is published. */
  writeTo: string;
}

/**
 * The sanitized HTML of legal page `name` in `lang` with `values` filled in, the English text when the page has no
 * file in `lang` (each file is read and rendered once per process and set of values).
 * @throws Deno.errors.NotFound when the deployer removed the English file.
 */
export function legalPageHtml(name: LegalPageName, lang: Lang, values: LegalValues): Promise<string> {
  const key = `${name}|${lang}|${values.siteName}|${values.siteUrl}|${values.writeTo}`;
  let html = rendered.get(key);
  if (!html) {
    html = legalMarkdown(name, lang).then((markdown) =>
      renderMarkdown(
        markdown.replaceAll("{{siteName}}", values.siteName).replaceAll("{{siteUrl}}", values.siteUrl)
          .replaceAll("{{writeTo}}", values.writeTo),
      )
    );
    html.catch(() => rendered.delete(key));
    rendered.set(key, html);
  }
  return html;
}
