/**
 * `/admin/ungatekeep`: every post, drafts and scheduled ones included, in the posts table island
 * (search, tag filter, publish and pin switches, delete), with a link to write a new post.
 * Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import UngatekeepPostsTable, { type PostRow } from "@/islands/UngatekeepPostsTable.tsx";
import { listPostsForAdmin } from "@/lib/ungatekeep/posts.ts";

export const handler = define.handlers<PostRow[]>({
  async GET(_req, ctx) {
    const { posts } = await listPostsForAdmin(ctx.state.services.kv, { limit: 100, offset: 0 });
    return ctx.render(posts.map(({ id, title, tag, isPublished, isPinned, publishedAt }) => ({
      id,
      title,
      tag,
      isPublished,
      isPinned,
      publishedAt,
    })));
  },
});

export default define.page<PostRow[]>(function AdminPostsPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Ungatekeep posts · Admin" />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Ungatekeep posts</h1>
          <p class="mt-2 text-slate-700">Write, schedule, pin and publish the posts of the feed.</p>
        </div>
        <a
          href="/admin/ungatekeep/new"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          New post
        </a>
      </div>
      <UngatekeepPostsTable initial={data} />
    </section>
  );
});
