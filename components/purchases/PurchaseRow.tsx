/**
 * One purchase in the admin purchase table (a row of a `STACKED_TABLE`): the buyer, date, toolkit and coupon, amount,
 * status with its refund, what was refunded in part at the gateway ("Partly refunded ₹X"), each extra payment (money due back) with why it is owed and its refund, the buyer's refund
 * request and the refund policy's facts (`RefundPolicyFacts`), and the actions: refund the purchase or an extra payment
 * not refunded yet, decline an open refund request (each a GET form opening the page's confirmation without
 * JavaScript, the island's dialog when hydrated), the receipt and each credit note (number, amount and date, linking
 * its page), or why refunds have none past GST's time limit (docs/decisions.md, Money operations).
 */
import { Cell } from "@/components/StackedTable.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { type PendingRefund, pendingRefundOf, REFUND_CONFIRMATION_ID } from "@/lib/browser/pending_refund.ts";
import type { ComponentChildren } from "preact";
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import type { ExtraPaymentReason } from "@/lib/purchases/purchases.ts";
import { useT } from "@/lib/i18n/context.ts";
import { refundedAtGateway } from "@/lib/purchases/refund_policy.ts";
import { RefundPolicyFacts } from "./RefundPolicyFacts.tsx";

const STATUS_STYLE: Record<AdminPurchaseRow["paymentStatus"], string> = {
  pending: "bg-amber-100 text-amber-900",
  paid: "bg-green-100 text-green-900",
  failed: "bg-slate-200 text-slate-900",
  refunded: "bg-red-100 text-red-900",
};

/** The message of each reason an extra payment is owed back; `unknown` for entries written before reasons were kept. */
const EXTRA_REASON_KEY: Record<ExtraPaymentReason | "unknown", string> = {
  "already paid": "admin.purchases.extraReason.alreadyPaid",
  "already owned": "admin.purchases.extraReason.alreadyOwned",
  "coupon unavailable": "admin.purchases.extraReason.couponUnavailable",
  "account deleted": "admin.purchases.extraReason.accountDeleted",
  "amount mismatch": "admin.purchases.extraReason.amountMismatch",
  unknown: "admin.purchases.extraReason.unknown",
};

/**
 * The row of purchase `p`; `onRefund` picks one of its payments to refund, unless `busy`; `tab`, the list's tab, is
 * kept by the confirmation without JavaScript.
 */
