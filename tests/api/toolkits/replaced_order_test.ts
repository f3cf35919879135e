/**
 * Checkout started again replaces the pending purchase, but the earlier gateway order can still
 * be paid (Checkout.js was open in another tab). Paying it applies that order's own terms: its
 * amount and its coupon, whose use is counted, so no coupon limit can be slipped past that way;
 * a failure of a replaced order leaves the current checkout as it is; a second payment of a
 * purchase already paid is recorded as money due back; a failed checkout is taken up again by the next, and in data
 * from before, the payment of a failed checkout's order once a new checkout of the toolkit was paid is owed back.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import {
  addCoupon,
  addToolkit,
  checkout,
  checkoutBesideFailed,
  openShop,
  type Shop,
} from "@/tests/fixtures/toolkits.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { REFUSALS } from "@/lib/refusals.ts";

async function usedCount(shop: Shop, code: string): Promise<number> {
  const res = await shop.t.fetch(`/api/admin/coupons?search=${code}`, { headers: shop.admin.headers });
  return (await res.json()).coupons[0].usedCount;
}

Deno.test("paying the earlier, discounted order after checking out again without the coupon counts the coupon use", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kits = [await addToolkit(shop, { price: 499 }), await addToolkit(shop, { price: 499 })];
  await addCoupon(shop, { code: "ONCE", perUserLimit: 1, usageLimit: 10 });

  const discounted = await checkout(shop, user, kits[0].id, "ONCE");
  assertEquals(discounted.body.finalPrice, 399.2);
  assertEquals(await usedCount(shop, "ONCE"), 1);
  const full = await checkout(shop, user, kits[0].id);
  assertEquals(full.body.finalPrice, 499);
  assertEquals(await usedCount(shop, "ONCE"), 1, "the discounted order can still be paid: its use is kept");

  const verify = await shop.t.json(
    "POST",
    `/api/toolkits/${kits[0].id}/verify`,
    { body: signedPayment(discounted.body.order.id), headers: user.headers },
  );
  assertEquals(verify.status, 200);
  const { purchase } = await verify.json();
  assertEquals([purchase.paymentStatus, purchase.amountPaid], ["paid", 39920]);
  assertEquals(purchase.gatewayOrderId, discounted.body.order.id);
  assertEquals(purchase.couponId, discounted.body.purchase.couponId, "the paid order's coupon");
  assertEquals(await usedCount(shop, "ONCE"), 1, "the discounted payment counts its coupon use");
  const second = await checkout(shop, user, kits[1].id, "ONCE");
  assertEquals([second.status, second.body], [400, { error: "You have already used this coupon" }]);
});

Deno.test("a failure of a replaced order leaves the current pending checkout and its reservation", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "SAVE20" });
  const first = await checkout(shop, user, kit.id);
  const current = await checkout(shop, user, kit.id, "SAVE20");
  const failed = webhookDelivery({ event: "payment.failed", orderId: first.body.order.id });
  const res = await shop.t.fetch("/api/webhooks/razorpay", {
    method: "POST",
    body: failed.body,
    headers: failed.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const record = (await shop.t.kv.get<PurchaseRecord>(["purchases", current.body.purchase.id])).value!;
  assertEquals([record.paymentStatus, record.gatewayOrderId], ["pending", current.body.order.id]);
  assertEquals(await usedCount(shop, "SAVE20"), 1, "the current checkout keeps its coupon reservation");
  const paid = webhookDelivery({ event: "payment.captured", orderId: current.body.order.id });
  await (await shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: paid.body, headers: paid.headers }))
    .body?.cancel();
  const after = (await shop.t.kv.get<PurchaseRecord>(["purchases", current.body.purchase.id])).value!;
  assertEquals([after.paymentStatus, after.amountPaid], ["paid", 39920]);
});

Deno.test("a second payment of an already paid purchase grants nothing more and is kept once as money due back", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "HALF", discountValue: 50 });
  const first = await checkout(shop, user, kit.id);
  const second = await checkout(shop, user, kit.id, "HALF");
  const deliver = async (event: "payment.captured" | "order.paid", orderId: string) => {
    const delivery = webhookDelivery({ event, orderId });
    const res = await shop.t.fetch("/api/webhooks/razorpay", {
      method: "POST",
      body: delivery.body,
      headers: delivery.headers,
    });
    await res.body?.cancel();
    return res.status;
  };
  const verify = await shop.t.json(
    "POST",
    `/api/toolkits/${kit.id}/verify`,
    { body: signedPayment(second.body.order.id), headers: user.headers },
  );
  assertEquals(verify.status, 200);
  await verify.body?.cancel();
  assertEquals(await deliver("payment.captured", second.body.order.id), 200);
  const record = async () => (await shop.t.kv.get<PurchaseRecord>(["purchases", second.body.purchase.id])).value!;
  assertEquals((await record()).extraPayments ?? [], []);

  const late = await Promise.all([
    deliver("payment.captured", first.body.order.id),
    deliver("order.paid", first.body.order.id),
  ]);
  assertEquals(late, [200, 200]);
  const after = await record();
  assertEquals([after.paymentStatus, after.gatewayOrderId, after.amountPaid], ["paid", second.body.order.id, 24950]);
  assertEquals(after.extraPayments?.map((p) => [p.orderId, p.amount]), [[first.body.order.id, 49900]]);
  assertEquals(await usedCount(shop, "HALF"), 1, "the coupon use of the order that paid");
});

Deno.test("paying the earlier full-price order after checking out again with a coupon releases the coupon's use", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "SAVE20" });
  const full = await checkout(shop, user, kit.id);
  const discounted = await checkout(shop, user, kit.id, "SAVE20");
  assertEquals(await usedCount(shop, "SAVE20"), 1);
  const verify = await shop.t.json(
    "POST",
    `/api/toolkits/${kit.id}/verify`,
    { body: signedPayment(full.body.order.id), headers: user.headers },
  );
  const { purchase } = await verify.json();
  assertEquals([purchase.amountPaid, purchase.couponId], [49900, null]);
  assertEquals(purchase.id, discounted.body.purchase.id);
  assertEquals(await usedCount(shop, "SAVE20"), 0, "the full price was paid: the coupon's use is given back");
});

/**
 * A buyer's checkout of a ₹499 toolkit (a coupon SAVE20 on offer) whose first try, of order A, was declined: the
 * purchase failed.
 */
