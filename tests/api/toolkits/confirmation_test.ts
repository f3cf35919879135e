import { assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { fakePaymentId, signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addLesson, addToolkit, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";

async function purchaseRecord(shop: Shop, id: string): Promise<PurchaseRecord> {
  return (await shop.t.kv.get<PurchaseRecord>(["purchases", id])).value!;
}

function deliver(shop: Shop, delivery: { body: string; headers: Record<string, string> }) {
  return shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: delivery.body, headers: delivery.headers });
}

Deno.test("verify: a good signature marks the caller's purchase paid and unlocks the toolkit", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, user, kit.id);
  const res = await shop.t.json(
    "POST",
    `/api/toolkits/${kit.id}/verify`,
    { body: signedPayment(started.body.order.id), headers: user.headers },
  );
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals([body.success, body.purchase.paymentStatus, body.purchase.id], [true, "paid", started.body.purchase.id]);
  assertEquals(
    (await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: user.headers })).json()).hasPurchased,
    true,
  );
  const again = await checkout(shop, user, kit.id);
  assertEquals([again.status, again.body], [400, { error: "Toolkit already purchased" }]);
});

Deno.test("verify: a bad signature is 400 'Invalid payment signature' and changes nothing", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, user, kit.id);
  const proof = signedPayment(started.body.order.id);
  for (
    const bad of [
      { ...proof, razorpay_signature: "0".repeat(64) },
      { ...proof, razorpay_payment_id: fakePaymentId() },
      { ...proof, razorpay_signature: "not-hex" },
    ]
  ) {
    const res = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: bad, headers: user.headers });
    assertEquals([res.status, await res.json()], [400, { error: "Invalid payment signature" }]);
  }
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "pending");
  assertEquals(
    (await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: {}, headers: user.headers })).status,
    400,
  );
  assertEquals((await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: proof })).status, 401);
});

Deno.test("verify: another user's order is refused with 403 even with a valid signature; another toolkit's is 404", async () => {
  await using shop = await openShop();
  const owner = await createTestUser(shop.t);
  const thief = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const otherKit = await addToolkit(shop);
  const started = await checkout(shop, owner, kit.id);
  const proof = signedPayment(started.body.order.id);
  const res = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, { body: proof, headers: thief.headers });
  assertEquals(res.status, 403);
  assertEquals(
    (await shop.t.json("POST", `/api/toolkits/${otherKit.id}/verify`, { body: proof, headers: owner.headers })).status,
    404,
  );
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "pending");
  assertEquals(
    (await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: thief.headers })).json()).hasPurchased,
    false,
  );
});

Deno.test("webhook: payment.captured and order.paid mark the purchase paid; unknown orders and events are acknowledged", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kitA = await addToolkit(shop);
  const kitB = await addToolkit(shop);
  const a = await checkout(shop, user, kitA.id);
  const b = await checkout(shop, user, kitB.id);
  for (const [event, started] of [["payment.captured", a], ["order.paid", b]] as const) {
    const res = await deliver(shop, webhookDelivery({ event, orderId: started.body.order.id }));
    assertEquals([res.status, await res.json()], [200, { received: true }]);
    assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "paid");
  }
  const unknown = await deliver(shop, webhookDelivery({ event: "payment.captured", orderId: "order_unknown123" }));
  assertEquals([unknown.status, await unknown.json()], [200, { received: true }]);
});

Deno.test("webhook: a bad or missing signature is 400 and changes nothing; no session or Origin is needed", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, user, kit.id);
  const good = webhookDelivery({ event: "payment.captured", orderId: started.body.order.id });
  const tampered = { body: good.body.replace("captured", "capturex"), headers: good.headers };
  const unsigned = { body: good.body, headers: { ...good.headers, "x-razorpay-signature": "" } };
  for (const delivery of [tampered, unsigned]) {
    const res = await deliver(shop, delivery);
    assertEquals(res.status, 400);
  }
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "pending");
  const crossSite = await shop.t.fetch("/api/webhooks/razorpay", {
    method: "POST",
    body: good.body,
    headers: { ...good.headers, cookie: user.cookie, origin: "https://evil.example" },
  });
  assertEquals(crossSite.status, 200);
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "paid");
});

Deno.test("webhook: the same event delivered again changes nothing more", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, user, kit.id);
  const failed = webhookDelivery({ event: "payment.failed", orderId: started.body.order.id });
  assertEquals((await deliver(shop, failed)).status, 200);
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "failed");
  const captured = webhookDelivery({ event: "payment.captured", orderId: started.body.order.id });
  assertEquals((await deliver(shop, captured)).status, 200);
  assertEquals((await deliver(shop, captured)).status, 200);
  assertEquals((await deliver(shop, failed)).status, 200);
  const record = await purchaseRecord(shop, started.body.purchase.id);
  assertEquals(record.history.map((h) => h.status), ["pending", "failed", "paid"]);
});

