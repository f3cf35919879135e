/**
 * The refund policy's figures and who may ask (docs/decisions.md, Money operations, "Refund requests"): pure, no KV,
 * so the pages' components read them too.
 */

/** The refund policy's limits (content/legal/refunds.md): asked within `days` of paying, `lessons` completed at most. */
export const REFUND_POLICY = { days: 7, lessons: 2 } as const;

/** The longest reason or note of a refund request, in characters. */
export const REFUND_TEXT_MAX = 500;

/** Whether a purchase can be refunded at the buyer's request: paid, with money paid through the gateway. */
export function isRefundable(
  purchase: { paymentStatus: string; amountPaid: number; gatewayOrderId: string | null },
): boolean {
  return purchase.paymentStatus === "paid" && purchase.amountPaid > 0 && purchase.gatewayOrderId !== null;
}
