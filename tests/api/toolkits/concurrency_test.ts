import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, checkout, openShop } from "@/tests/fixtures/toolkits.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";

Deno.test("25 buyers at once on a coupon with usage limit 5: exactly 5 reservations, 20 'Coupon usage limit reached'", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "FIVE", usageLimit: 5 });
  const buyers = await Promise.all(Array.from({ length: 25 }, () => createTestUser(shop.t)));
  const answers = await Promise.all(buyers.map((buyer) => checkout(shop, buyer, kit.id, "FIVE")));
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status !== 200);
  assertEquals(ok.length, 5);
  assertEquals(refused.map((a) => [a.status, a.body.error]), Array(20).fill([400, "Coupon usage limit reached"]));
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons[0].usedCount, 5);
  let pending = 0;
  for await (const _ of shop.t.kv.list({ prefix: ["purchase_pending"] })) pending++;
  assertEquals(pending, 5);
});

Deno.test("one user checking out twice at once with a per-user limit of 1 gets one reservation", async () => {
  await using shop = await openShop();
  const a = await addToolkit(shop);
  const b = await addToolkit(shop);
  await addCoupon(shop, { code: "PERUSER", perUserLimit: 1 });
  const user = await createTestUser(shop.t);
  const answers = await Promise.all([checkout(shop, user, a.id, "PERUSER"), checkout(shop, user, b.id, "PERUSER")]);
  assertEquals(answers.map((x) => x.status).sort(), [200, 400]);
  assertEquals(answers.find((x) => x.status === 400)!.body, { error: "You have already used this coupon" });
});

Deno.test("a reservation past its 30 minutes frees its use", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "SOLO", usageLimit: 1 });
  const first = await createTestUser(shop.t);
  const second = await createTestUser(shop.t);
  assertEquals((await checkout(shop, first, kit.id, "SOLO")).status, 200);
  assertEquals((await checkout(shop, second, kit.id, "SOLO")).body, { error: "Coupon usage limit reached" });
  // Let the reservation lapse: KV deletes expired keys lazily, so its expiry time is what counts on read.
  for await (const entry of shop.t.kv.list<{ expiresAt: string }>({ prefix: ["coupon_slots"] })) {
    await shop.t.kv.set(entry.key, { ...entry.value, expiresAt: new Date(Date.now() - 1000).toISOString() });
  }
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons[0].usedCount, 0);
  assertEquals((await checkout(shop, second, kit.id, "SOLO")).status, 200);
});

Deno.test("10 simultaneous deliveries of one webhook event make one state change", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addCoupon(shop, { code: "USEONCE", usageLimit: 2 });
  const user = await createTestUser(shop.t);
  const started = await checkout(shop, user, kit.id, "USEONCE");
  const delivery = webhookDelivery({ event: "payment.captured", orderId: started.body.order.id });
  const answers = await Promise.all(
    Array.from(
      { length: 10 },
      () => shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: delivery.body, headers: delivery.headers }),
    ),
  );
  assertEquals(answers.map((r) => r.status), Array(10).fill(200));
  await Promise.all(answers.map((r) => r.body?.cancel()));
  const record = (await shop.t.kv.get<PurchaseRecord>(["purchases", started.body.purchase.id])).value!;
  assertEquals(record.paymentStatus, "paid");
  assertEquals(record.history.map((h) => h.status), ["pending", "paid"]);
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons[0].usedCount, 1);
});
