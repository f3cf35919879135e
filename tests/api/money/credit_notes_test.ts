/**
 * Credit notes of parts refunded at the gateway (docs/decisions.md, Money operations, "Credit notes") and GST's time
 * limit (docs/decisions.md, Money operations, "Time limit of credit notes"): each part refunded at the gateway e-mails
 * its buyer once, linking its credit note; no credit note is issued past the time limit, by a refund or by the
 * `credit-notes-late` job, and the admin's list says why.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { refundProcessedDelivery } from "@/tests/fakes/razorpay.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { addToolkit, buy, openShop, registerForGst, type Shop } from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord, refund } from "./helpers.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { creditNotesOf } from "@/lib/purchases/purchases.ts";
import { financialYearOf } from "@/lib/purchases/receipts.ts";

/** What the admin's row and the buyer's receipt say of an invoice of 2024-25 past GST's time limit. */
const LAPSED =
  "GST allows credit notes for this invoice only until 30 Nov 2025: a refund not credited by then has none";

/** Delivers the gateway's `refund.processed` of `part` twice at once, under two event ids. */
async function deliverTwice(shop: Shop, part: Parameters<typeof refundProcessedDelivery>[0], orderId: string) {
  const answers = await Promise.all([0, 1].map(async () => {
    const res = await deliver(shop, refundProcessedDelivery(part, { orderId }));
    await res.body?.cancel();
    return res.status;
  }));
  assertEquals(answers, [200, 200]);
}

/** Moves the date of purchase `id`'s receipt (its supply) to `issuedAt`, as an older purchase's would be. */
async function receiptIssuedAt(shop: Shop, id: string, issuedAt: string) {
  const record = await purchaseRecord(shop, id);
  await shop.t.kv.set(["purchases", id], { ...record, receipt: { ...record.receipt!, issuedAt } });
}

Deno.test("each part refunded at the gateway e-mails its buyer once, linking its credit note", async () => {
  await using smtp = await startFakeSmtp();
  await using shop = await openShop({ smtpUrl: smtp.url });
  registerForGst(shop);
  const buyer = await createTestUser(shop.t, "user", { name: "Sara Khan" });
  const kit = await addToolkit(shop, { price: 499 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  for (const amount of [12345, 23456, 14099]) {
    await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, amount), orderId);
  }
  await shop.t.settled();
  const notes = creditNotesOf(await purchaseRecord(shop, purchaseId));
  assertEquals(notes.map((note) => note.amount), [12345, 23456, 14099]);
  const refundMails = smtp.messages.filter((m) => m.to.includes(buyer.user.email) && m.subject.includes("refund"));
  assertEquals(refundMails.length, 3, "one e-mail a part, the last (which ends the purchase) as before");
  const [first, second, last] = notes.map((note) => refundMails.filter((m) => m.text.includes(note.number)));
  assertEquals([first.length, second.length, last.length], [1, 1, 1], "each names its own credit note, once");
  const text = first[0].text;
  assert(text.includes("We refunded ₹123.45 for Resume Toolkit"), text);
  assert(text.includes(`${shop.t.origin}${notes[0].url}`), text);
  assert(text.includes("This was part of your payment"), text);
  assert(!text.includes("refunded in all"), "nothing before the first part");
  assert(second[0].text.includes("With the ₹123.45 refunded before, ₹358.01 of your payment"), second[0].text);
  assert(last[0].text.includes("Your access to the toolkit has ended."), last[0].text);
});

