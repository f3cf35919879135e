/**
 * Settlement of an order's payment (docs/decisions.md, Toolkits and payments): what a payment's outcome does to its
 * purchase, the same whoever reports it first: the buyer's verify (`verify.ts`), the gateway's webhook (`webhook.ts`)
 * or reconciliation (`reconcile.ts`).
 *
 * - Paid (`payment.captured`, `order.paid`, a good verify): the purchase becomes `paid`, grants
 *   the toolkit, and its coupon reservation becomes a use kept for good (taken again when it had
 *   lapsed or been released); the reservations of its other orders are released. A purchase
 *   already paid stays as it is, and so does a refunded one (its payment's proof, `order.paid` after
 *   `payment.captured`, or a late failure, coming again after the refund, grant nothing); a failed one whose order
 *   is paid later becomes paid.
 * - An order paid applies its own terms (amount and coupon): when checkout was started again
 *   meanwhile, paying the earlier order counts the earlier order's coupon use, not the later one's.
 * - A payment whose coupon use can no longer be had (its reservation lapsed or was released and
 *   the coupon's limits were reached meanwhile) grants nothing: it is kept in `extraPayments` as
 *   money due back, the purchase fails when that order was its current one, and verify answers
 *   409 (docs/decisions.md, Toolkits and payments). So paid uses never exceed `usageLimit` nor `perUserLimit`.
 * - A second payment of a purchase already paid (an earlier order of a replaced or free checkout
 *   paid too) grants nothing more but is kept in `extraPayments`, once per order, as money due back.
 * - A payment of a purchase not paid while the buyer owns the toolkit through another paid purchase (in data from
 *   before a failed checkout was taken up again, its order paid late after a new checkout was paid) grants nothing:
 *   kept in `extraPayments` with reason `already owned`, the purchase fails when that order was its current one, and
 *   verify answers 409. So one buyer never holds two paid purchases of one toolkit.
 * - Failed (`payment.failed`): a pending purchase becomes `failed` and its reservation is released,
 *   only when the failed order is its current one (a failure of a replaced order changes nothing).
 */
import { getCouponRecord } from "@/lib/coupons/coupons.ts";
import {
  confirmOps,
  heldSlots,
  planReservation,
  releaseOps,
  type ReservationRef,
  reserveOps,
} from "@/lib/coupons/reservations.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { getUser } from "@/lib/users/users.ts";
import { CURRENCY } from "./checkout.ts";
import { receiptMail } from "./mails.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { nowOf, type PaymentContext } from "./payment_context.ts";
import {
  type BuyerPurchase,
  checkoutGuards,
  getPurchaseEntry,
  hasBuyer,
  type OrderTerms,
  orderTermsOf,
  type PurchaseRecord,
  putPurchaseOps,
  receiptPath,
  reservationsOf,
  settledPaid,
  writePurchaseOps,
} from "./purchases.ts";
import { issueReceiptOps } from "./receipts.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Attempts of a confirmation's write: every confirmation at once takes the same receipt sequence. */
const MAX_ATTEMPTS = 200;

/** What an order's payment came to. */
export type Outcome = "paid" | "failed";

/** A coupon use taken for good by a payment, or why it could not be. */
type UseTaken =
  | { ok: true; reservation: ReservationRef | null; keys: Deno.KvKey[] }
  | { ok: false };

/**
 * Adds to `op` the writes that make `purchase`'s use of `couponId` a paid use kept for good: the
 * slots `ref` still holds for it, else slots taken again (the ones still held count as its own),
 * so the paid use counts toward both limits. A coupon deactivated or expired since the order was priced is honoured
 * (docs/decisions.md, Toolkits and payments, "An order priced while its coupon was valid is honoured"). A coupon
 * deleted meanwhile has no limits left to keep: nothing is taken and the payment stands. `ok: false` when the limits were reached
 * meanwhile (the reservation lapsed or was released and its slots went to other buyers).
 */
