/**
 * The confirmation of an admin's refund (`useRefund`), hydrated: what the refund does (`RefundSummary`), an optional
 * reason the buyer is told, and the refusal when nothing was refunded; or of declining the buyer's request, with the
 * note the buyer is told (left empty, told at its field before anything is sent). The purchases island loads it on
 * demand, when a payment is first picked; without JavaScript the page's `RefundConfirmation` asks instead. Leaving the
 * page with a reason or note typed and not sent asks first (`data-unsaved`).
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { RefundFailure } from "./RefundFailure.tsx";
import { CONTROL, INPUT } from "@/lib/browser/styles.ts";
import { FieldError } from "@/components/forms.tsx";
import type { PendingRefund } from "@/lib/browser/pending_refund.ts";
import type { AdminList } from "@/lib/browser/use_admin_list.ts";
import { useRefund } from "@/lib/browser/use_refund.ts";
import type { AdminPurchasePage, AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { useT } from "@/lib/i18n/context.ts";
import { RefundSummary } from "./RefundSummary.tsx";

/** The dialog of the refund `pending` of a row of `list`, open while it is not null; `close` ends it. */
export function RefundDialog({ list, pending, close }: {
  list: AdminList<AdminPurchaseRow, AdminPurchasePage>;
  pending: PendingRefund | null;
  close: () => void;
}) {
  const refund = useRefund(list, pending, close);
  const t = useT();
  const amount = pending ? t.minorUnits(pending.amount, pending.currency) : "";
  const decline = pending?.decline === true;
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t(decline ? "admin.refund.declineTitle" : "admin.refund.title")}
      confirmLabel={decline ? t("admin.refund.declineConfirm") : pending ? t("admin.refund.confirm", { amount }) : ""}
      busyLabel={t(decline ? "admin.refund.declineBusy" : "admin.refund.busy")}
      busy={refund.saving}
      tone="danger"
      // The reason's form only says what it holds: a reason or note typed and not sent asks before the page is left
      // (docs/decisions.md, Islands, "Leaving a typed form"); the dialog's button sends it, it is never submitted.
      notice={
        <form
          noValidate
          onSubmit={(e) => e.preventDefault()}
          data-unsaved={refund.reason.trim() !== "" || undefined}
          aria-busy={refund.saving ? "true" : undefined}
          class="space-y-1"
        >
          <label for="refund-reason" class="block text-sm font-medium text-slate-800">
            {t(decline ? "admin.refund.note" : "admin.refund.reason")}
          </label>
          <textarea
            id="refund-reason"
            maxLength={500}
            rows={2}
            required={decline}
            aria-invalid={refund.fieldError ? "true" : undefined}
            aria-describedby={refund.fieldError ? "refund-reason-hint refund-reason-error" : "refund-reason-hint"}
            value={refund.reason}
            onInput={(e) => refund.setReason(e.currentTarget.value)}
            class={refund.fieldError ? `${CONTROL} border-red-700` : INPUT}
          />
          <p id="refund-reason-hint" class="text-xs text-slate-700">
            {t(decline ? "admin.refund.noteHint" : "admin.refund.reasonHint")}
          </p>
          <FieldError id="refund-reason" error={refund.fieldError} />
          {refund.error && <RefundFailure decline={decline} unconfirmed={refund.unconfirmed} error={refund.error} />}
        </form>
      }
      onConfirm={refund.confirm}
      onCancel={refund.cancel}
    >
      {pending && <RefundSummary pending={pending} />}
    </ConfirmDialog>
  );
}
