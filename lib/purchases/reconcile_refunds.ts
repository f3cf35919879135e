/**
 * `reconcile-refunds` (docs/decisions.md, Money operations, "Refunds no event told us of"): once a day, the refunds
 * the gateway made over the last `REFUND_LOOKBACK_MS` (30 days, to an hour ago) are listed, and each processed one
 * that no write has taken yet is applied as its `refund.processed` would have been. A refund made in the gateway's
 * dashboard (or by a dispute) whose event never came, after the gateway's day of retries, would otherwise leave the
 * purchase paid and the buyer with the toolkit and their money; one of ours whose event never came would stay
 * `pending`. Each refund is taken once (`["refunds_taken", refundId]`, kept past the look-back), in the same write
 * as what it changed, checked against that mark and the purchase as read, so a run racing the webhook (or another
 * run) applies it once. A pending refund is not taken: it is listed again the next day. A run makes at most
 * `REFUND_CALLS_PER_RUN` gateway calls (list pages, and one payment read for a refund without our notes, whose
 * purchase is found through its payment's order); past them, refunds without our notes wait for the next run (ours
 * need no call), and the run logs how far it came. A refund of a purchase not confirmed yet waits while
 * reconciliation may still confirm it (`isUnsettled`), then is taken as no purchase's.
 */
import type { Job } from "@/lib/jobs/job.ts";
import { UpstreamError, UpstreamRefusalError } from "@/lib/errors.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import type { Services } from "@/lib/platform/state.ts";
import { type ListedRefund, type PaymentGateway, REFUNDS_PAGE } from "@/lib/payments/gateway.ts";
import { paymentContext } from "./payment_context.ts";
import {
  getPurchaseEntry,
  isUnsettled,
  type PaymentStatus,
  purchaseIdByOrder,
  type PurchaseRecord,
} from "./purchases.ts";
import { commitReportedRefund, type ReportedRefundOutcome, UNRECORDED_AFTER_MS } from "./refunds.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** How far back (ms) a run lists the refunds made; a refund older than this is not looked at again. */
export const REFUND_LOOKBACK_MS = 30 * DAY;
/** Gateway calls a run makes at most. */
export const REFUND_CALLS_PER_RUN = 200;
/** How long (ms) a refund taken is remembered: past the look-back, so no later run takes it again. */
const TAKEN_MEMORY_MS = REFUND_LOOKBACK_MS + 2 * DAY;
/** The states of a purchase that reconciliation may still confirm paid. */
const UNCONFIRMED: ReadonlySet<PaymentStatus> = new Set(["pending", "failed"]);
/** Writes lost to a race with the webhook or another run before a refund is left for the next run. */
const MAX_ATTEMPTS = 3;

/** `["refunds_taken", refundId]` → `{at, outcome}`: the refund was applied, marked processed, or is no purchase's. */
const takenKey = (refundId: string) => ["refunds_taken", refundId];

/**
 * What a run did: processed refunds listed; taken now, `applied` (no write had taken them: applied to their purchase)
 * or `known` (a write had: marked processed where they were not yet); `left` for the next run.
 */
export interface RefundReconcileCounts {
  listed: number;
  applied: number;
  known: number;
  left: number;
}

/**
 * Lists the processed refunds made between `REFUND_LOOKBACK_MS` and `UNRECORDED_AFTER_MS` before `now` (ms), a page
 * of `REFUNDS_PAGE` a call, within `budget.calls`. @throws what the gateway throws.
 */
async function processedRefunds(
  payments: PaymentGateway,
  now: number,
  budget: { calls: number },
): Promise<{ refunds: ListedRefund[]; complete: boolean }> {
  const refunds: ListedRefund[] = [];
  for (let skip = 0;; skip += REFUNDS_PAGE) {
    if (budget.calls >= REFUND_CALLS_PER_RUN) return { refunds, complete: false };
    budget.calls++;
    const page = await payments.refundsMade({
      fromMs: now - REFUND_LOOKBACK_MS,
      toMs: now - UNRECORDED_AFTER_MS,
      skip,
    });
    refunds.push(...page.filter((refund) => refund.status === "processed"));
    if (page.length < REFUNDS_PAGE) return { refunds, complete: true };
  }
}

/**
 * The purchase refund `refund` belongs to: the one our notes name, else the one of its payment's order (one gateway
 * call), with that order; null ids when it is no purchase's. @throws what the gateway throws.
 */
async function purchaseOf(
  services: Services,
  payments: PaymentGateway,
  refund: ListedRefund,
  budget: { calls: number },
): Promise<{ purchaseId: string | null; orderId: string | null }> {
  if (refund.purchaseId) return { purchaseId: refund.purchaseId.slice(0, 100), orderId: null };
  budget.calls++;
  const { orderId } = await payments.payment(refund.paymentId);
  return { purchaseId: orderId ? await purchaseIdByOrder(services.kv, orderId) : null, orderId: orderId || null };
}

