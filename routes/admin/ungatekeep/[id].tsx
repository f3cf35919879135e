/** `/admin/ungatekeep/{id}`: the post editor for an existing post, in any state (admins only). docs/decisions.md, Ungatekeep and banners. */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import UngatekeepPostEditor, { POST_EDITOR_TEXT } from "@/islands/UngatekeepPostEditor.tsx";
import { getPostForAdmin, type PostView } from "@/lib/ungatekeep/posts.ts";
import { useT } from "@/lib/i18n/context.ts";

export const handler = define.handlers<PostView>({
  async GET(_req, ctx) {
    return ctx.render(await getPostForAdmin(ctx.state.services.kv, ctx.params.id));
  },
});

export default define.page<PostView>(function EditPostPage({ data: post }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.ungatekeep.editTitle", { title: post.title }) })} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.ungatekeep.editPost")}</h1>
      <a href={`/ungatekeep/${post.id}`} class="text-sm text-indigo-700 underline">
        {t("admin.ungatekeep.viewPost")}
      </a>
      <UngatekeepPostEditor
        text={t.island(POST_EDITOR_TEXT)}
        post={{
          id: post.id,
          title: post.title,
          content: post.content,
          tag: post.tag,
          images: post.images,
          linkUrl: post.linkUrl ?? "",
          linkTitle: post.linkTitle ?? "",
          linkImage: post.linkImage ?? "",
          isPinned: post.isPinned,
          isPublished: post.isPublished,
          publishedAt: post.publishedAt,
        }}
      />
    </section>
  );
});
