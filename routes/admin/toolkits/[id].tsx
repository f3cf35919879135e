/**
 * `/admin/toolkits/{id}`: the toolkit editor, its fields and its lessons (admins only). Unknown ids render the 404 page.
 * `?created=1` (where creating a toolkit leads) says it was created and that its lessons come next.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import LessonManager, { LESSON_MANAGER_TEXT } from "@/islands/LessonManager.tsx";
import ToolkitForm, { TOOLKIT_FORM_TEXT } from "@/islands/ToolkitForm.tsx";
import { type ContentItem, listContentItems, readToolkit, type Toolkit } from "@/lib/toolkits/catalog.ts";
import { useT } from "@/lib/i18n/context.ts";

interface EditorData {
  toolkit: Toolkit;
  lessons: ContentItem[];
}

export const handler = define.handlers<EditorData>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const toolkit = await readToolkit(kv, ctx.params.id, ctx.state.user);
    return ctx.render({ toolkit, lessons: await listContentItems(kv, toolkit.id) });
  },
});

export default define.page<EditorData>(function ToolkitEditorPage({ data: { toolkit, lessons }, url }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="max-w-3xl space-y-8">
      <PageHead title={t("admin.pageTitle", { page: t("admin.toolkits.editTitle", { title: toolkit.title }) })} />
      <div class="flex flex-wrap justify-between gap-4 text-sm">
        <a href="/admin/toolkits" class="text-indigo-700 underline hover:text-indigo-900">{t("admin.toolkits.all")}</a>
        <a href={`/toolkits/${toolkit.id}`} class="text-indigo-700 underline hover:text-indigo-900">
          {t("admin.toolkits.viewPage")}
        </a>
      </div>
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{toolkit.title}</h1>
      {url.searchParams.get("created") === "1" && (
        <Notice kind="success">{t("admin.toolkits.created", { title: toolkit.title })}</Notice>
      )}
      <ToolkitForm toolkit={toolkit} text={t.island(TOOLKIT_FORM_TEXT)} />
      <section aria-labelledby="lessons-heading" class="space-y-4">
        <h2 id="lessons-heading" class="text-2xl font-semibold text-slate-900">{t("admin.toolkits.lessons")}</h2>
        <LessonManager
          text={t.island(LESSON_MANAGER_TEXT)}
          toolkitId={toolkit.id}
          lessons={lessons.map(({ id, title, type, content, cdnVideoUrl, orderIndex, isPreview }) => ({
            id,
            title,
            type,
            content,
            cdnVideoUrl,
            orderIndex,
            isPreview,
          }))}
        />
      </section>
    </section>
  );
});
