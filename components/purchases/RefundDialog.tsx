/**
 * The confirmation of an admin's refund (`useRefund`): the amount, who gets it back, what was refunded of the payment
 * at the gateway already and what the refund does, the
 * buyer's request and the refund policy's facts (`RefundPolicyFacts`), an optional reason the buyer is told, and the
 * refusal when nothing was refunded; or of declining the buyer's request, with the note the buyer is told.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice } from "@/components/forms.tsx";
import { INPUT } from "@/lib/browser/styles.ts";
import type { Refund } from "@/lib/browser/use_refund.ts";
import { useT } from "@/lib/i18n/context.ts";
import type { ComponentChildren } from "preact";
import { RefundPolicyFacts } from "./RefundPolicyFacts.tsx";

/** The dialog of `refund`, open while a payment is picked. */
export function RefundDialog({ refund }: { refund: Refund }) {
  const { pending } = refund;
  const t = useT();
  const amount = pending ? t.minorUnits(pending.amount, pending.currency) : "";
  const decline = pending?.decline === true;
  const words = {
    b: (chunks: ComponentChildren) => <strong>{chunks}</strong>,
    amount,
    name: pending?.row.user?.name ?? t("admin.refund.deletedUser"),
    toolkit: pending?.row.toolkit?.title ?? t("admin.refund.removedToolkit"),
  };
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t(decline ? "admin.refund.declineTitle" : "admin.refund.title")}
      confirmLabel={decline ? t("admin.refund.declineConfirm") : pending ? t("admin.refund.confirm", { amount }) : ""}
      busyLabel={t(decline ? "admin.refund.declineBusy" : "admin.refund.busy")}
      busy={refund.saving}
      tone="danger"
      notice={
        <>
          <label for="refund-reason" class="block text-sm font-medium text-slate-800">
            {t(decline ? "admin.refund.note" : "admin.refund.reason")}
          </label>
          <textarea
            id="refund-reason"
            maxLength={500}
            rows={2}
            required={decline}
            aria-describedby="refund-reason-hint"
            value={refund.reason}
            onInput={(e) => refund.setReason(e.currentTarget.value)}
            class={INPUT}
          />
          <p id="refund-reason-hint" class="text-xs text-slate-700">
            {t(decline ? "admin.refund.noteHint" : "admin.refund.reasonHint")}
          </p>
          {refund.error && (
            <Notice kind="error" title={t(decline ? "admin.refund.declineFailed" : "admin.refund.failed")}>
              {refund.error}
            </Notice>
          )}
        </>
      }
      onConfirm={refund.confirm}
      onCancel={refund.cancel}
    >
      {pending && (
        <>
          {decline ? t.rich("admin.refund.declineText", words) : (
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
      )}
    </ConfirmDialog>
  );
}
