/** `/admin/toolkits`: the toolkits table with search, active and Sale-badge switches and delete (admins only, by `_middleware.ts`). */
import { PageHead } from "@/components/PageHead.tsx";
import AdminToolkitsTable, { ADMIN_TOOLKITS_TEXT } from "@/islands/AdminToolkitsTable.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function AdminToolkitsPage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.toolkits") })} />
      <div class="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.toolkits")}</h1>
          <p class="mt-2 text-slate-700">{t("admin.toolkits.lead")}</p>
        </div>
        <a
          href="/admin/toolkits/new"
          class="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
        >
          {t("admin.toolkits.new")}
        </a>
      </div>
      <AdminToolkitsTable text={t.island(ADMIN_TOOLKITS_TEXT)} />
    </section>
  );
}
