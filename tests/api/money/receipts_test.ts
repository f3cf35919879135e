import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import { financialYearOf } from "@/lib/purchases/receipts.ts";
import { addToolkit, checkout, openShop } from "../toolkits/helpers.ts";
import { buy, purchaseRecord } from "./helpers.ts";

Deno.test("receipts: 50 confirmations at once take the numbers 1..50 of the financial year, no gap, no repeat", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const buyers = await Promise.all(Array.from({ length: 50 }, () => createTestUser(shop.t)));
  const started = await Promise.all(buyers.map((buyer) => checkout(shop, buyer, kit.id)));
  const answers = await Promise.all(
    started.map((s, i) =>
      shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
        body: signedPayment(s.body.order.id),
        headers: buyers[i].headers,
      })
    ),
  );
  assertEquals(answers.map((res) => res.status), Array(50).fill(200));
  const year = financialYearOf(new Date().toISOString());
  const numbers = await Promise.all(
    started.map(async (s) => (await purchaseRecord(shop, s.body.purchase.id)).receipt!.number),
  );
  const sequence = numbers.map((n) => {
    assert(n.startsWith(`RCPT-${year}-`), n);
    return Number(n.slice(`RCPT-${year}-`.length));
  }).sort((a, b) => a - b);
  assertEquals(sequence, Array.from({ length: 50 }, (_, i) => i + 1));
  // Each receipt is issued to its buyer.
  const first = await purchaseRecord(shop, started[0].body.purchase.id);
  assertEquals([first.receipt!.name, first.receipt!.email], [buyers[0].user.name, buyers[0].user.email]);
});

Deno.test("receipts and refunds: only the buyer and admins see a receipt; ids of others are refused", async () => {
  await using shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const other = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId, payment } = await buy(shop, buyer, kit.id);
  const page = (id: string, headers: Record<string, string> = {}) =>
    shop.t.fetch(`/purchases/${id}/receipt`, { headers, redirect: "manual" });
  assertEquals((await page(purchaseId, buyer.headers)).status, 200);
  assertEquals((await page(purchaseId, shop.admin.headers)).status, 200);
  assertEquals((await page(purchaseId, other.headers)).status, 404);
  assertEquals((await page("not-a-purchase", buyer.headers)).status, 404);
  assert([302, 303].includes((await page(purchaseId)).status));
  // The purchase's own payment is not one of its extra payments; another purchase's id is not this one's.
  const post = (path: string, headers: Record<string, string>) => shop.t.json("POST", path, { body: {}, headers });
  for (
    const [path, headers, status, error] of [
      [
        `/api/admin/purchases/${purchaseId}/extra-payments/${payment.id}/refund`,
        shop.admin.headers,
        404,
        "Payment not found",
      ],
      [`/api/admin/purchases/123/refund`, shop.admin.headers, 404, "Purchase not found"],
      [`/api/admin/purchases/123/extra-payments/${payment.id}/refund`, shop.admin.headers, 404, "Purchase not found"],
      [`/api/admin/purchases/${purchaseId}/refund`, buyer.headers, 403, "Forbidden"],
      [`/api/admin/purchases/${purchaseId}/refund`, {}, 401, "Unauthorized"],
    ] as const
  ) {
    const res = await post(path, headers);
    assertEquals([res.status, (await res.json()).error], [status, error], path);
  }
  const bad = await shop.t.json("POST", `/api/admin/purchases/${purchaseId}/refund`, {
    body: { reason: 42 },
    headers: shop.admin.headers,
  });
  assertEquals(bad.status, 400);
  assertEquals((await purchaseRecord(shop, purchaseId)).paymentStatus, "paid");
  assertEquals(shop.fake.refunds.length, 0);
});

Deno.test("receipts: an invoice keeps the seller as it was issued when the seller's settings change", async () => {
  await using shop = await openShop();
  const config = shop.t.services.config;
  config.seller = { ...config.seller, name: "Career Community LLP", state: "Karnataka", gstin: "29ABCDE1234F1Z5" };
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop);
  const { purchaseId } = await buy(shop, buyer, kit.id);
  const read = async () => {
    const html = await (await shop.t.fetch(`/purchases/${purchaseId}/receipt`, { headers: buyer.headers })).text();
    return html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  };
  const issued = await read();
  assert(issued.includes("29ABCDE1234F1Z5") && issued.includes("CGST"), issued);
  // The seller moves to another state with another GSTIN, then drops the GSTIN: the invoice issued stays as issued.
  config.seller = { ...config.seller, name: "Other Name Pvt Ltd", state: "Maharashtra", gstin: "27ABCDE1234F1Z5" };
  assertEquals(await read(), issued);
  config.seller = { sac: config.seller.sac };
  assertEquals(await read(), issued);
});
