/**
 * The confirmation of a refund or of declining a refund request without JavaScript (docs/decisions.md, Islands, "Forms
 * work without JavaScript"): a row's "Refund" or "Decline request" opens `/admin/purchases` again with this box, which
 * says what the refund does (`RefundSummary`) and holds a plain form posting to the page (`intent`, the purchase and
 * payment ids, the optional reason or the required note, the list's tab), with what went wrong when a post was refused, and a
 * "Cancel" link back. Hydrated, the row opens the island's dialog instead.
 */
import { RefundFailure } from "./RefundFailure.tsx";
import { type PendingRefund, REFUND_CONFIRMATION_ID } from "@/lib/browser/pending_refund.ts";
import { CONTROL, INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { FieldError } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";
import { REFUND_TEXT_MAX } from "@/lib/purchases/refund_policy.ts";
import { RefundSummary } from "./RefundSummary.tsx";

/**
 * Props: what to confirm, the text typed before a refused post and why it was refused (`error`, the refusal, with
 * `unconfirmed` when the refund may have been made all the same: `refundUnconfirmed`; `fieldError`, what is wrong with
 * the text, shown at its field), and the list's tab (kept by the post's answer and by Cancel).
 */
export function RefundConfirmation({ pending, text = "", error, fieldError, unconfirmed = false, tab }: {
  pending: PendingRefund;
  text?: string;
  error?: string;
  fieldError?: string;
  unconfirmed?: boolean;
  tab: string;
}) {
  const t = useT();
  const id = REFUND_CONFIRMATION_ID;
  const decline = pending.decline === true;
  const field = `${id}-text`;
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      class="scroll-mt-20 rounded-lg border border-red-300 bg-red-50 p-4 text-slate-900"
    >
      <h2 id={`${id}-title`} class="font-semibold">
        {t(decline ? "admin.refund.declineTitle" : "admin.refund.title")}
      </h2>
      <p class="mt-1 text-slate-800">
        <RefundSummary pending={pending} />
      </p>
      <form method="post" action="/admin/purchases" noValidate class="mt-3 space-y-2">
        <input type="hidden" name="intent" value={decline ? "decline" : "refund"} />
        {tab !== "all" && <input type="hidden" name="tab" value={tab} />}
        <input type="hidden" name="purchaseId" value={pending.row.id} />
        {pending.extraPaymentId && <input type="hidden" name="paymentId" value={pending.extraPaymentId} />}
        <label for={field} class="block text-sm font-medium text-slate-800">
          {t(decline ? "admin.refund.note" : "admin.refund.reason")}
        </label>
        <textarea
          id={field}
          name={decline ? "note" : "reason"}
          maxLength={REFUND_TEXT_MAX}
          rows={2}
          required={decline}
          aria-invalid={fieldError ? "true" : undefined}
          aria-describedby={fieldError ? `${field}-hint ${field}-error` : `${field}-hint`}
          class={fieldError ? `${CONTROL} border-red-700` : INPUT}
        >
          {text}
        </textarea>
        <p id={`${field}-hint`} class="text-xs text-slate-700">
          {t(decline ? "admin.refund.noteHint" : "admin.refund.reasonHint")}
        </p>
        <FieldError id={field} error={fieldError} />
        {error && <RefundFailure decline={decline} unconfirmed={unconfirmed} error={error} />}
        <div class="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            class="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800"
          >
            {decline
              ? t("admin.refund.declineConfirm")
              : t("admin.refund.confirm", { amount: t.minorUnits(pending.amount, pending.currency) })}
          </button>
          <a href={tab === "all" ? "/admin/purchases" : `/admin/purchases?tab=${tab}`} class={SECONDARY_BUTTON}>
            {t("common.cancel")}
          </a>
        </div>
      </form>
    </section>
  );
}