Deno.test("a part refunded at the gateway e-mails a Hindi buyer in Hindi; a deleted buyer none", async () => {
  await using smtp = await startFakeSmtp();
  await using shop = await openShop({ smtpUrl: smtp.url });
  registerForGst(shop);
  const hindi = await createTestUser(shop.t, "user", { name: "Priya" });
  const gone = await createTestUser(shop.t, "user", { name: "Gone" });
  const setting = await shop.t.json("PATCH", "/api/me/settings", { body: { language: "hi" }, headers: hindi.headers });
  assertEquals(setting.status, 200);
  await setting.body?.cancel();
  const kit = await addToolkit(shop, { price: 500 });
  const [a, b] = [await buy(shop, hindi, kit.id), await buy(shop, gone, kit.id)];
  const deleted = await shop.t.json("DELETE", "/api/me", { body: { confirm: gone.user.email }, headers: gone.headers });
  assertEquals(deleted.status, 200);
  await deleted.body?.cancel();
  await shop.t.settled(); // the deletion's steps run after the answer
  assertEquals((await purchaseRecord(shop, b.purchaseId)).userId, null);
  for (const { orderId, payment } of [a, b]) {
    await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, 10000), orderId);
  }
  await shop.t.settled();
  const [note] = creditNotesOf(await purchaseRecord(shop, a.purchaseId));
  const mails = smtp.messages.filter((m) => m.text.includes(note.number));
  assertEquals(mails.length, 1);
  assert(mails[0].text.includes("यह आपके पेमेंट का एक हिस्सा था"), mails[0].text);
  assertEquals(creditNotesOf(await purchaseRecord(shop, b.purchaseId)).length, 1, "the deleted buyer's part noted");
  assertEquals(smtp.messages.filter((m) => m.to.includes(gone.user.email) && m.subject.includes("refund")), []);
});

Deno.test("past GST's time limit a refund or part issues no credit note but says why, to the admin too", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  // Supplied in the financial year 2024-25: credit notes against it ended on 30 Nov 2025.
  await receiptIssuedAt(shop, purchaseId, "2025-03-31T18:00:00.000Z");
  await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, 10000), orderId);
  assertEquals((await refund(shop, purchaseId)).status, 200);
  const record = await purchaseRecord(shop, purchaseId);
  const why = { lastDay: "2025-11-30" };
  assertEquals(
    [record.gatewayPartialRefunds![0].creditNoteLapsed, record.refund?.creditNoteLapsed, creditNotesOf(record)],
    [why, why, []],
  );
  const year = financialYearOf(new Date().toISOString());
  assertEquals((await shop.t.kv.get(["credit_note_sequence", year])).value, null, "no number taken");
  const list = await (await shop.t.fetch(`/api/admin/purchases?search=${payment.id}`, { headers: shop.admin.headers }))
    .json();
  assertEquals(list.purchases[0].refund.creditNoteLapsed, why);
  const html = await (await shop.t.fetch(`/admin/purchases?search=${payment.id}`, { headers: shop.admin.headers }))
    .text();
  assert(html.includes(LAPSED), "the row says why");
  const receipt = await (await shop.t.fetch(`/purchases/${purchaseId}/receipt`, { headers: buyer.headers })).text();
  assert(receipt.includes(LAPSED), "and the buyer's receipt too");
});

Deno.test("a refund in parts whose first part got its credit note and second lapsed says both truly", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
  await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, 10000), orderId);
  // The second part comes after GST's time limit for the invoice, as if supplied in 2024-25.
  await receiptIssuedAt(shop, purchaseId, "2025-03-31T18:00:00.000Z");
  await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, 5000), orderId);
  const record = await purchaseRecord(shop, purchaseId);
  const [first, second] = record.gatewayPartialRefunds!;
  assertEquals([Boolean(first.creditNote), first.creditNoteLapsed, second.creditNote], [true, undefined, undefined]);
  assertEquals(second.creditNoteLapsed, { lastDay: "2025-11-30" });

  const html = await (await shop.t.fetch(`/admin/purchases?search=${payment.id}`, { headers: shop.admin.headers }))
    .text();
  assert(html.includes(first.creditNote!.number), "the first part's credit note is listed");
  assert(html.includes(LAPSED), "beside the limit that left the second without one");
  const receipt = (lang: string) =>
    shop.t.fetch(`/purchases/${purchaseId}/receipt?lang=${lang}`, { headers: buyer.headers });
  const english = await (await receipt("en")).text();
  assert(english.includes(LAPSED), "the buyer's receipt");
  assert(!english.includes("No credit note for this refund"), "not the words that said the whole refund had none");
  const hindi = await (await receipt("hi")).text();
  assert(hindi.includes("GST इस रसीद के क्रेडिट नोट सिर्फ़ 30 नवंबर 2025 तक बनाने देता है"), "in Hindi");
});