async function declinedCheckout(shop: Shop) {
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "SAVE20" });
  const first = await checkout(shop, user, kit.id);
  const failed = webhookDelivery({ event: "payment.failed", orderId: first.body.order.id });
  await (await shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: failed.body, headers: failed.headers }))
    .body?.cancel();
  return { user, kit, first };
}

Deno.test("a failed checkout is taken up again: its order paid late pays it, the new order's payment is owed back", async () => {
  await using shop = await openShop();
  // The first try of order A is declined: the purchase fails, and the next checkout takes it up again.
  const { user, kit, first } = await declinedCheckout(shop);
  const second = await checkout(shop, user, kit.id, "SAVE20");
  assertEquals(second.status, 200);
  assertEquals(second.body.purchase.id, first.body.purchase.id);
  assertEquals(second.body.purchase.paymentStatus, "pending");
  assertEquals(await usedCount(shop, "SAVE20"), 1);
  const verify = (orderId: string) =>
    shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: signedPayment(orderId), headers: user.headers });
  // Order A is tried again in its still open window and paid: the purchase is paid on A's terms, without the coupon.
  const paidA = await verify(first.body.order.id);
  assertEquals(paidA.status, 200);
  const { purchase } = await paidA.json();
  assertEquals([purchase.paymentStatus, purchase.gatewayOrderId, purchase.amountPaid], [
    "paid",
    first.body.order.id,
    49900,
  ]);
  assertEquals(await usedCount(shop, "SAVE20"), 0, "the coupon's reservation is given back");
  // Order B is paid too: the purchase is paid already, so it grants nothing and is owed back.
  await (await verify(second.body.order.id)).body?.cancel();
  const record = (await shop.t.kv.get<PurchaseRecord>(["purchases", first.body.purchase.id])).value!;
  assertEquals(record.extraPayments?.map((p) => [p.orderId, p.amount, p.reason]), [
    [second.body.order.id, 39920, "already paid"],
  ]);
  assertEquals(await usedCount(shop, "SAVE20"), 0);
  assertEquals((await Array.fromAsync(shop.t.kv.list({ prefix: ["purchases_by_user", user.user.id] }))).length, 1);
});

Deno.test("a failed checkout's order paid late and a new checkout's order paid too (older data): one paid, one owed back", async () => {
  await using shop = await openShop();
  // The first try of order A is declined: the purchase fails, and the next checkout was a new purchase before.
  const { user, kit, first } = await declinedCheckout(shop);
  const failedId = first.body.purchase.id;
  const second = await checkoutBesideFailed(shop, user, { toolkitId: kit.id, failedId, couponCode: "SAVE20" });
  assertEquals(second.status, 200);
  assert(second.body.purchase.id !== first.body.purchase.id);
  assertEquals(await usedCount(shop, "SAVE20"), 1);
  const record = async (id: string) => (await shop.t.kv.get<PurchaseRecord>(["purchases", id])).value!;
  const verify = (orderId: string) =>
    shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: signedPayment(orderId), headers: user.headers });

  // Order A is tried again in its still open window and paid: the failed purchase becomes paid.
  const paidA = await verify(first.body.order.id);
  assertEquals([paidA.status, (await paidA.json()).purchase.paymentStatus], [200, "paid"]);
  // Order B is paid too: the toolkit is owned already, so it grants nothing and is owed back.
  const paidB = await verify(second.body.order.id);
  assertEquals([paidB.status, await paidB.json()], [409, { error: REFUSALS.alreadyOwned }]);
  const [p1, p2] = [await record(first.body.purchase.id), await record(second.body.purchase.id)];
  assertEquals([p1.paymentStatus, p1.extraPayments ?? []], ["paid", []]);
  assertEquals(p2.paymentStatus, "failed");
  assertEquals(p2.extraPayments?.map((p) => [p.orderId, p.amount, p.reason]), [
    [second.body.order.id, 39920, "already owned"],
  ]);
  assertEquals(await usedCount(shop, "SAVE20"), 0, "the owed-back order takes no coupon use");
  assertEquals((await shop.t.kv.get(["purchase_owned", user.user.id, kit.id])).value, p1.id);
  // The webhook of the same payment changes nothing more.
  const captured = webhookDelivery({ event: "payment.captured", orderId: second.body.order.id });
  await (await shop.t.fetch("/api/webhooks/razorpay", {
    method: "POST",
    body: captured.body,
    headers: captured.headers,
  }))
    .body?.cancel();
  assertEquals((await record(second.body.purchase.id)).extraPayments?.length, 1);
  // The admin's list shows it as a payment to give back.
  const list = await (await shop.t.fetch("/api/admin/purchases", { headers: shop.admin.headers })).json();
  const row = list.purchases.find((p: { id: string }) => p.id === p2.id);
  assertEquals(row.extraPayments.map((p: { reason: string; refund?: unknown }) => [p.reason, p.refund ?? null]), [
    ["already owned", null],
  ]);
});
