/**
 * The gateway's webhook (docs/decisions.md, Toolkits and payments): `POST /api/webhooks/razorpay` with Razorpay's
 * events. Payment events are settled like any report of the payment (`settlement.ts`); `refund.processed` marks the
 * refund processed (`refunds.ts`), or applies a refund made at the gateway (docs/decisions.md, Money operations,
 * "Refunds made at the gateway").
 *
 * - Each webhook event (by `X-Razorpay-Event-Id`) is applied once: the event's marker is written
 *   in the same atomic operation as the state change, checked to be absent, so concurrent
 *   deliveries of one event make one change.
 *
 * Keys (owned by this module only):
 * - `["payment_events", eventId]` → `{event, orderId, receivedAt}` (kept 30 days)
 */
import { Buffer } from "node:buffer";
import { InvalidInputError } from "@/lib/errors.ts";
import type { PaymentContext } from "./payment_context.ts";
import { getPurchaseEntry, purchaseIdByOrder } from "./purchases.ts";
import { commitReportedRefund, refundProcessedOps } from "./refunds.ts";
import { applyOutcome, type Outcome } from "./settlement.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** The message of a webhook delivery whose signature does not match. */
export const INVALID_WEBHOOK_SIGNATURE = REFUSALS.invalidWebhookSignature;
/** How long a webhook event id is remembered, in ms. */
const EVENT_MEMORY_MS = 30 * 24 * 60 * 60 * 1000;
/** Attempts of applying one event: each lost race means another delivery or change came first. */
const MAX_ATTEMPTS = 200;

const eventKey = (id: string) => ["payment_events", id];

interface WebhookBody {
  event?: unknown;
  payload?: {
    refund?: { entity?: { id?: unknown; payment_id?: unknown; amount?: unknown; notes?: { purchaseId?: unknown } } };
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown; currency?: unknown } };
    order?: { entity?: { id?: unknown } };
  };
}

const OUTCOMES: Record<string, Outcome> = {
  "payment.captured": "paid",
  "order.paid": "paid",
  "payment.failed": "failed",
};

/**
 * Handles one webhook delivery: checks the signature over the raw body before reading it, then applies the event once
 * per event id (`X-Razorpay-Event-Id`; lacking it, the body's SHA-256). `refund.processed` marks the refund processed
 * on the purchase its notes name (docs/decisions.md, Money operations, "Refunds"); one without our notes (made at the
 * gateway) is applied to the purchase of its payment's order (`commitReportedRefund`) and logged. Events of other types
 * and orders of no purchase are acknowledged and change nothing.
 * @throws InvalidInputError "Invalid webhook signature" (also without a webhook secret), or
 *   "Invalid JSON body" for a signed body that is not JSON.
 */
export async function handleWebhook(
  ctx: PaymentContext,
  { rawBody, signature, eventIdHeader }: { rawBody: string; signature: string | null; eventIdHeader: string | null },
): Promise<void> {
  const { kv, payments } = ctx;
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
  const reported = Number.isSafeInteger(payment?.amount) && typeof payment?.currency === "string"
    ? { amount: payment.amount as number, currency: payment.currency }
    : {};
  const marker = { event: type, orderId: orderId ?? null, receivedAt: new Date().toISOString() };

  const refund = body.payload?.refund?.entity;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entry = await kv.get(eventKey(eventId));
    if (entry.value !== null) return;
    if (type === "refund.processed" && typeof refund?.id === "string" && typeof refund.notes?.purchaseId === "string") {
      const purchase = await getPurchaseEntry(kv, refund.notes.purchaseId.slice(0, 100));
      const op = kv.atomic().check(entry, purchase).set(entry.key, marker, { expireIn: EVENT_MEMORY_MS });
      if (purchase.value) {
        const refundPaymentId = typeof refund.payment_id === "string" ? refund.payment_id.slice(0, 100) : paymentId;
        const reported = refundPaymentId && Number.isSafeInteger(refund.amount)
          ? { paymentId: refundPaymentId, amount: refund.amount as number }
          : undefined;
        const refundId = refund.id.slice(0, 100);
        refundProcessedOps(op, { purchase: purchase.value, refundId, at: marker.receivedAt, reported });
      }
      if ((await op.commit()).ok) return;
      continue;
    }
    if (type === "refund.processed" && typeof refund?.id === "string") {
      const reported = { ...refund, id: refund.id };
      if (await applyReportedRefund(ctx, { entry, marker, refund: reported, orderId, paymentId })) return;
      continue;
    }
    const outcome = OUTCOMES[type];
    const purchaseId = outcome && orderId ? await purchaseIdByOrder(kv, orderId) : null;
    if (!outcome || !purchaseId) {
      const result = await kv.atomic().check(entry).set(entry.key, marker, { expireIn: EVENT_MEMORY_MS }).commit();
      if (result.ok) return;
      continue;
    }
    if (
      await applyOutcome(ctx, {
        purchaseId,
        outcome,
        source: `webhook ${type}`,
        payment: { orderId: orderId!, paymentId, ...reported },
        event: { entry, value: marker, expireIn: EVENT_MEMORY_MS },
      }) !== false
    ) {
      return;
    }
  }
}

/**
 * Applies `refund`, a `refund.processed` without our notes (docs/decisions.md, Money operations, "Refunds made at the
 * gateway"), to the purchase of gateway order `orderId` (`commitReportedRefund`), with the event's `marker` in the same
 * write, checked against the event's `entry` and the purchase as read; logs what it came to. Returns false when the
 * write lost a race (read again and try again).
 */
async function applyReportedRefund(
  ctx: PaymentContext,
  { entry, marker, refund, orderId, paymentId }: {
    entry: Deno.KvEntryMaybe<unknown>;
    marker: { event: string; orderId: string | null; receivedAt: string };
    refund: { id: string; payment_id?: unknown; amount?: unknown };
    orderId: string | undefined;
    paymentId: string | null;
  },
): Promise<boolean> {
  const { kv } = ctx;
  const reported = {
    id: refund.id.slice(0, 100),
    paymentId: typeof refund.payment_id === "string" ? refund.payment_id.slice(0, 100) : paymentId,
    amount: Number.isSafeInteger(refund.amount) ? refund.amount as number : null,
  };
  const purchaseId = orderId ? await purchaseIdByOrder(kv, orderId) : null;
  const { outcome, written } = await commitReportedRefund(ctx, {
    purchase: purchaseId ? await getPurchaseEntry(kv, purchaseId) : null,
    refund: reported.paymentId && reported.amount !== null
      ? { id: reported.id, paymentId: reported.paymentId, amount: reported.amount }
      : null,
    orderId: orderId ?? null,
    at: marker.receivedAt,
    mark: (op) => void op.check(entry).set(entry.key, marker, { expireIn: EVENT_MEMORY_MS }),
  });
  if (!written) return false;
  const fields = { refundId: reported.id, paymentId: reported.paymentId, orderId, purchaseId, amount: reported.amount };
  if (outcome === "applied") ctx.log?.warn("refund made at the gateway applied to its purchase", fields);
  else if (outcome !== "known") {
    ctx.log?.warn(`refund made at the gateway not applied: ${outcome === "none" ? "no purchase" : outcome}`, fields);
  }
  return true;
}
