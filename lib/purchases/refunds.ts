/**
 * Refunds (docs/decisions.md, Money operations: refunds; docs/api.md, Money operations).
 *
 * An admin refunds a paid purchase in full: the gateway is asked first (with one idempotency key per payment, so
 * a retry never refunds twice), and only once it accepted does one atomic write, checked against the purchase as
 * read, mark the purchase `refunded` with the refund, give up the toolkit (the owned marker), give the coupon use
 * back (its slots freed), revoke the buyer's certificate of the toolkit, notify the buyer (`purchase_refunded`
 * and an e-mail through the outbox) and move the dashboard's counters. A
 * gateway failure changes nothing (502). A payment kept as extra (money due back) is refunded the same way and the
 * purchase stays as it is. `refund.processed` from the gateway marks a refund processed, once.
 */
import { revokeCertificateOps } from "@/lib/certificates/certificates.ts";
import { heldSlots, releaseOps } from "@/lib/coupons/reservations.ts";
import { InvalidInputError, NotConfiguredError, NotFoundError, UpstreamError } from "@/lib/errors.ts";
import { GATEWAY_UNAVAILABLE } from "@/lib/payments/razorpay.ts";
import { getUser, type User } from "@/lib/users/users.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import type { PaymentContext } from "./confirmation.ts";
import type { PaymentGateway } from "@/lib/payments/gateway.ts";
import { refundMail } from "./mails.ts";
import { formatRupees, toRupees } from "@/lib/money.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { PAYMENTS_NOT_CONFIGURED } from "./checkout.ts";
import {
  checkoutGuards,
  getPurchaseEntry,
  hasBuyer,
  type PurchaseRecord,
  putPurchaseOps,
  type RefundRecord,
  reservationsOf,
  writePurchaseOps,
} from "./purchases.ts";

/** The refusal of a purchase that is not paid (pending, failed, or refunded already). */
export const ONLY_PAID_REFUNDABLE = "Only a paid purchase can be refunded";
/** The refusal of a free purchase. */
export const FREE_NOT_REFUNDABLE = "A free purchase has no payment to refund";
/** The refusal of an extra payment refunded already. */
export const ALREADY_REFUNDED = "This payment has already been refunded";

const MAX_ATTEMPTS = 50;

/** The id of the captured payment of `orderId`, asked of the gateway (a purchase paid by an event without one). */
async function capturedPayment(payments: PaymentGateway, orderId: string): Promise<string> {
  const captured = (await payments.orderPayments(orderId)).find((p) => p.status === "captured");
  if (!captured) throw new UpstreamError(GATEWAY_UNAVAILABLE);
  return captured.id;
}

/**
 * Refunds purchase `purchaseId` in full (see the module docstring) on behalf of `admin`; returns the purchase as
 * it ends up.
 * @throws NotFoundError "Purchase not found"; InvalidInputError `ONLY_PAID_REFUNDABLE` or `FREE_NOT_REFUNDABLE`;
 *   NotConfiguredError without gateway keys; UpstreamError "Payment gateway unavailable" (nothing changed).
 */
export async function refundPurchase(
  ctx: PaymentContext,
  admin: User,
  purchaseId: string,
  reason: string | null,
): Promise<PurchaseRecord> {
  const { kv, payments, appUrl } = ctx;
  const found = (await getPurchaseEntry(kv, purchaseId)).value;
  if (!found) throw new NotFoundError("Purchase not found");
  if (found.paymentStatus !== "paid") throw new InvalidInputError(ONLY_PAID_REFUNDABLE);
  if (found.amountPaid === 0 || !found.gatewayOrderId) throw new InvalidInputError(FREE_NOT_REFUNDABLE);
  if (!payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  const paymentId = found.paymentId ?? await capturedPayment(payments, found.gatewayOrderId);
  const made = await payments.refund(paymentId, found.amountPaid, { reason: reason ?? "", purchaseId });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await getPurchaseEntry(kv, purchaseId);
    const current = entry.value!;
    if (current.paymentStatus !== "paid") throw new InvalidInputError(ONLY_PAID_REFUNDABLE);
    const at = new Date().toISOString();
    const refund = refundRecord(made, { paymentId, reason, by: admin.id, at });
    const record: PurchaseRecord = {
      ...current,
      paymentStatus: "refunded",
      paymentId,
      refund,
      history: [...current.history, { status: "refunded", at, source: `refund by ${admin.id}` }],
      updatedAt: at,
    };
    const op = kv.atomic().check(entry);
    const mails: string[] = [];
    if (hasBuyer(current) && hasBuyer(record)) {
      const guards = await checkoutGuards(kv, current.userId, current.toolkitId);
      op.check(guards.pending).check(guards.owned);
      const held = await Promise.all(
        reservationsOf(current).map((ref) => heldSlots(kv, ref, record.userId, record.id)),
      );
      releaseOps(op, held.flat());
      await revokeCertificateOps(kv, op, current.userId, current.toolkitId, at);
      const [toolkit, buyer] = await Promise.all([
        getToolkitRecord(kv, current.toolkitId),
        getUser(kv, current.userId),
      ]);
      addNotification(op, {
        userId: current.userId,
        type: "purchase_refunded",
        title: "Refund issued",
        body: `${formatRupees(toRupees(made.amount))} for ${
          toolkit?.title ?? "your toolkit"
        } is on its way back to you. Banks take 5–7 working days.`,
        url: "/toolkits/mine",
      }, new Date(at));
      if (buyer) {
        const mail = refundMail({
          to: buyer.email,
          name: buyer.name,
          toolkitTitle: toolkit?.title ?? current.receipt?.toolkitTitle ?? "your toolkit",
          amountPaise: made.amount,
          url: `${appUrl}/toolkits/mine`,
        });
        mails.push(queueMailOps(op, { ...mail, userId: buyer.id }, Date.parse(at)));
      }
      writePurchaseOps(op, current, record, guards);
    } else {
      putPurchaseOps(op, current, record);
    }
    if ((await op.commit()).ok) {
      for (const id of mails) ctx.deliverSoon?.(id);
      return record;
    }
  }
  throw new Error("Refund write lost too many races");
}

