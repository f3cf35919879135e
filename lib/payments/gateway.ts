/**
 * The payment gateway seam (docs/decisions.md, Running `RAZORPAY_*`, Toolkits and payments purchase initiation, verification and
 * the webhook): what checkout and payment confirmation need from a gateway, and the HMAC-SHA256
 * signature checks both use. `razorpay.ts` implements it with the `razorpay` SDK; the platform
 * runs without one (`null`) when the keys are unset.
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
  /** @throws UpstreamError "Payment gateway unavailable" when the gateway fails, refuses or times out. */
  createOrder(request: OrderRequest): Promise<GatewayOrder>;
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
