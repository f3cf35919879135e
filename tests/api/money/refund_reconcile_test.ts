/**
 * Refunds no event told us of (docs/decisions.md, Money operations): the daily `reconcile-refunds` lists the refunds
 * the gateway made and applies each processed one no write took, once, as its `refund.processed` would have been.
 */
import { assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestUser, type TestUser } from "@/tests/helpers/app.ts";
import { type FakeRefund, refundProcessedDelivery, signedPayment } from "@/tests/fakes/razorpay.ts";
import { addToolkit, buy, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord, recount, refund, stored } from "./helpers.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { UpstreamError } from "@/lib/errors.ts";
import { getPurchaseEntry } from "@/lib/purchases/purchases.ts";

const HOUR = 60 * 60 * 1000;

/** Runs `reconcile-refunds` as the cron would, now. */
function reconcile(shop: Shop) {
  return runJob(findJob("reconcile-refunds")!, shop.t.services);
}

/** The gateway processes refund `made` (as the bank's confirmation does), made `ago` ms before now. */
function processed(shop: Shop, made: Pick<FakeRefund, "id">, ago = 0): void {
  const held = shop.fake.refunds.find((r) => r.id === made.id)!;
  held.status = "processed";
  held.created_at = Math.floor((Date.now() - ago) / 1000);
}

/**
 * A ₹500 toolkit's checkout by `buyer` paid at the gateway (a captured payment) whose events never reached us: its
 * purchase still pending.
 */
async function paidUnconfirmed(shop: Shop, buyer: TestUser) {
  const kit = await addToolkit(shop, { price: 500 });
  const started = await checkout(shop, buyer, kit.id);
  const [orderId, purchaseId] = [started.body.order.id as string, started.body.purchase.id as string];
  return { kit, orderId, purchaseId, payment: shop.fake.addPayment(orderId, "captured") };
}

Deno.test("a refund in the gateway's dashboard whose event never came is applied by the daily run, once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const made = await shop.fake.refundInDashboard(payment.id);

  // Pending at the gateway, or made within the hour: not taken.
  shop.fake.refunds.find((r) => r.id === made.id)!.created_at -= 2 * HOUR / 1000;
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 0, applied: 0, known: 0, left: 0 });
  processed(shop, made, HOUR / 2);
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 0, applied: 0, known: 0, left: 0 });
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  processed(shop, made, 2 * HOUR);

  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 1, known: 0, left: 0 });
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.paymentStatus, record.refund?.id, record.refund?.by, record.refund?.status], [
    "refunded",
    made.id,
    "gateway",
    "processed",
  ]);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, false);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));

  // Run again, and the event arriving late: nothing more.
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 0 });
  const late = await deliver(shop, refundProcessedDelivery(made, { orderId }));
  assertEquals(late.status, 200);
  await late.body?.cancel();
  assertEquals(await purchaseRecord(shop, purchaseId), record);
  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assertEquals(notes.map((n: { type: string }) => n.type), ["purchase_refunded", "purchase_paid"]);
  await shop.t.settled();
  const mails = shop.t.mails.filter((m) => m.to === buyer.user.email && m.subject.includes("refund"));
  assertEquals(mails.map((m) => m.subject), ["Your refund for Resume Toolkit"]);
});

Deno.test("the run and the late event at once apply a dashboard refund once; a part is kept as a part", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  processed(shop, part, 3 * HOUR);
  const [ran, res] = await Promise.all([reconcile(shop), deliver(shop, refundProcessedDelivery(part, { orderId }))]);
  assertEquals(res.status, 200);
  await res.body?.cancel();
  assertEquals(ran.listed, 1);
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals(record.paymentStatus, "paid");
  assertEquals(record.gatewayPartialRefunds?.map((p) => [p.id, p.amount]), [[part.id, 10000]]);
  await shop.t.settled();
  const mails = shop.t.mails.filter((m) => m.to === buyer.user.email && m.subject.includes("refund"));
  assertEquals(mails.length, 1, "one e-mail for the part");
});

Deno.test("our refund whose processed event never came is marked processed; a page past 100 is read", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  assertEquals((await purchaseRecord(shop, purchaseId)).refund?.status, "pending");
  const ours = shop.fake.refunds.find((r) => r.notes.purchaseId === purchaseId)!;
  processed(shop, ours, 5 * HOUR);
  // 150 newer refunds of purchases this platform does not hold (another deployment on the same account).
  for (let i = 0; i < 150; i++) {
    shop.fake.refunds.push({ ...ours, id: `rfnd_other${i}`, notes: { purchaseId: `other-${i}` } });
    processed(shop, shop.fake.refunds.at(-1)!, 4 * HOUR);
  }
  const calls = shop.fake.calls.length;
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 151, applied: 0, known: 1, left: 0 });
  assertEquals(shop.fake.calls.slice(calls), ["GET /v1/refunds", "GET /v1/refunds"]);
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.paymentStatus, record.refund?.status], ["refunded", "processed"]);

  shop.fake.mode = "fail";
  await assertRejects(() => reconcile(shop), UpstreamError);
});

