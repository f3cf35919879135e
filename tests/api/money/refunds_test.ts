import { BackgroundWork } from "@/lib/platform/background.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser, postForm } from "@/tests/helpers/app.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { refundProcessedDelivery, signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { refundIdempotencyKey } from "@/lib/payments/razorpay.ts";
import {
  addCoupon,
  addLesson,
  addToolkit,
  buy,
  checkout,
  checkoutBesideFailed,
  openShop,
} from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord, recount, refund, stored } from "./helpers.ts";
import { reconcilePayments } from "@/lib/purchases/reconcile.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { refundFailure } from "@/lib/browser/use_refund.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { ADMIN_PURCHASES_TEXT } from "@/islands/AdminPurchasesTable.tsx";
import { certificatesOf } from "@/lib/certificates/certificates.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { refundAsAdmin } from "@/lib/http/refund_request.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import type { AppState } from "@/lib/platform/state.ts";
import { kvFailingCommits, kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { BusyError } from "@/lib/errors.ts";

Deno.test("refund: a paid purchase is refunded in full at the gateway; access goes, the coupon use comes back", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  await addLesson(shop, kit.id);
  const coupon = await addCoupon(shop, { code: "ONCE", discountType: "percentage", discountValue: 10, usageLimit: 1 });
  const { purchaseId, payment } = await buy(shop, buyer, kit.id, "ONCE");
  const usedCount = async () =>
    (await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json()).coupons
      .find((c: { id: string }) => c.id === coupon.id).usedCount;
  assertEquals(await usedCount(), 1);

  const res = await refund(shop, purchaseId, "Asked within 7 days");
  assertEquals(res.status, 200, JSON.stringify(res.body));
  assertEquals(res.body.purchase.paymentStatus, "refunded");
  assertEquals(res.body.purchase.refund.amount, 45000);
  assertEquals(res.body.purchase.refund.reason, "Asked within 7 days");
  assertEquals(res.body.purchase.refund.status, "pending");
  // The gateway refunded the captured payment once, in paise, with the purchase in its notes (the reason stays ours)
  // and the idempotency key.
  assertEquals(shop.fake.refunds.length, 1);
  const made = shop.fake.refunds[0];
  assertEquals([made.payment_id, made.amount, made.notes], [payment.id, 45000, { purchaseId }]);
  assertEquals(made.idempotencyKey, refundIdempotencyKey(payment.id));

  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals([detail.hasPurchased, detail.contentItems[0].content], [false, null]);
  assertEquals(await usedCount(), 0);
  // The coupon's single use is free again, and the buyer may buy the toolkit again.
  const again = await checkout(shop, buyer, kit.id, "ONCE");
  assertEquals(again.status, 200, JSON.stringify(again.body));
  const mine = await (await shop.t.fetch("/api/purchases", { headers: buyer.headers })).json();
  const refunded = mine.purchases.find((p: { paymentStatus: string }) => p.paymentStatus === "refunded");
  assertEquals([refunded.refund.amount, refunded.refund.reason], [45000, "Asked within 7 days"]);
  assertEquals("by" in refunded.refund, false, "the buyer is not told which admin refunded it");
  // The buyer was told: a notification and an e-mail (after the receipt e-mail of the payment).
  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assertEquals(notes.map((n: { type: string }) => n.type), ["purchase_refunded", "purchase_paid"]);
  await shop.t.settled();
  const mails = shop.t.mails.filter((m) => m.to === buyer.user.email);
  assertEquals(mails.length, 2);
  assert(mails[0].subject.startsWith("Your receipt RCPT-"), mails[0].subject);
  assert(mails[0].link.endsWith(`/purchases/${purchaseId}/receipt`));
  assertEquals(mails[1].subject, "Your refund for Resume Toolkit");
  assert(mails[1].text.includes("₹450"), mails[1].text);
});

