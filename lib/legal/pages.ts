/**
 * The legal pages a payment gateway and the law ask for (docs/decisions.md, Data rights): `/privacy`, `/terms`,
 * `/refunds` (cancellation and refunds) and `/contact`. Their text is Markdown in `content/legal/<page>.md`, which a
 * deployer edits (the repository has defaults); `{{siteName}}` and `{{siteUrl}}` in it become the site's name and
 * public origin. It is rendered with the sanitizer of Ungatekeep posts, once per file and process.
 */
import { renderMarkdown } from "@/lib/ungatekeep/markdown.ts";

/**
 * The legal pages by path segment; each is shown with its title and description from the catalogue
 * (`legal.page.<name>.title`, `legal.page.<name>.description`).
 */
export const LEGAL_PAGES = ["privacy", "terms", "refunds", "contact"] as const;

/** One of the legal pages. */
export type LegalPageName = typeof LEGAL_PAGES[number];

/** Where the Markdown files are. */
const CONTENT_DIR = new URL("../../content/legal/", import.meta.url);

const rendered = new Map<string, Promise<string>>();

/** What the placeholders of the Markdown stand for. */
export interface LegalValues {
  siteName: string;
  siteUrl: string;
}

/**
 * The sanitized HTML of legal page `name` with `values` filled in (the file is read and rendered once per process
 * and set of values).
 * @throws Deno.errors.NotFound when the deployer removed the file.
 */
export function legalPageHtml(name: LegalPageName, values: LegalValues): Promise<string> {
  const key = `${name}|${values.siteName}|${values.siteUrl}`;
  let html = rendered.get(key);
  if (!html) {
    html = Deno.readTextFile(new URL(`${name}.md`, CONTENT_DIR)).then((markdown) =>
      renderMarkdown(
        markdown.replaceAll("{{siteName}}", values.siteName).replaceAll("{{siteUrl}}", values.siteUrl),
      )
    );
    html.catch(() => rendered.delete(key));
    rendered.set(key, html);
  }
  return html;
}
