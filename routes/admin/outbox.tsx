/**
 * `/admin/outbox`: the e-mail outbox in the outbox table island (status tabs with counts, search by recipient, retry
 * a failed mail). Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Background work.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import AdminOutboxTable from "@/islands/AdminOutboxTable.tsx";
import { listOutbox, type OutboxPage } from "@/lib/mail/outbox_admin.ts";

export const handler = define.handlers<OutboxPage>({
  async GET(_req, ctx) {
    return ctx.render(await listOutbox(ctx.state.services.kv, { limit: 50, offset: 0 }));
  },
});

export default define.page<OutboxPage>(function AdminOutboxPage({ data }) {
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title="E-mail outbox · Admin" />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">E-mail outbox</h1>
        <p class="mt-2 text-slate-700">
          Every e-mail the platform sends, newest first. A refused e-mail is tried again on a schedule; one that failed
          every try waits here for a retry, unless it held a single-use link (sign-in, reset, unsubscribe): its content
          is not kept, and the person asks for a new one. Sent e-mails are kept 30 days, without their content.
        </p>
      </div>
      <AdminOutboxTable initial={data} />
    </section>
  );
});
