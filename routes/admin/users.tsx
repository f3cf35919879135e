/** `/admin/users`: the user table with search, role filter, pages and role changes (admins only, by `_middleware.ts`). */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminUsersTable, { ADMIN_USERS_TEXT } from "@/islands/AdminUsersTable.tsx";
import { useT } from "@/lib/i18n/context.ts";

export default define.page(function AdminUsersPage({ state }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.users.pageTitle") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.users")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.users.lead")}</p>
      </div>
      <AdminUsersTable currentUserId={state.user!.id} text={t.island(ADMIN_USERS_TEXT)} />
    </section>
  );
});
