/** `/admin/toolkits/new`: create a toolkit, then add its lessons in its editor (admins only). */
import { PageHead } from "@/components/PageHead.tsx";
import ToolkitForm, { TOOLKIT_FORM_TEXT } from "@/islands/ToolkitForm.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function NewToolkitPage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="max-w-3xl space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.toolkits.new") })} />
      <a href="/admin/toolkits" class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("admin.toolkits.all")}
      </a>
      <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.toolkits.new")}</h1>
      <ToolkitForm text={t.island(TOOLKIT_FORM_TEXT)} />
    </section>
  );
}
