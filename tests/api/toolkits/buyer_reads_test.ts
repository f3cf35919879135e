/**
 * A buyer's purchases of one toolkit (docs/decisions.md, Toolkits and payments, "A buyer's purchases of one toolkit"):
 * the toolkit page finds the buyer's unfinished checkout by reading their latest purchase of that toolkit alone,
 * whatever else they bought, once the `purchase-toolkit-index` job indexed the purchases made before the index; until
 * then it reads them all and answers the same. Every write keeps the entries; the account's deletion takes them. A
 * checkout whose payment failed is taken up again by the next one, so failed tries never pile up purchases to read.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, addToolkitWithLessons, checkout, openShop } from "@/tests/fixtures/toolkits.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import { forgetBuyer, ORDERS_KEPT, type PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";

const OWNED = 40;

Deno.test("the toolkit page of a buyer of 40 toolkits reads their latest purchase of that toolkit alone", async () => {
  const reads = kvReads();
  await using shop = await openShop({ kvReads: reads });
  const { t } = shop;
  const buyer = await createTestUser(t, "user", { name: "Keen Buyer" });
  for (let i = 0; i < OWNED; i++) {
    const free = await addToolkit(shop, { title: `Free toolkit ${i}`, price: 0 });
    await initiatePurchase(t.kv, { payments: null, user: buyer.user, toolkitId: free.id });
  }
  const wanted = await addToolkit(shop, { title: "Interview Toolkit", price: 499 });
  await addCoupon(shop, { code: "SAVE20" });
  assertEquals((await checkout(shop, buyer, wanted.id)).status, 200);
  assertEquals((await checkout(shop, buyer, wanted.id, "SAVE20")).status, 200, "checked out again, with the coupon");
  const entries = () => Array.fromAsync(t.kv.list({ prefix: ["purchases_by_user_toolkit", buyer.user.id] }));
  assertEquals((await entries()).length, OWNED + 1, "one entry a purchase: checking out again moved it");

  /** The page as the buyer gets it, and the purchase records and index entries it read. */
  const page = async () => {
    const [keys, lists] = [reads.keys.length, reads.lists.length];
    const res = await t.fetch(`/toolkits/${wanted.id}`, { headers: buyer.headers });
    assertEquals(res.status, 200);
    const html = await res.text();
    const purchases = reads.keys.slice(keys).filter((key) => key[0] === "purchases").length;
    const listed = reads.lists.slice(lists).filter(({ selector }) =>
      "prefix" in selector && String(selector.prefix[0]).startsWith("purchases_by_user")
    ).reduce((sum, { listed }) => sum + listed, 0);
    return { resumed: html.includes("SAVE20"), purchases, listed };
  };
  // As an earlier version stored them: no entries by toolkit, no backfill yet.
  for (const { key } of await entries()) await t.kv.delete(key);
  assertEquals(await page(), { resumed: true, purchases: OWNED + 1, listed: OWNED + 1 }, "before, every purchase");

  const job = findJob("purchase-toolkit-index")!;
  assertEquals(await runJob(job, t.services), { job: "purchase-toolkit-index", indexed: OWNED + 1 });
  assertEquals(await runJob(job, t.services), { job: "purchase-toolkit-index", indexed: 0 });
  assertEquals(await page(), { resumed: true, purchases: 1, listed: 1 }, "once indexed, the latest purchase alone");

  await forgetBuyer(t.kv, buyer.user.id);
  assertEquals(await entries(), [], "the account's deletion takes the entries");
});

Deno.test("checkouts whose payments fail again and again stay one purchase: the lesson page reads one record", async () => {
  const reads = kvReads();
  await using shop = await openShop({ kvReads: reads });
  const { t } = shop;
  const buyer = await createTestUser(t, "user", { name: "Stubborn Buyer" });
  const { toolkit, lessons } = await addToolkitWithLessons(shop, { price: 499, lessons: ["Locked lesson"] });
  assertEquals((await runJob(findJob("purchase-toolkit-index")!, t.services)).indexed, 0);
  const tries = ORDERS_KEPT + 5;
  const orders: string[] = [];
  for (let i = 0; i < tries; i++) {
    const started = await checkout(shop, buyer, toolkit.id);
    assertEquals(started.status, 200);
    orders.push(started.body.order.id);
    const failed = webhookDelivery({ event: "payment.failed", orderId: started.body.order.id });
    const res = await t.fetch("/api/webhooks/razorpay", { method: "POST", body: failed.body, headers: failed.headers });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const ids = (await Array.fromAsync(t.kv.list<string>({ prefix: ["purchases_by_user", buyer.user.id] })))
    .map((entry) => entry.value);
  assertEquals(ids.length, 1, "each try took the failed purchase up again");
  const record = (await t.kv.get<PurchaseRecord>(["purchases", ids[0]])).value!;
  assertEquals([record.paymentStatus, record.gatewayOrderId], ["failed", orders.at(-1)]);
  assertEquals(Object.keys(record.orders), orders.slice(-ORDERS_KEPT), "older orders moved to their own keys");

  const keys = reads.keys.length;
  const res = await t.fetch(`/toolkits/${toolkit.id}/learn/${lessons[0].id}`, { headers: buyer.headers });
  assertEquals([res.status, res.headers.get("location")], [302, `/toolkits/${toolkit.id}`]);
  assertEquals(reads.keys.slice(keys).filter((key) => key[0] === "purchases").length, 1);

  // The first order, tried again in its open window and paid, still makes the purchase paid on its own terms.
  const verify = await t.json("POST", `/api/toolkits/${toolkit.id}/verify`, {
    body: signedPayment(orders[0]),
    headers: buyer.headers,
  });
  assertEquals(verify.status, 200);
  const { purchase } = await verify.json();
  assertEquals([purchase.id, purchase.paymentStatus, purchase.amountPaid], [ids[0], "paid", 49900]);
  const lesson = await t.fetch(`/toolkits/${toolkit.id}/learn/${lessons[0].id}`, { headers: buyer.headers });
  assertEquals(lesson.status, 200);
  await lesson.body?.cancel();
});
