/**
 * `/admin/outbox`: the e-mail outbox in the outbox table island (status tabs with counts, search by recipient, retry
 * a failed mail), under a one-line lead with how retries and the list's window work in a `<details>` (short on a phone).
 * Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Background work.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminOutboxTable, { ADMIN_OUTBOX_TEXT } from "@/islands/AdminOutboxTable.tsx";
import { listOutbox, OUTBOX_WINDOW, type OutboxPage } from "@/lib/mail/outbox_admin.ts";
import { useT } from "@/lib/i18n/context.ts";

export const handler = define.handlers<OutboxPage>({
  async GET(_req, ctx) {
    return ctx.render(await listOutbox(ctx.state.services.kv, { limit: 50, offset: 0 }));
  },
});

export default define.page<OutboxPage>(function AdminOutboxPage({ data }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.outbox") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.outbox")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.outbox.lead")}</p>
        <details class="mt-2 text-sm text-slate-700">
          <summary class="cursor-pointer font-medium text-indigo-700 underline">
            {t("admin.outbox.howTitle")}
          </summary>
          <p class="mt-1">{t("admin.outbox.retries")}</p>
          <p class="mt-1">{t("admin.outbox.window", { window: t.number(OUTBOX_WINDOW) })}</p>
        </details>
      </div>
      <AdminOutboxTable initial={data} text={t.island(ADMIN_OUTBOX_TEXT)} />
    </section>
  );
});
