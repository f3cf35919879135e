/**
 * Article HTML is sanitized on write (docs/decisions.md, Toolkits and payments) with `sanitize-html` against an allowlist:
 * text structure, lists, tables, code, links (http, https, mailto) and images (https), and
 * `<iframe>` only from the approved video hosts. No scripts, styles, event handlers or
 * `javascript:` URLs survive; links get `rel="noopener noreferrer nofollow"`.
 */
import type { IOptions, Transformer } from "sanitize-html";
import { onFirstUse } from "@/lib/lazy.ts";

/** Hosts whose players may be embedded in an article. */
export const VIDEO_EMBED_HOSTS = ["www.youtube-nocookie.com", "www.youtube.com", "player.vimeo.com"];

/** The allowlist; `anchor` is sanitize-html's transform that sets every link's `rel`. */
const allowlist = (anchor: Transformer): IOptions => ({
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "mark",
    "small",
    "sub",
    "sup",
    "blockquote",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "a",
    "img",
    "figure",
    "figcaption",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "caption",
    "iframe",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    iframe: ["src", "title", "width", "height", "allowfullscreen"],
    th: ["scope", "colspan", "rowspan"],
    td: ["colspan", "rowspan"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"], iframe: ["https"] },
  allowProtocolRelative: false,
  allowedIframeHostnames: VIDEO_EMBED_HOSTS,
  transformTags: {
    a: anchor,
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: attribs.src?.startsWith("https://www.youtube.com/")
        ? { ...attribs, src: attribs.src.replace("https://www.youtube.com/", "https://www.youtube-nocookie.com/") }
        : attribs,
    }),
  },
  nonTextTags: ["script", "style", "textarea", "option", "noscript"],
});

/** `sanitize-html` (~17 MB of memory) set up on first use, not with the server. */
const sanitizer = onFirstUse(async (): Promise<(html: string) => string> => {
  const { default: sanitizeHtml } = await import("sanitize-html");
  const options = allowlist(sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }));
  return (html) => sanitizeHtml(html, options);
});

/** `html` with everything outside the allowlist removed. */
export async function sanitizeArticle(html: string): Promise<string> {
  return (await sanitizer())(html);
}
