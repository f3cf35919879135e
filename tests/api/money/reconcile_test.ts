import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { reconcilePayments } from "@/lib/purchases/reconcile.ts";
import { forgetUnsettled, unsettledPurchases } from "@/lib/purchases/purchases.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { addToolkit, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import { deliver, purchaseRecord } from "./helpers.ts";

const MINUTE = 60_000;
const run = (shop: Shop, after = 3 * MINUTE) => reconcilePayments(shop.t.services, Date.now() + after);

async function notifications(shop: Shop, headers: Record<string, string>) {
  return (await (await shop.t.fetch("/api/me/notifications", { headers })).json()).notifications as {
    type: string;
  }[];
}

Deno.test("reconcile: a pending purchase whose webhook never came becomes paid, with its receipt, once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, buyer, kit.id);
  const payment = shop.fake.addPayment(started.body.order.id, "captured");
  // Too young: left to the webhook.
  assertEquals(await run(shop, 0), { checked: 0, paid: 0, failed: 0 });
  assertEquals(await run(shop), { checked: 1, paid: 1, failed: 0 });
  const record = await purchaseRecord(shop, started.body.purchase.id);
  assertEquals([record.paymentStatus, record.paymentId], ["paid", payment.id]);
  assert(record.receipt?.number.startsWith("RCPT-"));
  assertEquals(record.history.at(-1)?.source, "reconcile");
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, true);
  assertEquals((await notifications(shop, buyer.headers)).map((n) => n.type), ["purchase_paid"]);
  // Settled: not asked about again.
  assertEquals(await run(shop), { checked: 0, paid: 0, failed: 0 });
  await shop.t.settled();
  assertEquals(shop.t.mails.filter((m) => m.to === buyer.user.email).length, 1);
});

Deno.test("reconcile: an authorized payment is captured with the order's amount, then counts as paid", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 250 });
  const started = await checkout(shop, buyer, kit.id);
  const payment = shop.fake.addPayment(started.body.order.id, "authorized");
  assertEquals(await run(shop), { checked: 1, paid: 1, failed: 0 });
  assertEquals([payment.status, payment.captured, payment.amount], ["captured", true, 25000]);
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "paid");
});

Deno.test("reconcile: a late authorisation turns a failed purchase paid; all payments failed marks a pending one failed", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kitA = await addToolkit(shop);
  const kitB = await addToolkit(shop);
  const a = await checkout(shop, buyer, kitA.id);
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.failed", orderId: a.body.order.id }))).status,
    200,
  );
  assertEquals((await purchaseRecord(shop, a.body.purchase.id)).paymentStatus, "failed");
  shop.fake.addPayment(a.body.order.id, "failed");
  shop.fake.addPayment(a.body.order.id, "authorized");
  const b = await checkout(shop, buyer, kitB.id);
  shop.fake.addPayment(b.body.order.id, "failed");
  assertEquals(await run(shop), { checked: 2, paid: 1, failed: 1 });
  assertEquals((await purchaseRecord(shop, a.body.purchase.id)).paymentStatus, "paid");
  assertEquals((await purchaseRecord(shop, b.body.purchase.id)).paymentStatus, "failed");
  // A paid purchase never moves back: a failure reported afterwards changes nothing.
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.failed", orderId: a.body.order.id }))).status,
    200,
  );
  assertEquals((await purchaseRecord(shop, a.body.purchase.id)).paymentStatus, "paid");
});

Deno.test("reconcile: a run racing the webhook confirms the purchase once", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kits = await Promise.all(Array.from({ length: 5 }, () => addToolkit(shop)));
  const started = [];
  for (const kit of kits) started.push(await checkout(shop, buyer, kit.id));
  for (const s of started) shop.fake.addPayment(s.body.order.id, "captured");
  const [counts, ...hooks] = await Promise.all([
    run(shop),
    ...started.map((s) => deliver(shop, webhookDelivery({ event: "payment.captured", orderId: s.body.order.id }))),
  ]);
  assert(hooks.every((res) => res.status === 200));
  // How many the run still found pending depends on how far the webhooks got first (on a loaded machine, all but one);
  // whichever confirmed a purchase, each is paid once.
  assert(counts.paid <= counts.checked && counts.checked <= 5, JSON.stringify(counts));
  const numbers = new Set<string>();
  for (const s of started) {
    const record = await purchaseRecord(shop, s.body.purchase.id);
    assertEquals(record.paymentStatus, "paid");
    assertEquals(record.history.filter((h) => h.status === "paid").length, 1);
    numbers.add(record.receipt!.number);
  }
  assertEquals(numbers.size, 5);
  assertEquals((await notifications(shop, buyer.headers)).filter((n) => n.type === "purchase_paid").length, 5);
});

