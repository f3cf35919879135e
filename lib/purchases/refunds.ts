/**
 * Refunds (docs/decisions.md, Money operations, "Refunds"; docs/api.md, Money operations).
 *
 * An admin refunds a paid purchase in full (`refundPayment`): the gateway is asked first for what is left of the
 * payment after refunds made in parts at the gateway (with one idempotency key per payment, so a retry never refunds
 * twice), and only once it accepted does one atomic write, checked against the
 * purchase as read, mark the purchase `refunded` with the refund, give up the toolkit (the owned marker), give the
 * coupon use back (its slots freed), revoke the buyer's certificate of the toolkit (the toolkit and certificate stay
 * when another paid purchase of it by the same buyer, from older data, grants it: `otherPaidPurchase`), notify the buyer
 * (`purchase_refunded` and an e-mail through the outbox, with the admin's reason) and move the dashboard's counters,
 * and answer the buyer's open refund request (`refund_requests.ts`). A gateway failure
 * (502) or refusal (409, saying what the gateway said) changes nothing. A payment kept as extra (money due back) is
 * refunded the same way, notification and e-mail included, and the purchase stays as it is. `refund.processed` from
 * the gateway marks a refund processed, once, also when it comes before the refund's own write. A refund made at the
 * gateway instead (its dashboard, a dispute or a chargeback) is applied as an admin's refund is when the gateway
 * reports it (`reportedRefundOps`; docs/decisions.md, Money operations, "Refunds made at the gateway").
 *
 * Keys (owned by this module only):
 * - `["refunds_processed_early", refundId]` → when the gateway said it was processed, until the refund is written
 * - `["refunds_unrecorded", refundId]` → `UnrecordedRefund`: the same refund as the gateway reported it, which
 *   reconciliation applies when no write recorded it within `UNRECORDED_AFTER_MS` (`applyUnrecordedRefunds`)
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { revokeCertificateOps } from "@/lib/certificates/certificates.ts";
import { heldSlots, releaseOps } from "@/lib/coupons/reservations.ts";
import { BusyError, InvalidInputError, NotConfiguredError, NotFoundError, UpstreamRefusalError } from "@/lib/errors.ts";
import type { User } from "@/lib/users/users.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { nowOf, type PaymentContext } from "./payment_context.ts";
import type { PaymentGateway } from "@/lib/payments/gateway.ts";
import { refundMail } from "./mails.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { formatMinorUnits } from "@/lib/money.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { CURRENCY, PAYMENTS_NOT_CONFIGURED } from "./checkout.ts";
import {
  type BuyerPurchase,
  checkoutGuards,
  creditedOf,
  creditNotePath,
  type GatewayPartialRefund,
  getPurchaseEntry,
  hasBuyer,
  otherPaidPurchase,
  type PurchaseRecord,
  putPurchaseOps,
  REFUND_SOURCE,
  type RefundRecord,
  reservationsOf,
  writePurchaseOps,
} from "./purchases.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { refundedAtGateway, returnedBy } from "./refund_policy.ts";
import { creditNoteInTime, creditNoteLastDay, issueCreditNoteOps, isTaxInvoice } from "./receipts.ts";
import { buyerToTell, withRequestRefunded } from "./refund_requests.ts";

/** The refusal of a purchase that is not paid (pending, failed, or refunded already). */
export const ONLY_PAID_REFUNDABLE = REFUSALS.onlyPaidRefundable;
/** The refusal of a free purchase. */
export const FREE_NOT_REFUNDABLE = REFUSALS.freeNotRefundable;
/** The refusal of an extra payment refunded already. */
export const ALREADY_REFUNDED = REFUSALS.alreadyRefunded;

const MAX_ATTEMPTS = 50;
/** How long a `refund.processed` that came before its refund's write is kept for that write, in ms. */
const EARLY_MEMORY_MS = 30 * 24 * 60 * 60 * 1000;

const earlyKey = (refundId: string): Deno.KvKey => ["refunds_processed_early", refundId];
const unrecordedKey = (refundId: string): Deno.KvKey => ["refunds_unrecorded", refundId];

/**
 * How long (ms) after the gateway reported one of our refunds processed a refund no write recorded is applied by
 * reconciliation: the admin's refund call lost its answer (or its write lost its races) and nobody refunded again.
 */
