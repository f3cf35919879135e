/**
 * A purchase's refund request as its buyer sees it (docs/decisions.md, Money operations, "Refund requests"), on the
 * receipt and in "My toolkits": "Refund asked on …" and what happens next, the admin's note once declined, or, while
 * the purchase can be refunded and nothing was asked, "Ask for a refund": a plain form (an optional reason) posting to
 * `/purchases/{id}/refund-request`, which works without JavaScript and comes back to the page (`back`). Leaving the page
 * with a reason typed and not sent asks first (`data-keep-typed`; docs/decisions.md, Islands, "Leaving a typed form").
 */
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import type { RefundRequest } from "@/lib/purchases/purchases.ts";
import { REFUND_TEXT_MAX } from "@/lib/purchases/refund_policy.ts";
import { useT } from "@/lib/i18n/context.ts";

/** Props: the purchase's id, its request (null when none), whether it can be asked, and the page it is on. */
export function RefundRequestPanel({ purchaseId, request, askable, back }: {
  purchaseId: string;
  request: RefundRequest | null;
  askable: boolean;
  back: "mine" | "receipt";
}) {
  const t = useT();
  if (request?.status === "open") {
    return (
      <p class="text-sm text-slate-800">
        <strong class="font-semibold">{t("toolkits.refundRequest.asked", { date: t.date(request.at) })}</strong>{" "}
        {t("toolkits.refundRequest.next")}
      </p>
    );
  }
  if (request?.status === "declined") {
    return (
      <p class="text-sm text-slate-800">
        <strong class="font-semibold">
          {t("toolkits.refundRequest.declined", { date: t.date(request.answeredAt ?? request.at) })}
        </strong>{" "}
        {request.note}
      </p>
    );
  }
  if (!askable || request) return null;
  const field = `refund-reason-${purchaseId}`;
  return (
    <details class="text-sm print:hidden">
      <summary class="cursor-pointer font-medium text-indigo-700 underline">{t("toolkits.refundRequest.ask")}</summary>
      <form method="post" action={`/purchases/${purchaseId}/refund-request`} data-keep-typed class="mt-2 space-y-2">
        <p class="text-slate-700">
          {t.rich("toolkits.refundRequest.policy", {
            link: (chunks) => <a href="/refunds" class="text-indigo-700 underline">{chunks}</a>,
          })}
        </p>
        <input type="hidden" name="back" value={back} />
        <label for={field} class="block font-medium text-slate-800">{t("toolkits.refundRequest.reason")}</label>
        <textarea id={field} name="reason" maxLength={REFUND_TEXT_MAX} rows={2} class={INPUT} />
        <button type="submit" class={SECONDARY_BUTTON}>{t("toolkits.refundRequest.send")}</button>
      </form>
    </details>
  );
}
