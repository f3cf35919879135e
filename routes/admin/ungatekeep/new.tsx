/** `/admin/ungatekeep/new`: the post editor for a new post (admins only). docs/decisions.md, Ungatekeep and banners. */
import { PageHead } from "@/components/PageHead.tsx";
import UngatekeepPostEditor from "@/islands/UngatekeepPostEditor.tsx";

export default function NewPostPage() {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="New post · Admin" />
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">New post</h1>
      <UngatekeepPostEditor
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
