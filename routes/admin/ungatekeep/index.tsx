/**
 * `/admin/ungatekeep`: every post, drafts and scheduled ones included, in the posts table island
 * (search, tag filter, publish and pin switches, delete), with a link to write a new post; after the editor saves
 * one (`?saved={id}`), a notice names it with a link to its page.
 * Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import UngatekeepPostsTable, { type PostRow, POSTS_TABLE_TEXT } from "@/islands/UngatekeepPostsTable.tsx";
import { listPostsForAdmin } from "@/lib/ungatekeep/posts.ts";
import { useT } from "@/lib/i18n/context.ts";

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

export default define.page<PostRow[]>(function AdminPostsPage({ data, url }) {
  const t = useT();
  const saved = data.find((row) => row.id === url.searchParams.get("saved"));
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.ungatekeep") })} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.ungatekeep")}</h1>
          <p class="mt-2 text-slate-700">{t("admin.ungatekeep.lead")}</p>
        </div>
        <a
          href="/admin/ungatekeep/new"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("admin.ungatekeep.newPost")}
        </a>
      </div>
      {saved && (
        <Notice kind="success">
          {t.rich("admin.ungatekeep.saved", {
            title: saved.title,
            link: (chunks) => <a href={`/ungatekeep/${saved.id}`} class="font-medium underline">{chunks}</a>,
          })}
        </Notice>
      )}
      <UngatekeepPostsTable initial={data} text={t.island(POSTS_TABLE_TEXT)} />
    </section>
  );
});