Deno.test("the credit-notes-late job issues none past GST's time limit, to the last day in India, and says why", async () => {
  await using shop = await openShop();
  registerForGst(shop);
  const kit = await addToolkit(shop, { price: 500 });
  const buyers = await Promise.all([0, 1, 2].map(() => createTestUser(shop.t)));
  const ids: string[] = [];
  for (const buyer of buyers) {
    const { purchaseId, orderId, payment } = await buy(shop, buyer, kit.id);
    ids.push(purchaseId);
    await deliverTwice(shop, await shop.fake.refundInDashboard(payment.id, 10000), orderId);
    assertEquals((await refund(shop, purchaseId)).status, 200);
  }
  // Refunded before credit notes (their notes taken off, as the code before wrote them), supplied in 2024-25, in
  // 2025-26, and in 2025-26 again for a run a moment later.
  const supplied = ["2025-03-31T18:29:59.000Z", "2025-03-31T18:30:00.000Z", "2026-03-31T18:29:59.000Z"];
  for (const [i, id] of ids.entries()) {
    const record = await purchaseRecord(shop, id);
    const { creditNote: _r, ...refundBefore } = record.refund!;
    await shop.t.kv.set(["purchases", id], {
      ...record,
      receipt: { ...record.receipt!, issuedAt: supplied[i] },
      refund: refundBefore,
      gatewayPartialRefunds: record.gatewayPartialRefunds!.map(({ creditNote: _p, ...part }) => part),
    });
  }
  const year = financialYearOf(new Date().toISOString());
  await shop.t.kv.set(["credit_note_sequence", year], 0);
  const job = findJob("credit-notes-late")!;
  // The last moment of 30 Nov 2026 in India: the 2025-26 supply's last day, the 2024-25 one's a year past.
  const lastMoment = new Date("2026-11-30T18:29:59.999Z");
  assertEquals(await runJob(job, shop.t.services, lastMoment), { job: "credit-notes-late", written: 3 });
  const [old, inTime, lateToo] = await Promise.all(ids.map((id) => purchaseRecord(shop, id)));
  const why = (lastDay: string) => [{ creditNoteLapsed: { lastDay } }, { creditNoteLapsed: { lastDay } }];
  const outcomes = (record: typeof old) =>
    [record.gatewayPartialRefunds![0], record.refund!].map(({ creditNote, creditNoteLapsed }) =>
      creditNote ? { number: creditNote.number } : { creditNoteLapsed }
    );
  assertEquals(outcomes(old), why("2025-11-30"));
  assertEquals(outcomes(inTime).map((o) => "number" in o), [true, true]);
  assertEquals(outcomes(lateToo).map((o) => "number" in o), [true, true]);
  assertEquals((await shop.t.kv.get(["credit_note_sequence", year])).value, 4, "numbers for the two in time only");

  // A moment later the 2025-26 supply's time is up too.
  const { creditNote: _r, ...lateRefund } = lateToo.refund!;
  await shop.t.kv.set(["purchases", ids[2]], {
    ...lateToo,
    refund: lateRefund,
    gatewayPartialRefunds: lateToo.gatewayPartialRefunds!.map(({ creditNote: _p, ...part }) => part),
  });
  await shop.t.kv.delete(["purchases_meta", "late_credit_notes"]);
  const after = new Date(lastMoment.getTime() + 1);
  assertEquals(await runJob(job, shop.t.services, after), { job: "credit-notes-late", written: 1 });
  assertEquals(outcomes(await purchaseRecord(shop, ids[2])), why("2026-11-30"));
  assertEquals((await shop.t.kv.get(["credit_note_sequence", year])).value, 4, "no number taken past the limit");
  await shop.t.kv.delete(["purchases_meta", "late_credit_notes"]);
  const before = await Promise.all(ids.map((id) => purchaseRecord(shop, id)));
  assertEquals(await runJob(job, shop.t.services, after), { job: "credit-notes-late", written: 0 }, "decided once");
  assertEquals(await Promise.all(ids.map((id) => purchaseRecord(shop, id))), before);
});