Deno.test("refund: twice, a free purchase, a pending one and an unknown one are refused; nothing reaches the gateway", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const freeKit = await addToolkit(shop, { price: 0 });
  const pendingKit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  assertEquals(await refund(shop, purchaseId), {
    status: 400,
    body: { error: "Only a paid purchase can be refunded" },
  });
  const free = await checkout(shop, buyer, freeKit.id);
  assertEquals(await refund(shop, free.body.purchase.id), {
    status: 400,
    body: { error: "A free purchase has no payment to refund" },
  });
  const pending = await checkout(shop, buyer, pendingKit.id);
  assertEquals(await refund(shop, pending.body.purchase.id), {
    status: 400,
    body: { error: "Only a paid purchase can be refunded" },
  });
  assertEquals((await refund(shop, crypto.randomUUID())).status, 404);
  assertEquals(shop.fake.refunds.length, 1);
  // The audit log holds the one refund made, by the admin; the refused ones left nothing.
  const logged = await listAdminLog(shop.t.kv, adminLogQuerySchema.parse({ action: "purchase.refund" }));
  assertEquals(logged.entries.map((e) => [e.adminId, e.targetKind, e.targetId]), [
    [shop.admin.user.id, "purchase", purchaseId],
  ]);
  // Only admins refund.
  const res = await shop.t.json("POST", `/api/admin/purchases/${pending.body.purchase.id}/refund`, {
    body: {},
    headers: buyer.headers,
  });
  assertEquals(res.status, 403);
});

Deno.test("refund: a gateway failure is 502 and changes nothing", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const before = await purchaseRecord(shop, purchaseId);
  shop.fake.mode = "fail";
  assertEquals(await refund(shop, purchaseId), { status: 502, body: { error: "Payment gateway unavailable" } });
  shop.fake.mode = "ok";
  assertEquals(await purchaseRecord(shop, purchaseId), before);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, true);
  // A retry after the failure refunds once.
  assertEquals((await refund(shop, purchaseId)).status, 200);
  assertEquals(shop.fake.refunds.length, 1);
});

Deno.test("refund: a retry after the gateway's answer was lost records the refund made, whatever reason it gives", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id);
  const { purchaseId, payment } = await buy(shop, buyer, kit.id);
  // The gateway refunds, but its answer is lost: the admin is told it is unavailable and nothing is recorded.
  shop.fake.mode = "lose";
  assertEquals(await refund(shop, purchaseId, "Asked within 7 days"), {
    status: 502,
    body: { error: "Payment gateway unavailable" },
  });
  shop.fake.mode = "ok";
  assertEquals(shop.fake.refunds.length, 1);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  // The admin tries again later with other words (or none): the gateway, which answers a retry under the same
  // idempotency key only when its body is the same, hands back the refund it made, and the refund is recorded.
  const again = await refund(shop, purchaseId, "Charged twice by the bank");
  assertEquals(again.status, 200, JSON.stringify(again.body));
  assertEquals(again.body.purchase.refund.id, shop.fake.refunds[0].id);
  assertEquals(shop.fake.refunds.length, 1);
  assertEquals(shop.fake.payments.find((p) => p.id === payment.id)!.amount_refunded, 49900);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, false);
});

Deno.test("refund without JavaScript: a lost answer is 'not confirmed, refund again', a refusal 'Nothing was refunded'", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  // What the page says (its islands' messages ride along in scripts, every one of them).
  const textOf = (html: string) => {
    const document = htmlDocument(html);
    for (const script of [...document.querySelectorAll("script")]) script.remove();
    return document.body.textContent!.replace(/\s+/g, " ");
  };
  const post = () =>
    postForm(shop.t, shop.admin, "/admin/purchases", { intent: "refund", purchaseId, reason: "Asked within 7 days" });
  shop.fake.mode = "lose";
  const lost = await post();
  const lostText = textOf(await lost.text());
  assertEquals(lost.status, 502);
  assert(lostText.includes("The refund is not confirmed"), lostText);
  assert(lostText.includes("refund again to be sure, a payment is never refunded twice"), lostText);
  assert(!lostText.includes("Nothing was refunded"), "the gateway made the refund: 'Nothing was refunded' is untrue");
  shop.fake.mode = "ok";
  // Refunding again records the refund the gateway made.
  assertEquals((await post()).status, 303);
  assertEquals((await purchaseRecord(shop, purchaseId)).refund?.id, shop.fake.refunds[0].id);
  assertEquals(shop.fake.refunds.length, 1);
  // A refusal (a payment the gateway does not know) did nothing, and says so.
  const started = await checkout(shop, buyer, (await addToolkit(shop, { title: "Interview Kit" })).id);
  const verified = await shop.t.json("POST", `/api/toolkits/${started.body.toolkit.id}/verify`, {
    body: signedPayment(started.body.order.id),
    headers: buyer.headers,
  });
  assertEquals(verified.status, 200);
  const refused = await postForm(shop.t, shop.admin, "/admin/purchases", {
    intent: "refund",
    purchaseId: started.body.purchase.id,
  });
  const refusedText = textOf(await refused.text());
  assertEquals(refused.status, 409);
  assert(refusedText.includes("Nothing was refunded"), refusedText);
  assert(!refusedText.includes("The refund is not confirmed"), refusedText);
});