/**
 * Refunds the extra payment `paymentId` of purchase `purchaseId` (money received that granted nothing); the
 * purchase keeps its state. Returns the purchase as it ends up.
 * @throws NotFoundError "Purchase not found" or "Payment not found"; InvalidInputError `ALREADY_REFUNDED`;
 *   NotConfiguredError without gateway keys; UpstreamError "Payment gateway unavailable" (nothing changed).
 */
export async function refundExtraPayment(
  ctx: PaymentContext,
  admin: User,
  purchaseId: string,
  paymentId: string,
  reason: string | null,
): Promise<PurchaseRecord> {
  const { kv, payments } = ctx;
  const found = (await getPurchaseEntry(kv, purchaseId)).value;
  if (!found) throw new NotFoundError("Purchase not found");
  const extra = found.extraPayments?.find((p) => p.paymentId === paymentId);
  if (!extra || extra.amount === null) throw new NotFoundError("Payment not found");
  if (extra.refund) throw new InvalidInputError(ALREADY_REFUNDED);
  if (!payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  const made = await payments.refund(paymentId, extra.amount, { reason: reason ?? "", purchaseId });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await getPurchaseEntry(kv, purchaseId);
    const current = entry.value!;
    const at = new Date().toISOString();
    if (current.extraPayments?.find((p) => p.paymentId === paymentId)?.refund) {
      throw new InvalidInputError(ALREADY_REFUNDED);
    }
    const refund = refundRecord(made, { paymentId, reason, by: admin.id, at });
    const record: PurchaseRecord = {
      ...current,
      extraPayments: current.extraPayments!.map((p) => p.paymentId === paymentId ? { ...p, refund } : p),
      updatedAt: at,
    };
    const op = kv.atomic().check(entry);
    putPurchaseOps(op, current, record);
    if ((await op.commit()).ok) return record;
  }
  throw new Error("Refund write lost too many races");
}

/**
 * `record` with refund `refundId` marked processed at `at` (the purchase's own refund or an extra payment's),
 * or null when it has no such refund or it is processed already.
 */
export function withRefundProcessed(record: PurchaseRecord, refundId: string, at: string): PurchaseRecord | null {
  if (record.refund?.id === refundId) {
    if (record.refund.status === "processed") return null;
    return { ...record, refund: { ...record.refund, status: "processed", processedAt: at }, updatedAt: at };
  }
  const extra = record.extraPayments?.find((p) => p.refund?.id === refundId);
  if (!extra?.refund || extra.refund.status === "processed") return null;
  return {
    ...record,
    extraPayments: record.extraPayments!.map((p) =>
      p === extra ? { ...p, refund: { ...extra.refund!, status: "processed" as const, processedAt: at } } : p
    ),
    updatedAt: at,
  };
}

/** The refund kept on a purchase or extra payment for the gateway's answer `made` (amounts in paise). */
function refundRecord(
  made: { id: string; amount: number; status: string },
  { paymentId, reason, by, at }: { paymentId: string; reason: RefundRecord["reason"]; by: string; at: string },
): RefundRecord {
  const processed = made.status === "processed";
  return {
    id: made.id,
    paymentId,
    amount: made.amount,
    reason,
    by,
    at,
    status: processed ? "processed" : "pending",
    processedAt: processed ? at : null,
  };
}
