/**
 * One purchase in the admin purchase table (a row of a `STACKED_TABLE`): the buyer, date, toolkit and coupon, amount,
 * status with its refund, and the actions: refund the purchase or an extra payment not refunded yet, and the receipt.
 */
import { formatDate } from "@/lib/dates.ts";
import { formatMinorUnits } from "@/lib/money.ts";
import { Cell } from "@/components/StackedTable.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { PendingRefund } from "@/lib/browser/use_refund.ts";
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";

const LABELS: Record<AdminPurchaseRow["paymentStatus"], string> = {
  pending: "Pending",
  paid: "Paid",
  failed: "Failed",
  refunded: "Refunded",
};
const STATUS_STYLE: Record<AdminPurchaseRow["paymentStatus"], string> = {
  pending: "bg-amber-100 text-amber-900",
  paid: "bg-green-100 text-green-900",
  failed: "bg-slate-200 text-slate-900",
  refunded: "bg-red-100 text-red-900",
};

/** The row of purchase `p`; `onRefund` picks one of its payments to refund, unless `busy`. */
export function PurchaseRow({ p, busy, onRefund }: {
  p: AdminPurchaseRow;
  busy: boolean;
  onRefund: (refund: PendingRefund) => void;
}) {
  return (
    <tr>
      <th scope="row" class="px-4 py-3 font-medium text-slate-900">
        {p.user?.name ?? "Deleted user"}
        {p.user && <span class="block font-normal text-slate-700">{p.user.email}</span>}
      </th>
      <Cell label="Date" class="whitespace-nowrap">{formatDate(p.createdAt)}</Cell>
      <Cell label="Toolkit">
        {p.toolkit?.title ?? "Removed toolkit"}
        {p.couponCode && <span class="block text-xs text-slate-700">{`Coupon ${p.couponCode}`}</span>}
      </Cell>
      <Cell label="Amount" class="whitespace-nowrap">{formatMinorUnits(p.amountPaid)}</Cell>
      <Cell label="Status">
        <span class={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[p.paymentStatus]}`}>
          {LABELS[p.paymentStatus]}
        </span>
        {p.refund && (
          <span class="block text-xs text-slate-700">
            {`${formatMinorUnits(p.refund.amount)} on ${formatDate(p.refund.at)} (${p.refund.status})`}
          </span>
        )}
      </Cell>
      <Cell>
        <div class="flex flex-wrap gap-2">
          {p.paymentStatus === "paid" && p.amountPaid > 0 && (
            <button
              type="button"
              class={SECONDARY_BUTTON}
              disabled={busy}
              onClick={() => onRefund({ row: p, amount: p.amountPaid, extraPaymentId: null })}
            >
              Refund<span class="sr-only">{` ${p.user?.name ?? "deleted user"}'s purchase`}</span>
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
                  onClick={() =>
                    onRefund({
                      row: p,
                      amount: extra.amount!,
                      currency: extra.currency,
                      extraPaymentId: extra.paymentId,
                    })}
                >
                  {`Refund extra ${formatMinorUnits(extra.amount, extra.currency)}`}
                </button>
              )
              : null
          )}
          {p.receiptUrl && (
            <a href={p.receiptUrl} class="px-1 py-1.5 text-sm text-indigo-700 underline">
              Receipt<span class="sr-only">{` ${p.receiptNumber}`}</span>
            </a>
          )}
        </div>
      </Cell>
    </tr>
  );
}
