/**
 * `/admin/outbox`: the e-mail outbox in the outbox table island (status tabs with counts, search by recipient, retry
 * a failed mail), under a one-line lead with how retries and the list's window work in a `<details>` (short on a phone).
 * Admins only, by `/admin`'s middleware and layout. docs/decisions.md, Background work. A row's "Retry" is a plain form
 * (docs/decisions.md, Islands, "Forms work without JavaScript"): `POST` (`intent` `retry`, `id`) retries the mail as
 * `POST /api/admin/outbox/{id}/retry` does and answers 303 to `?retried={id}`, whose page says it is queued again, or
 * renders the page again with the refusal's sentence (400, 404, 409). The server renders the page its query asks for
 * (`status`, `search`, `offset`; a value the list refuses gives the first page of all), so the search and the tabs (one
 * `GET` form, the tabs its submit buttons, "Search" keeping the tab), "Previous" and "Next" (links) work without
 * JavaScript.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import AdminOutboxTable, { ADMIN_OUTBOX_TEXT } from "@/islands/AdminOutboxTable.tsx";
import { listOutbox, OUTBOX_WINDOW, type OutboxPage, outboxQuerySchema, retryMail } from "@/lib/mail/outbox_admin.ts";
import type { MailStatus } from "@/lib/mail/outbox.ts";
import { readMail } from "@/lib/mail/outbox.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";

interface Data {
  page: OutboxPage;
  /** The tab (null: all) and the search ("": none) the page answers. */
  status: MailStatus | null;
  search: string;
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused retry's sentence; "" for none. */
  error: string;
}

/** The retry form's fields: a mail id (ids are UUIDs; a longer one names no mail). */
const retryFormSchema = z.object({ intent: z.literal("retry"), id: z.string().min(1).max(100) });

/** The page `params` ask for (`status`, `search`, `offset`); with a value the list refuses, the first page of all. */
async function pageOf(kv: Deno.Kv, params: URLSearchParams): Promise<Pick<Data, "page" | "status" | "search">> {
  const given = (name: string) => params.get(name) || undefined;
  const parsed = outboxQuerySchema.safeParse({
    status: given("status"),
    search: given("search"),
    offset: given("offset"),
  });
  const query = parsed.success ? parsed.data : outboxQuerySchema.parse({});
  return { page: await listOutbox(kv, query), status: query.status ?? null, search: query.search ?? "" };
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const retried = ctx.url.searchParams.get("retried") ?? "";
    const mail = retried.length > 0 && retried.length <= 100 ? (await readMail(kv, retried)).value : null;
    const notice = mail ? ctx.state.t("admin.outbox.queued", { to: mail.to }) : "";
    return ctx.render({ ...await pageOf(kv, ctx.url.searchParams), notice, error: "" });
  },

  async POST(req, ctx) {
    const { services, t } = ctx.state;
    const form = retryFormSchema.safeParse(await readFormFields(req, ["intent", "id"]));
    try {
      if (!form.success) throw new NotFoundError(REFUSALS.mailNotFound);
      const audit = adminAudit(ctx.state, { action: "mail.retry", targetKind: "mail" });
      const mail = await retryMail(services.kv, { id: form.data.id, audit });
      deliverSoon(services, mail.id);
      return seeOther(`/admin/outbox?retried=${encodeURIComponent(mail.id)}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const page = await pageOf(services.kv, new URLSearchParams());
      const status = form.success ? errorResponse(error).status : 400;
      return ctx.render({ ...page, notice: "", error: refusalText(t, error) }, { status });
    }
  },
});

export default define.page<Data>(function AdminOutboxPage({ data }) {
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
      {data.notice && <Notice kind="success" title={data.notice} />}
      {data.error && <Notice kind="error" title={t("admin.outbox.notRetriedTitle")}>{data.error}</Notice>}
      <AdminOutboxTable
        initial={data.page}
        status={data.status}
        search={data.search}
        text={t.island(ADMIN_OUTBOX_TEXT)}
      />
    </section>
  );
});