export const UNRECORDED_AFTER_MS = 60 * 60 * 1000;

/** One of our refunds the gateway reported processed before any write recorded it: its payment and amount (paise). */
interface UnrecordedRefund {
  purchaseId: string;
  paymentId: string;
  amount: number;
  at: string;
}

/** The refusal of a purchase whose order the gateway lists no captured payment for. */
export const NO_CAPTURED_PAYMENT = REFUSALS.noCapturedPayment;

/**
 * The id of the captured payment of `orderId`, asked of the gateway (a purchase paid by an event without one).
 * @throws UpstreamRefusalError `NO_CAPTURED_PAYMENT` or "The gateway does not know this order"; UpstreamError.
 */
async function capturedPayment(payments: PaymentGateway, orderId: string): Promise<string> {
  const captured = (await payments.orderPayments(orderId)).find((p) => p.status === "captured");
  if (!captured) throw new UpstreamRefusalError(NO_CAPTURED_PAYMENT);
  return captured.id;
}

/**
 * What an admin refunds: the purchase's own payment, or with `paymentId` one of its extra payments (money received
 * that granted nothing).
 */
export interface RefundTarget {
  purchaseId: string;
  paymentId?: string;
}

/**
 * The payment `target` names on `record` as it can be refunded: its id (null when the purchase was paid by an event
 * that carried none: the gateway is asked), amount in the smallest unit of its currency (paise for INR) and currency.
 * @throws InvalidInputError `ONLY_PAID_REFUNDABLE`, `FREE_NOT_REFUNDABLE` or `ALREADY_REFUNDED`; NotFoundError
 *   "Payment not found" for no such extra payment.
 */
function refundable(
  record: PurchaseRecord,
  target: RefundTarget,
): { paymentId: string | null; amount: number; currency: string } {
  if (target.paymentId === undefined) {
    if (record.paymentStatus !== "paid") throw new InvalidInputError(ONLY_PAID_REFUNDABLE);
    if (record.amountPaid === 0 || !record.gatewayOrderId) throw new InvalidInputError(FREE_NOT_REFUNDABLE);
    return { paymentId: record.paymentId, amount: record.amountPaid, currency: CURRENCY };
  }
  const extra = record.extraPayments?.find((p) => p.paymentId === target.paymentId);
  if (!extra || extra.amount === null) throw new NotFoundError(REFUSALS.paymentNotFound);
  if (extra.refund) throw new InvalidInputError(ALREADY_REFUNDED);
  return { paymentId: target.paymentId, amount: extra.amount, currency: extra.currency ?? CURRENCY };
}

/** `current` with `refund` made of `target`: the purchase `refunded`, or the extra payment carrying its refund. */
function withRefund(current: PurchaseRecord, target: RefundTarget, refund: RefundRecord): PurchaseRecord {
  if (target.paymentId !== undefined) {
    return {
      ...current,
      extraPayments: current.extraPayments!.map((p) => p.paymentId === target.paymentId ? { ...p, refund } : p),
      updatedAt: refund.at,
    };
  }
  return {
    ...withRequestRefunded(current, refund.at),
    paymentStatus: "refunded",
    paymentId: refund.paymentId,
    refund,
    history: [...current.history, { status: "refunded", at: refund.at, source: `${REFUND_SOURCE}${refund.by}` }],
    updatedAt: refund.at,
  };
}

/**
 * Adds to `op` what a refund of the purchase's own payment takes from its buyer: its coupon slots, and the toolkit
 * (the owned marker, through `writePurchaseOps`, which also writes `record`) with its certificate, unless another paid
 * purchase of the toolkit by the same buyer exists (`otherPaidPurchase`, checked in `op`): that one then grants the
 * toolkit, and the certificate stays. Returns whether the buyer's access ended.
 */