Deno.test("webhook: payment.failed marks the purchase failed and frees its coupon use", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const other = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "LAST", usageLimit: 1 });
  const started = await checkout(shop, user, kit.id, "LAST");
  assertEquals((await checkout(shop, other, kit.id, "LAST")).body, { error: "Coupon usage limit reached" });
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.failed", orderId: started.body.order.id }))).status,
    200,
  );
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "failed");
  assertEquals((await checkout(shop, other, kit.id, "LAST")).status, 200);
});

Deno.test("progress: buyers mark lessons complete and back; non-buyers 403, guests 401, foreign lessons 404", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const stranger = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const otherKit = await addToolkit(shop);
  const one = await addLesson(shop, kit.id, { title: "One" });
  const two = await addLesson(shop, kit.id, { title: "Two" });
  const foreign = await addLesson(shop, otherKit.id);
  const started = await checkout(shop, buyer, kit.id);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(started.body.order.id),
    headers: buyer.headers,
  });
  const mark = (who: typeof buyer | undefined, contentItemId: string, completed: boolean) =>
    shop.t.json("POST", `/api/toolkits/${kit.id}/progress`, {
      body: { contentItemId, completed },
      headers: who?.headers,
    });
  assertEquals(await (await mark(buyer, two.id, true)).json(), { completedItemIds: [two.id], certificateUrl: null });
  const all = await (await mark(buyer, one.id, true)).json();
  assertEquals(all.completedItemIds, [one.id, two.id]);
  assertMatch(all.certificateUrl, /^\/certificates\/[0-9a-f-]{36}$/);
  // The certificate, once issued, stays when a lesson is marked not done again.
  assertEquals(await (await mark(buyer, two.id, false)).json(), {
    completedItemIds: [one.id],
    certificateUrl: all.certificateUrl,
  });
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.completedItemIds, [one.id]);
  assertEquals((await mark(stranger, one.id, true)).status, 403);
  assertEquals((await mark(undefined, one.id, true)).status, 401);
  assertEquals((await mark(buyer, foreign.id, true)).status, 404);
  const bad = await shop.t.json("POST", `/api/toolkits/${kit.id}/progress`, {
    body: { contentItemId: one.id },
    headers: buyer.headers,
  });
  assertEquals(bad.status, 400);
});

Deno.test("a payment confirmed after its reservation was released or lapsed takes its coupon use again", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "TWICE", usageLimit: 2 });
  const usedCount = async () =>
    (await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json()).coupons[0].usedCount;
  const first = await createTestUser(shop.t);
  const started = await checkout(shop, first, kit.id, "TWICE");
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.failed", orderId: started.body.order.id }))).status,
    200,
  );
  assertEquals(await usedCount(), 0);
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.captured", orderId: started.body.order.id }))).status,
    200,
  );
  assertEquals(await usedCount(), 1);

  const second = await createTestUser(shop.t);
  const late = await checkout(shop, second, kit.id, "TWICE");
  for await (const entry of shop.t.kv.list<{ purchaseId: string }>({ prefix: ["coupon_slots"] })) {
    if (entry.value.purchaseId === late.body.purchase.id) {
      await shop.t.kv.set(entry.key, { ...entry.value, expiresAt: new Date(Date.now() - 1000).toISOString() });
    }
  }
  assertEquals(await usedCount(), 1);
  const res = await shop.t.json(
    "POST",
    `/api/toolkits/${kit.id}/verify`,
    { body: signedPayment(late.body.order.id), headers: second.headers },
  );
  assertEquals(res.status, 200);
  assertEquals(await usedCount(), 2);
  const third = await createTestUser(shop.t);
  assertEquals((await checkout(shop, third, kit.id, "TWICE")).body, { error: "Coupon usage limit reached" });
});

Deno.test("paying the earlier order of a replaced checkout records that order and its amount", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "LATER20" });
  const first = await checkout(shop, user, kit.id);
  const second = await checkout(shop, user, kit.id, "LATER20");
  assertEquals(second.body.purchase.id, first.body.purchase.id);
  assertEquals(second.body.purchase.amountPaid, 39920);
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "order.paid", orderId: first.body.order.id }))).status,
    200,
  );
  const record = await purchaseRecord(shop, first.body.purchase.id);
  assertEquals([record.paymentStatus, record.gatewayOrderId, record.amountPaid], ["paid", first.body.order.id, 49900]);
});
