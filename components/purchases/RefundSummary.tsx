/**
 * What an admin confirms of a refund or of declining a refund request (docs/decisions.md, Money operations,
 * "Refunds"; "Refund requests"): the amount, who gets it back, what was refunded of the payment at the gateway already
 * and what the refund does, or whose request is declined, and the refund policy's facts. The island's dialog
 * (`RefundDialog`) and the page's plain form (`RefundConfirmation`) both say it.
 */
import type { ComponentChildren } from "preact";
import type { PendingRefund } from "@/lib/browser/pending_refund.ts";
import { useT } from "@/lib/i18n/context.ts";
import { RefundPolicyFacts } from "./RefundPolicyFacts.tsx";

/** The sentence and facts of `pending`. */
export function RefundSummary({ pending }: { pending: PendingRefund }) {
  const t = useT();
  const amount = t.minorUnits(pending.amount, pending.currency);
  const words = {
    b: (chunks: ComponentChildren) => <strong>{chunks}</strong>,
    amount,
    name: pending.row.user?.name ?? t("admin.refund.deletedUser"),
    toolkit: pending.row.toolkit?.title ?? t("admin.refund.removedToolkit"),
  };
  return (
    <>
      {pending.decline ? t.rich("admin.refund.declineText", words) : (
        <>
          {t.rich("admin.refund.text", words)} {pending.refundedAtGateway > 0 && (
            <>
              {t("admin.refund.partly", {
                refunded: t.minorUnits(pending.refundedAtGateway, pending.currency),
                paid: t.minorUnits(pending.amount + pending.refundedAtGateway, pending.currency),
                amount,
              })}
              {" "}
            </>
          )}
          {t(pending.extraPaymentId ? "admin.refund.extra" : "admin.refund.whole")}
        </>
      )}
      {!pending.extraPaymentId && <RefundPolicyFacts p={pending.row} />}
    </>
  );
}