Deno.test("a dashboard refund of a payment of no purchase here is read once and changes nothing", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId } = await buy(shop, buyer, kit.id);
  const before = await purchaseRecord(shop, purchaseId);
  const stranger = shop.fake.addPayment(orderId.replace("order_", "order_x"), "captured", { amount: 50000 });
  processed(shop, await shop.fake.refundInDashboard(stranger.id), 3 * HOUR);
  const calls = shop.fake.calls.length;
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 0 });
  assertEquals(shop.fake.calls.slice(calls), ["GET /v1/refunds", `GET /v1/payments/${stranger.id}`]);
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 0 });
  assertEquals(shop.fake.calls.slice(calls).length, 3, "the payment is not read again");
  assertEquals(await purchaseRecord(shop, purchaseId), before);
});

Deno.test("our refund of a purchase paid without a payment id, whose write was lost, is applied by the run", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, payment } = await buy(shop, buyer, kit.id);
  // Paid by an event that carried no payment id (older data); an admin's refund reached the gateway, not our records.
  const entry = await getPurchaseEntry(shop.t.kv, purchaseId);
  await shop.t.kv.set(entry.key, { ...entry.value!, paymentId: null });
  const made = await shop.t.services.payments!.refund(payment.id, 50000, purchaseId);
  processed(shop, made, 2 * HOUR);

  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 1, known: 0, left: 0 });
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.paymentStatus, record.refund?.id], ["refunded", made.id]);
});

Deno.test("a part refunded before its purchase is confirmed waits for the confirmation, then is kept", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const { kit, orderId, purchaseId, payment } = await paidUnconfirmed(shop, buyer);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  processed(shop, part, 3 * HOUR);
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 1 });

  const verified = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(orderId, payment.id),
    headers: buyer.headers,
  });
  assertEquals(verified.status, 200);
  await verified.body?.cancel();
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 1, known: 0, left: 0 });
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.paymentStatus, record.gatewayPartialRefunds?.map((p) => p.id)], ["paid", [part.id]]);
});

Deno.test("a refund of a purchase reconciliation no longer asks about is no purchase's: taken once, read once", async () => {
  await using shop = await openShop();
  // Paid and refunded in full at the gateway (an automatic refund), no event of either reaching us.
  const { purchaseId, payment } = await paidUnconfirmed(shop, await createTestUser(shop.t));
  processed(shop, await shop.fake.refundInDashboard(payment.id), 3 * HOUR);
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 1 });
  const before = await purchaseRecord(shop, purchaseId);

  // Its order is past reconciliation's 7 days: reconciliation drops it and will never confirm it.
  await runJob(findJob("reconcile-payments")!, shop.t.services, new Date(Date.now() + 8 * 24 * HOUR));
  const calls = shop.fake.calls.length;
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 0 });
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 1, applied: 0, known: 0, left: 0 });
  assertEquals(shop.fake.calls.slice(calls), ["GET /v1/refunds", `GET /v1/payments/${payment.id}`, "GET /v1/refunds"]);
  assertEquals(await purchaseRecord(shop, purchaseId), before);
});

Deno.test("past the run's gateway calls, our own refunds are still taken; the others wait", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  const ours = shop.fake.refunds.find((r) => r.notes.purchaseId === purchaseId)!;
  processed(shop, ours, 5 * HOUR);
  // 250 newer dashboard refunds of a payment of no purchase here: a payment read each.
  const stranger = shop.fake.addPayment("order_xstranger1", "captured", { amount: 50000 });
  for (let i = 0; i < 250; i++) {
    shop.fake.refunds.push({ ...ours, id: `rfnd_stranger${i}`, payment_id: stranger.id, notes: {} });
    processed(shop, shop.fake.refunds.at(-1)!, 4 * HOUR);
  }
  // Three list pages and 197 payment reads make the 200 calls; the 53 strangers left wait, ours needs no call.
  assertEquals(await reconcile(shop), { job: "reconcile-refunds", listed: 251, applied: 0, known: 1, left: 53 });
  assertEquals((await purchaseRecord(shop, purchaseId)).refund?.status, "processed");
});
