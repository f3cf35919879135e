/** `/admin/opportunities`: the review queue (admins only, by `_middleware.ts`): tabs per state with counts, search, approve and reject. */
import { PageHead } from "@/components/PageHead.tsx";
import AdminOpportunitiesQueue from "@/islands/AdminOpportunitiesQueue.tsx";

export default function AdminOpportunitiesPage() {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Review opportunities · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Opportunities</h1>
        <p class="mt-2 text-slate-700">
          Submissions by users wait here for review. Approving publishes one; rejecting hides it and keeps the record.
        </p>
      </div>
      <AdminOpportunitiesQueue />
    </section>
  );
}
