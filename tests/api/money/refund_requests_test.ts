/**
 * Refund requests (docs/decisions.md, Money operations, "Refund requests"): the buyer asks once, the admin list shows
 * it with the policy's facts, refunding answers it, declining tells the buyer the note.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm } from "@/tests/helpers/app.ts";
import { withDemoSeller } from "@/lib/demo/seller.ts";
import { addLesson, addToolkit, buy, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import type { TestUser } from "@/tests/helpers/app.ts";
import { recordProgress } from "@/lib/toolkits/learning.ts";
import { purchaseRecord, refund } from "./helpers.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { capturedPayments } from "@/lib/demo/money.ts";
import { listPurchasesForAdmin } from "@/lib/purchases/admin.ts";
import { creditNotesOf, type PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { page } from "@/tests/fixtures/html.ts";

const ask = async (shop: Shop, who: TestUser, id: string, body: Record<string, unknown> = {}) => {
  const res = await shop.t.json("POST", `/api/purchases/${id}/refund-request`, { body, headers: who.headers });
  return { status: res.status, body: await res.json() };
};

const decline = async (shop: Shop, id: string, body: Record<string, unknown>) => {
  const res = await shop.t.json("POST", `/api/admin/purchases/${id}/refund-request/decline`, {
    body,
    headers: shop.admin.headers,
  });
  return { status: res.status, body: await res.json() };
};

const adminRows = async (
  shop: Shop,
  query = "",
) => (await (await shop.t.fetch(`/api/admin/purchases?${query}`, { headers: shop.admin.headers })).json());

const asked = async (shop: Shop) =>
  (await (await shop.t.fetch("/api/admin/stats", { headers: shop.admin.headers })).json()).totals.refundRequests;

Deno.test("refund request: the buyer asks once; others, free, pending and refunded purchases are refused", async () => {
  await using shop = await openShop();
  const [buyer, other] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);

  assertEquals((await ask(shop, other, purchaseId)).status, 404);
  const tooLong = await ask(shop, buyer, purchaseId, { reason: "x".repeat(501) });
  assertEquals(tooLong.status, 400);
  const made = await ask(shop, buyer, purchaseId, { reason: "  Bought the wrong one  " });
  assertEquals(made.status, 200, JSON.stringify(made.body));
  assertEquals(made.body.purchase.paymentStatus, "paid");
  assertEquals(
    [made.body.purchase.refundRequest.status, made.body.purchase.refundRequest.reason],
    ["open", "Bought the wrong one"],
  );
  assertEquals(await ask(shop, buyer, purchaseId), {
    status: 409,
    body: { error: "You have already asked for a refund of this purchase" },
  });
  assertEquals(await asked(shop), 1);

  const free = await checkout(shop, buyer, (await addToolkit(shop, { price: 0 })).id);
  assertEquals(await ask(shop, buyer, free.body.purchase.id), {
    status: 400,
    body: { error: "A free purchase has no payment to refund" },
  });
  const pending = await checkout(shop, buyer, (await addToolkit(shop)).id);
  assertEquals((await ask(shop, buyer, pending.body.purchase.id)).status, 400);

  const second = await buy(shop, buyer, (await addToolkit(shop, { price: 300 })).id);
  assertEquals((await refund(shop, second.purchaseId)).status, 200);
  assertEquals(await ask(shop, buyer, second.purchaseId), {
    status: 409,
    body: { error: "This purchase has been refunded already" },
  });
});

Deno.test("refund request: the admin list shows it with the policy's facts; refunding answers it with the reason told", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const lessons = [await addLesson(shop, kit.id), await addLesson(shop, kit.id), await addLesson(shop, kit.id)];
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const other = await buy(shop, await createTestUser(shop.t), kit.id);
  for (const lesson of lessons) {
    await recordProgress(shop.t.kv, {
      toolkitId: kit.id,
      viewer: buyer.user,
      contentItemId: lesson.id,
      completed: true,
    });
  }
  assertEquals((await ask(shop, buyer, purchaseId, { reason: "Not what I expected" })).status, 200);

  const all = await adminRows(shop);
  const row = all.purchases.find((p: { id: string }) => p.id === purchaseId);
  assertEquals(row.refundRequest.reason, "Not what I expected");
  assertEquals(row.policy, {
    daysSincePaid: 0,
    lessonsCompleted: 3,
    lessonsTotal: 3,
    certificateIssued: true,
    pastPolicy: true,
  });
  assertEquals(all.purchases.find((p: { id: string }) => p.id === other.purchaseId).policy.pastPolicy, false);
  assertEquals(all.counts.asked, 1);
  const filtered = await adminRows(shop, "refundRequest=open");
  assertEquals(filtered.purchases.map((p: { id: string }) => p.id), [purchaseId]);

  const refunded = await refund(shop, purchaseId, "Asked on day 1");
  assertEquals(refunded.status, 200);
  assertEquals(refunded.body.purchase.refundRequest.status, "refunded");
  assertEquals(await asked(shop), 0);
  assertEquals((await adminRows(shop, "refundRequest=open")).purchases, []);
  // The admin's reason reaches the buyer's notification and e-mail.
  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assert(notes[0].body.includes("Asked on day 1"), notes[0].body);
  await shop.t.settled();
  // Found by its subject: the outbox may deliver the purchase's receipt after it.
  const mail = shop.t.mails.find((m) => m.to === buyer.user.email && m.subject === "Your refund for Resume Toolkit");
  assert(mail, "the refund mail was sent");
  assert(mail.text.includes("Why: Asked on day 1"), mail.text);
});

Deno.test("refund request: the admin declines it with a note the buyer is told; once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals(await decline(shop, purchaseId, { note: "No request" }), {
    status: 409,
    body: { error: "This purchase has no refund request waiting for an answer" },
  });
  assertEquals((await ask(shop, buyer, purchaseId)).status, 200);
  assertEquals((await decline(shop, purchaseId, { note: " " })).status, 400);
  const declined = await decline(shop, purchaseId, { note: "All four lessons were completed" });
  assertEquals(declined.status, 200, JSON.stringify(declined.body));
  assertEquals(declined.body.purchase.paymentStatus, "paid");
  assertEquals(
    [declined.body.purchase.refundRequest.status, declined.body.purchase.refundRequest.note],
    ["declined", "All four lessons were completed"],
  );
  assertEquals((await decline(shop, purchaseId, { note: "again" })).status, 409);
  assertEquals((await ask(shop, buyer, purchaseId)).status, 409);
  assertEquals(await asked(shop), 0);
  assertEquals((await purchaseRecord(shop, purchaseId)).refundRequest?.status, "declined");

  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assertEquals(notes[0].type, "refund_declined");
  assert(notes[0].body.includes("All four lessons were completed"), notes[0].body);
  await shop.t.settled();
  // Found by its subject: the outbox may deliver the purchase's receipt after it.
  const mail = shop.t.mails.find((m) =>
    m.to === buyer.user.email && m.subject === "Your refund request for Resume Toolkit"
  );
  assert(mail, "the decline mail was sent");
  assert(mail.text.includes("All four lessons were completed"), mail.text);
  const log = await (await shop.t.fetch("/api/admin/log?action=purchase.declineRefund", {
    headers: shop.admin.headers,
  })).json();
  assertEquals(log.entries.length, 1);
});

Deno.test("refund request: the receipt's and My toolkits' form works without JavaScript and then says it was asked", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const receipt = `/purchases/${purchaseId}/receipt`;
  const before = await (await shop.t.fetch(receipt, { headers: buyer.headers })).text();
  assert(before.includes(`action="/purchases/${purchaseId}/refund-request"`), "the receipt has the form");
  const mine = await (await shop.t.fetch("/toolkits/mine", { headers: buyer.headers })).text();
  assert(mine.includes(`action="/purchases/${purchaseId}/refund-request"`), "My toolkits has the form");
  for (const html of [before, mine]) {
    assert(html.includes(`refund-request" data-keep-typed`), "leaving with a reason typed asks first");
  }

  const res = await postForm(shop.t, buyer, `/purchases/${purchaseId}/refund-request`, {
    reason: "Changed my mind",
    back: "mine",
  }, { accept: "text/html" });
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), `/toolkits/mine#purchase-${purchaseId}`);
  const after = await (await shop.t.fetch(receipt, { headers: buyer.headers })).text();
  assert(after.includes("Refund asked on"), "the receipt says it was asked");
  assert(!after.includes(`action="/purchases/${purchaseId}/refund-request"`), "and offers the form no more");
  const again = await postForm(shop.t, buyer, `/purchases/${purchaseId}/refund-request`, { reason: "" }, {
    accept: "text/html",
  });
  assertEquals(again.status, 409);
  assert((await again.text()).includes("You have already asked for a refund of this purchase."));
});

Deno.test("/contact says 'the e-mail address below' only when one is set, in both languages; the demo sets one", async () => {
  await using t = await createTestApp();
  const contact = async (query = "") => await (await t.fetch(`/contact${query}`)).text();
  const none = await contact();
  assert(!none.includes("address below"), "no address promised");
  assert(none.includes("has not published a contact address yet"), "it says there is none");
  assert(none.includes("Ask for a refund"), "the refund way is named");
  t.services.config.grievanceEmail = "support@demo.careers";
  const set = await contact();
  assert(set.includes("write to the e-mail address below") && set.includes("support@demo.careers"), "the address");
  assert((await contact("?lang=hi")).includes("नीचे दिए ई-मेल पते पर"), "in Hindi too");
  assertEquals(withDemoSeller({}).GRIEVANCE_EMAIL, "support@demo.careers");
});

Deno.test("after a refund, an old lesson link opens the sales page saying the access ended with the refund", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const stranger = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const lesson = await addLesson(shop, kit.id);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const open = (who: TestUser) =>
    shop.t.fetch(`/toolkits/${kit.id}/learn/${lesson.id}`, { headers: who.headers, redirect: "manual" });
  assertEquals((await open(buyer)).status, 200);
  assertEquals((await open(stranger)).headers.get("location"), `/toolkits/${kit.id}`);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  const moved = await open(buyer);
  assertEquals(moved.headers.get("location"), `/toolkits/${kit.id}?ended=refund`);
  const page = await (await shop.t.fetch(moved.headers.get("location")!, { headers: buyer.headers })).text();
  assert(page.includes("Your access ended with the refund"), "it says why");
});

Deno.test("refund request: the buyer's reason goes with their account; the purchase and request stay", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals((await ask(shop, buyer, purchaseId, { reason: "My exam got cancelled" })).status, 200);
  const res = await shop.t.json("DELETE", "/api/me", { body: { confirm: buyer.user.email }, headers: buyer.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await shop.t.settled(); // the deletion's steps run after the answer

  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.userId, record.paymentStatus], [null, "paid"], "kept for accounting");
  assertEquals([record.refundRequest?.status, record.refundRequest?.reason], ["open", null]);
  const row = (await adminRows(shop)).purchases.find((p: { id: string }) => p.id === purchaseId);
  assertEquals([row.user, row.refundRequest.reason], [null, null]);
  assertEquals(await asked(shop), 1, "the request still waits for an answer");
});

Deno.test("refund texts: invisible characters and bidi overrides are stripped, CRLF kept as LF, API and plain forms", async () => {
  await using shop = await openShop();
  const hidden = "\u200b\u202e\u2060";
  const [apiBuyer, formBuyer] = [await createTestUser(shop.t), await createTestUser(shop.t)];
  const kit = await addToolkit(shop, { price: 500 });
  const [byApi, byForm, refundedByApi, refundedByForm] = [
    await buy(shop, apiBuyer, kit.id),
    await buy(shop, formBuyer, kit.id),
    await buy(shop, await createTestUser(shop.t), kit.id),
    await buy(shop, await createTestUser(shop.t), kit.id),
  ].map((bought) => bought.purchaseId);

  // The buyer's reason: through the API, then the receipt's plain form.
  const asked = await ask(shop, apiBuyer, byApi, { reason: `Never${hidden} opened it\u202e\r\nSorry\u200b` });
  assertEquals(asked.body.purchase?.refundRequest.reason, "Never opened it\nSorry", JSON.stringify(asked.body));
  const form = await postForm(shop.t, formBuyer, `/purchases/${byForm}/refund-request`, {
    reason: `Never opened it\u202e\r\n\u200b`,
    back: "receipt",
  }, { accept: "text/html" });
  assertEquals(form.status, 303);
  assertEquals((await purchaseRecord(shop, byForm)).refundRequest?.reason, "Never opened it");

  // The admin's decline note: made only of invisible characters it is blank, refused in JSON and in the plain form.
  assertEquals((await decline(shop, byApi, { note: hidden })).status, 400);
  const blankForm = await postForm(shop.t, shop.admin, "/admin/purchases", {
    intent: "decline",
    tab: "",
    purchaseId: byForm,
    note: hidden,
  }, { accept: "text/html" });
  assertEquals(blankForm.status, 400);
  const blankPage = await blankForm.text();
  assert(blankPage.includes("Fill in this field.") && blankPage.includes('aria-invalid="true"'), "told at the note");
  assert(!blankPage.includes("The form was not sent"), "not the page of a broken form");
  const declined = await decline(shop, byApi, { note: `Four${hidden} lessons\r\ndone` });
  assertEquals(declined.body.purchase?.refundRequest.note, "Four lessons\ndone", JSON.stringify(declined.body));
  const declinedForm = await postForm(shop.t, shop.admin, "/admin/purchases", {
    intent: "decline",
    tab: "",
    purchaseId: byForm,
    note: `Too late\u202e\r\n${hidden}`,
  }, { accept: "text/html" });
  assertEquals(declinedForm.status, 303);
  assertEquals((await purchaseRecord(shop, byForm)).refundRequest?.note, "Too late");

  // The admin's refund reason, told to the buyer: through the API and the plain form.
  const refunded = await refund(shop, refundedByApi, `Goodwill${hidden}\r\nrefund`);
  assertEquals(refunded.body.purchase?.refund.reason, "Goodwill\nrefund", JSON.stringify(refunded.body));
  const refundedForm = await postForm(shop.t, shop.admin, "/admin/purchases", {
    intent: "refund",
    tab: "",
    purchaseId: refundedByForm,
    // 557 characters as sent, 463 once each CRLF is one line feed, as the island counts them: within the 500.
    reason: `\u202eCharged twice${hidden}` + "\r\nabcd".repeat(90),
  }, { accept: "text/html" });
  assertEquals(refundedForm.status, 303);
  assertEquals((await purchaseRecord(shop, refundedByForm)).refund?.reason, "Charged twice" + "\nabcd".repeat(90));
});

Deno.test("refund request: a refund after a decline answers the request and its e-mail says it replaces the decline", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId } = await buy(shop, buyer, kit.id);
  assertEquals((await ask(shop, buyer, purchaseId, { reason: "Charged twice" })).status, 200);
  // One admin declines while another refunds: the decline's write lands first.
  assertEquals((await decline(shop, purchaseId, { note: "Past the 7 days" })).status, 200);
  const refunded = await refund(shop, purchaseId, "The charge was doubled at the bank");
  assertEquals(refunded.status, 200, JSON.stringify(refunded.body));
  const record = await purchaseRecord(shop, purchaseId);
  assertEquals([record.paymentStatus, record.refundRequest?.status], ["refunded", "refunded"]);
  assertEquals(await asked(shop), 0);
  // The receipt and My toolkits say the refund only, not the decline.
  for (const page of [`/purchases/${purchaseId}/receipt`, "/toolkits/mine"]) {
    const html = await (await shop.t.fetch(page, { headers: buyer.headers })).text();
    assert(!html.includes("Past the 7 days"), `${page} no longer shows the decline`);
  }
  await shop.t.settled();
  const mail = shop.t.mails.find((m) => m.to === buyer.user.email && m.subject === "Your refund for Resume Toolkit");
  assert(mail, "the refund mail was sent");
  assert(mail.text.includes("This refund replaces our earlier answer to your refund request."), mail.text);
  // A refund with no decline before it says nothing of one.
  const other = await createTestUser(shop.t);
  const second = await buy(shop, other, kit.id);
  assertEquals((await ask(shop, other, second.purchaseId)).status, 200);
  assertEquals((await refund(shop, second.purchaseId)).status, 200);
  await shop.t.settled();
  const plain = shop.t.mails.find((m) => m.to === other.user.email && m.subject === "Your refund for Resume Toolkit");
  assert(plain, "the second refund mail was sent");
  assert(!plain.text.includes("replaces our earlier answer"), plain.text);
});

Deno.test("refund policy: a page of the admin list reads each toolkit's lessons once, not once a row", async () => {
  await using fake = startFakeRazorpay();
  const reads = kvReads();
  await using t = await createTestApp({ env: fake.env, kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const shop = { t, admin, fake };
  const kits = [await addToolkit(shop), await addToolkit(shop, { title: "Interview Toolkit" })];
  for (const kit of kits) for (const title of ["One", "Two", "Three"]) await addLesson(shop, kit.id, { title });
  for (let i = 0; i < 12; i++) await buy(shop, await createTestUser(t), kits[i % 2].id);
  reads.lists.length = 0;
  const page = await (await t.fetch("/api/admin/purchases", { headers: admin.headers })).json();
  assertEquals(
    page.purchases.map((row: { policy: { lessonsTotal: number } }) => row.policy.lessonsTotal),
    Array(12).fill(3),
  );
  const lessonLists = reads.lists.filter(({ selector }) =>
    "prefix" in selector && selector.prefix[0] === "toolkit_items"
  );
  assertEquals(lessonLists.length, 2);
});

Deno.test("demo: the seeded refund request is refunded through the fake gateway once it knows the seeded payments", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ env: fake.env });
  await seedDemoData(t.kv);
  const shop = { t, admin: await createTestUser(t, "admin"), fake } as unknown as Shop;
  const asked = await listPurchasesForAdmin(t.kv, { refundRequest: "open", limit: 10, offset: 0 });
  assertEquals(asked.purchases.length, 1, "the demo's open refund request");
  const [request] = asked.purchases;
  const unknown = await refund(shop, request.id);
  assertEquals(unknown.body, { error: "The gateway does not know this payment" }, "the fake never took it");
  // What `deno task demo:payments` does before serving.
  const paid = await capturedPayments(t.kv);
  assert(paid.some((p) => p.paymentId === request.paymentId), "the request's payment is among them");
  for (const p of paid) fake.addPayment(p.orderId, "captured", { id: p.paymentId, amount: p.amount });
  const refunded = await refund(shop, request.id, "Bought the wrong toolkit");
  assertEquals([refunded.status, refunded.body.purchase.paymentStatus], [200, "refunded"]);
  assertEquals(fake.refunds.map((r) => [r.payment_id, r.amount]), [[request.paymentId, request.amountPaid]]);
});

Deno.test("demo: as the demo seller, the seeded refunds issue credit notes, shown on Sara's tax invoice", async () => {
  await using t = await createTestApp({ env: withDemoSeller({}) });
  // What `deno task seed` does, with the configuration's seller.
  await seedDemoData(t.kv, undefined, t.services.config.seller);
  const purchases = await Array.fromAsync(t.kv.list<PurchaseRecord>({ prefix: ["purchases"] }));
  const refunded = purchases.map(({ value }) => value).filter((p) => p.refund);
  assertEquals(refunded.length, 2, "the month's refund and Sara's");
  assert(refunded.every((p) => p.refund!.creditNote?.number.startsWith("CN-")), "each refund has its credit note");
  const numbers = refunded.flatMap((p) => creditNotesOf(p).map((note) => note.number));
  assertEquals(new Set(numbers).size, 3, `the month's refund's, Sara's part's and her refund's, apart: ${numbers}`);
  const sara = refunded.find((p) => p.refund!.reason === "Bought by mistake")!;
  const notes = creditNotesOf(sara);
  assertEquals(notes.map((note) => note.amount), [10000, sara.amountPaid - 10000], "₹100 at the gateway, the rest");
  const admin = await createTestUser(t, "admin");
  const { html } = await page(t, `/purchases/${sara.id}/receipt`, admin);
  assert(notes.every((note) => html.includes(note.number)), "her invoice shows both");
  assert((await page(t, notes[0].url, admin)).html.includes(notes[0].number), "the part's credit note has its page");
});