Deno.test("refund: one the gateway made and reported but nobody recorded is applied by reconciliation an hour on", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id);
  const [forgotten, retried] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const lost = async (buyer: typeof forgotten) => {
    const { purchaseId } = await buy(shop, buyer, kit.id);
    shop.fake.mode = "lose";
    assertEquals((await refund(shop, purchaseId, "Asked within 7 days")).status, 502);
    shop.fake.mode = "ok";
    // The gateway's refund.processed (our notes name the purchase) comes; nothing records the refund.
    assertEquals((await deliver(shop, refundProcessedDelivery(shop.fake.refunds.at(-1)!))).status, 200);
    return purchaseId;
  };
  const [a, b] = [await lost(forgotten), await lost(retried)];
  // One admin refunds again in time: their refund is recorded as theirs.
  assertEquals((await refund(shop, b, "Asked within 7 days")).status, 200);
  await reconcilePayments(shop.t.services, Date.now() + 30 * 60_000);
  assertEquals((await purchaseRecord(shop, a)).paymentStatus, "paid", "not within the hour");
  await reconcilePayments(shop.t.services, Date.now() + 2 * 60 * 60_000);
  const applied = await purchaseRecord(shop, a);
  assertEquals(
    [applied.paymentStatus, applied.refund?.id, applied.refund?.by, applied.refund?.amount],
    ["refunded", shop.fake.refunds[0].id, "gateway", 49900],
  );
  assertEquals((await purchaseRecord(shop, b)).refund?.by, shop.admin.user.id);
  assertEquals(shop.fake.refunds.length, 2);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: forgotten.headers })).json();
  assertEquals([detail.hasPurchased, detail.contentItems[0].content], [false, null]);
  const notes = await (await shop.t.fetch("/api/me/notifications", { headers: forgotten.headers })).json();
  assertEquals(notes.notifications[0].type, "purchase_refunded");
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
  // Applied once: the next run finds nothing left to apply.
  await reconcilePayments(shop.t.services, Date.now() + 3 * 60 * 60_000);
  assertEquals(await purchaseRecord(shop, a), applied);
});

Deno.test("refund: a reason longer than the gateway's notes allow (256 characters) still refunds", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const reason = "The buyer wrote to support twice about a lesson that would not play on their phone. ".repeat(5)
    .trim();
  assert(reason.length > 256 && reason.length <= 500, String(reason.length));
  const res = await refund(shop, purchaseId, reason);
  assertEquals(res.status, 200, JSON.stringify(res.body));
  assertEquals([res.body.purchase.paymentStatus, res.body.purchase.refund.reason], ["refunded", reason]);
  assertEquals(shop.fake.refunds.length, 1);
});

