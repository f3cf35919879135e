/**
 * `reconcile-payments` (docs/decisions.md, Money operations, "Reconciliation"): first our refunds the gateway reported
 * processed an hour ago or more that nothing recorded are applied (`applyUnrecordedRefunds`); then the work list `purchases_unsettled`,
 * kept by the purchase writes, holds every purchase still `pending` or `failed`, and every paid one with another order
 * whose payment is unknown (`openOrders`); an entry whose latest order is past 7 days is dropped, and so is a
 * purchase's once none of its open orders is left to ask about (`isDone`). Each open order of a listed purchase (at most
 * `ORDERS_KEPT`, 20) is asked about when due by its age (`RECONCILE_CHECK_AGES_MS`: 2 and 15 minutes, 1, 6 and 24
 * hours, then daily until 7 days), one call for its payments and at most one capture; when it was last asked is kept
 * under `["purchase_order_checks", purchaseId, orderId]`, and an order with no payment at the gateway at 24 hours old
 * or later is not asked about again. A run makes at most `RECONCILE_CALLS_PER_RUN` (200) gateway calls, the due orders
 * asked longest ago first; the rest stay due, first in the next run. A `captured` payment goes through settlement as
 * the webhook's does: it makes the purchase paid, or is owed back when the purchase was paid by another order (or its
 * amount or currency is not the order's); an `authorized` one of the order's amount and currency is captured first
 * when the purchase is not paid (else it is left to lapse); when every payment of the current order failed, a pending
 * purchase becomes failed. A gateway failure (or refusal) on one order is logged, counted as 2 calls, and kept as
 * its ask: the order is due again at its next age, as after an answer of no payment yet (never "no payment" for good).
 */
