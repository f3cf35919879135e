/**
 * Payment confirmation (CONTRACT.md §6): `POST /api/toolkits/{id}/verify` with the signature
 * Checkout.js hands the page, and `POST /api/webhooks/razorpay` with the gateway's events.
 *
 * - Paid (`payment.captured`, `order.paid`, a good verify): the purchase becomes `paid`, grants
 *   the toolkit, and its coupon reservation becomes a use kept for good (taken again when it had
 *   lapsed or been released). A purchase already paid stays as it is; a failed one whose order is
 *   paid later becomes paid.
 * - An order paid applies its own terms (amount and coupon): when checkout was started again
 *   meanwhile, paying the earlier order counts the earlier order's coupon use, not the later one's.
 * - A second payment of a purchase already paid (an earlier order of a replaced or free checkout
 *   paid too) grants nothing more but is kept in `extraPayments`, once per order, as money due back.
 * - Failed (`payment.failed`): a pending purchase becomes `failed` and its reservation is released,
 *   only when the failed order is its current one (a failure of a replaced order changes nothing).
 * - Each webhook event (by `X-Razorpay-Event-Id`) is applied once: the event's marker is written
 *   in the same atomic operation as the state change, checked to be absent, so concurrent
 *   deliveries of one event make one change.
 *
 * Keys (owned by this module only):
 * - `["payment_events", eventId]` → `{event, orderId, receivedAt}` (kept 30 days)
 */
import { Buffer } from "node:buffer";
import { getCouponRecord } from "@/lib/coupons/coupons.ts";
import { confirmOps, heldSlots, planReservation, releaseOps, reserveOps } from "@/lib/coupons/reservations.ts";
import { ForbiddenError, InvalidInputError, NotConfiguredError, NotFoundError } from "@/lib/errors.ts";
import type { PaymentGateway, PaymentProof } from "@/lib/payments/gateway.ts";
import { canConfirmPurchase } from "@/lib/toolkits/policy.ts";
import type { User } from "@/lib/users/users.ts";
import { PAYMENTS_NOT_CONFIGURED } from "./checkout.ts";
import {
  checkoutGuards,
  getPurchaseEntry,
  type Purchase,
  purchaseIdByOrder,
  type PurchaseRecord,
  purchaseView,
  writePurchaseOps,
} from "./purchases.ts";

/** The message of a verify call whose signature does not match. */
export const INVALID_PAYMENT_SIGNATURE = "Invalid payment signature";
/** The message of a webhook delivery whose signature does not match. */
export const INVALID_WEBHOOK_SIGNATURE = "Invalid webhook signature";
/** How long a webhook event id is remembered, in ms. */
const EVENT_MEMORY_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_ATTEMPTS = 20;

const eventKey = (id: string) => ["payment_events", id];

type Outcome = "paid" | "failed";

/**
 * For a payment confirmed after its coupon reservation lapsed or was released: takes the
 * coupon's slots again for good (the ones still held count as its own), so the paid use counts
 * toward both limits. When the coupon is gone or its limits are reached meanwhile, the payment
 * still stands and nothing is taken. Returns where the use now sits, or null.
 */
async function retakeUse(kv: Deno.Kv, op: Deno.AtomicOperation, purchase: PurchaseRecord) {
  // `purchase.couponId` is the coupon of the order being paid.
  const coupon = purchase.couponId ? await getCouponRecord(kv, purchase.couponId) : null;
  if (!coupon) return null;
  const plan = await planReservation(kv, coupon, purchase.userId, purchase.id);
  if (!plan.ok) return null;
  return reserveOps(
    op,
    plan,
    { purchaseId: purchase.id, userId: purchase.userId, toolkitId: purchase.toolkitId },
    true,
  );
}

/**
 * The payment of another order than the one that paid `current` (a gateway order is paid at most
 * once), when `current` is already paid and has not recorded that order yet; else null. Its
 * amount is the order's as the purchase offered it.
 */
function extraPayment(
  current: PurchaseRecord,
  outcome: Outcome,
  payment: { orderId: string; paymentId: string | null },
): NonNullable<PurchaseRecord["extraPayments"]>[number] | null {
  const { orderId, paymentId } = payment;
  if (outcome !== "paid" || current.paymentStatus !== "paid" || orderId === current.gatewayOrderId) return null;
  if (current.extraPayments?.some((p) => p.orderId === orderId)) return null;
  const amount = Object.hasOwn(current.orders, orderId) ? current.orders[orderId].amountPaid : null;
  return { orderId, paymentId, amount, at: new Date().toISOString() };
}

/**
 * Applies `outcome` to a purchase once, with `event` (its marker entry, read absent) written in
 * the same atomic operation when given. Returns the purchase as it ends up; false when the event
 * marker appeared meanwhile (another delivery applied it).
 */