Deno.test("refund: a gateway refusal is 409 saying what the gateway said, not an outage, and changes nothing", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  // Paid with a payment the gateway never saw (as the demo's checkout once made up).
  const started = await checkout(shop, buyer, kit.id);
  const verified = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(started.body.order.id),
    headers: buyer.headers,
  });
  assertEquals(verified.status, 200);
  const unknown = started.body.purchase.id;
  const before = await purchaseRecord(shop, unknown);
  assertEquals(await refund(shop, unknown), { status: 409, body: { error: "The gateway does not know this payment" } });
  assertEquals(await purchaseRecord(shop, unknown), before);
  // A payment the gateway holds but will not refund: its reason is passed on.
  const other = await addToolkit(shop, { title: "Interview Toolkit" });
  const { purchaseId, payment } = await buy(shop, buyer, other.id);
  payment.captured = false;
  assertEquals(await refund(shop, purchaseId), {
    status: 409,
    body: { error: "The gateway refused the refund: The payment has not been captured" },
  });
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  // Paid by an event that carried no payment id, while the gateway lists no captured payment for its order.
  const third = await addToolkit(shop, { title: "Salary Toolkit" });
  const bought = await checkout(shop, buyer, third.id);
  await (await shop.t.json("POST", `/api/toolkits/${third.id}/verify`, {
    body: signedPayment(bought.body.order.id),
    headers: buyer.headers,
  })).body?.cancel();
  const paid = await purchaseRecord(shop, bought.body.purchase.id);
  await shop.t.kv.set(["purchases", paid.id], { ...paid, paymentId: null });
  const none = await refund(shop, paid.id);
  assertEquals(none, { status: 409, body: { error: "The gateway has no captured payment for this purchase" } });
  assertEquals(shop.fake.refunds.length, 0);

  // The admin's refund dialog says each refusal in Hindi on a Hindi page, with the gateway's own words inserted.
  const page = translatorFor("hi");
  const island = translatorOf(page.island(ADMIN_PURCHASES_TEXT));
  const worded = (error: string) => refundFailure(island, { ok: false, status: 409, apiError: error, fields: [] });
  assertEquals(worded("The gateway does not know this payment"), page("common.refusal.gatewayUnknownPayment"));
  assertEquals(none.body.error, REFUSALS.noCapturedPayment);
  assertEquals(worded(none.body.error), page("common.refusal.noCapturedPayment"));
  assertEquals(
    worded("The gateway refused the refund: The payment has not been captured"),
    "पेमेंट गेटवे ने रिफ़ंड मना कर दिया: The payment has not been captured।",
  );
});

Deno.test("refund.processed marks the refund processed once; a replay changes nothing", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  await refund(shop, purchaseId);
  const delivery = refundProcessedDelivery(shop.fake.refunds[0]);
  const first = await deliver(shop, delivery);
  assertEquals([first.status, await first.json()], [200, { received: true }]);
  const processed = await purchaseRecord(shop, purchaseId);
  assertEquals(processed.refund!.status, "processed");
  assert(processed.refund!.processedAt);
  for (const replay of [delivery, refundProcessedDelivery(shop.fake.refunds[0])]) {
    const res = await deliver(shop, replay);
    assertEquals(res.status, 200);
    assertEquals(await purchaseRecord(shop, purchaseId), processed);
  }
});

Deno.test("refund: an extra payment of a paid purchase is refunded and the buyer told; the purchase stays paid", async () => {
  await using smtp = await startFakeSmtp();
  await using shop = await openShop({ smtpUrl: smtp.url });
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 300 });
  const first = await checkout(shop, buyer, kit.id);
  const second = await checkout(shop, buyer, kit.id, undefined);
  // Checkout started again with the same price reuses the order; a coupon makes a second order.
  await addCoupon(shop, { code: "TEN", discountType: "fixed", discountValue: 10 });
  const third = await checkout(shop, buyer, kit.id, "TEN");
  assert(third.body.order.id !== first.body.order.id);
  assertEquals(second.status, 200);
  const a = shop.fake.addPayment(first.body.order.id, "captured");
  const b = shop.fake.addPayment(third.body.order.id, "captured");
  for (const [order, payment] of [[first.body.order.id, a.id], [third.body.order.id, b.id]]) {
    const res = await shop.t.json(
      "POST",
      `/api/toolkits/${kit.id}/verify`,
      { body: signedPayment(order, payment), headers: buyer.headers },
    );
    assertEquals(res.status, 200);
  }
  const record = await purchaseRecord(shop, first.body.purchase.id);
  assertEquals(record.paymentStatus, "paid");
  assertEquals(record.extraPayments!.map((p) => p.paymentId), [b.id]);
  const list = await (await shop.t.fetch(`/api/admin/purchases?search=${b.id}`, { headers: shop.admin.headers }))
    .json();
  assertEquals(list.purchases[0].extraPayments[0].paymentId, b.id);
  // The "Owed back" tab lists it until its payment is refunded.
  const owed = async () => {
    const page = await (await shop.t.fetch("/api/admin/purchases?owedBack=open", { headers: shop.admin.headers }))
      .json();
    return [page.counts.owed, page.purchases.map((p: { id: string }) => p.id)];
  };
  assertEquals(await owed(), [1, [record.id]]);
  const path = `/api/admin/purchases/${record.id}/extra-payments/${b.id}/refund`;
  const res = await shop.t.json("POST", path, { body: { reason: "Paid twice" }, headers: shop.admin.headers });
  assertEquals(res.status, 200);
  assertEquals(await owed(), [0, []]);
  const after = await purchaseRecord(shop, record.id);
  assertEquals(after.paymentStatus, "paid");
  assertEquals(after.extraPayments![0].refund!.amount, 29000);
  assertEquals(shop.fake.refunds.map((r) => [r.payment_id, r.amount]), [[b.id, 29000]]);
  // The buyer is told as for a purchase refund: a notification and an e-mail, written with the refund.
  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assertEquals(notes.map((n: { type: string; body: string }) => [n.type, n.body.slice(0, 23)]), [
    ["purchase_refunded", "₹290 for Resume Toolkit"],
    ["purchase_paid", "Your payment for Resume"],
  ]);
  await shop.t.settled();
  const mails = smtp.messages.filter((m) => m.to.includes(buyer.user.email)).map((m) => m.subject).sort();
  assertEquals(mails.length, 2);
  assert(mails[0].startsWith("Your receipt RCPT-"), mails[0]);
  const refundMail = smtp.messages.find((m) => m.subject === "Your refund for Resume Toolkit")!;
  assert(refundMail.text.includes("We refunded ₹290 for Resume Toolkit"), refundMail.text);
  assert(refundMail.text.includes("anything you have access to stays as it is"), refundMail.text);
  assert(!refundMail.text.includes("has ended"), refundMail.text);
  const twice = await shop.t.json("POST", path, { body: {}, headers: shop.admin.headers });
  assertEquals([twice.status, await twice.json()], [400, { error: "This payment has already been refunded" }]);
  const unknown = await shop.t.json(
    "POST",
    `/api/admin/purchases/${record.id}/extra-payments/pay_nope/refund`,
    { body: {}, headers: shop.admin.headers },
  );
  assertEquals(unknown.status, 404);
});