async function giveUpOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { current, record }: { current: BuyerPurchase; record: BuyerPurchase },
): Promise<boolean> {
  const guards = await checkoutGuards(kv, current.userId, current.toolkitId);
  op.check(guards.pending).check(guards.owned);
  const held = await Promise.all(
    reservationsOf(current).map((ref) => heldSlots(kv, { ref, userId: record.userId, purchaseId: record.id })),
  );
  releaseOps(op, held.flat());
  const heir = await otherPaidPurchase(kv, current);
  if (heir) op.check(heir);
  else {
    await revokeCertificateOps(kv, op, { userId: current.userId, toolkitId: current.toolkitId, at: record.updatedAt });
  }
  writePurchaseOps(op, { before: current, record, guards, heir: heir?.value.id ?? null });
  return heir === null;
}

/**
 * Adds to `op` the buyer's `purchase_refunded` notification and refund e-mail (through the outbox) about `refund`:
 * what this refund returned (`returnedBy`), and in the e-mail the payment's total refunded when parts were refunded
 * before; `accessEnded` when the refund took the toolkit away; `afterDecline` when it answers a refund request the buyer
 * was told was declined (the e-mail says it replaces that answer); the refund's credit note, when it has one, with the
 * receipt page that shows it. Returns the outbox ids of the e-mails queued.
 */
async function tellBuyerOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { purchase, refund, accessEnded, currency, afterDecline }: {
    purchase: BuyerPurchase;
    refund: RefundRecord;
    accessEnded: boolean;
    afterDecline: boolean;
    /** The currency of the payment refunded (its amount is in that currency's smallest unit). */
    currency: string;
  },
): Promise<string[]> {
  const { title, buyer } = await buyerToTell(ctx.kv, purchase);
  const amount = formatMinorUnits(returnedBy(refund), currency);
  addNotification(op, {
    userId: purchase.userId,
    type: "purchase_refunded",
    message: {
      title: { key: "notifications.text.refunded.title" },
      body: title
        ? refund.reason
          ? { key: "notifications.text.refunded.bodyReason", values: { amount, toolkit: title, reason: refund.reason } }
          : { key: "notifications.text.refunded.body", values: { amount, toolkit: title } }
        : { key: "notifications.text.refunded.bodyUntitled", values: { amount } },
    },
    url: "/toolkits/mine",
  }, new Date(refund.at));
  if (!buyer) return [];
  const t = translatorOfPerson(buyer);
  const mail = refundMail({
    to: buyer.email,
    name: buyer.name,
    toolkitTitle: title ?? t("mail.receipt.item"),
    amountPaise: returnedBy(refund),
    totalPaise: refund.amount,
    t,
    currency,
    url: `${ctx.appUrl}/toolkits/mine`,
    accessEnded,
    reason: refund.reason,
    afterDecline,
    creditNote: refund.creditNote &&
      {
        number: refund.creditNote.number,
        url: `${ctx.appUrl}${creditNotePath(purchase.id, refund.creditNote.number)}`,
      },
  });
  return [queueMailOps(op, { ...mail, userId: buyer.id, retryable: true }, Date.parse(refund.at))];
}

/**
 * Adds to `op` the refund e-mail (through the outbox, so it goes once with the write that keeps `part`) telling the
 * buyer of `purchase` of `part`, a part of a payment refunded at the gateway (docs/decisions.md, Money operations,
 * "Refunds made at the gateway"): what it returned, what was refunded of the payment in all (`refunded`, paise) when
 * parts came before, that the rest of the purchase's `own` payment and the access stay (or, for an extra payment, that
 * it granted nothing), and the part's credit note when it issued one, linking its page. Returns the outbox ids queued:
 * none once the buyer deleted their account.
 */
async function tellPartOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { purchase, part, refunded, own, currency }: {
    purchase: PurchaseRecord;
    part: GatewayPartialRefund;
    refunded: number;
    own: boolean;
    currency: string;
  },
): Promise<string[]> {
  if (!hasBuyer(purchase)) return [];
  const { title, buyer } = await buyerToTell(ctx.kv, purchase);
  if (!buyer) return [];
  const t = translatorOfPerson(buyer);
  const note = part.creditNote;
  const mail = refundMail({
    to: buyer.email,
    name: buyer.name,
    toolkitTitle: title ?? t("mail.receipt.item"),
    amountPaise: part.amount,
    totalPaise: refunded,
    t,
    currency,
    url: `${ctx.appUrl}/toolkits/mine`,
    accessEnded: false,
    part: own,
    creditNote: note && { number: note.number, url: `${ctx.appUrl}${creditNotePath(purchase.id, note.number)}` },
  });
  return [queueMailOps(op, { ...mail, userId: buyer.id, retryable: true }, Date.parse(part.at))];
}

