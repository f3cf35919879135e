/**
 * The refund policy's figures, who may ask (docs/decisions.md, Money operations, "Refund requests") and what was
 * refunded of a payment at the gateway already ("Refunds made at the gateway"): pure, no KV, so the pages' components
 * read them too.
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

/** What `refundedAtGateway` reads of a purchase: its extra payments' ids and the partial refunds made at the gateway. */
export interface GatewayRefunded {
  paymentStatus: string;
  extraPayments?: { paymentId: string | null; refund?: unknown }[];
  gatewayPartialRefunds?: { paymentId: string; amount: number }[];
}

/**
 * How much of a payment of `purchase` was refunded at the gateway in parts (its dashboard, a dispute), in that
 * payment's smallest unit (paise for INR): of the extra payment `extraPaymentId`, or with null of the purchase's own
 * payment (every partial refund not of an extra payment). 0 when none was.
 */
export function refundedAtGateway(purchase: GatewayRefunded, extraPaymentId: string | null): number {
  const extras = new Set((purchase.extraPayments ?? []).map((p) => p.paymentId));
  return (purchase.gatewayPartialRefunds ?? [])
    .filter((p) => extraPaymentId === null ? !extras.has(p.paymentId) : p.paymentId === extraPaymentId)
    .reduce((sum, p) => sum + p.amount, 0);
}

/**
 * Whether a payment of `purchase` was refunded in part at the gateway and not in full since: its own payment while it
 * is paid, or an extra payment not refunded.
 */
export function isPartlyRefunded(purchase: GatewayRefunded): boolean {
  if (purchase.paymentStatus === "paid" && refundedAtGateway(purchase, null) > 0) return true;
  return (purchase.extraPayments ?? []).some((p) =>
    p.paymentId !== null && !p.refund && refundedAtGateway(purchase, p.paymentId) > 0
  );
}

/**
 * What a refund itself returned, in its payment's smallest unit (paise for INR): its `amount` counts the parts
 * refunded at the gateway before it (`refundedBefore`), which were money returned earlier.
 */
export function returnedBy(refund: { amount: number; refundedBefore?: number }): number {
  return refund.amount - (refund.refundedBefore ?? 0);
}