async function takeUse(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { purchase, couponId, ref }: { purchase: BuyerPurchase; couponId: string; ref: ReservationRef | null },
): Promise<UseTaken> {
  const coupon = await getCouponRecord(kv, couponId);
  if (!coupon) return { ok: true, reservation: null, keys: [] };
  const held = ref ? await heldSlots(kv, { ref, userId: purchase.userId, purchaseId: purchase.id }) : [];
  if (ref && held.length === 2) {
    confirmOps(op, held);
    return { ok: true, reservation: ref, keys: held.map((entry) => entry.key) };
  }
  const plan = await planReservation(kv, {
    coupon,
    userId: purchase.userId,
    purchaseId: purchase.id,
    held: reservationsOf(purchase),
  });
  if (!plan.ok) return { ok: false };
  const value = { purchaseId: purchase.id, userId: purchase.userId, toolkitId: purchase.toolkitId };
  return {
    ok: true,
    reservation: reserveOps(op, { plan, value, paid: true }),
    keys: [plan.slot.key, plan.userSlot.key],
  };
}

/** Adds to `op` the release of every reservation `purchase` holds except the slots at `keep`. */
async function releaseOthers(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { purchase, keep }: { purchase: BuyerPurchase; keep: Deno.KvKey[] },
) {
  const kept = new Set(keep.map((key) => JSON.stringify(key)));
  const held = (await Promise.all(
    reservationsOf(purchase).map((ref) => heldSlots(kv, { ref, userId: purchase.userId, purchaseId: purchase.id })),
  )).flat();
  releaseOps(op, held.filter((entry) => !kept.has(JSON.stringify(entry.key))));
}

/**
 * The payment of another order than the one that paid `current` (a gateway order is paid at most
 * once), when `current` is already paid (or refunded since) and has not recorded that order yet; else null. Its
 * amount is the one the gateway reported, else the order's as the purchase offered it.
 */
function extraPayment(
  current: PurchaseRecord,
  { outcome, payment, terms, at }: { outcome: Outcome; payment: OutcomeReport["payment"]; terms: Terms; at: string },
): NonNullable<PurchaseRecord["extraPayments"]>[number] | null {
  const { orderId, paymentId } = payment;
  if (outcome !== "paid" || !settledPaid(current) || orderId === current.gatewayOrderId) return null;
  if (current.extraPayments?.some((p) => p.orderId === orderId)) return null;
  const amount = payment.amount ?? terms?.amountPaid ?? null;
  return { orderId, paymentId, amount, ...currencyOf(payment), at, reason: "already paid" };
}

/**
 * `current` after `outcome` when its buyer deleted their account (docs/decisions.md, Data rights): nothing is
 * granted, so a payment is recorded as owed back (once per order); a failure changes nothing.
 */
function withoutBuyer(
  current: PurchaseRecord,
  { outcome, payment, terms, at }: {
    outcome: Outcome;
    payment: { orderId: string; paymentId: string | null };
    terms: Terms;
    at: string;
  },
): PurchaseRecord {
  if (outcome !== "paid" || current.extraPayments?.some((p) => p.orderId === payment.orderId)) return current;
  const owed = {
    orderId: payment.orderId,
    paymentId: payment.paymentId,
    amount: terms?.amountPaid ?? null,
    at,
    reason: "account deleted" as const,
  };
  return { ...current, extraPayments: [...current.extraPayments ?? [], owed], updatedAt: at };
}

/**
 * What is known of an order's payment: the purchase, its outcome, who says so (`source`, kept in the history), and
 * the payment's amount (paise) and currency when the gateway reported them (the webhook, reconciliation; not the
 * buyer's verify).
 */
export interface OutcomeReport {
  purchaseId: string;
  outcome: Outcome;
  source: string;
  payment: { orderId: string; paymentId: string | null; amount?: number; currency?: string };
}

/** The terms the purchase offered the paid order with (`orderTermsOf`); undefined for an order it never had. */
type Terms = OrderTerms | undefined;

