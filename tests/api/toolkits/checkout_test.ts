import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { FAKE_KEYS, signedPayment } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { HISTORY_KEPT, ORDERS_KEPT, type PurchaseRecord } from "@/lib/purchases/purchases.ts";

async function storedKeys(shop: Shop, prefixes: string[]): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for (const prefix of prefixes) for await (const e of shop.t.kv.list({ prefix: [prefix] })) keys.push(e.key);
  return keys;
}

const PURCHASE_AND_COUPON_PREFIXES = [
  "purchases",
  "purchases_by_user",
  "purchases_by_order",
  "purchase_pending",
  "purchase_owned",
  "coupon_slots",
  "coupon_user_slots",
];

Deno.test("POST /api/toolkits/{id}: every field of the purchase initiation response, a pending purchase and a gateway order", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499, title: "Resume Toolkit" });
  const res = await shop.t.json("POST", `/api/toolkits/${kit.id}`, { body: {}, headers: user.headers });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  const order = shop.fake.orders[0];
  assertEquals(body.order, { id: order.id, amount: 49900, currency: "INR" });
  assertEquals(order.receipt, body.purchase.id);
  assertEquals(body.key, FAKE_KEYS.RAZORPAY_KEY_ID);
  assertEquals([body.success, body.free, body.discountAmount, body.finalPrice], [true, false, 0, 499]);
  assertEquals(body.toolkit, { id: kit.id, title: "Resume Toolkit", price: 499 });
  assertEquals({ ...body.purchase, id: "", createdAt: "", updatedAt: "" }, {
    id: "",
    userId: user.user.id,
    toolkitId: kit.id,
    gatewayOrderId: order.id,
    paymentStatus: "pending",
    amountPaid: 49900,
    couponId: null,
    creditNotes: [],
    refundedParts: [],
    createdAt: "",
    updatedAt: "",
  });
});

Deno.test("POST /api/toolkits/{id}: guests 401, unknown or inactive toolkit 404, bad body 400", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const draft = await addToolkit(shop, { isActive: false });
  assertEquals((await shop.t.json("POST", `/api/toolkits/${kit.id}`, { body: {} })).status, 401);
  for (const id of [draft.id, crypto.randomUUID()]) {
    const { status, body } = await checkout(shop, user, id);
    assertEquals([status, body], [404, { error: "Toolkit not found" }]);
  }
  assertEquals(
    (await shop.t.json("POST", `/api/toolkits/${kit.id}`, { body: { couponCode: 5 }, headers: user.headers })).status,
    400,
  );
  const malformed = await shop.t.fetch(`/api/toolkits/${kit.id}`, {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals([malformed.status, await malformed.json()], [400, { error: "Invalid JSON body" }]);
  assertEquals(await storedKeys(shop, PURCHASE_AND_COUPON_PREFIXES), []);
});

Deno.test("a failing gateway gives 502 'Payment gateway unavailable' and leaves no purchase and no reservation behind", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "LIMITED", usageLimit: 1 });
  shop.fake.mode = "fail";
  const failed = await checkout(shop, user, kit.id, "LIMITED");
  assertEquals([failed.status, failed.body], [502, { error: "Payment gateway unavailable" }]);
  assertEquals(await storedKeys(shop, PURCHASE_AND_COUPON_PREFIXES), []);
  shop.fake.mode = "ok";
  const other = await createTestUser(shop.t);
  assertEquals((await checkout(shop, other, kit.id, "LIMITED")).status, 200);
});

Deno.test("a gateway that does not answer times out into 502 and leaves nothing behind", async () => {
  await using shop = await openShop({ gatewayTimeoutMs: 300 });
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "LIMITED", usageLimit: 1 });
  shop.fake.mode = "hang";
  // The fake never answers: only the timeout ends the request.
  const hung = await checkout(shop, user, kit.id, "LIMITED");
  assertEquals([hung.status, hung.body], [502, { error: "Payment gateway unavailable" }]);
  assertEquals(await storedKeys(shop, PURCHASE_AND_COUPON_PREFIXES), []);
});