Deno.test("reconcile: orders older than 7 days are dropped from the work list; a gateway failure skips the order", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, buyer, kit.id);
  shop.fake.addPayment(started.body.order.id, "captured");
  shop.fake.mode = "fail";
  assertEquals(await run(shop), { checked: 1, paid: 0, failed: 0 });
  shop.fake.mode = "ok";
  assertEquals(await run(shop, 8 * 24 * 60 * MINUTE), { checked: 0, paid: 0, failed: 0 });
  assertEquals(await run(shop), { checked: 0, paid: 0, failed: 0 });
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "pending");
});

Deno.test("reconcile-payments is a registered job an admin can run by hand", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, buyer, kit.id);
  shop.fake.addPayment(started.body.order.id, "captured");
  const res = await shop.t.json("POST", "/api/admin/jobs/reconcile-payments/run", { headers: shop.admin.headers });
  assertEquals([res.status, await res.json()], [200, { job: "reconcile-payments", checked: 0, paid: 0, failed: 0 }]);
  const other = await shop.t.json("POST", "/api/admin/jobs/reconcile-payments/run", { headers: buyer.headers });
  assertEquals(other.status, 403);
});

Deno.test("a payment the gateway reports with another amount than its order's grants nothing and is owed back", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  // The webhook reports ₹1 less than the order asked.
  const first = await checkout(shop, buyer, kit.id);
  const short = shop.fake.addPayment(first.body.order.id, "captured", { amount: 49900 });
  const orderId = first.body.order.id;
  const res = await deliver(
    shop,
    webhookDelivery({ event: "payment.captured", orderId, paymentId: short.id, amount: 49900 }),
  );
  assertEquals(res.status, 200);
  const record = await purchaseRecord(shop, first.body.purchase.id);
  assertEquals(record.paymentStatus, "pending");
  assertEquals(
    record.extraPayments!.map((p) => [p.paymentId, p.amount, p.reason]),
    [[short.id, 49900, "amount mismatch"]],
  );
  // The buyer's verify of that payment is told so, and gets nothing.
  const verify = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(orderId, short.id),
    headers: buyer.headers,
  });
  assertEquals([verify.status, (await verify.json()).error], [
    409,
    "This payment's amount does not match its order: the payment will be refunded",
  ]);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: buyer.headers })).json();
  assertEquals(detail.hasPurchased, false);
  // Reconciliation asks about the order and changes nothing more; the admin refunds what was received.
  assertEquals(await run(shop), { checked: 1, paid: 0, failed: 0 });
  assertEquals((await purchaseRecord(shop, first.body.purchase.id)).extraPayments!.length, 1);
  const back = await shop.t.json("POST", `/api/admin/purchases/${record.id}/extra-payments/${short.id}/refund`, {
    body: {},
    headers: shop.admin.headers,
  });
  assertEquals(back.status, 200);
  assertEquals(shop.fake.refunds.map((r) => [r.payment_id, r.amount]), [[short.id, 49900]]);
});

Deno.test("reconcile: a captured payment of another amount is owed back; an authorisation of another amount is left", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const other = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const started = await checkout(shop, buyer, kit.id);
  const captured = shop.fake.addPayment(started.body.order.id, "captured", { amount: 60000 });
  const held = await checkout(shop, other, kit.id);
  const authorized = shop.fake.addPayment(held.body.order.id, "authorized", { amount: 100 });
  assertEquals(await run(shop), { checked: 2, paid: 0, failed: 0 });
  const record = await purchaseRecord(shop, started.body.purchase.id);
  assertEquals(record.paymentStatus, "pending");
  assertEquals(record.extraPayments!.map((p) => [p.paymentId, p.amount, p.reason]), [[
    captured.id,
    60000,
    "amount mismatch",
  ]]);
  assertEquals((await purchaseRecord(shop, held.body.purchase.id)).paymentStatus, "pending");
  assertEquals(authorized.status, "authorized");
});

