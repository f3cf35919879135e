/** `/admin/users`: the user table with search, role filter, pages and role changes (admins only, by `_middleware.ts`). */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminUsersTable from "@/islands/AdminUsersTable.tsx";

export default define.page(function AdminUsersPage({ state }) {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="Manage users · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">Users</h1>
        <p class="mt-2 text-slate-700">
          Find people and change their role. Members publish opportunities without review; admins manage everything.
        </p>
      </div>
      <AdminUsersTable currentUserId={state.user!.id} />
    </section>
  );
});
