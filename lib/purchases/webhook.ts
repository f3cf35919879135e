/**
 * The gateway's webhook (docs/decisions.md, Toolkits and payments): `POST /api/webhooks/razorpay` with Razorpay's
 * events. Payment events are settled like any report of the payment (`settlement.ts`); `refund.processed` marks the
 * refund processed (`refunds.ts`).
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
import { refundProcessedOps } from "./refunds.ts";
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
    refund?: { entity?: { id?: unknown; notes?: { purchaseId?: unknown } } };
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
 * on the purchase its notes name (docs/decisions.md, Money operations, "Refunds"). Events of other types and orders of
 * no purchase are acknowledged and change nothing.
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
        refundProcessedOps(op, { purchase: purchase.value, refundId: refund.id.slice(0, 100), at: marker.receivedAt });
      }
      if ((await op.commit()).ok) return;
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
