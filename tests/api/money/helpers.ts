/** Shared steps of the money tests: a purchase paid through the fake gateway, and reading records back. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import type { TestUser } from "@/tests/helpers/app.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { checkout, type Shop } from "../toolkits/helpers.ts";

/** Starts checkout of `toolkitId` as `user`, pays the order at the fake (captured) and verifies it; the purchase id and payment. */
export async function buy(shop: Shop, user: TestUser, toolkitId: string, couponCode?: string) {
  const started = await checkout(shop, user, toolkitId, couponCode);
  assertEquals(started.status, 200, JSON.stringify(started.body));
  const payment = shop.fake.addPayment(started.body.order.id, "captured");
  const res = await shop.t.json(
    "POST",
    `/api/toolkits/${toolkitId}/verify`,
    { body: signedPayment(started.body.order.id, payment.id), headers: user.headers },
  );
  assertEquals(res.status, 200);
  return { purchaseId: started.body.purchase.id as string, orderId: started.body.order.id as string, payment };
}

/** The stored record of a purchase. */
export async function purchaseRecord(shop: Shop, id: string): Promise<PurchaseRecord> {
  return (await shop.t.kv.get<PurchaseRecord>(["purchases", id])).value!;
}

/** Delivers a signed webhook to the app. */
export function deliver(shop: Shop, delivery: { body: string; headers: Record<string, string> }) {
  return shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: delivery.body, headers: delivery.headers });
}

/** Refunds a purchase as the admin: status and body. */
export async function refund(shop: Shop, purchaseId: string, reason?: string) {
  const res = await shop.t.json(
    "POST",
    `/api/admin/purchases/${purchaseId}/refund`,
    { body: reason === undefined ? {} : { reason }, headers: shop.admin.headers },
  );
  return { status: res.status, body: await res.json() };
}
