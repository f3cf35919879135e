/** `/admin/opportunities`: the review queue (admins only, by `_middleware.ts`): tabs per state with counts, search, approve and reject. */
import { PageHead } from "@/components/PageHead.tsx";
import AdminOpportunitiesQueue, { ADMIN_OPPORTUNITIES_TEXT } from "@/islands/AdminOpportunitiesQueue.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function AdminOpportunitiesPage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.opportunities.pageTitle") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.opportunities")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.opportunities.lead")}</p>
      </div>
      <AdminOpportunitiesQueue text={t.island(ADMIN_OPPORTUNITIES_TEXT)} />
    </section>
  );
}
