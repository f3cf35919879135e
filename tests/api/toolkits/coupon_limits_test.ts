/**
 * Coupon limits hold across checkouts started again and late payments (docs/decisions.md,
 * Toolkits and payments): paid purchases with a coupon never exceed its `usageLimit` in total nor its
 * `perUserLimit` per user, and `usedCount` always equals paid uses plus live reservations. A
 * reservation is kept while an order priced with it can still be paid; a payment whose coupon use
 * can no longer be had is recorded as owed back instead of granting the discount; an order priced while its coupon
 * was valid is honoured after the coupon was deactivated or expired.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser, type TestUser } from "@/tests/helpers/app.ts";
import { signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";

async function usedCount(shop: Shop, code: string): Promise<number> {
  const res = await shop.t.fetch(`/api/admin/coupons?search=${code}`, { headers: shop.admin.headers });
  return (await res.json()).coupons[0].usedCount;
}

async function purchases(shop: Shop): Promise<PurchaseRecord[]> {
  const records: PurchaseRecord[] = [];
  for await (const entry of shop.t.kv.list<PurchaseRecord>({ prefix: ["purchases"] })) records.push(entry.value);
  return records;
}

/** Paid purchases that carry `couponId`: every one of them, and those of `userId`. */
async function paidWith(shop: Shop, couponId: string, userId?: string): Promise<number> {
  return (await purchases(shop)).filter((p) =>
    p.paymentStatus === "paid" && p.couponId === couponId && (!userId || p.userId === userId)
  ).length;
}

/** Lets every reservation held by `purchaseId` lapse (KV expires keys lazily; the expiry time is what counts). */
async function lapse(shop: Shop, purchaseId: string) {
  for (const prefix of [["coupon_slots"], ["coupon_user_slots"]]) {
    for await (const entry of shop.t.kv.list<{ purchaseId: string }>({ prefix })) {
      if (entry.value.purchaseId !== purchaseId) continue;
      await shop.t.kv.set(entry.key, { ...entry.value, expiresAt: new Date(Date.now() - 1000).toISOString() });
    }
  }
}

async function deliver(shop: Shop, event: "payment.captured" | "order.paid", orderId: string) {
  const delivery = webhookDelivery({ event, orderId });
  const res = await shop.t.fetch("/api/webhooks/razorpay", {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
}

async function verify(shop: Shop, user: TestUser, toolkitId: string, orderId: string) {
  const res = await shop.t.json("POST", `/api/toolkits/${toolkitId}/verify`, {
    body: signedPayment(orderId),
    headers: user.headers,
  });
  return { status: res.status, body: await res.json() };
}

async function record(shop: Shop, id: string): Promise<PurchaseRecord> {
  return (await shop.t.kv.get<PurchaseRecord>(["purchases", id])).value!;
}

Deno.test("usageLimit 1: checking out again keeps the slot of the discounted order, so only one discounted purchase is paid", async () => {
  await using shop = await openShop();
  const [first, second] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 499 });
  const coupon = await addCoupon(shop, { code: "ONCE", usageLimit: 1, perUserLimit: 1 });

  const discounted = await checkout(shop, first, kit.id, "ONCE");
  assertEquals(discounted.body.finalPrice, 399.2);
  const full = await checkout(shop, first, kit.id);
  assertEquals(full.body.finalPrice, 499);
  assertEquals(await usedCount(shop, "ONCE"), 1, "the discounted order can still be paid: its slot is kept");
  const refused = await checkout(shop, second, kit.id, "ONCE");
  assertEquals([refused.status, refused.body], [400, { error: "Coupon usage limit reached" }]);

  await deliver(shop, "payment.captured", discounted.body.order.id);
  const paid = await record(shop, discounted.body.purchase.id);
  assertEquals([paid.paymentStatus, paid.amountPaid, paid.couponId], ["paid", 39920, coupon.id]);
  assertEquals(await usedCount(shop, "ONCE"), 1);
  assertEquals((await checkout(shop, second, kit.id, "ONCE")).body, { error: "Coupon usage limit reached" });
  assertEquals(await paidWith(shop, coupon.id), 1);
});

