/**
 * Why a refund or a decline of a refund request did not go through, in the admin's confirmation (the island's dialog
 * and the page's plain form alike): "Nothing was refunded" for a refusal, or, when the refund may have been made at
 * the gateway all the same (`refundUnconfirmed`), that it is not confirmed and that refunding again is safe
 * (docs/decisions.md, Money operations, "Refunds").
 */
import { Notice } from "@/components/forms.tsx";
import { useT } from "@/lib/i18n/context.ts";

/** Props: whether it was a decline, whether the refund may have been made (`unconfirmed`), and the error's words. */
export function RefundFailure({ decline, unconfirmed, error }: {
  decline: boolean;
  unconfirmed: boolean;
  error: string;
}) {
  const t = useT();
  if (decline) return <Notice kind="error" title={t("admin.refund.declineFailed")}>{error}</Notice>;
  if (!unconfirmed) return <Notice kind="error" title={t("admin.refund.failed")}>{error}</Notice>;
  return (
    <Notice kind="error" title={t("admin.refund.unconfirmed")}>
      {error} {t("admin.refund.unconfirmedHint")}
    </Notice>
  );
}
