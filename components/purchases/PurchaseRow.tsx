/**
 * One purchase in the admin purchase table (a row of a `STACKED_TABLE`): the buyer, date, toolkit and coupon, amount,
 * status with its refund, what was refunded in part at the gateway ("Partly refunded ₹X"), each extra payment (money due back) with why it is owed and its refund, the buyer's refund
 * request and the refund policy's facts (`RefundPolicyFacts`), and the actions: refund the purchase or an extra payment
 * not refunded yet, decline an open refund request, and the receipt (docs/decisions.md, Money operations).
 */
import { Cell } from "@/components/StackedTable.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { PendingRefund } from "@/lib/browser/use_refund.ts";
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

/** The row of purchase `p`; `onRefund` picks one of its payments to refund, unless `busy`. */
export function PurchaseRow({ p, busy, onRefund }: {
  p: AdminPurchaseRow;
  busy: boolean;
  onRefund: (refund: PendingRefund) => void;
}) {
  const t = useT();
  const partly = p.paymentStatus === "paid" ? refundedAtGateway(p, null) : 0;
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
            <button
              type="button"
              class={SECONDARY_BUTTON}
              disabled={busy}
              onClick={() =>
                onRefund({ row: p, amount: p.amountPaid - partly, refundedAtGateway: partly, extraPaymentId: null })}
            >
              {t.rich("admin.purchases.refund", {
                who: () => (
                  <span class="sr-only">
                    {t("admin.purchases.refundWho", { name: p.user?.name ?? t("admin.purchases.deletedUserLower") })}
                  </span>
                ),
              })}
            </button>
          )}
          {p.refundRequest?.status === "open" && (
            <button
              type="button"
              class={SECONDARY_BUTTON}
              disabled={busy}
              onClick={() =>
                onRefund({ row: p, amount: p.amountPaid, refundedAtGateway: 0, extraPaymentId: null, decline: true })}
            >
              {t.rich("admin.purchases.decline", {
                who: () => (
                  <span class="sr-only">
                    {t("admin.purchases.refundWho", { name: p.user?.name ?? t("admin.purchases.deletedUserLower") })}
                  </span>
                ),
              })}
            </button>
          )}
          {p.extraPayments.map((extra) =>
            extra.paymentId && extra.amount && !extra.refund
              ? (
                <button
                  key={extra.paymentId}
                  type="button"
                  class={SECONDARY_BUTTON}
                  disabled={busy}
                  onClick={() => {
                    const before = refundedAtGateway(p, extra.paymentId);
                    onRefund({
                      row: p,
                      amount: extra.amount! - before,
                      refundedAtGateway: before,
                      currency: extra.currency,
                      extraPaymentId: extra.paymentId,
                    });
                  }}
                >
                  {t("admin.purchases.refundExtra", { amount: t.minorUnits(extra.amount, extra.currency) })}
                </button>
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
        </div>
      </Cell>
    </tr>
  );
}
