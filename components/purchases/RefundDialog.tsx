/**
 * The confirmation of an admin's refund (`useRefund`): the amount, who gets it back and what the refund does, an
 * optional reason, and the refusal when nothing was refunded.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice } from "@/components/forms.tsx";
import { formatMinorUnits } from "@/lib/money.ts";
import { INPUT } from "@/lib/browser/styles.ts";
import type { Refund } from "@/lib/browser/use_refund.ts";

/** The dialog of `refund`, open while a payment is picked. */
export function RefundDialog({ refund }: { refund: Refund }) {
  const { pending } = refund;
  const amount = pending ? formatMinorUnits(pending.amount, pending.currency) : "";
  return (
    <ConfirmDialog
      open={pending !== null}
      title="Refund this payment?"
      confirmLabel={pending ? `Refund ${amount}` : ""}
      busyLabel="Refunding…"
      busy={refund.saving}
      tone="danger"
      notice={
        <>
          <label for="refund-reason" class="block text-sm font-medium text-slate-800">Reason (optional)</label>
          <textarea
            id="refund-reason"
            maxLength={500}
            rows={2}
            value={refund.reason}
            onInput={(e) => refund.setReason(e.currentTarget.value)}
            class={INPUT}
          />
          {refund.error && <Notice kind="error" title="Nothing was refunded">{refund.error}</Notice>}
        </>
      }
      onConfirm={refund.confirm}
      onCancel={refund.cancel}
    >
      {pending && (
        <>
          Refund <strong>{amount}</strong> to <strong>{pending.row.user?.name ?? "a deleted user"}</strong> for{" "}
          <strong>{pending.row.toolkit?.title ?? "a removed toolkit"}</strong>? {pending.extraPaymentId
            ? "This extra payment goes back; the purchase stays paid."
            : "The buyer loses access to the toolkit and any coupon use is given back."}
        </>
      )}
    </ConfirmDialog>
  );
}
