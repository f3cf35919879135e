/**
 * The head of a page as search engines and link previews read it (docs/decisions.md, Search engines and sharing):
 * `<title>`, description, canonical URL, Open Graph and Twitter card tags, feed links and the page's JSON-LD. The
 * page's absolute URL comes from `SiteContext`, which `_app` provides (the site's public origin and the path): the
 * canonical URL is the path without its query, unless the page names its own (a list page keeps its page position and
 * category, and drops search and filters). A page crawlers may read (`isPublicPath`) also names its other language
 * (docs/decisions.md, Languages, "Search engines"): `hreflang` alternates for `en` (the canonical URL), `hi` (the same
 * with `lang=hi`) and `x-default` (English); the Hindi page's canonical URL is its Hindi URL. A page that answers an
 * error (`error`: not found, forbidden, refused) names neither: its address is no page to index.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { Head } from "@/lib/web/head.ts";
import { absoluteUrl, type JsonLd, jsonLdText, SITE_NAME } from "@/lib/seo/json_ld.ts";
import { isPublicPath } from "@/lib/seo/public_paths.ts";
import { useT } from "@/lib/i18n/context.ts";
import { type Lang, OG_LOCALES, withLang } from "@/lib/i18n/languages.ts";

/** What every page's head needs to know of the request: the site's public origin (`APP_URL`), the path, the language. */
export interface Site {
  origin: string;
  path: string;
  lang: Lang;
}

/** The site and path of the page being rendered; `_app` provides it. */
export const SiteContext = createContext<Site>({ origin: "http://localhost", path: "/", lang: "en" });

/** The share image of a page that has none of its own (1200 × 630, in `static/`). */
const DEFAULT_IMAGE = "/share.png";

/** Longest description kept, in characters (what result pages and previews show). */
const DESCRIPTION_MAX = 160;

/** `text` on one line, cut at a word to at most `DESCRIPTION_MAX` characters with "…". */
function describe(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = [...line];
  if (chars.length <= DESCRIPTION_MAX) return line;
  const cut = chars.slice(0, DESCRIPTION_MAX - 1).join("");
  const space = cut.lastIndexOf(" ");
  return (space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut) + "…";
}

/** What a page says about itself; only `title` is required. */
export interface PageHeadProps {
  /** The page's title, without the site name (the `<title>` adds it). */
  title: string;
  /** Plain text; the site's description when absent; cut to 160 characters. */
  description?: string | null;
  /** The share image: an absolute path on this site or a URL; `DEFAULT_IMAGE` when absent. */
  image?: string | null;
  /** The canonical path and query (`/opportunities?offset=20`); the page's path without its query when absent. */
  canonical?: string;
  /** `og:type`: `website` unless the page is an `article`. */
  type?: "website" | "article";
  /** The page's schema.org JSON-LD, if it has one. */
  jsonLd?: JsonLd | null;
  /** RSS feeds of the page's content, as `<link rel="alternate">`. */
  feeds?: { title: string; href: string }[];
  /** The page answers an error status (404, 403, …): no canonical URL and no `hreflang` alternates. */
  error?: boolean;
}

/** Writes the page's head tags (see the module docstring); renders nothing in place. */
export function PageHead(
  { title, description, image, canonical, type = "website", jsonLd, feeds = [], error = false }: PageHeadProps,
) {
  const { origin, path, lang } = useContext(SiteContext);
  const t = useT();
  const english = canonical ?? path;
  const alternates = !error && isPublicPath(path)
    ? { en: absoluteUrl(origin, english), hi: absoluteUrl(origin, withLang(english, "hi")) }
    : null;
  const url = absoluteUrl(origin, lang === "en" ? english : withLang(english, lang));
  const text = describe(description || t("layout.description"));
  const imageUrl = absoluteUrl(origin, image || DEFAULT_IMAGE);
  return (
    <Head>
      <title>{`${title} · ${SITE_NAME}`}</title>
      <meta name="description" content={text} />
      {!error && <link rel="canonical" href={url} />}
      {alternates && <link rel="alternate" hreflang="en" href={alternates.en} />}
      {alternates && <link rel="alternate" hreflang="hi" href={alternates.hi} />}
      {alternates && <link rel="alternate" hreflang="x-default" href={alternates.en} />}
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={text} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={imageUrl} />
      <meta property="og:type" content={type} />
      <meta property="og:locale" content={OG_LOCALES[lang]} />
      <meta property="og:locale:alternate" content={OG_LOCALES[lang === "en" ? "hi" : "en"]} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={text} />
      <meta name="twitter:image" content={imageUrl} />
      {feeds.map((feed) => (
        <link
          key={feed.href}
          rel="alternate"
          type="application/rss+xml"
          title={feed.title}
          href={absoluteUrl(origin, feed.href)}
        />
      ))}
      {jsonLd && (
        <script
          type="application/ld+json"
          // deno-lint-ignore react-no-danger
          dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }}
        />
      )}
    </Head>
  );
}
