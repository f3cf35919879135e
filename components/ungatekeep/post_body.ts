/**
 * Browser-safe: the look of a post's rendered markdown, shared by the published post page and
 * the editor's preview so that the preview shows the post as it will be published.
 */
export const POST_BODY_CLASS = "max-w-none space-y-4 text-slate-800 [overflow-wrap:anywhere] " +
  "[&_a]:text-indigo-700 [&_a]:underline [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:text-xl [&_h2]:font-semibold " +
  "[&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 " +
  "[&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 " +
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_pre]:overflow-x-auto [&_pre]:rounded-md " +
  "[&_pre]:bg-slate-100 [&_pre]:p-3";