async function applyOutcome(
  kv: Deno.Kv,
  purchaseId: string,
  outcome: Outcome,
  source: string,
  payment: { orderId: string; paymentId: string | null },
  event?: { entry: Deno.KvEntryMaybe<unknown>; value: unknown },
): Promise<PurchaseRecord | false> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (event && attempt > 0 && (await kv.get(event.entry.key)).value !== null) return false;
    const entry = await getPurchaseEntry(kv, purchaseId);
    if (!entry.value) throw new NotFoundError("Purchase not found");
    const current = entry.value;
    const op = kv.atomic().check(entry);
    if (event) op.check(event.entry).set(event.entry.key, event.value, { expireIn: EVENT_MEMORY_MS });
    const replacedOrderFailed = outcome === "failed" && payment.orderId !== current.gatewayOrderId;
    const unchanged = current.paymentStatus === "paid" || replacedOrderFailed ||
      (outcome === "failed" && current.paymentStatus === "failed");
    if (unchanged) {
      const extra = extraPayment(current, outcome, payment);
      if (extra) {
        const record: PurchaseRecord = { ...current, extraPayments: [...current.extraPayments ?? [], extra] };
        if ((await op.set(entry.key, record).commit()).ok) return record;
        continue;
      }
      if (!event || (await op.commit()).ok) return current;
      continue;
    }
    const guards = await checkoutGuards(kv, current.userId, current.toolkitId);
    op.check(guards.pending).check(guards.owned);
    const held = current.reservation ? await heldSlots(kv, current.reservation, current.userId, current.id) : [];
    const terms = outcome === "paid" ? current.orders[payment.orderId] : undefined;
    const couponId = terms ? terms.couponId : current.couponId;
    let reservation = current.reservation;
    if (outcome === "failed") releaseOps(op, held);
    else if (couponId === current.couponId && (held.length === 2 || !couponId)) confirmOps(op, held);
    else {
      if (couponId !== current.couponId) {
        releaseOps(op, held);
        reservation = null;
      }
      if (couponId) reservation = await retakeUse(kv, op, { ...current, couponId }) ?? reservation;
    }
    const now = new Date().toISOString();
    const record: PurchaseRecord = {
      ...current,
      reservation,
      couponId,
      paymentStatus: outcome,
      paymentId: payment.paymentId ?? current.paymentId,
      ...(terms ? { gatewayOrderId: payment.orderId, amountPaid: terms.amountPaid } : {}),
      history: [...current.history, { status: outcome, at: now, source }],
      updatedAt: now,
    };
    writePurchaseOps(op, record, guards);
    if ((await op.commit()).ok) return record;
  }
  throw new Error("Payment confirmation lost too many races");
}

/**
 * Confirms a payment from Checkout.js for the caller's own purchase of `toolkitId`.
 * @throws NotConfiguredError without gateway keys; InvalidInputError "Invalid payment signature"
 *   (nothing changed); NotFoundError "Purchase not found" for an order of no purchase of this
 *   toolkit; ForbiddenError for another user's order.
 */
export async function verifyPayment(
  kv: Deno.Kv,
  payments: PaymentGateway | null,
  user: User,
  toolkitId: string,
  proof: PaymentProof,
): Promise<Purchase> {
  if (!payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  if (!payments.verifyPaymentSignature(proof)) throw new InvalidInputError(INVALID_PAYMENT_SIGNATURE);
  const purchaseId = await purchaseIdByOrder(kv, proof.orderId);
  const found = purchaseId ? (await getPurchaseEntry(kv, purchaseId)).value : null;
  if (!found || found.toolkitId !== toolkitId) throw new NotFoundError("Purchase not found");
  if (!canConfirmPurchase(user, found)) throw new ForbiddenError("This is not your purchase");
  return purchaseView((await applyOutcome(kv, found.id, "paid", "verify", proof)) as PurchaseRecord);
}

interface WebhookBody {
  event?: unknown;
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown } };
    order?: { entity?: { id?: unknown } };
  };
}

const OUTCOMES: Record<string, Outcome> = {
  "payment.captured": "paid",
  "order.paid": "paid",
  "payment.failed": "failed",
};

/**
 * Handles one webhook delivery: checks the signature over the raw body before reading it, then
 * applies the event once per event id (`X-Razorpay-Event-Id`; lacking it, the body's SHA-256).
 * Events of other types and orders of no purchase are acknowledged and change nothing.
 * @throws InvalidInputError "Invalid webhook signature" (also without a webhook secret), or
 *   "Invalid JSON body" for a signed body that is not JSON.
 */
export async function handleWebhook(
  kv: Deno.Kv,
  payments: PaymentGateway | null,
  rawBody: string,
  signature: string | null,
  eventIdHeader: string | null,
): Promise<void> {
  if (!payments?.verifyWebhookSignature(rawBody, signature)) throw new InvalidInputError(INVALID_WEBHOOK_SIGNATURE);
  let body: WebhookBody;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new InvalidInputError("Invalid JSON body");
  }
  const eventId = eventIdHeader?.slice(0, 200) ||
    Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rawBody))).toString("hex");
  const type = typeof body.event === "string" ? body.event : "";
  const payment = body.payload?.payment?.entity;
  const orderId = [payment?.order_id, body.payload?.order?.entity?.id].find((v) => typeof v === "string") as
    | string
    | undefined;
  const paymentId = typeof payment?.id === "string" ? payment.id : null;
  const marker = { event: type, orderId: orderId ?? null, receivedAt: new Date().toISOString() };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get(eventKey(eventId));
    if (entry.value !== null) return;
    const outcome = OUTCOMES[type];
    const purchaseId = outcome && orderId ? await purchaseIdByOrder(kv, orderId) : null;
    if (!outcome || !purchaseId) {
      const result = await kv.atomic().check(entry).set(entry.key, marker, { expireIn: EVENT_MEMORY_MS }).commit();
      if (result.ok) return;
      continue;
    }
    if (
      await applyOutcome(kv, purchaseId, outcome, `webhook ${type}`, { orderId: orderId!, paymentId }, {
        entry,
        value: marker,
      }) !== false
    ) {
      return;
    }
  }
}