Deno.test("refund.processed that arrives before the admin's refund is written still marks it processed", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId, payment } = await buy(shop, buyer, kit.id);
  // The gateway accepts the refund and its event is delivered while the refund's own write is still to come.
  const accepted = await shop.t.services.payments!.refund(payment.id, 49900, purchaseId);
  const early = await deliver(shop, refundProcessedDelivery(shop.fake.refunds[0]));
  assertEquals(early.status, 200);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  const res = await refund(shop, purchaseId);
  assertEquals(res.status, 200, JSON.stringify(res.body));
  assertEquals([res.body.purchase.refund.id, res.body.purchase.refund.status], [accepted.id, "processed"]);
  assertEquals(shop.fake.refunds.length, 1);
  const stored = await purchaseRecord(shop, purchaseId);
  assertEquals([stored.refund!.status, typeof stored.refund!.processedAt], ["processed", "string"]);
});

Deno.test("refund: a refunded purchase stays refunded when its payment's events or verify come again", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id);
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  const refunded = await purchaseRecord(shop, purchaseId);
  // The buyer posts the payment's signed proof again; the gateway's order.paid (another event id than
  // payment.captured) and a late payment.failed of an earlier attempt arrive after the refund.
  const again = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(orderId, payment.id),
    headers: buyer.headers,
  });
  assertEquals(again.status, 200);
  assertEquals((await again.json()).purchase.paymentStatus, "refunded");
  for (const event of ["order.paid", "payment.captured", "payment.failed"] as const) {
    const res = await deliver(shop, webhookDelivery({ event, orderId, paymentId: payment.id }));
    assertEquals(res.status, 200);
  }
  assertEquals(await purchaseRecord(shop, purchaseId), refunded);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals([detail.hasPurchased, detail.contentItems[0].content], [false, null]);
});

