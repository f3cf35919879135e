/**
 * `reconcile-payments` (docs/decisions.md, Money operations, "Reconciliation"): the gateway is asked about every
 * purchase still `pending` or `failed` whose latest order is between 2 minutes and 7 days old (the work list
 * `purchases_unsettled`, kept by the purchase writes; entries past 7 days are dropped). For each order: a
 * `captured` payment makes the purchase paid exactly as the webhook does (a payment of another amount or currency
 * than the order's is owed back instead); an `authorized` one of the order's amount and currency is captured first
 * and then counts as paid; when every payment failed, a pending purchase becomes failed. A gateway failure on one
 * order is logged and the next order is tried.
 */
import type { Job } from "@/lib/jobs/job.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { GatewayPayment, PaymentGateway } from "@/lib/payments/gateway.ts";
import { CURRENCY } from "./checkout.ts";
import { type PaymentContext, paymentContext } from "./payment_context.ts";
import { applyGatewayReport } from "./settlement.ts";
import { forgetUnsettled, getPurchaseEntry, unsettledPurchases } from "./purchases.ts";

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
  const { kv, payments, log } = services;
  const ctx = paymentContext(services);
  const counts: ReconcileCounts = { checked: 0, paid: 0, failed: 0 };
  if (!payments) return counts;
  for (const item of await unsettledPurchases(kv)) {
    const age = now - Date.parse(item.orderedAt);
    if (age > RECONCILE_MAX_AGE_MS) await forgetUnsettled(kv, item);
    if (age < RECONCILE_MIN_AGE_MS || age > RECONCILE_MAX_AGE_MS) continue;
    counts.checked++;
    try {
      const outcome = await settleOrder(ctx, { payments, purchaseId: item.purchaseId, orderId: item.orderId });
      if (outcome) counts[outcome]++;
    } catch (error) {
      log.warn("reconciliation of an order failed", { orderId: item.orderId, error: String(error) });
    }
  }
  return counts;
}

/** Asks about one order and applies what it says; the outcome this call made happen, or null. */
async function settleOrder(
  ctx: PaymentContext,
  { payments, purchaseId, orderId }: { payments: PaymentGateway; purchaseId: string; orderId: string },
): Promise<"paid" | "failed" | null> {
  const before = (await getPurchaseEntry(ctx.kv, purchaseId)).value;
  if (!before || !Object.hasOwn(before.orders, orderId)) return null;
  const found = await payments.orderPayments(orderId);
  let captured: GatewayPayment | undefined = found.find((p) => p.status === "captured");
  const price = before.orders[orderId].amountPaid;
  // An authorisation of another amount or currency than the order's is not taken (the gateway lets it lapse).
  const authorized = found.find((p) => p.status === "authorized" && p.amount === price && p.currency === CURRENCY);
  if (!captured && authorized) captured = await payments.capture(authorized.id, price, CURRENCY);
  const outcome = captured ? "paid" : found.length > 0 && found.every((p) => p.status === "failed") ? "failed" : null;
  if (!outcome) return null;
  const paymentId = captured?.id ?? found[found.length - 1].id;
  const record = await applyGatewayReport(ctx, {
    purchaseId,
    outcome,
    source: SOURCE,
    payment: { orderId, paymentId, ...captured ? { amount: captured.amount, currency: captured.currency } : {} },
  });
  const last = record.history[record.history.length - 1];
  return record.paymentStatus !== before.paymentStatus && last?.source === SOURCE ? outcome : null;
}

/** The `reconcile-payments` job: every 15 minutes, and by hand (`POST /api/admin/jobs/reconcile-payments/run`). */
export const reconcilePaymentsJob: Job = {
  name: "reconcile-payments",
  schedule: "*/15 * * * *",
  run: async (ctx) => ({ ...await reconcilePayments(ctx, ctx.now.getTime()) }),
};
