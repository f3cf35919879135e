/**
 * What was refunded of a purchase, as its buyer reads it on "My toolkits" and on the receipt (docs/decisions.md, Money
 * operations, "Refunds made at the gateway"): the refund and its date; refunded in parts, each part with its date and
 * the sum; refunded in part so far, the parts and how much of the payment they came to. On a tax invoice, also when
 * GST's time limit left a refund or a part without its credit note: until when credit notes were allowed, worded true
 * of a whole refund and of parts whose earlier ones have theirs. Amounts in paise.
 */
import type { BuyerRefund, RefundedPart } from "@/lib/purchases/purchases.ts";
import { returnedBy } from "@/lib/purchases/refund_policy.ts";
import { toRupees } from "@/lib/money.ts";
import { useT } from "@/lib/i18n/context.ts";

/**
 * The lines of `refund` and `parts` of a payment of `paid` paise, or nothing when none was refunded; `taxInvoice`
 * adds the line of a lapsed credit note.
 */
export function BuyerRefundLine({ refund, parts, paid, taxInvoice = false, class: className }: {
  refund: Pick<BuyerRefund, "amount" | "at" | "refundedBefore" | "creditNoteLapsed"> | null;
  parts: RefundedPart[];
  paid: number;
  taxInvoice?: boolean;
  class?: string;
}) {
  const t = useT();
  const money = (paise: number) => t.rupees(toRupees(paise));
  if (!refund && parts.length === 0) return null;
  const listed = [...parts, ...refund ? [{ amount: returnedBy(refund), at: refund.at }] : []]
    .map((part) => t("toolkits.refund.part", { amount: money(part.amount), date: t.date(part.at) }))
    .join(", ");
  const total = refund ? refund.amount : parts.reduce((sum, part) => sum + part.amount, 0);
  const lapsed = [refund, ...parts].find((one) => one?.creditNoteLapsed)?.creditNoteLapsed;
  return (
    <>
      <p class={className}>
        {!refund
          ? t("toolkits.refund.partly", { parts: listed, total: money(total), paid: money(paid) })
          : parts.length > 0
          ? t("toolkits.refund.parts", { parts: listed, total: money(total) })
          : t("toolkits.refund.whole", { amount: money(refund.amount), date: t.date(refund.at) })}
      </p>
      {taxInvoice && lapsed && (
        <p class={className}>{t("toolkits.refund.creditNoteLapsed", { date: t.date(lapsed.lastDay) })}</p>
      )}
    </>
  );
}
