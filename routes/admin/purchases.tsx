/**
 * `/admin/purchases`: every purchase with status tabs, search and refunds (admins only, by `_middleware.ts`); `?tab=`
 * opens a tab, e.g. `asked` (the purchases whose refund request waits, the dashboard's "Refunds asked").
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminPurchasesTable, {
  ADMIN_PURCHASES_TEXT,
  PURCHASE_TABS,
  type PurchaseTab,
} from "@/islands/AdminPurchasesTable.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default define.page(function AdminPurchasesPage({ url }) {
  const t = useT();
  const asked = url.searchParams.get("tab");
  const tab = PURCHASE_TABS.find((value) => value === asked) as PurchaseTab | undefined;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.purchases") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.purchases")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.purchases.lead")}</p>
      </div>
      <AdminPurchasesTable text={t.island(ADMIN_PURCHASES_TEXT)} tab={tab} />
    </section>
  );
});