Deno.test("a Hindi buyer gets the receipt and refund e-mails and notifications in Hindi; an older English one stays", async () => {
  await using smtp = await startFakeSmtp();
  await using shop = await openShop({ smtpUrl: smtp.url });
  const buyer = await createTestUser(shop.t, "user", { name: "Asha" });
  const setting = await shop.t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: buyer.headers });
  assertEquals(setting.status, 200);
  // A notification stored before its words became catalogue keys: plain English, shown as it is.
  const oldId = `${String(Date.now() - 60_000).padStart(13, "0")}-old00000`;
  await shop.t.kv.set(["notifications", buyer.user.id, oldId], {
    id: oldId,
    type: "purchase_paid",
    title: "Payment received",
    body: "Your payment for Old Kit is confirmed. Happy learning!",
    url: "/toolkits/mine",
    createdAt: new Date().toISOString(),
    readAt: null,
  });
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const res = await refund(shop, purchaseId, "Asked within 7 days");
  assertEquals(res.status, 200, JSON.stringify(res.body));
  await shop.t.settled();
  const mails = smtp.messages.filter((m) => m.to.includes(buyer.user.email));
  assertEquals(mails.length, 2);
  const [receipt, refunded] = [
    mails.find((m) => m.subject.includes("रसीद"))!,
    mails.find((m) => m.subject.includes("रिफ़ंड"))!,
  ];
  assert(/^Resume Toolkit की आपकी रसीद RCPT-/.test(receipt.subject), receipt.subject);
  assert(receipt.text.startsWith("नमस्ते Asha,"), receipt.text);
  assert(receipt.text.includes("Resume Toolkit ख़रीदने के लिए धन्यवाद। हमें ₹500 मिल गए हैं।"), receipt.text);
  assert(receipt.html.includes('<html lang="hi">') && receipt.html.includes("अपनी रसीद देखें या प्रिंट करें"));
  assertEquals(refunded.subject, "Resume Toolkit का आपका रिफ़ंड");
  assert(refunded.text.includes("हमने Resume Toolkit के ₹500 रिफ़ंड कर दिए हैं।"), refunded.text);
  assert(refunded.text.includes("अब यह टूलकिट आपके लिए नहीं खुलेगा।"), refunded.text);
  assert(refunded.text.includes("वजह: Asked within 7 days"), refunded.text);
  assert(!/Your |We refunded|Thank you/.test(receipt.text + refunded.text + refunded.html), "no English of ours");
  // The bell reads the person's language; the same notifications in English for an English page (`?lang=en`).
  const words = async (query = "") =>
    (await (await shop.t.fetch(`/api/me/notifications${query}`, { headers: buyer.headers })).json()).notifications
      .map((n: { title: string; body: string }) => [n.title, n.body]);
  assertEquals(await words(), [
    [
      "रिफ़ंड भेज दिया गया",
      "Resume Toolkit के ₹500 आपको वापस भेजे जा रहे हैं। बैंक में आने में 5–7 कामकाजी दिन लगते हैं। वजह: Asked within 7 days",
    ],
    ["पेमेंट मिल गया", "Resume Toolkit के लिए आपका पेमेंट पक्का हो गया है। अब पढ़ाई शुरू करें!"],
    ["Payment received", "Your payment for Old Kit is confirmed. Happy learning!"],
  ]);
  assertEquals((await words("?lang=en")).slice(0, 2), [
    [
      "Refund issued",
      "₹500 for Resume Toolkit is on its way back to you. Banks take 5–7 working days. Why: Asked within 7 days",
    ],
    ["Payment received", "Your payment for Resume Toolkit is confirmed. Happy learning!"],
  ]);
});

