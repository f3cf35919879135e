/**
 * The demo's money (docs/decisions.md, Money operations): two paid purchases through the real checkout and
 * confirmation path, over an offline stand-in of the gateway that pays every order at once, so the demo shows a
 * receipt, a certificate (Rohan completes every lesson), a refunded purchase (Sara's: ₹100 of it refunded in the
 * gateway's dashboard first, then the rest by the admin, a credit note each against her tax invoice) and a
 * dashboard with revenue, refunds, top toolkits and a coupon's use; the month of `history.ts` comes before them, so
 * the dashboard's charts show 30 days. Idempotent: a buyer who has a purchase of the toolkit already is left alone.
 */
import type { PaymentGateway } from "@/lib/payments/gateway.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { nowOf, type PaymentContext } from "@/lib/purchases/payment_context.ts";
import { applyGatewayReport } from "@/lib/purchases/settlement.ts";
import { getPurchaseEntry, listPurchaseRecords } from "@/lib/purchases/purchases.ts";
import { listPurchasesForAdmin } from "@/lib/purchases/admin.ts";
import { commitReportedRefund, refundPayment } from "@/lib/purchases/refunds.ts";
import type { SellerConfig } from "@/lib/purchases/receipts.ts";
import { listActiveToolkits, listContentItems } from "@/lib/toolkits/catalog.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { User } from "@/lib/users/users.ts";

/** The demo toolkits bought (`lib/demo/toolkits.ts`). */
const INTERVIEW = "Crack the Data Analyst Interview";
const SALARY = "Salary Negotiation for Freshers";

/**
 * A gateway that answers at once, without a network: every order it made is paid (captured) in full, and it lists no
 * refunds.
 */
export function offlineGateway(): PaymentGateway {
  const orders = new Map<string, number>();
  return {
    keyId: "demo",
    createOrder({ amountPaise, currency }) {
      const id = `order_demo_${crypto.randomUUID().slice(0, 12)}`;
      orders.set(id, amountPaise);
      return Promise.resolve({ id, amount: amountPaise, currency });
    },
    orderPayments(orderId) {
      const amount = orders.get(orderId);
      return Promise.resolve(
        amount === undefined
          ? []
          : [{ id: `pay_demo_${orderId.slice(11)}`, orderId, status: "captured", amount, currency: "INR" }],
      );
    },
    payment(paymentId) {
      const orderId = `order_demo_${paymentId.slice(9)}`;
      const amount = orders.get(orderId) ?? 0;
      return Promise.resolve({ id: paymentId, orderId, status: "captured", amount, currency: "INR" });
    },
    // The demo seeds its refunds through their own writes: the gateway has none that no event told of.
    refundsMade: () => Promise.resolve([]),
    capture: (paymentId, amount, currency) =>
      Promise.resolve({ id: paymentId, orderId: "", status: "captured", amount, currency }),
    refund: (paymentId, amount) =>
      Promise.resolve({ id: `rfnd_demo_${paymentId.slice(9)}`, paymentId, amount, status: "processed" }),
    verifyPaymentSignature: () => false,
    verifyWebhookSignature: () => false,
  };
}

/** A captured payment of a paid purchase: its gateway order and payment ids, `amount` in paise. */
export interface CapturedPayment {
  orderId: string;
  paymentId: string;
  amount: number;
}

/**
 * The captured payments of the paid purchases in `kv`: `deno task demo:payments` tells its fake gateway of them, so the
 * admin refunds a seeded purchase (paid through `offlineGateway`, the open refund request among them) or one bought in
 * an earlier run as one bought now. A free purchase has none.
 */
export async function capturedPayments(kv: Deno.Kv): Promise<CapturedPayment[]> {
  const found: CapturedPayment[] = [];
  for (let offset = 0;; offset += 100) {
    const page = await listPurchasesForAdmin(kv, { status: "paid", limit: 100, offset });
    for (const row of page.purchases) {
      if (!row.paymentId || !row.gatewayOrderId) continue;
      found.push({ orderId: row.gatewayOrderId, paymentId: row.paymentId, amount: row.amountPaid });
    }
    if (!page.pagination.hasMore) return found;
  }
}