/**
 * Refunds `target` in full on behalf of `by` (see the module docstring) with the admin's `reason`: the gateway is
 * asked for the payment's amount less what was refunded of it at the gateway in parts (`refundedAtGateway`), and the
 * refund kept counts both; `audit` adds the admin log's entry to the refund's write, so the two are kept together.
 * Returns the purchase as it ends up.
 * @throws NotFoundError "Purchase not found" or "Payment not found"; InvalidInputError `ONLY_PAID_REFUNDABLE`,
 *   `FREE_NOT_REFUNDABLE` or `ALREADY_REFUNDED`; NotConfiguredError without gateway keys; UpstreamError
 *   "Payment gateway unavailable" or UpstreamRefusalError (the gateway refused: an unknown payment, no captured
 *   payment, …), nothing changed either way; BusyError `REFUSALS.refundNotRecorded` (503) when the write after the
 *   gateway's refund lost `MAX_ATTEMPTS` races: the money went back but nothing is recorded, and a retry records it
 *   (the gateway answers the same refund again for the payment's idempotency key).
 */
export async function refundPayment(
  ctx: PaymentContext,
  { by, target, reason, audit }: { by: User; target: RefundTarget; reason: string | null; audit?: AuditHook },
): Promise<PurchaseRecord> {
  const { kv, payments } = ctx;
  const found = (await getPurchaseEntry(kv, target.purchaseId)).value;
  if (!found) throw new NotFoundError(REFUSALS.purchaseNotFound);
  const due = refundable(found, target);
  if (!payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  const paymentId = due.paymentId ?? await capturedPayment(payments, found.gatewayOrderId!);
  // Refunds made in parts at the gateway before are not asked for again: the gateway refuses more than what is left.
  const before = refundedAtGateway(found, target.paymentId ?? null);
  // The request's body is the same on every retry (the admin's reason stays ours), so a retry after a lost answer
  // gets the refund the gateway made rather than a refusal of another body under the same idempotency key.
  const made = await payments.refund(paymentId, due.amount - before, found.id);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await getPurchaseEntry(kv, found.id);
    const current = entry.value!;
    refundable(current, target);
    const early = await kv.get<string>(earlyKey(made.id));
    const at = nowOf(ctx);
    const op = kv.atomic().check(entry, early).delete(unrecordedKey(made.id));
    if (early.value !== null) op.delete(early.key);
    const refund = await withCreditNote(ctx, op, {
      current,
      target,
      refund: refundRecord(made, { paymentId, reason, by: by.id, at, processedAt: early.value, before }),
    });
    const record = withRefund(current, target, refund);
    const mails = await refundOps(ctx, op, { current, target, refund, currency: due.currency });
    audit?.(op, found.id);
    if ((await op.commit()).ok) {
      for (const id of mails) ctx.deliverSoon?.(id);
      return record;
    }
  }
  throw new BusyError(REFUSALS.refundNotRecorded);
}

/**
 * The credit note for `amount` (paise) that a refund at `at` of `target` on `current` (as read) issues, its number
 * taken in `op` (`issueCreditNoteOps`), after the invoice's credit notes kept on `current`: when it refunds the
 * purchase's own payment, for more than 0, and the purchase's receipt is a tax invoice (`isTaxInvoice`); past GST's
 * time limit for that invoice (`creditNoteInTime`), none but why (`creditNoteLapsed`); else nothing
 * (docs/decisions.md, Money operations, "Credit notes"; docs/decisions.md, Money operations, "Time limit of credit
 * notes").
 */
async function creditNoteOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { current, target, amount, at }: {
    current: PurchaseRecord;
    target: { paymentId?: string };
    amount: number;
    at: string;
  },
): Promise<Pick<RefundRecord, "creditNote" | "creditNoteLapsed">> {
  const receipt = current.receipt;
  if (target.paymentId !== undefined || !receipt || !isTaxInvoice(receipt, ctx.seller) || amount <= 0) return {};
  if (!creditNoteInTime(receipt.issuedAt, at)) {
    return { creditNoteLapsed: { lastDay: creditNoteLastDay(receipt.issuedAt) } };
  }
  return { creditNote: await issueCreditNoteOps(ctx.kv, op, { at, amount, creditedBefore: creditedOf(current) }) };
}

