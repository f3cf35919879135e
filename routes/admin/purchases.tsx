/** `/admin/purchases`: every purchase with status tabs, search and refunds (admins only, by `_middleware.ts`). */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminPurchasesTable from "@/islands/AdminPurchasesTable.tsx";

export default define.page(function AdminPurchasesPage() {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Purchases · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Purchases</h1>
        <p class="mt-2 text-slate-700">
          Every checkout and payment. A refund returns the whole amount through the payment gateway.
        </p>
      </div>
      <AdminPurchasesTable />
    </section>
  );
});