/**
 * Buys `toolkit` as `buyer` (with `couponCode`) and confirms its payment, at the time of `ctx`'s clock; the purchase
 * id, or null when bought before.
 */
export async function buy(
  ctx: PaymentContext,
  { buyer, toolkit, couponCode }: { buyer: User; toolkit: Toolkit; couponCode?: string },
): Promise<string | null> {
  if ((await listPurchaseRecords(ctx.kv, buyer.id)).some((p) => p.toolkitId === toolkit.id)) return null;
  const started = await initiatePurchase(ctx.kv, {
    payments: ctx.payments,
    user: buyer,
    toolkitId: toolkit.id,
    couponCode,
    at: nowOf(ctx),
  });
  const orderId = started.order!.id;
  const [payment] = await ctx.payments!.orderPayments(orderId);
  await applyGatewayReport(ctx, {
    purchaseId: started.purchase.id,
    outcome: "paid",
    source: "demo",
    payment: { orderId, paymentId: payment.id },
  });
  return started.purchase.id;
}

/**
 * Seeds the demo's purchases (see the module docstring), receipts issued by `seller` (kept with them) with links to
 * `appUrl`; returns lines describing what was added.
 */
export async function seedMoney(
  kv: Deno.Kv,
  { appUrl, seller }: { appUrl: string; seller?: SellerConfig },
  people: { admin: User; learner: User; refunded: User },
): Promise<string[]> {
  const ctx: PaymentContext = { kv, payments: offlineGateway(), appUrl, seller };
  const active = await listActiveToolkits(kv);
  const interview = active.find((t) => t.title === INTERVIEW)!;
  const salary = active.find((t) => t.title === SALARY)!;
  const lines: string[] = [];
  const bought = await buy(ctx, { buyer: people.learner, toolkit: interview, couponCode: "WELCOME20" });
  if (bought) {
    for (const item of await listContentItems(kv, interview.id)) {
      await recordProgress(kv, {
        toolkitId: interview.id,
        viewer: people.learner,
        contentItemId: item.id,
        completed: true,
      });
    }
    lines.push(`${people.learner.name} paid for "${interview.title}" (receipt) and completed it (certificate)`);
  }
  const refunded = await buy(ctx, { buyer: people.refunded, toolkit: salary });
  if (refunded) {
    await refundPartAtGateway(ctx, { purchaseId: refunded, amount: 10000 });
    await refundPayment(ctx, { by: people.admin, target: { purchaseId: refunded }, reason: "Bought by mistake" });
    lines.push(`${people.refunded.name}'s purchase of "${salary.title}" was refunded, ₹100 of it at the gateway first`);
  }
  return lines;
}

/**
 * Applies a refund of `amount` (paise) of purchase `purchaseId`'s payment made in the gateway's dashboard, as its
 * `refund.processed` would (`commitReportedRefund`, without an event to mark): kept on the purchase with its credit
 * note when the receipt is a tax invoice, and the buyer's e-mail queued.
 */
async function refundPartAtGateway(
  ctx: PaymentContext,
  { purchaseId, amount }: { purchaseId: string; amount: number },
): Promise<void> {
  const purchase = await getPurchaseEntry(ctx.kv, purchaseId);
  const { paymentId, gatewayOrderId } = purchase.value!;
  const refund = { id: `rfnd_demo_part_${purchaseId.slice(0, 8)}`, paymentId: paymentId!, amount };
  const { written } = await commitReportedRefund(ctx, {
    purchase,
    refund,
    orderId: gatewayOrderId,
    at: nowOf(ctx),
    mark: () => {},
  });
  if (!written) throw new Error("the demo's partial refund lost a race");
}