/**
 * Takes `refund` of purchase `purchaseId` (null: no purchase's) at `now` (ms): `commitReportedRefund` with the taken mark
 * in one write, checked against both as read. Returns the outcome and whether a write had taken the refund before
 * (another run's counts as one), or null when every attempt lost its race.
 */
async function takeRefund(
  services: Services,
  { refund, purchaseId, orderId, now }: {
    refund: ListedRefund;
    purchaseId: string | null;
    orderId: string | null;
    now: number;
  },
): Promise<{ outcome: ReportedRefundOutcome | "none"; before: boolean } | null> {
  const { kv } = services;
  const ctx = paymentContext(services);
  const at = new Date(now).toISOString();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const taken = await kv.get(takenKey(refund.id));
    if (taken.value !== null) return { outcome: "none", before: true };
    const purchase = purchaseId ? await getPurchaseEntry(kv, purchaseId) : null;
    // One of ours (our notes name its purchase) refunded a payment of that purchase's order: a purchase paid by an
    // event that carried no payment id is matched by it.
    const order = orderId ?? (refund.purchaseId ? purchase?.value?.gatewayOrderId ?? null : null);
    // Its purchase is not confirmed yet (its payment's event is late too) and reconciliation still asks about its
    // order: the refund is taken once it confirms it. Past that (never confirmed), it is no purchase's.
    const waits = !!purchase?.value && UNCONFIRMED.has(purchase.value.paymentStatus) &&
      await isUnsettled(kv, purchase.value.id);
    const { outcome, written } = await commitReportedRefund(ctx, {
      purchase,
      refund: { id: refund.id, paymentId: refund.paymentId, amount: refund.amount },
      orderId: order,
      at,
      mark: (op, outcome) => {
        if (outcome === "unmatched" && waits) return false;
        op.check(taken).set(takenKey(refund.id), { at, outcome }, { expireIn: TAKEN_MEMORY_MS });
      },
    });
    if (outcome === "unmatched" && waits) return null;
    if (!written) continue;
    return { outcome, before: purchase?.value ? takenBefore(purchase.value, refund.id) : false };
  }
  return null;
}

/** True when a write has taken refund `refundId` on `purchase`: its own refund, an extra payment's, or a part. */
function takenBefore(purchase: PurchaseRecord, refundId: string): boolean {
  return purchase.refund?.id === refundId || !!purchase.extraPayments?.some((p) => p.refund?.id === refundId) ||
    !!purchase.gatewayPartialRefunds?.some((p) => p.id === refundId);
}

/**
 * Runs the refunds' reconciliation once at `now` (ms); without a gateway there is nothing to ask. A refund the
 * gateway fails or refuses to tell about is left for the next run (logged); a failed listing ends the run.
 */
export async function reconcileRefunds(services: Services, now = Date.now()): Promise<RefundReconcileCounts> {
  const counts: RefundReconcileCounts = { listed: 0, applied: 0, known: 0, left: 0 };
  const { payments, kv, log } = services;
  if (!payments) return counts;
  const budget = { calls: 0 };
  const { refunds, complete } = await processedRefunds(payments, now, budget);
  counts.listed = refunds.length;
  const marks = await getManyChunked(kv, refunds.map((refund) => takenKey(refund.id)));
  const open = refunds.filter((_, i) => marks[i].value === null);
  for (const refund of open) {
    // Past the calls' cap a refund without our notes waits (its payment would be read); ours need no call.
    if (!refund.purchaseId && budget.calls >= REFUND_CALLS_PER_RUN) {
      counts.left++;
      continue;
    }
    let taken: Awaited<ReturnType<typeof takeRefund>>;
    try {
      taken = await takeRefund(services, { refund, ...await purchaseOf(services, payments, refund, budget), now });
    } catch (error) {
      if (!(error instanceof UpstreamError || error instanceof UpstreamRefusalError)) throw error;
      log.warn("a refund's payment could not be read", { refundId: refund.id, error: String(error) });
      counts.left++;
      continue;
    }
    if (!taken) counts.left++;
    else if (taken.before) counts.known++;
    else if (taken.outcome === "applied" || taken.outcome === "partial") {
      counts.applied++;
      const fields = { refundId: refund.id, paymentId: refund.paymentId, amount: refund.amount, part: taken.outcome };
      log.warn("a refund no event told us of was applied to its purchase", fields);
    }
  }
  if (!complete || counts.left > 0) {
    log.warn("the refunds' reconciliation left refunds for its next run", { calls: budget.calls, left: counts.left });
  }
  return counts;
}

/**
 * The `reconcile-refunds` job: daily at 03:30 IST (22:00 UTC), and by hand
 * (`POST /api/admin/jobs/reconcile-refunds/run`).
 */
export const reconcileRefundsJob: Job = {
  name: "reconcile-refunds",
  schedule: "0 22 * * *",
  run: async (ctx) => ({ ...await reconcileRefunds(ctx, ctx.now.getTime()) }),
};