/**
 * The payment of `payment`, owed back because the gateway reported another amount or currency than its order's
 * (docs/decisions.md, Money operations), when `current` is not paid yet; else null.
 */
function mismatchedPayment(
  current: PurchaseRecord,
  { payment, terms, at }: { payment: OutcomeReport["payment"]; terms: Terms; at: string },
): NonNullable<PurchaseRecord["extraPayments"]>[number] | null {
  if (!terms || settledPaid(current) || payment.amount === undefined) return null;
  if (payment.amount === terms.amountPaid && (payment.currency ?? CURRENCY) === CURRENCY) return null;
  const { orderId, paymentId, amount } = payment;
  return { orderId, paymentId, amount, ...currencyOf(payment), at, reason: "amount mismatch" };
}

/** The currency an extra payment keeps: the one the gateway reported when it is not INR (absent means INR). */
function currencyOf(payment: { amount?: number; currency?: string }): { currency?: string } {
  return payment.amount !== undefined && payment.currency && payment.currency !== CURRENCY
    ? { currency: payment.currency }
    : {};
}

/**
 * Applies `outcome` to a purchase once, with `event` (its marker entry, read absent, kept `expireIn` ms) written in
 * the same atomic operation when given. Returns the purchase as it ends up; false when the event marker appeared
 * meanwhile (another delivery applied it).
 * @throws NotFoundError "Purchase not found".
 */
export async function applyOutcome(
  ctx: PaymentContext,
  { purchaseId, outcome, source, payment, event }: OutcomeReport & {
    event?: { entry: Deno.KvEntryMaybe<unknown>; value: unknown; expireIn: number };
  },
): Promise<PurchaseRecord | false> {
  const { kv } = ctx;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (event && attempt > 0 && (await kv.get(event.entry.key)).value !== null) return false;
    const entry = await getPurchaseEntry(kv, purchaseId);
    if (!entry.value) throw new NotFoundError(REFUSALS.purchaseNotFound);
    const current = entry.value;
    const terms = await orderTermsOf(kv, current, payment.orderId);
    const now = nowOf(ctx);
    const op = kv.atomic().check(entry);
    if (event) op.check(event.entry).set(event.entry.key, event.value, { expireIn: event.expireIn });
    const replacedOrderFailed = outcome === "failed" && payment.orderId !== current.gatewayOrderId;
    const owedAlready = outcome === "paid" && current.extraPayments?.some((p) => p.orderId === payment.orderId);
    const unchanged = settledPaid(current) || replacedOrderFailed || owedAlready ||
      (outcome === "failed" && current.paymentStatus === "failed");
    const mismatch = outcome === "paid" && !owedAlready
      ? mismatchedPayment(current, { payment, terms, at: now })
      : null;
    if (mismatch) {
      const record: PurchaseRecord = {
        ...current,
        extraPayments: [...current.extraPayments ?? [], mismatch],
        updatedAt: now,
      };
      putPurchaseOps(op, current, record);
      if ((await op.commit()).ok) return record;
      continue;
    }
    if (unchanged) {
      const extra = extraPayment(current, { outcome, payment, terms, at: now });
      if (extra) {
        const record: PurchaseRecord = { ...current, extraPayments: [...current.extraPayments ?? [], extra] };
        putPurchaseOps(op, current, record);
        if ((await op.commit()).ok) return record;
        await backOff(attempt);
        continue;
      }
      if (!event || (await op.commit()).ok) return current;
      continue;
    }
    if (!hasBuyer(current)) {
      const record = withoutBuyer(current, { outcome, payment, terms, at: now });
      if (record !== current) putPurchaseOps(op, current, record);
      if ((await op.commit()).ok) return record;
      continue;
    }
    const guards = await checkoutGuards(kv, current.userId, current.toolkitId);
    op.check(guards.pending).check(guards.owned);
    const mails: string[] = [];
    const ownedElsewhere = guards.owned.value !== null && guards.owned.value !== current.id;
    let record = await settle(kv, op, {
      current,
      outcome,
      payment,
      terms,
      change: { source, at: now },
      ownedElsewhere,
    });
    if (record.paymentStatus === "paid") record = await paidOps(ctx, op, { record, at: now, mails });
    writePurchaseOps(op, { before: current, record, guards });
    if ((await op.commit()).ok) {
      for (const id of mails) ctx.deliverSoon?.(id);
      return record;
    }
    await backOff(attempt);
  }
  throw new Error("Payment confirmation lost too many races");
}

