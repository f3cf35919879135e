/**
 * Refunds made at the gateway, not through the admin's page (docs/decisions.md, Money operations, "Refunds made at the
 * gateway"): Razorpay's dashboard, a dispute or a chargeback. The gateway's `refund.processed` carries none of our notes;
 * the purchase is found by its payment's order and refunded as an admin's refund does, once, with its credit note.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { refundProcessedDelivery, signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import {
  addCoupon,
  addLesson,
  addToolkit,
  buy,
  checkout,
  openShop,
  registerForGst,
} from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord, recount, refund, stored } from "./helpers.ts";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { countExistingParts, creditNotesOf } from "@/lib/purchases/purchases.ts";
import { financialYearOf } from "@/lib/purchases/receipts.ts";
import { reconcilePayments } from "@/lib/purchases/reconcile.ts";
import type { InFlightRequests } from "@/lib/platform/in_flight.ts";

Deno.test("a full refund in the gateway's dashboard ends access, frees the coupon use, revokes the certificate, once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const lesson = await addLesson(shop, kit.id);
  const coupon = await addCoupon(shop, { code: "ONCE", discountType: "percentage", discountValue: 10, usageLimit: 1 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id, "ONCE");
  const done = await shop.t.json("POST", `/api/toolkits/${kit.id}/progress`, {
    body: { contentItemId: lesson.id, completed: true },
    headers: buyer.headers,
  });
  assertEquals(done.status, 200);
  await done.body?.cancel();
  assertEquals((await certificatesOf(shop.t.kv, buyer.user.id)).map((c) => c.revokedAt), [null]);
  const usedCount = async () =>
    (await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json()).coupons
      .find((c: { id: string }) => c.id === coupon.id).usedCount;
  assertEquals(await usedCount(), 1);

  const made = await shop.fake.refundInDashboard(payment.id);
  assertEquals(made.notes, {});
  const delivery = refundProcessedDelivery(made, { orderId });
  const res = await deliver(shop, delivery);
  assertEquals([res.status, await res.json()], [200, { received: true }]);

  const record = await purchaseRecord(shop, purchaseId);
  assertEquals(record.paymentStatus, "refunded");
  assertEquals(record.refund, {
    id: made.id,
    paymentId: payment.id,
    amount: 45000,
    reason: null,
    by: "gateway",
    at: record.refund!.at,
    status: "processed",
    processedAt: record.refund!.at,
  });
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals([detail.hasPurchased, detail.contentItems[0].content], [false, null]);
  assert((await certificatesOf(shop.t.kv, buyer.user.id))[0].revokedAt, "the certificate is revoked");
  assertEquals(await usedCount(), 0);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv), "the dashboard's counters moved with the record");
  const notes = async () =>
    (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications
      .map((n: { type: string }) => n.type);
  assertEquals(await notes(), ["purchase_refunded", "purchase_paid"]);
  await shop.t.settled();
  const refundMails = () => shop.t.mails.filter((m) => m.to === buyer.user.email && m.subject.includes("refund"));
  assertEquals(refundMails().map((m) => m.subject), ["Your refund for Resume Toolkit"]);
  assert(refundMails()[0].text.includes("₹450"), refundMails()[0].text);

  // Replays, of the same event or as another event, change nothing; nor does an admin's refund afterwards.
  for (const replay of [delivery, refundProcessedDelivery(made, { orderId })]) {
    const again = await deliver(shop, replay);
    assertEquals(again.status, 200);
    await again.body?.cancel();
    assertEquals(await purchaseRecord(shop, purchaseId), record);
  }
  assertEquals(await refund(shop, purchaseId), {
    status: 400,
    body: { error: "Only a paid purchase can be refunded" },
  });
  assertEquals(await notes(), ["purchase_refunded", "purchase_paid"]);
  await shop.t.settled();
  assertEquals(refundMails().length, 1);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
});

Deno.test("a partial refund at the gateway is only kept on the purchase; one of no known order changes nothing", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const before = await purchaseRecord(shop, purchaseId);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const after = await purchaseRecord(shop, purchaseId);
  const kept = { id: part.id, paymentId: payment.id, amount: 10000, at: after.updatedAt };
  assertEquals(after, { ...before, gatewayPartialRefunds: [kept], partsCounted: true, updatedAt: after.updatedAt });
  const stranger = await deliver(shop, refundProcessedDelivery(part, { orderId: "order_unknown123" }));
  assertEquals(stranger.status, 200);
  await stranger.body?.cancel();
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals([(await purchaseRecord(shop, purchaseId)).paymentStatus, detail.hasPurchased], ["paid", true]);
});

Deno.test("partial refunds at the gateway that add up to the payment end access as a full one does, once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const hasPurchased = async () =>
    (await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json()).hasPurchased;
  const first = await shop.fake.refundInDashboard(payment.id, 25000);
  const firstDelivery = refundProcessedDelivery(first, { orderId });
  for (const delivery of [firstDelivery, firstDelivery, refundProcessedDelivery(first, { orderId })]) {
    const res = await deliver(shop, delivery);
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const between = await purchaseRecord(shop, purchaseId);
  assertEquals(between.gatewayPartialRefunds?.map((r) => r.amount), [25000], "a replay is counted once");
  assertEquals([between.paymentStatus, await hasPurchased()], ["paid", true]);
  const mine = async () => (await (await shop.t.fetch("/toolkits/mine", { headers: buyer.headers })).text());
  assert(/Partly refunded: ₹250 on [^<;]+; ₹250 of your ₹500 so far/.test(await mine()), "the buyer sees the part");
  const history = await (await shop.t.fetch("/api/purchases", { headers: buyer.headers })).json();
  assertEquals(history.purchases[0].refundedParts.map((p: { amount: number }) => p.amount), [25000]);

  const rest = await shop.fake.refundInDashboard(payment.id, 25000);
  const res = await deliver(shop, refundProcessedDelivery(rest, { orderId }));
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals(record.paymentStatus, "refunded");
  assertEquals([record.refund?.id, record.refund?.amount, record.refund?.by], [rest.id, 50000, "gateway"]);
  assert(
    /Refunded in parts: ₹250 on [^<;,]+, ₹250 on [^<;]+; ₹500 in all/.test(await mine()),
    "each part, then the sum",
  );
  assertEquals(await hasPurchased(), false);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv), "the dashboard's counters moved with the record");
  for (const replay of [first, rest]) {
    const again = await deliver(shop, refundProcessedDelivery(replay, { orderId }));
    assertEquals(again.status, 200);
    await again.body?.cancel();
    assertEquals(await purchaseRecord(shop, purchaseId), record);
  }
  await shop.t.settled();
  const refundMails = shop.t.mails.filter((m) => m.to === buyer.user.email && m.subject.includes("refund"));
  assertEquals(refundMails.length, 2, "one a part");
  const [part, whole] = ["This was part of your payment", "has ended"].map((words) =>
    refundMails.filter((m) => m.text.includes(words))
  );
  assertEquals([part.length, whole.length], [1, 1]);
  const text = whole[0].text;
  assert(text.includes("We refunded ₹250 for"), `this refund's part, not the total: ${text}`);
  assert(text.includes("With the ₹250 refunded before, ₹500 of your payment has been refunded in all."), text);
});

Deno.test("after a partial refund at the gateway an admin's refund asks the gateway for what is left", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
  assertEquals(res.status, 200);
  await res.body?.cancel();
  // The dashboard counts the part as refunded on its day, revenue as received.
  const totals = async () => {
    const counters = await stored(shop.t.kv);
    return [counters.get('["stats_totals","revenue"]'), counters.get('["stats_totals","refunds"]')];
  };
  assertEquals(await totals(), [50000, 10000]);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));

  const partly = async () => {
    const res = await shop.t.fetch("/api/admin/purchases?gatewayRefund=partial", { headers: shop.admin.headers });
    const page = await res.json();
    return [page.counts.partlyRefunded, page.purchases.map((p: { id: string }) => p.id)];
  };
  assertEquals(await partly(), [1, [purchaseId]], "the list's filter finds it");
  const row = (await (await shop.t.fetch("/api/admin/purchases", { headers: shop.admin.headers })).json()).purchases[0];
  assertEquals(row.gatewayPartialRefunds.map((r: { amount: number }) => r.amount), [10000]);

  const done = await refund(shop, purchaseId, "Duplicate charge");
  assertEquals([done.status, done.body.purchase.paymentStatus], [200, "refunded"]);
  const asked = shop.fake.refunds.filter((r) => r.id !== part.id);
  assertEquals(asked.map((r) => [r.payment_id, r.amount]), [[payment.id, 40000]], "the ₹400 left, not ₹500");
  assertEquals(shop.fake.payments.find((p) => p.id === payment.id)?.amount_refunded, 50000);
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.refund?.id, record.refund?.amount], [asked[0].id, 50000], "the refund counts the part before");
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
  assertEquals(await totals(), [50000, 50000], "the ₹100 part and the ₹400 rest, the payment once in all");
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, false);
  assertEquals(await partly(), [0, []], "refunded in full, no longer partly");
  await shop.t.settled();
  const mail = shop.t.mails.find((m) =>
    m.to === buyer.user.email && m.subject.includes("refund") && !m.text.includes("This was part of your payment")
  );
  assert(mail?.text.includes("We refunded ₹400 for"), `what came back this time: ${mail?.text}`);
  assert(mail?.text.includes("With the ₹100 refunded before, ₹500 of your payment has been refunded in all."));
  const mine = await (await shop.t.fetch("/toolkits/mine", { headers: buyer.headers })).text();
  assert(/Refunded in parts: ₹100 on [^<;,]+, ₹400 on [^<;]+; ₹500 in all/.test(mine), "the purchase page says both");
  const receipt = await (await shop.t.fetch(`/purchases/${purchaseId}/receipt`, { headers: buyer.headers })).text();
  assert(/Refunded in parts: ₹100 on [^<;,]+, ₹400 on [^<;]+; ₹500 in all/.test(receipt), "and so does the receipt");
  const told = await shop.t.fetch(`/admin/purchases?refunded=${purchaseId}`, { headers: shop.admin.headers });
  assert(
    (await told.text()).includes("Refunded ₹400 to"),
    "the admin's page says what this refund sent, as its dialog",
  );
});

Deno.test("an extra payment refunded at the gateway is kept refunded on it; the purchase stays paid", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 300 });
  const first = await checkout(shop, buyer, kit.id);
  await addCoupon(shop, { code: "TEN", discountType: "fixed", discountValue: 10 });
  const second = await checkout(shop, buyer, kit.id, "TEN");
  const a = shop.fake.addPayment(first.body.order.id, "captured");
  const b = shop.fake.addPayment(second.body.order.id, "captured");
  for (const [order, paymentId] of [[first.body.order.id, a.id], [second.body.order.id, b.id]]) {
    const res = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
      body: signedPayment(order, paymentId),
      headers: buyer.headers,
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const purchaseId = first.body.purchase.id;
  assertEquals((await purchaseRecord(shop, purchaseId)).extraPayments!.map((p) => p.paymentId), [b.id]);
  const made = await shop.fake.refundInDashboard(b.id);
  const res = await deliver(shop, refundProcessedDelivery(made, { orderId: second.body.order.id }));
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const after = await purchaseRecord(shop, purchaseId);
  assertEquals(after.paymentStatus, "paid");
  assertEquals(
    [after.extraPayments![0].refund?.id, after.extraPayments![0].refund?.by, after.extraPayments![0].refund?.amount],
    [made.id, "gateway", 29000],
  );
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, true);
  const path = `/api/admin/purchases/${purchaseId}/extra-payments/${b.id}/refund`;
  const twice = await shop.t.json("POST", path, { body: {}, headers: shop.admin.headers });
  assertEquals([twice.status, await twice.json()], [400, { error: "This payment has already been refunded" }]);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
});

Deno.test("checking out again keeps the parts of an owed-back payment refunded at the gateway", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  const first = await checkout(shop, buyer, kit.id);
  const orderId = first.body.order.id;
  // The gateway reports a payment of another amount than the order's: it grants nothing and is owed back.
  const odd = shop.fake.addPayment(orderId, "captured", { amount: 40000 });
  const captured = webhookDelivery({ event: "payment.captured", orderId, paymentId: odd.id, amount: 40000 });
  assertEquals((await deliver(shop, captured)).status, 200);
  // Support refunds ₹100 of it in the dashboard; the buyer, still without the toolkit, checks out again.
  const part = await shop.fake.refundInDashboard(odd.id, 10000);
  assertEquals((await deliver(shop, refundProcessedDelivery(part, { orderId }))).status, 200);
  const again = await checkout(shop, buyer, kit.id);
  assertEquals([again.status, again.body.purchase.id], [200, first.body.purchase.id]);
  const record = await purchaseRecord(shop, first.body.purchase.id);
  assertEquals(record.gatewayPartialRefunds?.map((p) => [p.id, p.amount]), [[part.id, 10000]]);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
  // The admin's refund of the owed-back payment asks the gateway for what is left of it.
  const path = `/api/admin/purchases/${record.id}/extra-payments/${odd.id}/refund`;
  const refunded = await shop.t.json("POST", path, { body: {}, headers: shop.admin.headers });
  assertEquals(refunded.status, 200, JSON.stringify(await refunded.clone().json()));
  assertEquals(shop.fake.refunds.map((r) => r.amount), [10000, 30000]);
});

Deno.test("purchases whose gateway partial refunds were written before they counted are counted again once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kits = [await addToolkit(shop, { price: 500 }), await addToolkit(shop, { price: 300 })];
  const bought = [await buy(shop, buyer, kits[0].id), await buy(shop, buyer, kits[1].id)];
  for (const { orderId, payment } of bought) {
    const part = await shop.fake.refundInDashboard(payment.id, 10000);
    const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  // As the code before wrote them: the records unmarked, and the counters without their parts.
  for (const { purchaseId } of bought) {
    const { partsCounted, ...before } = await purchaseRecord(shop, purchaseId);
    assertEquals(partsCounted, true);
    const day = JSON.parse(
      [...(await stored(shop.t.kv)).keys()].find((k) => k.endsWith(',"refunds"]') && k.includes("stats_days"))!,
    );
    await shop.t.kv.atomic()
      .set(["purchases", purchaseId], before)
      .sum(day, BigInt.asUintN(64, -10000n))
      .sum(["stats_totals", "refunds"], BigInt.asUintN(64, -10000n))
      .commit();
  }
  assertEquals((await stored(shop.t.kv)).get('["stats_totals","refunds"]'), undefined);

  // Any write of such a record moves its counters from what it counted: the admin's refund of the rest.
  const done = await refund(shop, bought[0].purchaseId, "Duplicate charge");
  assertEquals(done.status, 200);
  assertEquals((await purchaseRecord(shop, bought[0].purchaseId)).partsCounted, true);
  assertEquals((await stored(shop.t.kv)).get('["stats_totals","refunds"]'), 50000, "the ₹100 part and the ₹400 rest");

  // The job writes the rest again, once.
  const run = () => runJob(findJob("purchase-counts")!, shop.t.services);
  assertEquals(await run(), { job: "purchase-counts", written: 1 });
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
  assertEquals((await stored(shop.t.kv)).get('["stats_totals","refunds"]'), 60000);
  assertEquals(await run(), { job: "purchase-counts", written: 0 });
  assertEquals(await shop.t.kv.get(["purchases_meta", "parts_counted"]).then((e) => e.value), {
    after: null,
    done: true,
  });
});

Deno.test("the purchase-counts job reads a page at least, gives way after each, and stops at its budget", async () => {
  using kv = await Deno.openKv(":memory:");
  // 1,200 purchases without gateway partial refunds: three pages of 500, nothing to write.
  for (let i = 0; i < 1200; i += 100) {
    const op = kv.atomic();
    for (let n = i; n < i + 100; n++) {
      const id = `p${String(n).padStart(5, "0")}`;
      op.set(["purchases", id], { id });
    }
    await op.commit();
  }
  let givenWay = 0;
  const requests = { giveWay: () => Promise.resolve(void givenWay++) } as unknown as InFlightRequests;
  const progress = async () => (await kv.get(["purchases_meta", "parts_counted"])).value;
  assertEquals(await countExistingParts({ kv, requests }, 0), 0);
  assertEquals(
    [await progress(), givenWay],
    [{ after: "p00499", done: false }, 1],
    "one page, then the budget is spent",
  );
  assertEquals(await countExistingParts({ kv, requests }), 0);
  assertEquals([await progress(), givenWay], [{ after: null, done: true }, 3], "the rest, giving way after each page");
});

Deno.test("a full refund at the gateway of a tax invoice issues its credit note, once", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const made = await shop.fake.refundInDashboard(payment.id);
  for (let i = 0; i < 2; i++) {
    const res = await deliver(shop, refundProcessedDelivery(made, { orderId }));
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const { refund } = await purchaseRecord(shop, purchaseId);
  const year = financialYearOf(refund!.at);
  assertEquals([refund?.amount, refund?.creditNote?.number], [50000, `CN-${year}-1`]);
  assertEquals((await shop.t.kv.get<number>(["credit_note_sequence", year])).value, 1, "one number taken");
});

Deno.test("refunds in parts at the gateway of a tax invoice each issue a credit note for their own amount, once", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  // Three parts whose GST splits each round: they still add up to the invoice's, to the paisa.
  const parts = [12345, 23456, 14099];
  for (const amount of parts) {
    const part = await shop.fake.refundInDashboard(payment.id, amount);
    // Two deliveries of one refund under other event ids, at once: one credit note.
    const answers = await Promise.all(
      [0, 1].map(async () => {
        const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
        await res.body?.cancel();
        return res.status;
      }),
    );
    assertEquals(answers, [200, 200]);
  }
  const record = await purchaseRecord(shop, purchaseId);
  const year = financialYearOf(record.refund!.at);
  assertEquals(record.paymentStatus, "refunded");
  assertEquals(
    [...record.gatewayPartialRefunds!.map((p) => p.creditNote), record.refund?.creditNote].map((note) => [
      note?.number,
      note?.amount,
      note?.creditedBefore,
    ]),
    [[`CN-${year}-1`, 12345, 0], [`CN-${year}-2`, 23456, 12345], [`CN-${year}-3`, 14099, 35801]],
    "each part its own, the completing one for its own part only",
  );
  assertEquals((await shop.t.kv.get<number>(["credit_note_sequence", year])).value, 3, "three numbers taken");

  const history = await (await shop.t.fetch("/api/purchases", { headers: buyer.headers })).json();
  const notes = history.purchases.find((p: { id: string }) => p.id === purchaseId).creditNotes;
  assertEquals(
    notes.map((n: { number: string; amount: number; url: string }) => [n.number, n.amount, n.url]),
    [1, 2, 3].map((n, i) => [
      `CN-${year}-${n}`,
      parts[i],
      `/purchases/${purchaseId}/credit-notes/CN-${year}-${n}`,
    ]),
    "the API lists every credit note",
  );
  // Summed over the three pages, taxable value and taxes are the invoice's own: nothing credited twice.
  const figures = async (path: string) => {
    const html = await (await shop.t.fetch(path, { headers: buyer.headers })).text();
    return [...html.matchAll(/<td[^>]*>− ₹([\d,.]+)<\/td>/g)].map((m) =>
      Math.round(Number(m[1].replace(/,/g, "")) * 100)
    );
  };
  const sums = [0, 0, 0, 0];
  for (const { url } of notes) (await figures(url)).forEach((paise, i) => sums[i] += paise);
  const taxable = Math.round(49900 * 100 / 118);
  const cgst = Math.round((49900 - taxable) / 2);
  assertEquals(sums, [taxable, cgst, 49900 - taxable - cgst, 49900]);
});

Deno.test("after a part refunded at the gateway of a tax invoice, the admin's refund credits only what is left", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
  await res.body?.cancel();
  const done = await refund(shop, purchaseId, "Asked by the buyer");
  assertEquals(done.status, 200);
  const year = financialYearOf(done.body.purchase.refund.at);
  assertEquals(
    done.body.purchase.creditNotes.map((n: { number: string; amount: number }) => [n.number, n.amount]),
    [[`CN-${year}-1`, 10000], [`CN-${year}-2`, 40000]],
  );
});

Deno.test("refunds of tax invoices made before credit notes get theirs late, once, dated when issued", async () => {
  await using shop = await openShop();
  const plainSeller = registerForGst(shop);
  const kit = await addToolkit(shop, { price: 500 });
  const buyers = await Promise.all([0, 1, 2, 3, 4].map(() => createTestUser(shop.t)));
  const [noted, full, parts, partly, plain] = buyers;
  const bought = new Map<typeof buyers[number], Awaited<ReturnType<typeof buy>>>();
  for (const buyer of buyers.slice(0, 4)) bought.set(buyer, await buy(shop, buyer, kit.id));
  shop.t.services.config.seller = plainSeller;
  bought.set(plain, await buy(shop, plain, kit.id));
  registerForGst(shop);
  const id = (buyer: typeof buyers[number]) => bought.get(buyer)!.purchaseId;
  // Refunded since credit notes: CN-1, kept as it is.
  assertEquals((await refund(shop, id(noted))).status, 200);
  // Refunded before: in full; in a part at the gateway and the rest by the admin; in a part only, still paid; a plain
  // receipt's. Their credit notes are taken off, as the code before wrote them.
  for (const buyer of [parts, partly]) {
    const part = await shop.fake.refundInDashboard(bought.get(buyer)!.payment.id, 10000);
    const res = await deliver(shop, refundProcessedDelivery(part, { orderId: bought.get(buyer)!.orderId }));
    await res.body?.cancel();
  }
  for (const buyer of [full, parts, plain]) assertEquals((await refund(shop, id(buyer))).status, 200);
  const year = financialYearOf(new Date().toISOString());
  for (const buyer of [full, parts, partly]) {
    const record = await purchaseRecord(shop, id(buyer));
    const { creditNote: _r, ...refundBefore } = record.refund ?? {};
    await shop.t.kv.set(["purchases", id(buyer)], {
      ...record,
      ...record.refund ? { refund: refundBefore } : {},
      ...record.gatewayPartialRefunds
        ? { gatewayPartialRefunds: record.gatewayPartialRefunds.map(({ creditNote: _p, ...part }) => part) }
        : {},
    });
  }
  await shop.t.kv.set(["credit_note_sequence", year], 1);

  const now = new Date();
  const run = () => runJob(findJob("credit-notes-late")!, shop.t.services, now);
  assertEquals(await run(), { job: "credit-notes-late", written: 3 });
  const notes = async (buyer: typeof buyers[number]) =>
    creditNotesOf(await purchaseRecord(shop, id(buyer))).map(({ number, issuedAt, amount, creditedBefore, late }) => ({
      number: number.replace(/\d+$/, "n"),
      issuedAt,
      amount,
      creditedBefore,
      late,
    }));
  const late = (amount: number, creditedBefore = 0) => ({
    number: `CN-${year}-n`,
    issuedAt: now.toISOString(),
    amount,
    creditedBefore,
    late: true,
  });
  assertEquals(await notes(full), [late(50000)]);
  assertEquals(await notes(parts), [late(10000), late(40000, 10000)], "the part's, then the refund's own part");
  assertEquals(await notes(partly), [late(10000)]);
  assertEquals((await notes(noted)).map((n) => [n.number, n.late]), [[`CN-${year}-n`, undefined]]);
  assertEquals(await notes(plain), [], "a plain receipt has none");
  const numbers =
    (await Promise.all([full, parts, partly].map(async (b) => creditNotesOf(await purchaseRecord(shop, id(b))))))
      .flat().map((n) => n.number).sort();
  assertEquals(numbers, [2, 3, 4, 5].map((n) => `CN-${year}-${n}`), "numbered on from the sequence, none twice");
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv), "the counters untouched");

  const before = await Promise.all(buyers.map((b) => purchaseRecord(shop, id(b))));
  assertEquals(await run(), { job: "credit-notes-late", written: 0 });
  assertEquals(await Promise.all(buyers.map((b) => purchaseRecord(shop, id(b)))), before, "a second run issues none");
  assertEquals((await shop.t.kv.get<number>(["credit_note_sequence", year])).value, 5);
  const [note] = creditNotesOf(before[1]);
  const html = await (await shop.t.fetch(note.url, { headers: full.headers })).text();
  assert(html.includes("Issued late, on the date above, for a refund made before we issued credit notes."), html);
});

Deno.test("a refund reconciliation applies while the admin retries it issues one credit note, whichever writes", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  const part = await shop.fake.refundInDashboard(payment.id, 10000);
  await (await deliver(shop, refundProcessedDelivery(part, { orderId }))).body?.cancel();
  // The admin refunds the rest; the gateway's answer is lost, its refund.processed (our notes) comes.
  shop.fake.mode = "lose";
  assertEquals((await refund(shop, purchaseId, "Asked within 7 days")).status, 502);
  shop.fake.mode = "ok";
  const made = shop.fake.refunds.at(-1)!;
  await (await deliver(shop, refundProcessedDelivery(made))).body?.cancel();
  // An hour on, reconciliation applies it while the admin refunds again: the same gateway refund, written once.
  await Promise.all([
    reconcilePayments(shop.t.services, Date.now() + 2 * 60 * 60_000),
    refund(shop, purchaseId, "Asked within 7 days"),
  ]);
  const record = await purchaseRecord(shop, purchaseId);
  const year = financialYearOf(record.refund!.at);
  assertEquals([record.paymentStatus, record.refund?.id], ["refunded", made.id]);
  assertEquals(
    creditNotesOf(record).map((note) => [note.refundId, note.amount]),
    [[part.id, 10000], [made.id, 40000]],
  );
  assertEquals((await shop.t.kv.get<number>(["credit_note_sequence", year])).value, 2, "two numbers taken, no more");
  await reconcilePayments(shop.t.services, Date.now() + 3 * 60 * 60_000);
  assertEquals(await purchaseRecord(shop, purchaseId), record, "and nothing later");
});
