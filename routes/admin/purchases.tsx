/**
 * `/admin/purchases`: every purchase with status tabs, search and refunds (admins only, by `_middleware.ts`); `?tab=`
 * opens a tab, e.g. `asked` (the purchases whose refund request waits, the dashboard's "Refunds asked"). The page the
 * query asks for (`tab`, `search`, `offset`; a value the list refuses gives the tab's first page) is read here, so its
 * rows are in the HTML and the search and tabs (a `GET` form), "Previous" and "Next" (links) work without JavaScript
 * (docs/decisions.md, Islands, "Forms work without JavaScript"). Without JavaScript a row's "Refund" opens this page
 * with `?refund={id}` (and `&payment={paymentId}` for an extra
 * payment), "Decline request" with `?decline={id}` (each with the list's `tab`): a confirmation whose plain form posts
 * here (`intent` `refund` or `decline`); `POST` refunds or declines as the JSON API does and answers 303 back to the
 * tab with `?refunded=` or `?declined=`, or the page again with the confirmation and the refusal in the page's
 * language.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { RefundConfirmation } from "@/components/purchases/RefundConfirmation.tsx";
import AdminPurchasesTable, {
  ADMIN_PURCHASES_TEXT,
  PAGE_SIZE,
  PURCHASE_TABS,
  type PurchaseTab,
  tabQuery,
} from "@/islands/AdminPurchasesTable.tsx";
import { type PendingRefund, pendingRefundOf, refundUnconfirmed } from "@/lib/browser/pending_refund.ts";
import { DomainError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import { validate } from "@/lib/http/json.ts";
import { type FieldProblem, fieldProblems, issueField, PARSE_WITH_INPUT } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { refundAsAdmin, RefundBodySchema } from "@/lib/http/refund_request.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import {
  type AdminPurchasePage,
  type AdminPurchaseQuery,
  adminPurchaseQuerySchema,
  adminPurchaseRow,
  listPurchasesForAdmin,
} from "@/lib/purchases/admin.ts";
import { paymentContext } from "@/lib/purchases/payment_context.ts";
import { declineRefundRequest, RefundDeclineBodySchema } from "@/lib/purchases/refund_requests.ts";
import { returnedBy } from "@/lib/purchases/refund_policy.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";

interface Data {
  tab: PurchaseTab;
  /** The search the page answers ("": none). */
  search: string;
  page: AdminPurchasePage;
  /** The refund or decline to confirm without JavaScript. */
  confirming: PendingRefund | null;
  /**
   * What a refused post had typed, why it was refused (`error`, the refusal; `fieldError`, what is wrong with the typed
   * text), in the page's language, and whether the refund may have been made all the same (`refundUnconfirmed`).
   */
  refused?: { text: string; error?: string; fieldError?: string; unconfirmed: boolean };
  /** The sentence saying what was done (after `?refunded=` or `?declined=`). */
  done: string | null;
}

const id = z.string().min(1).max(100);
/** The list's tab the form came from ("": all). */
const tab = z.enum(PURCHASE_TABS).or(z.literal("").transform(() => "all" as const));

/** The fields of the page's plain form: a refund (with an optional reason) or a decline (with its note). */
const PurchaseFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("refund"),
    tab,
    purchaseId: id,
    paymentId: id.optional().or(z.literal("").transform(() => undefined)),
    reason: RefundBodySchema.shape.reason,
  }),
  z.object({ intent: z.literal("decline"), tab, purchaseId: id, note: RefundDeclineBodySchema.shape.note }),
]);

/** The query of the page on `tab` with `params` (what was done). */
function back(tab: PurchaseTab, params: Record<string, string>): URLSearchParams {
  return new URLSearchParams({ ...tab === "all" ? {} : { tab }, ...params });
}

/** The tab `tab` names (`?tab=`, or the form's field), else all. */
function tabOf(tab: string | null): PurchaseTab {
  return PURCHASE_TABS.find((value) => value === tab) ?? "all";
}

/**
 * The problem of a posted form whose only fault is its typed text (the note or the reason: empty, too long), or null
 * when anything else is wrong too (a form no page of ours sends).
 */
function textProblem(issues: readonly z.core.$ZodIssue[]): FieldProblem | null {
  const problems = fieldProblems(issues);
  const [problem] = problems;
  const typed = problems.length === 1 && (problem.field === "note" || problem.field === "reason");
  return typed && issues.every((issue) => issueField(issue) === problem.field) ? problem : null;
}

/**
 * The list's query of `tab` with the `search` and `offset` of a page's URL parameters, as the island asks for it; with
 * a value the list refuses, the tab's first page.
 */
function pageQuery(tab: PurchaseTab, params: URLSearchParams): AdminPurchaseQuery {
  const fixed = { limit: String(PAGE_SIZE), offset: "0", ...tabQuery(tab) };
  const given = (name: string) => params.get(name) || undefined;
  const parsed = adminPurchaseQuerySchema.safeParse({
    ...fixed,
    search: given("search"),
    offset: given("offset") ?? "0",
  });
  return parsed.success ? parsed.data : validate(adminPurchaseQuerySchema, fixed);
}

/**
 * The refund (`refund`, with `payment` for an extra payment) or decline (`decline`) of a purchase to confirm, or null.
 * @throws NotFoundError "Purchase not found" or "Payment not found".
 */