import type { Job } from "@/lib/jobs/job.ts";
import { UpstreamError, UpstreamRefusalError } from "@/lib/errors.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { GatewayPayment, PaymentGateway } from "@/lib/payments/gateway.ts";
import { CURRENCY } from "./checkout.ts";
import { type PaymentContext, paymentContext } from "./payment_context.ts";
import { applyGatewayReport, type Outcome } from "./settlement.ts";
import { applyUnrecordedRefunds } from "./refunds.ts";
import {
  forgetUnsettled,
  getPurchaseEntry,
  getPurchaseRecords,
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
const HOUR = 60 * 60 * 1000;
/**
 * The ages (ms) at which an order is due to be asked about: 2 and 15 minutes, 1, 6 and 24 hours, then daily until
 * 7 days. An order is asked about once for the latest of these its age has passed, when it was not asked since.
 */
export const RECONCILE_CHECK_AGES_MS = [
  RECONCILE_MIN_AGE_MS,
  15 * 60 * 1000,
  HOUR,
  6 * HOUR,
  ...Array.from({ length: 7 }, (_, day) => (day + 1) * 24 * HOUR),
];
/** An order asked about at this age (ms) or later with no payment at the gateway is not asked about again. */
export const RECONCILE_QUIET_AGE_MS = 24 * HOUR;
/** Gateway calls (payments asked for, captures) a run makes at most; due orders past it wait for the next run. */
export const RECONCILE_CALLS_PER_RUN = 200;
/** The history source of a change made by reconciliation. */
const SOURCE = "reconcile";

/** When an order was last asked about (ISO), and whether the gateway then knew no payment of it. */
interface OrderCheck {
  at: string;
  quiet: boolean;
}
/** `["purchase_order_checks", purchaseId, orderId]` → `OrderCheck`, expiring once the order is past asking about. */
const checkKey = (purchaseId: string, orderId: string) => ["purchase_order_checks", purchaseId, orderId];

/** What a run did: orders asked about, purchases it made paid, purchases it marked failed. */
export interface ReconcileCounts {
  checked: number;
  paid: number;
  failed: number;
}

/** An order due to be asked about, and when it last was (ms, 0 when never). */
interface DueOrder {
  purchaseId: string;
  orderId: string;
  /** When it was made (ms, `madeAt`). */
  made: number;
  lastAsked: number;
}

/**
 * Runs reconciliation once at `now` (ms); without a gateway there is nothing to ask. Reads the work list, the checks
 * kept and the listed purchases in a bounded number of round trips (a list each, `getManyChunked` for the purchases),
 * not a few reads per listed purchase one after another.
 */
export async function reconcilePayments(services: Services, now = Date.now()): Promise<ReconcileCounts> {
  const { kv, payments } = services;
  const ctx = paymentContext(services);
  const counts: ReconcileCounts = { checked: 0, paid: 0, failed: 0 };
  if (!payments) return counts;
  await applyUnrecordedRefunds(ctx, now);
  const listed: UnsettledPurchase[] = [];
  const due: DueOrder[] = [];
  const expired: UnsettledPurchase[] = [];
  for (const item of await unsettledPurchases(kv)) {
    (now - Date.parse(item.orderedAt) > RECONCILE_MAX_AGE_MS ? expired : listed).push(item);
  }
  await forgetUnsettled(kv, expired);
  if (listed.length === 0) return counts;
  const checks = await orderChecks(kv);
  const records = await getPurchaseRecords(kv, listed.map((item) => item.purchaseId));
  for (const [i, item] of listed.entries()) {
    const record = records[i];
    if (!record) continue;
    // The latest order paid the purchase: checked against the record, not asked about (a gateway order is paid once).
    const paidByLatest = settledPaid(record) && record.gatewayOrderId === item.orderId;
    if (paidByLatest && now - Date.parse(item.orderedAt) >= RECONCILE_MIN_AGE_MS) counts.checked++;
    for (const { orderId, made, dueAt } of ordersToAsk(record, item, now)) {
      const check = checks.get(item.purchaseId)?.get(orderId);
      if (check?.quiet) continue;
      const lastAsked = check ? Date.parse(check.at) : 0;
      if (lastAsked < dueAt) due.push({ purchaseId: item.purchaseId, orderId, made, lastAsked });
    }
  }
  // The orders asked about longest ago first (never asked before, first of all), as many as the calls allow.
  due.sort((a, b) => a.lastAsked - b.lastAsked);
  let calls = 0;
  const keep = (purchaseId: string, orderId: string, check: OrderCheck) => {
    if (!checks.has(purchaseId)) checks.set(purchaseId, new Map());
    checks.get(purchaseId)!.set(orderId, check);
    return recordCheck(kv, { purchaseId, orderId, check });
  };
  for (const [i, { purchaseId, orderId, made }] of due.entries()) {
    if (calls + 2 > RECONCILE_CALLS_PER_RUN) {
      services.log.warn("reconciliation reached its calls per run", { waiting: due.length - i });
      break;
    }
    counts.checked++;
    const at = new Date(now).toISOString();
    try {
      const checked = await settleOrder(ctx, { payments, purchaseId, orderId });
      calls += checked.calls;
      if (checked.outcome) counts[checked.outcome]++;
      if (checked.calls > 0) {
        await keep(purchaseId, orderId, { at, quiet: checked.payments === 0 && now - made >= RECONCILE_QUIET_AGE_MS });
      }
    } catch (error) {
      calls += 2;
      services.log.warn("reconciliation of an order failed", { orderId, error: String(error) });
      // The gateway failed or refused: the order is due again at its next age, as after an answer of no payment yet.
      if (error instanceof UpstreamError || error instanceof UpstreamRefusalError) {
        await keep(purchaseId, orderId, { at, quiet: false });
      }
    }
  }
  // What the run wrote is read again: a purchase it settled may have left its orders' asking behind.
  const after = await getPurchaseRecords(kv, listed.map((item) => item.purchaseId));
  await forgetUnsettled(kv, listed.filter((item, i) => isDone(item, after[i], checks.get(item.purchaseId), now)));
  return counts;
}

/**
 * True when nothing is left to ask about `item`'s purchase `record` (read after the run; null: the purchase is gone),
 * so it leaves the work list: each open order is older than 7 days, or was asked about at 24 hours old or later with no
 * payment at the gateway (`checks`). A pending purchase whose orders are all so leaves it too; a new checkout of it
 * writes its entry again, and `forgetUnsettled` keeps an entry written since it was read.
 */
function isDone(
  item: UnsettledPurchase,
  record: PurchaseRecord | null,
  checks: ReadonlyMap<string, OrderCheck> | undefined,
  now: number,
): boolean {
  if (!record) return true;
  return openOrders(record).every((orderId) =>
    checks?.get(orderId)?.quiet || now - madeAt(record, item, orderId) > RECONCILE_MAX_AGE_MS
  );
}

/** Keeps `check` as when order `orderId` of purchase `purchaseId` was last asked about, until it is past asking. */
async function recordCheck(
  kv: Deno.Kv,
  { purchaseId, orderId, check }: { purchaseId: string; orderId: string; check: OrderCheck },
): Promise<void> {
  await kv.set(checkKey(purchaseId, orderId), check, { expireIn: RECONCILE_MAX_AGE_MS + 24 * HOUR });
}

/**
 * Every check kept (they expire 8 days after they are written, so about a week of asked orders), by purchase id and
 * then order id: one list, not one per purchase.
 */
async function orderChecks(kv: Deno.Kv): Promise<Map<string, Map<string, OrderCheck>>> {
  const checks = new Map<string, Map<string, OrderCheck>>();
  for await (const entry of kv.list<OrderCheck>({ prefix: ["purchase_order_checks"] }, { batchSize: 500 })) {
    const purchaseId = String(entry.key[1]);
    if (!checks.has(purchaseId)) checks.set(purchaseId, new Map());
    checks.get(purchaseId)!.set(String(entry.key[2]), entry.value);
  }
  return checks;
}

/**
 * The open orders of `record` (`openOrders`) between 2 minutes and 7 days old at `now` (ms), each with when (ms) it
 * was last due (`RECONCILE_CHECK_AGES_MS`); an order written before its time was kept counts as made when `item`'s
 * latest order was (no older: it came before it, `madeAt`).
 */
function ordersToAsk(
  record: PurchaseRecord,
  item: UnsettledPurchase,
  now: number,
): { orderId: string; made: number; dueAt: number }[] {
  return openOrders(record).flatMap((orderId) => {
    const made = madeAt(record, item, orderId);
    const age = now - made;
    if (age < RECONCILE_MIN_AGE_MS || age > RECONCILE_MAX_AGE_MS) return [];
    const passed = RECONCILE_CHECK_AGES_MS.filter((checkAge) => checkAge <= age);
    return [{ orderId, made, dueAt: made + passed[passed.length - 1] }];
  });
}

/** When order `orderId` of `record` was made (ms); one written before its time was kept, when `item`'s latest was. */
function madeAt(record: PurchaseRecord, item: UnsettledPurchase, orderId: string): number {
  return Date.parse(record.orders[orderId].orderedAt ?? item.orderedAt);
}

/**
 * Asks about one order and applies what it says: the outcome this call made happen (or null), the gateway calls made
 * (0 to 2), and how many payments of the order the gateway knew.
 */
async function settleOrder(
  ctx: PaymentContext,
  { payments, purchaseId, orderId }: { payments: PaymentGateway; purchaseId: string; orderId: string },
): Promise<{ outcome: Outcome | null; calls: number; payments: number }> {
  const none = { outcome: null, calls: 0, payments: 0 };
  const before = (await getPurchaseEntry(ctx.kv, purchaseId)).value;
  if (!before || !Object.hasOwn(before.orders, orderId)) return none;
  // The order that paid the purchase: a gateway order is paid once, so there is nothing more to learn of it.
  if (settledPaid(before) && before.gatewayOrderId === orderId) return none;
  const found = await payments.orderPayments(orderId);
  let calls = 1;
  let captured: GatewayPayment | undefined = found.find((p) => p.status === "captured");
  const price = before.orders[orderId].amountPaid;
  // An authorisation of another amount or currency than the order's is not taken (the gateway lets it lapse).
  const authorized = found.find((p) => p.status === "authorized" && p.amount === price && p.currency === CURRENCY);
  // An authorisation of a purchase paid by another order is left to lapse, not captured to be owed back.
  if (!captured && authorized && !settledPaid(before)) {
    calls++;
    captured = await payments.capture(authorized.id, price, CURRENCY);
  }
  const outcome = captured ? "paid" : found.length > 0 && found.every((p) => p.status === "failed") ? "failed" : null;
  if (!outcome) return { outcome: null, calls, payments: found.length };
  const paymentId = captured?.id ?? found[found.length - 1].id;
  const record = await applyGatewayReport(ctx, {
    purchaseId,
    outcome,
    source: SOURCE,
    payment: { orderId, paymentId, ...captured ? { amount: captured.amount, currency: captured.currency } : {} },
  });
  const last = record.history[record.history.length - 1];
  const changed = record.paymentStatus !== before.paymentStatus && last?.source === SOURCE;
  return { outcome: changed ? outcome : null, calls, payments: found.length };
}

/** The `reconcile-payments` job: every 15 minutes, and by hand (`POST /api/admin/jobs/reconcile-payments/run`). */
export const reconcilePaymentsJob: Job = {
  name: "reconcile-payments",
  schedule: "*/15 * * * *",
  run: async (ctx) => ({ ...await reconcilePayments(ctx, ctx.now.getTime()) }),
};