Deno.test("reconcile: a checkout started again while an old order leaves the work list keeps the new order on it", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const first = await checkout(shop, buyer, kit.id);
  const purchaseId = first.body.purchase.id;
  let again: Awaited<ReturnType<typeof checkout>> | null = null;
  // The buyer checks out again just before the run drops the old order (KV's first write of the run).
  const kv = shop.t.kv;
  const startAgain = async () => {
    if (again) return;
    again = await checkout(shop, buyer, kit.id);
  };
  const racing = new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "delete") return async (key: Deno.KvKey) => (await startAgain(), await target.delete(key));
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => (await startAgain(), await commit());
          return op;
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  await reconcilePayments({ ...shop.t.services, kv: racing }, Date.now() + 8 * 24 * 60 * MINUTE);
  assert(again);
  const listed = await kv.get<{ orderId: string }>(["purchases_unsettled", purchaseId]);
  assertEquals(listed.value?.orderId, (again as { body: { order: { id: string } } }).body.order.id);
});

Deno.test("reconcile: an earlier order paid without a word is found, paying the purchase or owed back after a later one", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 400 });
  const other = await addToolkit(shop, { price: 300 });

  // Pending: order A was paid (its tab died before verify, no webhook came); the buyer checked out again (B) and left.
  const a = await checkout(shop, buyer, kit.id);
  const paidA = shop.fake.addPayment(a.body.order.id, "captured");
  const b = await checkout(shop, buyer, kit.id);
  assertEquals(b.body.purchase.id, a.body.purchase.id);
  assertEquals(await run(shop), { checked: 2, paid: 1, failed: 0 });
  const pending = await purchaseRecord(shop, a.body.purchase.id);
  assertEquals([pending.paymentStatus, pending.gatewayOrderId, pending.paymentId], ["paid", a.body.order.id, paidA.id]);

  // Paid through a later order: order C was paid and lost, D was paid with verify; C is owed back, D stays the payment.
  const c = await checkout(shop, buyer, other.id);
  const paidC = shop.fake.addPayment(c.body.order.id, "captured");
  const d = await checkout(shop, buyer, other.id);
  const paidD = shop.fake.addPayment(d.body.order.id, "captured");
  const verify = await shop.t.json("POST", `/api/toolkits/${other.id}/verify`, {
    body: signedPayment(d.body.order.id, paidD.id),
    headers: buyer.headers,
  });
  assertEquals(verify.status, 200);
  await verify.body?.cancel();
  // D (checked against the record: it paid the purchase), C, and B (due again at 15 minutes old); A's purchase stays
  // listed, as B may still be paid.
  assertEquals(await run(shop, 20 * MINUTE), { checked: 3, paid: 0, failed: 0 });
  const paid = await purchaseRecord(shop, c.body.purchase.id);
  assertEquals([paid.paymentStatus, paid.gatewayOrderId, paid.paymentId], ["paid", d.body.order.id, paidD.id]);
  assertEquals(paid.extraPayments?.map((p) => [p.orderId, p.paymentId, p.amount, p.reason]), [
    [c.body.order.id, paidC.id, 30000, "already paid"],
  ]);
  assertEquals((await shop.t.kv.get(["purchases_unsettled", paid.id])).value, null, "every order of it is known");
  // B is paid after all: owed back; then every order of A's purchase is known too, and nothing is asked any more.
  const paidB = shop.fake.addPayment(b.body.order.id, "captured");
  assertEquals(await run(shop, 70 * MINUTE), { checked: 1, paid: 0, failed: 0 });
  assertEquals((await purchaseRecord(shop, pending.id)).extraPayments?.map((p) => [p.orderId, p.paymentId, p.reason]), [
    [b.body.order.id, paidB.id, "already paid"],
  ]);
  assertEquals((await shop.t.kv.get(["purchases_unsettled", pending.id])).value, null);
  assertEquals(await run(shop), { checked: 0, paid: 0, failed: 0 });
});