Deno.test("starting checkout again for the same toolkit replaces the pending purchase; the earlier order keeps its reservation", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "ONE", usageLimit: 1 });
  await addCoupon(shop, { code: "TWO", discountType: "fixed", discountValue: 100, usageLimit: 1 });
  const first = await checkout(shop, user, kit.id, "ONE");
  const second = await checkout(shop, user, kit.id, "ONE");
  assertEquals([first.status, second.status], [200, 200]);
  assertEquals(second.body.purchase.id, first.body.purchase.id);
  assert(second.body.order.id !== first.body.order.id);
  const third = await checkout(shop, user, kit.id, "TWO");
  assertEquals([third.status, third.body.finalPrice], [200, 399]);
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(
    Object.fromEntries(coupons.map((c: { code: string; usedCount: number }) => [c.code, c.usedCount])),
    { ONE: 1, TWO: 1 },
  );
  const other = await createTestUser(shop.t);
  assertEquals((await checkout(shop, other, kit.id, "ONE")).body, { error: "Coupon usage limit reached" });
  const { purchases } = await (await shop.t.fetch("/api/purchases", { headers: user.headers })).json();
  assertEquals(purchases.length, 1);
  assertEquals([purchases[0].paymentStatus, purchases[0].amountPaid], ["pending", 39900]);
});

Deno.test("GET /api/purchases: 401 for guests; the caller's own purchases only, newest first, with their toolkit", async () => {
  await using shop = await openShop();
  assertEquals((await shop.t.fetch("/api/purchases")).status, 401);
  const user = await createTestUser(shop.t);
  const other = await createTestUser(shop.t);
  const a = await addToolkit(shop, { title: "A" });
  const b = await addToolkit(shop, { title: "B" });
  await checkout(shop, user, a.id);
  await new Promise((r) => setTimeout(r, 2));
  await checkout(shop, user, b.id);
  await checkout(shop, other, a.id);
  const { purchases } = await (await shop.t.fetch("/api/purchases", { headers: user.headers })).json();
  assertEquals(purchases.map((p: { toolkit: { title: string } }) => p.toolkit), [{ id: b.id, title: "B" }, {
    id: a.id,
    title: "A",
  }]);
  assert(purchases.every((p: { userId: string }) => p.userId === user.user.id));
});

Deno.test("checkout started again hundreds of times keeps the purchase record small; its first order's payment settles", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "HALF", discountValue: 50 });
  // The route allows 60 checkouts per 10 minutes per person: the function itself is called, as the route does.
  const { payments } = shop.t.services;
  const start = (couponCode?: string) =>
    initiatePurchase(shop.t.kv, {
      payments,
      user: user.user,
      toolkitId: kit.id,
      couponCode,
      buyerState: "Andaman and Nicobar Islands",
    });
  const first = await start("HALF");
  // About 230 bytes an order with its history entry: 300 orders on one record would pass KV's 64 KiB (a write of it
  // throws "Value too large").
  for (let i = 0; i < 300; i++) await start();
  const stored = await shop.t.kv.get<PurchaseRecord>(["purchases", first.purchase.id]);
  assert(new TextEncoder().encode(JSON.stringify(stored.value)).length < 16 * 1024);
  assertEquals(Object.keys(stored.value!.orders).length, ORDERS_KEPT);
  assert(stored.value!.history.length <= HISTORY_KEPT);
  const again = await checkout(shop, user, kit.id);
  assertEquals(again.status, 200);
  assertEquals(again.body.purchase.id, first.purchase.id);

  // The first order, long off the record, is paid: it settles with its own terms (the coupon's half price).
  const verify = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(first.order!.id),
    headers: user.headers,
  });
  assertEquals(verify.status, 200);
  const { purchase } = await verify.json();
  assertEquals([purchase.paymentStatus, purchase.amountPaid, purchase.gatewayOrderId], [
    "paid",
    24950,
    first.order!.id,
  ]);
  assertEquals(purchase.couponId, first.purchase.couponId);
  // The latest order paid too is owed back, with its own amount.
  const latest = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(again.body.order.id),
    headers: user.headers,
  });
  assertEquals(latest.status, 200);
  await latest.body?.cancel();
  const after = (await shop.t.kv.get<PurchaseRecord>(["purchases", first.purchase.id])).value!;
  assertEquals(after.extraPayments?.map((p) => [p.orderId, p.amount, p.reason]), [
    [again.body.order.id, 49900, "already paid"],
  ]);
});