/**
 * `refund` of `target` on `current` (as read) with the credit note its write issues (`creditNoteOps`) for what the
 * invoice's credit notes do not credit yet of all that was refunded of the payment: this refund's part, and parts
 * refunded at the gateway before that have none (kept from before they had their own).
 */
async function withCreditNote(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { current, target, refund }: { current: PurchaseRecord; target: RefundTarget; refund: RefundRecord },
): Promise<RefundRecord> {
  const amount = refund.amount - creditedOf(current);
  return { ...refund, ...await creditNoteOps(ctx, op, { current, target, amount, at: refund.at }) };
}

/**
 * Adds to `op` the refund `refund` of `target` on `current` (as read; the caller checks its entry): the record with the
 * refund, and for a purchase whose buyer still has their account, what the refund takes from them (`giveUpOps`, for
 * the purchase's own payment) and the telling of it (`tellBuyerOps`); `currency` is the refunded payment's. Returns
 * the outbox ids of the e-mails queued.
 */
async function refundOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { current, target, refund, currency }: {
    current: PurchaseRecord;
    target: RefundTarget;
    refund: RefundRecord;
    currency: string;
  },
): Promise<string[]> {
  const record = withRefund(current, target, refund);
  if (!hasBuyer(current) || !hasBuyer(record)) {
    putPurchaseOps(op, current, record);
    return [];
  }
  let accessEnded = false;
  if (target.paymentId === undefined) accessEnded = await giveUpOps(ctx.kv, op, { current, record });
  else putPurchaseOps(op, current, record);
  const afterDecline = target.paymentId === undefined && current.refundRequest?.status === "declined";
  return await tellBuyerOps(ctx, op, { purchase: record, refund, accessEnded, currency, afterDecline });
}

/** Who made a refund at the gateway (`RefundRecord.by`): no admin of ours. */
const GATEWAY_REFUNDER = "gateway";

/** A refund the gateway reported (`refund.processed`): its id, its payment's, and its amount in that payment's unit. */
export interface ReportedRefund {
  id: string;
  paymentId: string;
  amount: number;
}

/**
 * What a reported refund came to on its purchase: `known` (one of ours, marked processed), `applied` (made at the
 * gateway, applied as an admin's refund), `partial` (made at the gateway, with the earlier partial ones for less than
 * its payment: kept on the purchase, access unchanged),
 * or `unmatched` (no payment of the purchase that it could refund: nothing changed).
 */
export type ReportedRefundOutcome = "known" | "applied" | "partial" | "unmatched";

/**
 * Adds to `op` a refund `refund` the gateway reports without our note (made in its dashboard, or by a dispute or a
 * chargeback, not by `refundPayment`) of a payment of gateway order `orderId` (null when the event named none) of
 * `purchase` as read (the caller checks its entry), at `at` (docs/decisions.md, Money operations, "Refunds made at the
 * gateway"). One of ours (its id on the purchase) is marked processed as `refundProcessedOps` does. A full refund of
 * the purchase's own payment while it is paid refunds the purchase by `GATEWAY_REFUNDER` as an admin's refund does
 * (the toolkit, the certificate and the coupon use given up, the buyer notified and e-mailed, the counters moved); one
 * of an extra payment not refunded yet is kept on it and the buyer told. A partial refund is kept on the purchase
 * (`gatewayPartialRefunds`, once per refund id, with its credit note) and the buyer e-mailed (`tellPartOps`), and it
 * changes nothing else until the payment's partial refunds come to the whole payment: the one that completes it is
 * applied as a full refund of their sum. What a partial refund means
 * (a goodwill discount, or part of a dispute) is for an admin to decide. Returns the outcome and the outbox ids of the
 * e-mails queued.
 */