/** Waits a little, more after each lost race, so many confirmations at once (all taking receipt numbers) spread out. */
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * (attempt + 1))));
}

/**
 * `record`, just paid at `at`, with when it was paid and, when money was paid, its receipt: the number taken in `op`
 * (docs/decisions.md, Money operations, "Receipts"). The buyer's `purchase_paid` notification and receipt e-mail are
 * added to `op`; the e-mail's outbox id is pushed to `mails`, for a delivery try once `op` commits.
 */
async function paidOps(
  ctx: PaymentContext,
  op: Deno.AtomicOperation,
  { record, at, mails }: { record: BuyerPurchase; at: string; mails: string[] },
) {
  const { kv, appUrl } = ctx;
  const paid: BuyerPurchase = { ...record, paidAt: record.paidAt ?? at };
  const toolkit = await getToolkitRecord(kv, paid.toolkitId);
  addNotification(op, {
    userId: paid.userId,
    type: "purchase_paid",
    message: {
      title: { key: "notifications.text.paid.title" },
      body: toolkit
        ? { key: "notifications.text.paid.body", values: { toolkit: toolkit.title } }
        : { key: "notifications.text.paid.bodyUntitled" },
    },
    url: toolkit ? `/toolkits/${toolkit.id}/learn` : "/toolkits/mine",
  }, new Date(at));
  if (paid.amountPaid === 0 || paid.receipt) return paid;
  const buyer = await getUser(kv, paid.userId);
  const receipt = await issueReceiptOps(
    kv,
    op,
    {
      buyer: {
        id: paid.userId,
        name: buyer?.name ?? "",
        email: buyer?.email ?? "",
      },
      toolkitTitle: toolkit?.title ?? translatorOfPerson(buyer ?? {})("mail.receipt.item"),
      at,
      seller: ctx.seller,
      checkoutState: paid.buyerState,
    },
  );
  if (buyer) {
    const mail = receiptMail({
      to: buyer.email,
      name: buyer.name,
      toolkitTitle: receipt.toolkitTitle,
      amountPaise: paid.amountPaid,
      receiptNumber: receipt.number,
      url: `${appUrl}${receiptPath(paid.id)}`,
      t: translatorOfPerson(buyer),
    });
    mails.push(queueMailOps(op, { ...mail, userId: buyer.id, retryable: true }, Date.parse(at)));
  }
  return { ...paid, receipt };
}

/**
 * Adds to `op` the coupon writes of `outcome` for a purchase that is not paid yet, and returns
 * the purchase as it ends up.
 * - Failed: its current reservation is released (earlier orders keep theirs until they lapse).
 * - Paid: the paid order's terms apply (amount and coupon); its coupon use is kept for good
 *   (`takeUse`) and every other reservation of the purchase is released. When the buyer owns the
 *   toolkit already through another purchase (`ownedElsewhere`), or the coupon use can no longer
 *   be had, the payment grants nothing and is recorded as owed back (`owedBack`).
 */