Deno.test("refund: of one of two paid purchases of a toolkit (older data) leaves the toolkit and certificate to the other", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 300 });
  const lesson = await addLesson(shop, kit.id);
  // A failed checkout, then a new purchase as before it was taken up again: its order B is paid, then the failed
  // checkout's order A too.
  const first = await checkout(shop, buyer, kit.id);
  const failed = webhookDelivery({ event: "payment.failed", orderId: first.body.order.id });
  await (await deliver(shop, failed)).body?.cancel();
  const second = await checkoutBesideFailed(shop, buyer, { toolkitId: kit.id, failedId: first.body.purchase.id });
  const [a, b] = [first, second].map((c) => shop.fake.addPayment(c.body.order.id, "captured"));
  const verify = (orderId: string, paymentId: string) =>
    shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
      body: signedPayment(orderId, paymentId),
      headers: buyer.headers,
    });
  assertEquals((await verify(second.body.order.id, b.id)).status, 200);
  assertEquals((await verify(first.body.order.id, a.id)).status, 409);
  await recordProgress(shop.t.kv, { toolkitId: kit.id, viewer: buyer.user, contentItemId: lesson.id, completed: true });
  // Before such a payment was owed back, it made its purchase paid too: the record as that code wrote it.
  const older = await purchaseRecord(shop, first.body.purchase.id);
  await shop.t.kv.set(["purchases", older.id], {
    ...older,
    paymentStatus: "paid",
    paymentId: a.id,
    extraPayments: [],
    history: [...older.history, { status: "paid", at: older.updatedAt, source: "verify" }],
  });
  const owned = async () => (await shop.t.kv.get(["purchase_owned", buyer.user.id, kit.id])).value;
  const access = async () =>
    (await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json()).hasPurchased;
  const valid = async () => (await certificatesOf(shop.t.kv, buyer.user.id)).filter((c) => c.revokedAt === null);
  assertEquals([await owned(), await access(), (await valid()).length], [second.body.purchase.id, true, 1]);

  // Refunding the purchase that holds the toolkit hands it to the other paid one.
  assertEquals((await refund(shop, second.body.purchase.id, "Paid twice")).status, 200);
  assertEquals([await owned(), await access(), (await valid()).length], [first.body.purchase.id, true, 1]);
  await shop.t.settled();
  const told = shop.t.mails.filter((m) => m.subject === "Your refund for Resume Toolkit");
  assertEquals(told.map((m) => m.text.includes("stays as it is")), [true]);
  // Refunding the other one too ends the access.
  assertEquals((await refund(shop, first.body.purchase.id)).status, 200);
  assertEquals([await owned(), await access(), (await valid()).length], [null, false, 0]);
});

Deno.test("refund: the admin log's entry is in the refund's own write, so KV going away after it loses neither", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const { session } = await createSession(shop.t.kv, shop.admin.user.id);
  // The refund's write is the first commit; KV goes away for every one after it.
  const { kv, commits } = kvFailingCommits(shop.t.kv, (n) => n > 1);
  // The buyer's mail stays queued: a delivery try started beside the refund would commit too, sooner or later.
  const background = new BackgroundWork();
  background.start = () => {};
  const state: AppState = {
    services: { ...shop.t.services, kv, background },
    requestId: "refund-audit",
    clientIp: "127.0.0.1",
    lang: "en",
    t: translatorFor("en"),
    user: shop.admin.user,
    session,
  };
  const failed = await refundAsAdmin(state, { purchaseId }, "Charged twice").then(() => null, (error) => error);
  assertEquals(failed, null);
  assertEquals(commits(), 1);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "refunded");
  const logged = await listAdminLog(shop.t.kv, adminLogQuerySchema.parse({ action: "purchase.refund" }));
  assertEquals(logged.entries.map((e) => [e.adminId, e.targetKind, e.targetId, e.summary]), [
    [shop.admin.user.id, "purchase", purchaseId, "Charged twice"],
  ]);
});

Deno.test("refund: a write that keeps losing races after the gateway refunded is 503; a retry records it, refunded once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const { session } = await createSession(shop.t.kv, shop.admin.user.id);
  // Every write of the purchase loses its race, as when other writers keep changing it.
  const purchaseKey = JSON.stringify(["purchases", purchaseId]);
  const losing = kvWithCommits(
    shop.t.kv,
    (_n, apply, sets) =>
      sets.some((key) => JSON.stringify(key) === purchaseKey) ? Promise.resolve({ ok: false }) : apply(),
  );
  const state: AppState = {
    services: { ...shop.t.services, kv: losing },
    requestId: "refund-races",
    clientIp: "127.0.0.1",
    lang: "en",
    t: translatorFor("en"),
    user: shop.admin.user,
    session,
  };
  const failed = await refundAsAdmin(state, { purchaseId }, "Charged twice").then(() => null, (error) => error);
  assert(failed instanceof BusyError, String(failed));
  assertEquals(failed.message, REFUSALS.refundNotRecorded);
  assertEquals(shop.fake.refunds.length, 1);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");

  const again = await refund(shop, purchaseId, "Charged twice");
  assertEquals(again.status, 200, JSON.stringify(again.body));
  assertEquals(again.body.purchase.paymentStatus, "refunded");
  assertEquals(shop.fake.refunds.length, 1, "the gateway refunded the payment once");
  assertEquals((await purchaseRecord(shop, purchaseId)).refund?.id, shop.fake.refunds[0].id);
});