Deno.test("reconcile: an authorisation of an earlier order of a paid purchase is left to lapse, not captured to repay", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 400 });
  const a = await checkout(shop, buyer, kit.id);
  const held = shop.fake.addPayment(a.body.order.id, "authorized");
  const b = await checkout(shop, buyer, kit.id);
  const paidB = shop.fake.addPayment(b.body.order.id, "captured");
  assertEquals(
    (await deliver(shop, webhookDelivery({ event: "payment.captured", orderId: b.body.order.id, paymentId: paidB.id })))
      .status,
    200,
  );
  // B, checked against the record, and A, asked about.
  assertEquals(await run(shop), { checked: 2, paid: 0, failed: 0 });
  assertEquals(held.status, "authorized");
  const record = await purchaseRecord(shop, a.body.purchase.id);
  assertEquals([record.paymentStatus, record.extraPayments ?? []], ["paid", []]);
  // Asked again when due while A is younger than 7 days (it may still be captured at the gateway), then no more.
  assertEquals(await run(shop, 20 * MINUTE), { checked: 2, paid: 0, failed: 0 });
  assertEquals(await run(shop, 8 * 24 * 60 * MINUTE), { checked: 0, paid: 0, failed: 0 });
  assertEquals(await run(shop), { checked: 0, paid: 0, failed: 0 });
});

/** The orders asked about for their payments since `from` (an index into the fake's calls). */
function asked(shop: Shop, from = 0): string[] {
  return shop.fake.calls.slice(from).flatMap((call) => /^GET \/v1\/orders\/([^/]+)\/payments$/.exec(call)?.[1] ?? []);
}

Deno.test("reconcile: abandoned orders are asked about 2 and 15 minutes, 1, 6 and 24 hours old, then no more", async () => {
  await using shop = await openShop();
  const hostile = await createTestUser(shop.t);
  const kits = await Promise.all(Array.from({ length: 3 }, () => addToolkit(shop, { price: 400 })));
  // 60 checkouts (the per-person limit for 10 minutes), 20 on each of 3 toolkits, nothing paid.
  for (const kit of kits) for (let i = 0; i < 20; i++) await checkout(shop, hostile, kit.id);
  const created = shop.fake.calls.length;
  const callsAt = async (after: number) => {
    const from = shop.fake.calls.length;
    await run(shop, after);
    return asked(shop, from).length;
  };
  const HOUR = 60 * MINUTE;
  assertEquals(await callsAt(3 * MINUTE), 60);
  assertEquals(await callsAt(6 * MINUTE), 0, "not due again before 15 minutes old");
  assertEquals(await callsAt(16 * MINUTE), 60);
  assertEquals(await callsAt(61 * MINUTE), 60);
  assertEquals(await callsAt(2 * HOUR), 0);
  assertEquals(await callsAt(6 * HOUR + MINUTE), 60);
  assertEquals(await callsAt(24 * HOUR + MINUTE), 60);
  // No payment at 24 hours old: no more asks, and the purchases (unpaid) leave the work list.
  assertEquals(await unsettledPurchases(shop.t.kv), []);
  assertEquals(await callsAt(48 * HOUR + MINUTE), 0);
  assertEquals(await callsAt(6 * 24 * HOUR), 0);
  assertEquals(shop.fake.calls.length - created, 300, "5 asks of each order in 7 days, nothing else");
});

Deno.test("reconcile: an order the gateway failed on (500) is asked again at its next age, not every run", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const started = await checkout(shop, buyer, kit.id);
  shop.fake.addPayment(started.body.order.id, "captured");
  shop.fake.mode = "fail";
  const askedAt = async (after: number) => {
    const from = shop.fake.calls.length;
    await run(shop, after);
    return asked(shop, from).length;
  };
  assertEquals(await askedAt(3 * MINUTE), 1);
  assertEquals(await askedAt(6 * MINUTE), 0, "the failure counts as the ask due at 2 minutes");
  assertEquals(await askedAt(14 * MINUTE), 0);
  assertEquals(await askedAt(16 * MINUTE), 1, "due again at 15 minutes old");
  shop.fake.mode = "ok";
  assertEquals(await askedAt(30 * MINUTE), 0);
  assertEquals(await run(shop, 61 * MINUTE), { checked: 1, paid: 1, failed: 0 });
  assertEquals((await purchaseRecord(shop, started.body.purchase.id)).paymentStatus, "paid");
});