Deno.test("usageLimit 1: a discounted order paid after its slot lapsed and went to another buyer is owed back, not granted", async () => {
  await using shop = await openShop();
  const [first, second] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 499 });
  const coupon = await addCoupon(shop, { code: "ONCE", usageLimit: 1, perUserLimit: 1 });

  const discounted = await checkout(shop, first, kit.id, "ONCE");
  const full = await checkout(shop, first, kit.id);
  await lapse(shop, discounted.body.purchase.id);
  assertEquals(await usedCount(shop, "ONCE"), 0, "a lapsed reservation is not counted");
  const other = await checkout(shop, second, kit.id, "ONCE");
  assertEquals(other.status, 200);
  await deliver(shop, "order.paid", other.body.order.id);
  assertEquals(await usedCount(shop, "ONCE"), 1);

  const late = await verify(shop, first, kit.id, discounted.body.order.id);
  assertEquals(late.status, 409);
  assertEquals(late.body, { error: "This payment's coupon is no longer available: the payment will be refunded" });
  const after = await record(shop, discounted.body.purchase.id);
  assertEquals([after.paymentStatus, after.gatewayOrderId, after.couponId], ["pending", full.body.order.id, null]);
  assertEquals(
    after.extraPayments?.map((p) => [p.orderId, p.amount, p.reason]),
    [[discounted.body.order.id, 39920, "coupon unavailable"]],
  );
  assertEquals(await usedCount(shop, "ONCE"), 1);
  assertEquals(await paidWith(shop, coupon.id), 1);

  await deliver(shop, "payment.captured", full.body.order.id);
  const bought = await record(shop, discounted.body.purchase.id);
  assertEquals([bought.paymentStatus, bought.amountPaid, bought.couponId], ["paid", 49900, null]);
  assertEquals(await usedCount(shop, "ONCE"), 1);
});

Deno.test("perUserLimit 1: one user cannot pay two toolkits at the discount by checking out the first again", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kits = [await addToolkit(shop, { price: 499 }), await addToolkit(shop, { price: 499 })];
  const coupon = await addCoupon(shop, { code: "MINE", perUserLimit: 1, usageLimit: 10 });

  const discounted = await checkout(shop, user, kits[0].id, "MINE");
  await checkout(shop, user, kits[0].id);
  assertEquals(await usedCount(shop, "MINE"), 1);
  const second = await checkout(shop, user, kits[1].id, "MINE");
  assertEquals([second.status, second.body], [400, { error: "You have already used this coupon" }]);

  await deliver(shop, "payment.captured", discounted.body.order.id);
  assertEquals((await record(shop, discounted.body.purchase.id)).amountPaid, 39920);
  assertEquals((await checkout(shop, user, kits[1].id, "MINE")).body, { error: "You have already used this coupon" });
  assertEquals(await usedCount(shop, "MINE"), 1);
  assertEquals(await paidWith(shop, coupon.id, user.user.id), 1);
});

