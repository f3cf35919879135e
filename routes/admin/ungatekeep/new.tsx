/** `/admin/ungatekeep/new`: the post editor for a new post (admins only). docs/decisions.md, Ungatekeep and banners. */
import { PageHead } from "@/components/PageHead.tsx";
import UngatekeepPostEditor, { POST_EDITOR_TEXT } from "@/islands/UngatekeepPostEditor.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function NewPostPage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.ungatekeep.newPost") })} />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.ungatekeep.newPost")}</h1>
      <UngatekeepPostEditor
        text={t.island(POST_EDITOR_TEXT)}
        post={{
          id: null,
          title: "",
          content: "",
          tag: "",
          images: [],
          linkUrl: "",
          linkTitle: "",
          linkImage: "",
          isPinned: false,
          isPublished: true,
          publishedAt: null,
        }}
      />
    </section>
  );
}