async function confirmingOf(
  kv: Deno.Kv,
  { purchaseId, paymentId, decline }: { purchaseId: string | null; paymentId: string | null; decline: boolean },
): Promise<PendingRefund | null> {
  if (!purchaseId) return null;
  const row = await adminPurchaseRow(kv, purchaseId);
  if (!row) throw new NotFoundError(REFUSALS.purchaseNotFound);
  const pending = pendingRefundOf(row, { paymentId, decline });
  if (!pending) throw new NotFoundError(REFUSALS.paymentNotFound);
  return pending;
}

/** The sentence of what `?refunded=` or `?declined=` says was done, or null. */
async function doneOf(kv: Deno.Kv, t: Translate, params: URLSearchParams): Promise<string | null> {
  const purchaseId = params.get("refunded") ?? params.get("declined");
  const row = purchaseId ? await adminPurchaseRow(kv, purchaseId) : null;
  if (!row) return null;
  const name = row.user?.name ?? t("admin.refund.deletedUser");
  if (params.has("declined")) return t("admin.refund.declined", { name });
  const extra = row.extraPayments.find((p) => p.paymentId === params.get("payment"));
  const refund = extra ? extra.refund : row.refund;
  return refund ? t("admin.refund.done", { amount: t.minorUnits(returnedBy(refund), extra?.currency), name }) : null;
}

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const params = ctx.url.searchParams;
    const tab = tabOf(params.get("tab"));
    const query = pageQuery(tab, params);
    const [page, confirming, done] = await Promise.all([
      listPurchasesForAdmin(kv, query),
      confirmingOf(kv, {
        purchaseId: params.get("refund") ?? params.get("decline"),
        paymentId: params.get("refund") ? params.get("payment") : null,
        decline: !params.get("refund") && params.has("decline"),
      }),
      doneOf(kv, ctx.state.t, params),
    ]);
    return ctx.render({ tab, search: query.search ?? "", page, confirming, done });
  },
  async POST(req, ctx) {
    const { services, t } = ctx.state;
    const fields = formFields(await readForm(req), ["intent", "tab", "purchaseId", "paymentId", "reason", "note"]);
    /** The page again on `tab` with the confirmation of `pending` open and why the post was refused. */
    const again = async (
      status: number,
      tab: PurchaseTab,
      pending: { purchaseId: string; paymentId: string | null; decline: boolean },
      refused: NonNullable<Data["refused"]>,
    ) => {
      const [confirming, page] = await Promise.all([
        confirmingOf(services.kv, pending),
        listPurchasesForAdmin(services.kv, pageQuery(tab, new URLSearchParams())),
      ]);
      return ctx.render({ tab, search: "", page, confirming, refused, done: null }, { status });
    };
    const parsed = PurchaseFormSchema.safeParse(fields, PARSE_WITH_INPUT);
    const typed = parsed.success ? null : textProblem(parsed.error.issues);
    if (typed) {
      // Only the note or reason is wrong (an empty note sent past the browser's check): the form again, told at it.
      const decline = fields.intent === "decline";
      return await again(400, tabOf(fields.tab), {
        purchaseId: fields.purchaseId,
        paymentId: decline ? null : fields.paymentId || null,
        decline,
      }, { text: decline ? fields.note : fields.reason, fieldError: fieldText(t, typed), unconfirmed: false });
    }
    const form = validate(PurchaseFormSchema, fields);
    try {
      if (form.intent === "decline") {
        const audit = adminAudit(ctx.state, {
          action: "purchase.declineRefund",
          targetKind: "purchase",
          summary: form.note,
        });
        await declineRefundRequest(paymentContext(services), { purchaseId: form.purchaseId, note: form.note, audit });
        return seeOther(`/admin/purchases?${back(form.tab, { declined: form.purchaseId })}`);
      }
      const target = { purchaseId: form.purchaseId, ...form.paymentId ? { paymentId: form.paymentId } : {} };
      await refundAsAdmin(ctx.state, target, form.reason ?? null);
      const done = { refunded: form.purchaseId, ...form.paymentId ? { payment: form.paymentId } : {} };
      return seeOther(`/admin/purchases?${back(form.tab, done)}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const text = form.intent === "decline" ? form.note : form.reason ?? "";
      const { status } = errorResponse(error);
      const unconfirmed = form.intent === "refund" && refundUnconfirmed(status);
      return await again(status, form.tab, {
        purchaseId: form.purchaseId,
        paymentId: form.intent === "refund" ? form.paymentId ?? null : null,
        decline: form.intent === "decline",
      }, { text, error: refusalText(t, error), unconfirmed });
    }
  },
});

export default define.page<Data>(function AdminPurchasesPage({ data }) {
  const t = useT();
  const { tab, search, page, confirming, refused, done } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.purchases") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.purchases")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.purchases.lead")}</p>
      </div>
      {done && <Notice kind="success">{done}</Notice>}
      {confirming && (
        <RefundConfirmation
          pending={confirming}
          text={refused?.text}
          error={refused?.error}
          fieldError={refused?.fieldError}
          unconfirmed={refused?.unconfirmed}
          tab={tab}
        />
      )}
      <AdminPurchasesTable text={t.island(ADMIN_PURCHASES_TEXT)} tab={tab} search={search} page={page} />
    </section>
  );
});