Deno.test("perUserLimit 1: the current discounted order paid after its use went to another toolkit fails and is owed back", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kits = [await addToolkit(shop, { price: 499 }), await addToolkit(shop, { price: 499 })];
  const coupon = await addCoupon(shop, { code: "MINE", perUserLimit: 1, usageLimit: 10 });

  const first = await checkout(shop, user, kits[0].id, "MINE");
  await lapse(shop, first.body.purchase.id);
  const second = await checkout(shop, user, kits[1].id, "MINE");
  assertEquals(second.status, 200);
  await deliver(shop, "payment.captured", second.body.order.id);
  assertEquals(await usedCount(shop, "MINE"), 1);

  await deliver(shop, "payment.captured", first.body.order.id);
  const after = await record(shop, first.body.purchase.id);
  assertEquals(after.paymentStatus, "failed");
  assertEquals(after.extraPayments?.map((p) => [p.orderId, p.amount, p.reason]), [[
    first.body.order.id,
    39920,
    "coupon unavailable",
  ]]);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kits[0].id}`, { headers: user.headers })).json();
  assertEquals(detail.hasPurchased, false);
  assertEquals(await usedCount(shop, "MINE"), 1);
  assertEquals(await paidWith(shop, coupon.id, user.user.id), 1);
  const again = await checkout(shop, user, kits[0].id);
  assertEquals([again.status, again.body.finalPrice], [200, 499]);
});

Deno.test("checking out again for free gives up the earlier orders' reservations: their payments are owed back", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "HALF", discountValue: 50, usageLimit: 1 });
  await addCoupon(shop, { code: "GIFT", discountValue: 100 });

  const half = await checkout(shop, user, kit.id, "HALF");
  const gift = await checkout(shop, user, kit.id, "GIFT");
  assertEquals([gift.body.free, gift.body.purchase.paymentStatus], [true, "paid"]);
  assertEquals([await usedCount(shop, "HALF"), await usedCount(shop, "GIFT")], [0, 1]);

  await deliver(shop, "payment.captured", half.body.order.id);
  const after = await record(shop, half.body.purchase.id);
  assertEquals([after.paymentStatus, after.amountPaid], ["paid", 0]);
  assertEquals(after.extraPayments?.map((p) => [p.orderId, p.reason]), [[half.body.order.id, "already paid"]]);
  assertEquals([await usedCount(shop, "HALF"), await usedCount(shop, "GIFT")], [0, 1]);
});

Deno.test("an order priced while its coupon was valid is honoured after the coupon was deactivated or expired", async () => {
  await using shop = await openShop();
  const [ana, ben] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 499 });
  const leaked = await addCoupon(shop, { code: "LEAKED90", discountValue: 90 });
  const ending = await addCoupon(shop, { code: "ENDING10", discountValue: 10 });
  const [a, b] = [await checkout(shop, ana, kit.id, "LEAKED90"), await checkout(shop, ben, kit.id, "ENDING10")];
  assertEquals([a.body.finalPrice, b.body.finalPrice], [49.9, 449.1]);

  // The admin deactivates one; the other's expiry passes. New checkouts with them are refused.
  const off = await shop.t.json("PATCH", `/api/admin/coupons/${leaked.id}`, {
    body: { isActive: false },
    headers: shop.admin.headers,
  });
  assertEquals(off.status, 200);
  await off.body?.cancel();
  const stored = await shop.t.kv.get<{ expiresAt: string | null }>(["coupons", ending.id]);
  await shop.t.kv.set(stored.key, { ...stored.value, expiresAt: new Date(Date.now() - 1000).toISOString() });
  const refused = [await checkout(shop, ben, kit.id, "LEAKED90"), await checkout(shop, ana, kit.id, "ENDING10")];
  assertEquals(refused.map((r) => [r.status, r.body.error]), [
    [400, "Coupon is not active"],
    [400, "Coupon has expired"],
  ]);
  // Ana's reservation lapses too before she pays: the use is taken again, as the limits still allow.
  await lapse(shop, a.body.purchase.id);

  // Each buyer paid what the order showed them: the purchase is paid at that price, and the use counts.
  for (const [user, started] of [[ana, a], [ben, b]] as const) {
    const paid = await verify(shop, user, kit.id, started.body.order.id);
    assertEquals(paid.status, 200, JSON.stringify(paid.body));
  }
  const [pa, pb] = [await record(shop, a.body.purchase.id), await record(shop, b.body.purchase.id)];
  assertEquals([pa.paymentStatus, pa.amountPaid, pa.couponId], ["paid", 4990, leaked.id]);
  assertEquals([pb.paymentStatus, pb.amountPaid, pb.couponId], ["paid", 44910, ending.id]);
  assertEquals([await usedCount(shop, "LEAKED90"), await usedCount(shop, "ENDING10")], [1, 1]);
});
