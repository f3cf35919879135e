/** `/admin/coupons`: coupons with search by code, create, deactivate and delete, uses against the limit (admins only). */
import { PageHead } from "@/components/PageHead.tsx";
import AdminCouponsTable, { ADMIN_COUPONS_TEXT } from "@/islands/AdminCouponsTable.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default function AdminCouponsPage() {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.coupons") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.coupons")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.coupons.lead")}</p>
      </div>
      <AdminCouponsTable text={t.island(ADMIN_COUPONS_TEXT)} />
    </section>
  );
}
