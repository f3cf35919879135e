/**
 * What the refund policy weighs of a purchase, for the admin (docs/decisions.md, Money operations, "Refund requests"):
 * the buyer's request and reason (or that none was given), the admin's note of a decline (also one a refund replaced),
 * days since payment, lessons completed of the total, the certificate, and a warning line past the policy's limits
 * (the admin may still refund; not for a free purchase, which has no payment to refund). Shown in a purchase row and in
 * the refund dialog.
 */
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The facts of row `p` (nothing for a purchase that is not paid and has no request). */
export function RefundPolicyFacts({ p }: { p: AdminPurchaseRow }) {
  const t = useT();
  const request = p.refundRequest;
  const policy = p.policy;
  // A request's note is the decline's; on a refunded request it tells of a decline the refund replaced.
  const declinedFirst = request?.status === "refunded" && request.note !== null;
  const noteKey = declinedFirst ? "admin.purchases.request.declineNote" : "admin.purchases.request.note";
  return (
    <>
      {request && (
        <span class="block text-xs text-slate-800">
          <strong class="font-semibold">
            {declinedFirst
              ? t("admin.purchases.request.refundedAfterDecline", { date: t.date(request.at) })
              : t.dynamic(`admin.purchases.request.${request.status}`, { date: t.date(request.at) })}
          </strong>
          {request.reason ? ` “${request.reason}”` : ` ${t("admin.purchases.request.noReason")}`}
          {request.note && ` ${t(noteKey, { note: request.note })}`}
        </span>
      )}
      {policy && (
        <span class="block text-xs text-slate-700">
          {[
            policy.daysSincePaid !== null && t("admin.purchases.policy.days", { days: policy.daysSincePaid }),
            t("admin.purchases.policy.lessons", { done: policy.lessonsCompleted, count: policy.lessonsTotal }),
            policy.certificateIssued && t("admin.purchases.policy.certificate"),
          ].filter(Boolean).join(" · ")}
        </span>
      )}
      {policy?.pastPolicy && p.amountPaid > 0 && (
        <span class="block text-xs font-semibold text-red-800">{t("admin.purchases.policy.past")}</span>
      )}
    </>
  );
}
