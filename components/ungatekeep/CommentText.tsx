/**
 * A comment's text as elements (docs/decisions.md, Comments and reactions): text, links (`rel="nofollow ugc
 * noopener"`) and line breaks from `contentSegments`, never HTML.
 */
import { COMMENT_LINK_REL, contentSegments } from "@/lib/comments/content.ts";

export function CommentText({ content }: { content: string }) {
  return (
    <p class="mt-1 whitespace-normal text-slate-800 [overflow-wrap:anywhere]">
      {contentSegments(content).map((segment, i) => {
        if ("br" in segment) return <br key={i} />;
        if ("href" in segment) {
          return (
            <a key={i} href={segment.href} rel={COMMENT_LINK_REL} class="text-indigo-700 underline">
              {segment.href}
            </a>
          );
        }
        return segment.text;
      })}
    </p>
  );
}
