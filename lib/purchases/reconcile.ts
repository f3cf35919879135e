/**
 * `reconcile-payments` (docs/decisions.md, Money operations, "Reconciliation"): the work list `purchases_unsettled`,
 * kept by the purchase writes, holds every purchase still `pending` or `failed`, and every paid one with another order
 * whose payment is unknown (`openOrders`); an entry whose latest order is past 7 days is dropped, and so is a paid
 * purchase's once it has no open order left. The gateway is asked about each open order of a listed purchase that is
 * between 2 minutes and 7 days old, newest first: at most `ORDERS_KEPT` (20) orders a purchase, each one call for its
 * payments and at most one capture. A `captured` payment goes through settlement as the webhook's does: it makes the
 * purchase paid, or is owed back when the purchase was paid by another order (or its amount or currency is not the
 * order's); an `authorized` one of the order's amount and currency is captured first when the purchase is not paid
 * (else it is left to lapse); when every payment of the current order failed, a pending purchase becomes failed. A
 * gateway failure on one order is logged and the next order is tried.
 */
import type { Job } from "@/lib/jobs/job.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { GatewayPayment, PaymentGateway } from "@/lib/payments/gateway.ts";
import { CURRENCY } from "./checkout.ts";
import { type PaymentContext, paymentContext } from "./payment_context.ts";
import { applyGatewayReport, type Outcome } from "./settlement.ts";
import {
  forgetUnsettled,
  getPurchaseEntry,
  openOrders,
  type PurchaseRecord,
  settledPaid,
  type UnsettledPurchase,
  unsettledPurchases,
} from "./purchases.ts";

/** An order younger than this (ms) is left to the webhook and the buyer's verify. */
export const RECONCILE_MIN_AGE_MS = 2 * 60 * 1000;
/** An order older than this (ms) is no longer asked about. */
export const RECONCILE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The history source of a change made by reconciliation. */
const SOURCE = "reconcile";

/** What a run did: orders asked about, purchases it made paid, purchases it marked failed. */
export interface ReconcileCounts {
  checked: number;
  paid: number;
  failed: number;
}

/** Runs reconciliation once at `now` (ms); without a gateway there is nothing to ask. */
export async function reconcilePayments(services: Services, now = Date.now()): Promise<ReconcileCounts> {
  const { kv, payments } = services;
  const ctx = paymentContext(services);
  const counts: ReconcileCounts = { checked: 0, paid: 0, failed: 0 };
  if (!payments) return counts;
  const check = async (purchaseId: string, orderId: string): Promise<PurchaseRecord | null> => {
    counts.checked++;
    try {
      const checked = await settleOrder(ctx, { payments, purchaseId, orderId });
      if (checked.outcome) counts[checked.outcome]++;
      return checked.record;
    } catch (error) {
      services.log.warn("reconciliation of an order failed", { orderId, error: String(error) });
      return null;
    }
  };
  for (const item of await unsettledPurchases(kv)) {
    if (now - Date.parse(item.orderedAt) > RECONCILE_MAX_AGE_MS) {
      await forgetUnsettled(kv, item);
      continue;
    }
    // The latest order first, as the list names it; then every other open order of the purchase as it is then.
    const young = now - Date.parse(item.orderedAt) < RECONCILE_MIN_AGE_MS;
    let record = young ? null : await check(item.purchaseId, item.orderId);
    record ??= (await getPurchaseEntry(kv, item.purchaseId)).value;
    if (!record) continue;
    for (const orderId of ordersToAsk(record, item, now)) {
      if (orderId !== item.orderId) record = await check(item.purchaseId, orderId) ?? record;
    }
    if (settledPaid(record) && openOrders(record).length === 0) await forgetUnsettled(kv, item);
  }
  return counts;
}

/**
 * The open orders of `record` (`openOrders`) between 2 minutes and 7 days old at `now` (ms), newest first; an order
 * written before its time was kept counts as made when `item`'s latest order was (no older: it came before it).
 */
function ordersToAsk(record: PurchaseRecord, item: UnsettledPurchase, now: number): string[] {
  return openOrders(record).filter((orderId) => {
    const age = now - Date.parse(record.orders[orderId].orderedAt ?? item.orderedAt);
    return age >= RECONCILE_MIN_AGE_MS && age <= RECONCILE_MAX_AGE_MS;
  }).reverse();
}

/**
 * Asks about one order and applies what it says: the outcome this call made happen (or null), and the purchase as it
 * ends up (null when it is gone).
 */
async function settleOrder(
  ctx: PaymentContext,
  { payments, purchaseId, orderId }: { payments: PaymentGateway; purchaseId: string; orderId: string },
): Promise<{ outcome: Outcome | null; record: PurchaseRecord | null }> {
  const before = (await getPurchaseEntry(ctx.kv, purchaseId)).value;
  if (!before || !Object.hasOwn(before.orders, orderId)) return { outcome: null, record: before };
  // The order that paid the purchase: a gateway order is paid once, so there is nothing more to learn of it.
  if (settledPaid(before) && before.gatewayOrderId === orderId) return { outcome: null, record: before };
  const found = await payments.orderPayments(orderId);
  let captured: GatewayPayment | undefined = found.find((p) => p.status === "captured");
  const price = before.orders[orderId].amountPaid;
  // An authorisation of another amount or currency than the order's is not taken (the gateway lets it lapse).
  const authorized = found.find((p) => p.status === "authorized" && p.amount === price && p.currency === CURRENCY);
  // An authorisation of a purchase paid by another order is left to lapse, not captured to be owed back.
  if (!captured && authorized && !settledPaid(before)) {
    captured = await payments.capture(authorized.id, price, CURRENCY);
  }
  const outcome = captured ? "paid" : found.length > 0 && found.every((p) => p.status === "failed") ? "failed" : null;
  if (!outcome) return { outcome: null, record: before };
  const paymentId = captured?.id ?? found[found.length - 1].id;
  const record = await applyGatewayReport(ctx, {
    purchaseId,
    outcome,
    source: SOURCE,
    payment: { orderId, paymentId, ...captured ? { amount: captured.amount, currency: captured.currency } : {} },
  });
  const last = record.history[record.history.length - 1];
  return { outcome: record.paymentStatus !== before.paymentStatus && last?.source === SOURCE ? outcome : null, record };
}

/** The `reconcile-payments` job: every 15 minutes, and by hand (`POST /api/admin/jobs/reconcile-payments/run`). */
export const reconcilePaymentsJob: Job = {
  name: "reconcile-payments",
  schedule: "*/15 * * * *",
  run: async (ctx) => ({ ...await reconcilePayments(ctx, ctx.now.getTime()) }),
};
