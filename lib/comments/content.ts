/**
 * Comment content (docs/decisions.md, Comments and reactions): plain text whose only structure is line breaks and
 * http(s) links. `contentSegments` splits a comment into text, links and line breaks (pages render those as elements,
 * so no markup in a comment is ever markup); `contentHtml` is the same as an escaped HTML string for API answers, each
 * link `<a href rel="nofollow ugc noopener">`. Browser-safe: islands render with it.
 */

/** A piece of a comment: text, a link (its `href` is the text shown), or a line break. */
export type Segment = { text: string } | { href: string } | { br: true };

/** The `rel` of every link in a comment: no ranking credit, user-generated, no `window.opener`. */
export const COMMENT_LINK_REL = "nofollow ugc noopener";

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?*'"\]}>]+$/;

/** The link at the start of `candidate` without trailing punctuation (and a `)` it does not open), or null. */
function linkOf(candidate: string): string | null {
  let href = candidate.replace(TRAILING, "");
  while (href.endsWith(")") && (href.match(/\(/g)?.length ?? 0) < (href.match(/\)/g)?.length ?? 0)) {
    href = href.slice(0, -1).replace(TRAILING, "");
  }
  try {
    const url = new URL(href);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? href : null;
  } catch {
    return null;
  }
}

function pushText(segments: Segment[], text: string): void {
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (i > 0) segments.push({ br: true });
    if (line) segments.push({ text: line });
  });
}

/** `content` as text, link and line-break segments, in order. */
export function contentSegments(content: string): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const match of content.matchAll(URL_PATTERN)) {
    const href = linkOf(match[0]);
    if (!href) continue;
    pushText(segments, content.slice(at, match.index));
    segments.push({ href });
    at = match.index + href.length;
  }
  pushText(segments, content.slice(at));
  return segments;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` with the five HTML-special characters escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** `content` as safe HTML: escaped text, `<br>` for line breaks, http(s) links as `<a>` with `COMMENT_LINK_REL`. */
export function contentHtml(content: string): string {
  return contentSegments(content).map((segment) => {
    if ("br" in segment) return "<br>";
    if ("href" in segment) {
      const href = escapeHtml(segment.href);
      return `<a href="${href}" rel="${COMMENT_LINK_REL}">${href}</a>`;
    }
    return escapeHtml(segment.text);
  }).join("");
}