async function reportedRefundOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { purchase, refund, orderId, at }: {
    purchase: PurchaseRecord;
    refund: ReportedRefund;
    orderId: string | null;
    at: string;
  },
): Promise<{ outcome: ReportedRefundOutcome; mails: string[] }> {
  const partials = purchase.gatewayPartialRefunds ?? [];
  if (partials.some((p) => p.id === refund.id)) return { outcome: "partial", mails: [] };
  const known = purchase.refund?.id === refund.id || purchase.extraPayments?.some((p) => p.refund?.id === refund.id);
  if (known) {
    refundProcessedOps(op, { purchase, refundId: refund.id, at });
    return { outcome: "known", mails: [] };
  }
  const extra = purchase.extraPayments?.find((p) => p.paymentId === refund.paymentId);
  const own = !extra && purchase.paymentStatus === "paid" &&
    (purchase.paymentId === refund.paymentId || (purchase.paymentId === null && orderId === purchase.gatewayOrderId));
  const due = own
    ? { target: {}, amount: purchase.amountPaid, currency: CURRENCY }
    : extra && !extra.refund
    ? { target: { paymentId: refund.paymentId }, amount: extra.amount, currency: extra.currency ?? CURRENCY }
    : null;
  if (!due) return { outcome: "unmatched", mails: [] };
  const refunded = refund.amount +
    partials.filter((p) => p.paymentId === refund.paymentId).reduce((sum, p) => sum + p.amount, 0);
  if (due.amount !== null && refunded < due.amount) {
    const partial: GatewayPartialRefund = {
      id: refund.id,
      paymentId: refund.paymentId,
      amount: refund.amount,
      at,
      ...await creditNoteOps(ctx, op, { current: purchase, target: due.target, amount: refund.amount, at }),
    };
    putPurchaseOps(op, purchase, { ...purchase, gatewayPartialRefunds: [...partials, partial], updatedAt: at });
    const own = due.target.paymentId === undefined;
    const mails = await tellPartOps(ctx, op, { purchase, part: partial, refunded, own, currency: due.currency });
    return { outcome: "partial", mails };
  }
  const record: RefundRecord = {
    id: refund.id,
    paymentId: refund.paymentId,
    amount: refunded,
    ...refunded > refund.amount ? { refundedBefore: refunded - refund.amount } : {},
    reason: null,
    by: GATEWAY_REFUNDER,
    at,
    status: "processed",
    processedAt: at,
  };
  const target = { purchaseId: purchase.id, ...due.target };
  const noted = await withCreditNote(ctx, op, { current: purchase, target, refund: record });
  return {
    outcome: "applied",
    mails: await refundOps(ctx, op, { current: purchase, target, refund: noted, currency: due.currency }),
  };
}

/**
 * Applies reported refund `refund` (null: the report lacked its payment or amount) to `purchase` as read (null or none:
 * no purchase of ours) at `at`, in one write with the caller's marker (the webhook's event, reconciliation's note, the
 * daily run's taken mark; docs/decisions.md, Money operations, "Refunds made at the gateway"): `reportedRefundOps`,
 * checked against the purchase as read, then `mark` adds the marker's checks and writes given the outcome (`none`:
 * nothing to apply it to) or returns false to write nothing. Starts the e-mails the write queued. Returns the outcome
 * and whether the write was made: not made when `mark` declined or the write lost a race (read again and retry).
 */
export async function commitReportedRefund(
  ctx: PaymentContext,
  { purchase, refund, orderId, at, mark }: {
    purchase: Deno.KvEntryMaybe<PurchaseRecord> | null;
    refund: ReportedRefund | null;
    orderId: string | null;
    at: string;
    mark: (op: Deno.AtomicOperation, outcome: ReportedRefundOutcome | "none") => false | void;
  },
): Promise<{ outcome: ReportedRefundOutcome | "none"; written: boolean }> {
  const op = ctx.kv.atomic();
  let result: { outcome: ReportedRefundOutcome | "none"; mails: string[] } = { outcome: "none", mails: [] };
  if (purchase?.value && refund) {
    op.check(purchase);
    result = await reportedRefundOps(ctx, op, { purchase: purchase.value, refund, orderId, at });
  }
  if (mark(op, result.outcome) === false || !(await op.commit()).ok) return { outcome: result.outcome, written: false };
  for (const id of result.mails) ctx.deliverSoon?.(id);
  return { outcome: result.outcome, written: true };
}

