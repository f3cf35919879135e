/** `/admin/coupons`: coupons with search by code, create, deactivate and delete, uses against the limit (admins only). */
import { PageHead } from "@/components/PageHead.tsx";
import AdminCouponsTable from "@/islands/AdminCouponsTable.tsx";

export default function AdminCouponsPage() {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Coupons · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Coupons</h1>
        <p class="mt-2 text-slate-700">
          Discounts for toolkits. A use counts from checkout; an unpaid one is released after 30 minutes.
        </p>
      </div>
      <AdminCouponsTable />
    </section>
  );
}