export function PurchaseRow({ p, busy, onRefund, tab = "all" }: {
  p: AdminPurchaseRow;
  busy: boolean;
  onRefund: (refund: PendingRefund) => void;
  tab?: string;
}) {
  const t = useT();
  const kept: Record<string, string> = tab === "all" ? {} : { tab };
  const who = () => (
    <span class="sr-only">
      {t("admin.purchases.refundWho", { name: p.user?.name ?? t("admin.purchases.deletedUserLower") })}
    </span>
  );
  const partly = p.paymentStatus === "paid" ? refundedAtGateway(p, null) : 0;
  const lapsed = [p.refund, ...p.gatewayPartialRefunds].find((refund) => refund?.creditNoteLapsed)?.creditNoteLapsed;
  const partlyLine = (amount: number, currency?: string) =>
    amount > 0 && (
      <span class="block text-xs font-semibold text-amber-900">
        {t("admin.purchases.partlyRefunded", { amount: t.minorUnits(amount, currency) })}
      </span>
    );
  return (
    <tr>
      <th scope="row" class="px-4 py-3 font-medium text-slate-900">
        {p.user?.name ?? t("admin.purchases.deletedUser")}
        {p.user && <span class="block font-normal text-slate-700">{p.user.email}</span>}
      </th>
      <Cell label={t("admin.purchases.date")} class="whitespace-nowrap">{t.date(p.createdAt)}</Cell>
      <Cell label={t("admin.purchases.toolkit")}>
        {p.toolkit?.title ?? t("admin.purchases.removedToolkit")}
        {p.couponCode && (
          <span class="block text-xs text-slate-700">{t("admin.purchases.coupon", { code: p.couponCode })}</span>
        )}
      </Cell>
      <Cell label={t("admin.purchases.amount")} class="whitespace-nowrap">{t.minorUnits(p.amountPaid)}</Cell>
      <Cell label={t("admin.purchases.status")}>
        <span class={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[p.paymentStatus]}`}>
          {t.dynamic(`admin.purchases.tab.${p.paymentStatus}`)}
        </span>
        {partlyLine(partly)}
        {p.refund && (
          <span class="block text-xs text-slate-700">
            {t("admin.purchases.refundLine", {
              amount: t.minorUnits(p.refund.amount),
              date: t.date(p.refund.at),
              status: t.dynamic(`admin.purchases.refundStatus.${p.refund.status}`),
            })}
          </span>
        )}
        {p.extraPayments.map((extra) => (
          <span key={extra.orderId} class="mt-1 block text-xs text-slate-700">
            {t("admin.purchases.extra", {
              known: extra.amount === null ? "no" : "yes",
              amount: extra.amount === null ? "" : t.minorUnits(extra.amount, extra.currency),
              reason: t.dynamic(EXTRA_REASON_KEY[extra.reason ?? "unknown"]),
            })}
            {extra.paymentId && !extra.refund && partlyLine(refundedAtGateway(p, extra.paymentId), extra.currency)}
            {extra.refund && (
              <span class="block">
                {t("admin.purchases.extraRefund", {
                  amount: t.minorUnits(extra.refund.amount, extra.currency),
                  date: t.date(extra.refund.at),
                  status: t.dynamic(`admin.purchases.refundStatus.${extra.refund.status}`),
                })}
              </span>
            )}
          </span>
        ))}
        <RefundPolicyFacts p={p} />
      </Cell>
      <Cell>
        <div class="flex flex-wrap gap-2">
          {p.paymentStatus === "paid" && p.amountPaid > 0 && (
            <PickForm
              fields={{ ...kept, refund: p.id }}
              busy={busy}
              onPick={() => onRefund(pendingRefundOf(p)!)}
            >
              {t.rich("admin.purchases.refund", { who })}
            </PickForm>
          )}
          {p.refundRequest?.status === "open" && (
            <PickForm
              fields={{ ...kept, decline: p.id }}
              busy={busy}
              onPick={() => onRefund(pendingRefundOf(p, { decline: true })!)}
            >
              {t.rich("admin.purchases.decline", { who })}
            </PickForm>
          )}
          {p.extraPayments.map((extra) =>
            extra.paymentId && extra.amount && !extra.refund
              ? (
                <PickForm
                  key={extra.paymentId}
                  fields={{ ...kept, refund: p.id, payment: extra.paymentId }}
                  busy={busy}
                  onPick={() => onRefund(pendingRefundOf(p, { paymentId: extra.paymentId })!)}
                >
                  {t("admin.purchases.refundExtra", { amount: t.minorUnits(extra.amount, extra.currency) })}
                </PickForm>
              )
              : null
          )}
          {p.receiptUrl && (
            <a href={p.receiptUrl} class="px-1 py-1.5 text-sm text-indigo-700 underline">
              {t.rich("admin.purchases.receipt", {
                number: () => <span class="sr-only">{` ${p.receiptNumber}`}</span>,
              })}
            </a>
          )}
          {p.creditNotes.map((note) => (
            <a key={note.number} href={note.url} class="px-1 py-1.5 text-sm text-indigo-700 underline">
              {t("admin.purchases.creditNote", {
                number: note.number,
                amount: t.minorUnits(note.amount),
                date: t.date(note.issuedAt),
              })}
            </a>
          ))}
          {lapsed && (
            <span class="basis-full text-xs font-semibold text-amber-900">
              {t("admin.purchases.creditNoteLapsed", { date: t.date(lapsed.lastDay) })}
            </span>
          )}
        </div>
      </Cell>
    </tr>
  );
}

/**
 * A row action that works without JavaScript: a GET form opening the page again with its confirmation (`fields`:
 * `refund` or `decline` with the purchase id, `payment` for an extra payment, and the list's `tab`); hydrated, `onPick`
 * opens the island's dialog instead.
 */
function PickForm({ fields, busy, onPick, children }: {
  fields: Record<string, string>;
  busy: boolean;
  onPick: () => void;
  children: ComponentChildren;
}) {
  return (
    <form method="get" action={`/admin/purchases#${REFUND_CONFIRMATION_ID}`} class="contents">
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <button
        type="submit"
        class={SECONDARY_BUTTON}
        disabled={busy}
        onClick={(e) => {
          e.preventDefault();
          onPick();
        }}
      >
        {children}
      </button>
    </form>
  );
}