async function settle(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { current, outcome, payment, terms, change, ownedElsewhere }: Pick<OutcomeReport, "outcome" | "payment"> & {
    current: BuyerPurchase;
    terms: Terms;
    change: { source: string; at: string };
    ownedElsewhere: boolean;
  },
): Promise<BuyerPurchase> {
  if (outcome === "failed") {
    await releaseCurrent(kv, op, current);
    return {
      ...current,
      paymentStatus: "failed",
      history: [...current.history, { status: "failed", at: change.at, source: change.source }],
      updatedAt: change.at,
    };
  }
  if (ownedElsewhere) return await owedBack(kv, op, { current, payment, terms, change, reason: "already owned" });
  const couponId = terms ? terms.couponId : current.couponId;
  const ref = terms?.reservation ?? (couponId === current.couponId ? current.reservation : null);
  const use: UseTaken = couponId
    ? await takeUse(kv, op, { purchase: current, couponId, ref })
    : { ok: true, reservation: null, keys: [] };
  if (!use.ok) return await owedBack(kv, op, { current, payment, terms, change, reason: "coupon unavailable" });
  await releaseOthers(kv, op, { purchase: current, keep: use.keys });
  return {
    ...current,
    reservation: use.reservation,
    couponId,
    paymentStatus: "paid",
    paymentId: payment.paymentId ?? current.paymentId,
    ...(terms ? { gatewayOrderId: payment.orderId, amountPaid: terms.amountPaid, ...priceTerms(terms) } : {}),
    history: [...current.history, { status: "paid", at: change.at, source: change.source }],
    updatedAt: change.at,
  };
}

/** Adds to `op` the release of the coupon reservation `purchase`'s current order holds. */
async function releaseCurrent(kv: Deno.Kv, op: Deno.AtomicOperation, purchase: BuyerPurchase): Promise<void> {
  const ref = purchase.reservation;
  releaseOps(op, ref ? await heldSlots(kv, { ref, userId: purchase.userId, purchaseId: purchase.id }) : []);
}

/**
 * `current` (not paid) with `payment`, which grants nothing for `reason`, kept in `extraPayments` as money due back
 * (its amount the gateway's, else the order's, in paise): the purchase fails when the payment was of its current
 * order (its reservation released; the buyer checks out again when they still need to), and is otherwise left as it
 * is.
 */
async function owedBack(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { current, payment, terms, change, reason }: Pick<OutcomeReport, "payment"> & {
    current: BuyerPurchase;
    terms: Terms;
    change: { source: string; at: string };
    reason: "already owned" | "coupon unavailable";
  },
): Promise<BuyerPurchase> {
  const owed = {
    orderId: payment.orderId,
    paymentId: payment.paymentId,
    amount: payment.amount ?? terms?.amountPaid ?? null,
    ...currencyOf(payment),
    at: change.at,
    reason,
  };
  const extraPayments = [...current.extraPayments ?? [], owed];
  if (payment.orderId !== current.gatewayOrderId) return { ...current, extraPayments, updatedAt: change.at };
  await releaseCurrent(kv, op, current);
  return {
    ...current,
    paymentStatus: "failed",
    extraPayments,
    history: [...current.history, {
      status: "failed",
      at: change.at,
      source: `${change.source}: ${reason} (owed back)`,
    }],
    updatedAt: change.at,
  };
}

/** The list price, discount and coupon code an order was priced with, and the buyer's state, when it kept them. */
function priceTerms(
  terms: OrderTerms,
): Pick<PurchaseRecord, "listPricePaise" | "discountPaise" | "couponCode" | "buyerState"> {
  if (terms.listPricePaise === undefined) return {};
  const { listPricePaise, discountPaise, couponCode, buyerState } = terms;
  return { listPricePaise, discountPaise, couponCode, ...buyerState === undefined ? {} : { buyerState } };
}

/**
 * Applies what the gateway reports of an order's payment (reconciliation), through the same path as verify and
 * the webhook: a purchase is confirmed once, whoever gets there first; a paid one never moves back. Returns the
 * purchase as it ends up. @throws NotFoundError "Purchase not found".
 */
export async function applyGatewayReport(
  ctx: PaymentContext,
  report: OutcomeReport & { payment: { paymentId: string } },
): Promise<PurchaseRecord> {
  return await applyOutcome(ctx, report) as PurchaseRecord;
}
