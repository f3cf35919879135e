/**
 * Browser-safe: a refund an admin picked in the purchases list, waiting for their confirmation (docs/decisions.md,
 * Money operations, "Refunds"), as the island's dialog and the page's plain form without JavaScript
 * (`components/purchases/RefundConfirmation.tsx`) both show it.
 */
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { refundedAtGateway } from "@/lib/purchases/refund_policy.ts";

/**
 * Whether a refund that failed with HTTP `status` may still have been made at the gateway: no answer reached us (0, a
 * network failure; 502, the gateway unavailable or its answer lost; 504), or it was made and not recorded (503). The
 * confirmation then says the refund is not confirmed and that refunding again is safe (one refund per payment,
 * docs/decisions.md, Money operations, "Refunds"), never "Nothing was refunded", which only a refusal (400, 404, 409)
 * can say.
 */
export function refundUnconfirmed(status: number): boolean {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

/** The id of the page's confirmation without JavaScript, the fragment the rows' opening forms name. */
export const REFUND_CONFIRMATION_ID = "refund-confirmation";

/** A refund waiting for the admin's confirmation: of the purchase, or of one of its extra payments. */
export interface PendingRefund {
  row: AdminPurchaseRow;
  /** What is asked of the gateway: the payment less `refundedAtGateway`, in the smallest unit of `currency` (paise). */
  amount: number;
  /** What was refunded of the payment at the gateway in parts already, in the same unit (0 when nothing was). */
  refundedAtGateway: number;
  /** The payment's currency when it is not INR (an extra payment the gateway reported in another currency). */
  currency?: string;
  extraPaymentId: string | null;
  /** Declining the buyer's refund request with a note (in `reason`) rather than refunding. */
  decline?: boolean;
}

/**
 * The refund of `row` to confirm: its own payment, the extra payment `paymentId`, or with `decline` the decline of its
 * refund request; null for an extra payment it does not have (or whose amount is unknown).
 */
export function pendingRefundOf(
  row: AdminPurchaseRow,
  { paymentId = null, decline = false }: { paymentId?: string | null; decline?: boolean } = {},
): PendingRefund | null {
  if (decline) return { row, amount: row.amountPaid, refundedAtGateway: 0, extraPaymentId: null, decline: true };
  if (paymentId === null) {
    const before = row.paymentStatus === "paid" ? refundedAtGateway(row, null) : 0;
    return { row, amount: row.amountPaid - before, refundedAtGateway: before, extraPaymentId: null };
  }
  const extra = row.extraPayments.find((p) => p.paymentId === paymentId);
  if (!extra || extra.amount === null) return null;
  const before = refundedAtGateway(row, paymentId);
  return {
    row,
    amount: extra.amount - before,
    refundedAtGateway: before,
    currency: extra.currency,
    extraPaymentId: paymentId,
  };
}
