/**
 * The confirmation of an admin's refund (`useRefund`): the amount, who gets it back and what the refund does, an
 * optional reason, and the refusal when nothing was refunded.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { Notice } from "@/components/forms.tsx";
import { INPUT } from "@/lib/browser/styles.ts";
import type { Refund } from "@/lib/browser/use_refund.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The dialog of `refund`, open while a payment is picked. */
export function RefundDialog({ refund }: { refund: Refund }) {
  const { pending } = refund;
  const t = useT();
  const amount = pending ? t.minorUnits(pending.amount, pending.currency) : "";
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t("admin.refund.title")}
      confirmLabel={pending ? t("admin.refund.confirm", { amount }) : ""}
      busyLabel={t("admin.refund.busy")}
      busy={refund.saving}
      tone="danger"
      notice={
        <>
          <label for="refund-reason" class="block text-sm font-medium text-slate-800">{t("admin.refund.reason")}</label>
          <textarea
            id="refund-reason"
            maxLength={500}
            rows={2}
            value={refund.reason}
            onInput={(e) => refund.setReason(e.currentTarget.value)}
            class={INPUT}
          />
          {refund.error && <Notice kind="error" title={t("admin.refund.failed")}>{refund.error}</Notice>}
        </>
      }
      onConfirm={refund.confirm}
      onCancel={refund.cancel}
    >
      {pending && (
        <>
          {t.rich("admin.refund.text", {
            b: (chunks) => <strong>{chunks}</strong>,
            amount,
            name: pending.row.user?.name ?? t("admin.refund.deletedUser"),
            toolkit: pending.row.toolkit?.title ?? t("admin.refund.removedToolkit"),
          })} {t(pending.extraPaymentId ? "admin.refund.extra" : "admin.refund.whole")}
        </>
      )}
    </ConfirmDialog>
  );
}