Deno.test("reconcile: a paid purchase whose other order had no payment for 24 hours leaves the work list", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 300 });
  // The first Checkout tab closed; the second order was paid and verified.
  const a = await checkout(shop, buyer, kit.id);
  const b = await checkout(shop, buyer, kit.id);
  const paid = shop.fake.addPayment(b.body.order.id, "captured");
  const verify = await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(b.body.order.id, paid.id),
    headers: buyer.headers,
  });
  assertEquals(verify.status, 200);
  await verify.body?.cancel();
  const listed = () => shop.t.kv.get(["purchases_unsettled", b.body.purchase.id]);
  await run(shop, 3 * MINUTE);
  await run(shop, 7 * 60 * MINUTE);
  assert((await listed()).value, "A may still be paid");
  assertEquals(asked(shop), [a.body.order.id, a.body.order.id], "at 2 minutes and 6 hours old");
  await run(shop, 25 * 60 * MINUTE);
  assertEquals((await listed()).value, null);
  assertEquals(asked(shop).length, 3);
  await run(shop, 49 * 60 * MINUTE);
  assertEquals(asked(shop).length, 3);
});

Deno.test("reconcile: a run makes at most 200 gateway calls; the rest are asked first in the next run", async () => {
  await using shop = await openShop();
  const kits = await Promise.all(Array.from({ length: 3 }, () => addToolkit(shop, { price: 400 })));
  const orders: string[] = [];
  for (let user = 0; user < 4; user++) {
    const buyer = await createTestUser(shop.t);
    for (const kit of kits) {
      for (let i = 0; i < 17; i++) orders.push((await checkout(shop, buyer, kit.id)).body.order.id);
    }
  }
  assertEquals(orders.length, 204);
  const created = shop.fake.calls.length;
  await run(shop, 3 * MINUTE);
  const first = asked(shop, created);
  assertEquals(shop.fake.calls.length - created, 199, "one more order could need a capture too");
  await run(shop, 4 * MINUTE);
  const waited = asked(shop, created + first.length);
  assertEquals([...first, ...waited].sort(), [...orders].sort());
  // At 15 minutes old every order is due again: the five asked last wait this time.
  await run(shop, 16 * MINUTE);
  const again = asked(shop, created + first.length + waited.length);
  assertEquals(again.length, 199);
  assertEquals(again.filter((orderId) => waited.includes(orderId)), []);
});

Deno.test("reconcile: a run reads the work list, the checks and the purchases in a few lists and batched reads", async () => {
  await using shop = await openShop();
  const kits = await Promise.all(Array.from({ length: 3 }, () => addToolkit(shop, { price: 400 })));
  for (let user = 0; user < 8; user++) {
    const buyer = await createTestUser(shop.t);
    for (const kit of kits) await checkout(shop, buyer, kit.id);
  }
  assertEquals((await unsettledPurchases(shop.t.kv)).length, 24);
  assertEquals((await run(shop, 3 * MINUTE)).checked, 24);
  // Nothing due at 6 minutes old: the run reads and asks nothing more per purchase.
  const reads = kvReads();
  const from = shop.fake.calls.length;
  const counts = await reconcilePayments(
    { ...shop.t.services, kv: recordingReads(shop.t.kv, reads) },
    Date.now() + 6 * MINUTE,
  );
  assertEquals(counts, { checked: 0, paid: 0, failed: 0 });
  assertEquals(asked(shop, from), []);
  assertEquals(
    reads.lists.map(({ selector }) => "prefix" in selector ? selector.prefix[0] : "range"),
    ["refunds_unrecorded", "purchases_unsettled", "purchase_order_checks"],
  );
  assertEquals(reads.keys.length, 48, "each purchase read twice, before and after the asks");
  assert(reads.maxInFlight > 1, "the purchases are read together, not one after another");
});

Deno.test("reconcile: dropping entries in one write keeps one written since it was read, and drops the others", async () => {
  await using shop = await openShop();
  const kits = await Promise.all(Array.from({ length: 3 }, () => addToolkit(shop)));
  const buyer = await createTestUser(shop.t);
  for (const kit of kits) await checkout(shop, buyer, kit.id);
  const read = await unsettledPurchases(shop.t.kv);
  assertEquals(read.length, 3);
  // The buyer checks out the second toolkit again meanwhile: its entry now names the new order.
  const again = await checkout(shop, buyer, kits[1].id);
  await forgetUnsettled(shop.t.kv, read);
  assertEquals((await unsettledPurchases(shop.t.kv)).map((item) => item.orderId), [again.body.order.id]);
});