/**
 * `record` with refund `refundId` marked processed at `at` (the purchase's own refund or an extra payment's),
 * or null when it has no such refund or it is processed already.
 */
function withRefundProcessed(record: PurchaseRecord, refundId: string, at: string): PurchaseRecord | null {
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

/**
 * Adds to `op` the gateway's `refund.processed` of refund `refundId` of `purchase` (as read; the caller checks its
 * entry) at `at`: the refund marked processed, once. When the purchase has no such refund yet (the event came
 * before the refund's own write, which follows the gateway's answer), a note is kept instead and that write reads
 * it (`refundPayment`); with the refund as `reported` (its payment and amount), also the note reconciliation applies
 * it from when no write comes (`applyUnrecordedRefunds`).
 */
export function refundProcessedOps(
  op: Deno.AtomicOperation,
  { purchase, refundId, at, reported }: {
    purchase: PurchaseRecord;
    refundId: string;
    at: string;
    reported?: { paymentId: string; amount: number };
  },
): void {
  const processed = withRefundProcessed(purchase, refundId, at);
  if (processed) putPurchaseOps(op, purchase, processed);
  const known = purchase.refund?.id === refundId || purchase.extraPayments?.some((p) => p.refund?.id === refundId);
  if (known) return;
  op.set(earlyKey(refundId), at, { expireIn: EARLY_MEMORY_MS });
  if (reported) {
    const note: UnrecordedRefund = { purchaseId: purchase.id, ...reported, at };
    op.set(unrecordedKey(refundId), note, { expireIn: EARLY_MEMORY_MS });
  }
}

/**
 * Applies, at `now` (ms), our refunds the gateway reported processed `UNRECORDED_AFTER_MS` ago or more that no write
 * recorded (docs/decisions.md, Money operations, "Refunds"): the admin's refund call lost its answer and nobody
 * refunded again, so the buyer had their money back and kept the toolkit. Each is applied as a refund made at the
 * gateway (`reportedRefundOps`: the purchase refunded by `gateway`, the toolkit, certificate and coupon use given up,
 * the buyer told), its note deleted in the same write, checked against the note and the purchase as read (a write
 * that loses is tried again next run); one recorded meanwhile is only marked processed. Returns how many were applied.
 */
export async function applyUnrecordedRefunds(ctx: PaymentContext, now: number): Promise<number> {
  const { kv } = ctx;
  let applied = 0;
  for await (const note of kv.list<UnrecordedRefund>({ prefix: ["refunds_unrecorded"] })) {
    if (now - Date.parse(note.value.at) < UNRECORDED_AFTER_MS) continue;
    const refundId = String(note.key[1]);
    const { purchaseId, paymentId, amount } = note.value;
    const { outcome, written } = await commitReportedRefund(ctx, {
      purchase: await getPurchaseEntry(kv, purchaseId),
      refund: { id: refundId, paymentId, amount },
      orderId: null,
      at: new Date(now).toISOString(),
      mark: (op) => void op.check(note).delete(note.key),
    });
    if (written && outcome === "applied") {
      applied++;
      ctx.log?.warn("a refund the gateway made and we never recorded was applied to its purchase", {
        refundId,
        paymentId,
        purchaseId,
        amount,
      });
    }
  }
  return applied;
}

/**
 * The refund kept on a purchase or extra payment for the gateway's answer `made` (amounts in paise): its amount is all
 * that was refunded of the payment, `made`'s and the `before` refunded in parts at the gateway.
 */
function refundRecord(
  made: { id: string; amount: number; status: string },
  { paymentId, reason, by, at, processedAt, before }: {
    paymentId: string;
    reason: RefundRecord["reason"];
    by: string;
    at: string;
    /** When the gateway's `refund.processed` came before this write. */
    processedAt: string | null;
    /** What was refunded of the payment at the gateway before, in parts. */
    before: number;
  },
): RefundRecord {
  const processed = made.status === "processed" || processedAt !== null;
  return {
    id: made.id,
    paymentId,
    amount: made.amount + before,
    ...before > 0 ? { refundedBefore: before } : {},
    reason,
    by,
    at,
    status: processed ? "processed" : "pending",
    processedAt: processed ? processedAt ?? at : null,
  };
}
