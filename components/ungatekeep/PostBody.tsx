/**
 * Rendered markdown in the look of a published post: the post page, the editor's preview (so that it shows the post as
 * it will be published) and the legal pages. Browser-safe.
 */

const POST_BODY_CLASS = "max-w-none space-y-4 text-slate-800 [overflow-wrap:anywhere] " +
  "[&_a]:text-indigo-700 [&_a]:underline [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:text-xl [&_h2]:font-semibold " +
  "[&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 " +
  "[&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 " +
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_pre]:overflow-x-auto [&_pre]:rounded-md " +
  "[&_pre]:bg-slate-100 [&_pre]:p-3";

/** The sanitized HTML `html` in the post body's look; `class` adds classes (spacing) before its own. */
export function PostBody({ html, class: extra }: { html: string; class?: string }) {
  return (
    <div
      class={extra ? `${extra} ${POST_BODY_CLASS}` : POST_BODY_CLASS}
      // deno-lint-ignore react-no-danger
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
