/**
 * Article HTML is sanitized on write (CONTRACT.md §6) with `sanitize-html` against an allowlist:
 * text structure, lists, tables, code, links (http, https, mailto) and images (https), and
 * `<iframe>` only from the approved video hosts. No scripts, styles, event handlers or
 * `javascript:` URLs survive; links get `rel="noopener noreferrer nofollow"`.
 */
import sanitizeHtml from "sanitize-html";

/** Hosts whose players may be embedded in an article. */
export const VIDEO_EMBED_HOSTS = ["www.youtube-nocookie.com", "www.youtube.com", "player.vimeo.com"];

const OPTIONS: sanitizeHtml.IOptions = {
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
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }),
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: attribs.src?.startsWith("https://www.youtube.com/")
        ? { ...attribs, src: attribs.src.replace("https://www.youtube.com/", "https://www.youtube-nocookie.com/") }
        : attribs,
    }),
  },
  nonTextTags: ["script", "style", "textarea", "option", "noscript"],
};

/** `html` with everything outside the allowlist removed. */
export function sanitizeArticle(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
