/**
 * Post content on the server (docs/decisions.md, Ungatekeep and banners): markdown rendered with
 * `marked` and sanitized with `sanitize-html` against an allowlist (no scripts, styles, event
 * handlers, iframes, and no link or image URL but http(s), mailto and same-site paths; external
 * links open with `rel="noopener noreferrer"`), and the two-line plain-text excerpt.
 */
import type { IOptions } from "sanitize-html";
import { onFirstUse } from "@/lib/lazy.ts";

/** `marked` and `sanitize-html` (~20 MB of memory together) set up on first use, not with the server. */
const renderer = onFirstUse(async (): Promise<(content: string) => string> => {
  const [{ Marked }, { default: sanitizeHtml }] = await Promise.all([import("marked"), import("sanitize-html")]);
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  const options = sanitizeOptions(sanitizeHtml.defaults.allowedTags);
  return (content) => sanitizeHtml(marked.parse(content) as string, options);
});

const sanitizeOptions = (defaultTags: string[]): IOptions => ({
  allowedTags: [
    ...defaultTags.filter((tag) => tag !== "style"),
    "img",
    "del",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "width", "height"],
    ol: ["start"],
    th: ["align"],
    td: ["align"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:/i.test(attribs.href ?? "");
      return {
        tagName,
        attribs: external ? { ...attribs, rel: "noopener noreferrer", target: "_blank" } : attribs,
      };
    },
  },
});

/** The markdown `content` as sanitized HTML, safe to insert into a page. */
export async function renderMarkdown(content: string): Promise<string> {
  return (await renderer())(content);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

function plainLine(line: string): string {
  return line
    .replace(/<[^>]*>/g, "")
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_~`]+/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The first two non-empty lines of `content` as plain text (markdown marks, HTML tags, fences and
 * code blocks and rules skipped), joined by a line break (docs/api.md, Ungatekeep, "Cards").
 */
export function excerptOf(content: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const raw of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || /^\s*[-*_]{3,}\s*$/.test(raw)) continue;
    const line = plainLine(raw);
    if (line) lines.push(line);
    if (lines.length === 2) break;
  }
  return lines.join("\n");
}
