/**
 * The buyer's confirmation of a payment (docs/decisions.md, Toolkits and payments): `POST /api/toolkits/{id}/verify`
 * with the signature Checkout.js hands the page, settled like any report of the payment (`settlement.ts`).
 */
import { ConflictError, ForbiddenError, InvalidInputError, NotConfiguredError, NotFoundError } from "@/lib/errors.ts";
import type { PaymentProof } from "@/lib/payments/gateway.ts";
import { canConfirmPurchase } from "@/lib/toolkits/policy.ts";
import type { User } from "@/lib/users/users.ts";
import { PAYMENTS_NOT_CONFIGURED } from "./checkout.ts";
import type { PaymentContext } from "./payment_context.ts";
import { getPurchaseEntry, type Purchase, purchaseIdByOrder, type PurchaseRecord, purchaseView } from "./purchases.ts";
import { applyOutcome } from "./settlement.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** The message of a verify call whose signature does not match. */
export const INVALID_PAYMENT_SIGNATURE = REFUSALS.invalidPaymentSignature;
/** The message of a verified payment whose coupon use could no longer be had (it is owed back). */
export const COUPON_UNAVAILABLE = REFUSALS.couponUnavailable;
/** The message of a payment the gateway reported with another amount than its order's (it is owed back). */
export const AMOUNT_MISMATCH = REFUSALS.amountMismatch;
/** The message of a payment of a toolkit the buyer owns already through another purchase (it is owed back). */
export const ALREADY_OWNED = REFUSALS.alreadyOwned;

/**
 * Confirms a payment from Checkout.js for the caller's own purchase of `toolkitId`.
 * @throws NotConfiguredError without gateway keys; InvalidInputError "Invalid payment signature"
 *   (nothing changed); NotFoundError "Purchase not found" for an order of no purchase of this
 *   toolkit; ForbiddenError for another user's order; ConflictError `COUPON_UNAVAILABLE`, `AMOUNT_MISMATCH` or
 *   `ALREADY_OWNED` for a payment that granted nothing and is owed back.
 */
export async function verifyPayment(
  ctx: PaymentContext,
  { user, toolkitId, proof }: { user: User; toolkitId: string; proof: PaymentProof },
): Promise<Purchase> {
  const { kv, payments } = ctx;
  if (!payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  if (!payments.verifyPaymentSignature(proof)) throw new InvalidInputError(INVALID_PAYMENT_SIGNATURE);
  const purchaseId = await purchaseIdByOrder(kv, proof.orderId);
  const found = purchaseId ? (await getPurchaseEntry(kv, purchaseId)).value : null;
  if (!found || found.toolkitId !== toolkitId) throw new NotFoundError(REFUSALS.purchaseNotFound);
  if (!canConfirmPurchase(user, found)) throw new ForbiddenError(REFUSALS.notYourPurchase);
  const record = (await applyOutcome(ctx, {
    purchaseId: found.id,
    outcome: "paid",
    source: "verify",
    payment: proof,
  })) as PurchaseRecord;
  const owed = record.extraPayments?.find((p) => p.orderId === proof.orderId)?.reason;
  if (owed === "coupon unavailable") throw new ConflictError(COUPON_UNAVAILABLE);
  if (owed === "amount mismatch") throw new ConflictError(AMOUNT_MISMATCH);
  if (owed === "already owned") throw new ConflictError(ALREADY_OWNED);
  return purchaseView(record);
}
