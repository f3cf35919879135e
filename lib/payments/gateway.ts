/**
 * The payment gateway seam (`RAZORPAY_*`, docs/decisions.md, Running; purchase initiation, verification and the
 * webhook, docs/decisions.md, Toolkits and payments): what checkout and payment confirmation need from a gateway, and
 * the HMAC-SHA256 signature checks both use. `razorpay.ts` implements it with the `razorpay` SDK; the platform runs
 * without one (`null`) when the keys are unset.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";

/** An order to create at the gateway: the amount in paise (at least 100), ISO 4217 currency. */
export interface OrderRequest {
  amountPaise: number;
  currency: string;
  /** Our reference, at most 40 characters (the purchase id). */
  receipt: string;
  notes: Record<string, string>;
}

/** An order as the gateway made it; `amount` in paise. */
export interface GatewayOrder {
  id: string;
  amount: number;
  currency: string;
}

/** A payment of an order as the gateway reports it; `amount` in paise. */
export interface GatewayPayment {
  id: string;
  orderId: string;
  /** Razorpay's payment states: `authorized` needs a capture before the money is ours. */
  status: "created" | "authorized" | "captured" | "refunded" | "failed";
  amount: number;
  currency: string;
}

/** A refund the gateway accepted; `amount` in paise. */
export interface GatewayRefund {
  id: string;
  paymentId: string;
  amount: number;
  /** `pending` until the bank confirms it (the `refund.processed` event), then `processed`. */
  status: string;
}

/** A refund as the gateway lists it: `createdAt` in ms; `purchaseId` from our notes, null for one made elsewhere. */
export interface ListedRefund extends GatewayRefund {
  purchaseId: string | null;
  createdAt: number;
}

/** How many refunds the gateway lists a page at most (`refundsMade`). */
export const REFUNDS_PAGE = 100;

/** The fields Checkout.js hands the page after a successful payment. */
export interface PaymentProof {
  orderId: string;
  paymentId: string;
  signature: string;
}

/** A payment gateway. */
export interface PaymentGateway {
  /** Public key identifier for the browser's checkout. */
  readonly keyId: string;
  /**
   * @throws UpstreamError "Payment gateway unavailable" when the gateway fails, refuses or times out (a refused order
   *   is our fault, not the buyer's, and is logged as a refusal).
   */
  createOrder(request: OrderRequest): Promise<GatewayOrder>;
  /**
   * The payments made against an order (docs/decisions.md, Money operations, "Reconciliation").
   * @throws UpstreamError "Payment gateway unavailable"; UpstreamRefusalError "The gateway does not know this order".
   */
  orderPayments(orderId: string): Promise<GatewayPayment[]>;
  /**
   * One payment (docs/decisions.md, Money operations, "Refunds no event told us of").
   * @throws UpstreamError "Payment gateway unavailable"; UpstreamRefusalError "The gateway does not know this payment".
   */
  payment(paymentId: string): Promise<GatewayPayment>;
  /**
   * A page of the refunds the account made between `fromMs` and `toMs` (ms, by when each was made), newest first:
   * `REFUNDS_PAGE` of them at most, after the first `skip` (docs/decisions.md, Money operations, "Refunds no event
   * told us of").
   * @throws UpstreamError "Payment gateway unavailable"; UpstreamRefusalError when the gateway refuses the listing.
   */
  refundsMade(query: { fromMs: number; toMs: number; skip: number }): Promise<ListedRefund[]>;
  /**
   * Captures an authorized payment of `amountPaise` in `currency`; returns it as captured.
   * @throws UpstreamError "Payment gateway unavailable"; UpstreamRefusalError when the gateway refuses the capture
   *   ("The gateway does not know this payment", or "The gateway refused the capture: <its reason>").
   */
  capture(paymentId: string, amountPaise: number, currency: string): Promise<GatewayPayment>;
  /**
   * Refunds `amountPaise` of a captured payment of purchase `purchaseId` (kept in the refund's notes, where
   * `refund.processed` finds it). Sent with the `X-Refund-Idempotency` header `refund_<paymentId>` (one full refund
   * per payment), so a retry never refunds twice; the gateway answers a retry with the same refund only when its body
   * is the same, so the body holds nothing a retry may change (no admin's reason: docs/decisions.md, Money
   * operations, "Refunds").
   * @throws UpstreamError "Payment gateway unavailable"; UpstreamRefusalError when the gateway refuses the refund
   *   ("The gateway does not know this payment", or "The gateway refused the refund: <its reason>").
   */
  refund(paymentId: string, amountPaise: number, purchaseId: string): Promise<GatewayRefund>;
  /** True when `proof.signature` is HMAC-SHA256(`orderId|paymentId`, key secret), compared in constant time. */
  verifyPaymentSignature(proof: PaymentProof): boolean;
  /** True when `signature` is HMAC-SHA256(raw body, webhook secret); false without a webhook secret. */
  verifyWebhookSignature(rawBody: string, signature: string | null): boolean;
}

/** HMAC-SHA256 of `message` with `secret`, lower-case hex. */
export function hmacSha256Hex(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** True when `given` equals the HMAC-SHA256 hex of `message`; constant time over the digest length. */
export function signatureMatches(secret: string, message: string, given: string | null | undefined): boolean {
  if (typeof given !== "string" || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = Buffer.from(hmacSha256Hex(secret, message), "hex");
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), "hex"));
}
