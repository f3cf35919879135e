import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import { financialYearOf, gstSplit } from "@/lib/purchases/receipts.ts";
import { addToolkit, checkout, openShop } from "../toolkits/helpers.ts";
import { purchaseRecord } from "./helpers.ts";

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

Deno.test("receipts: the financial year runs April to March in IST", () => {
  assertEquals(financialYearOf("2026-03-31T18:29:59.000Z"), 2025);
  assertEquals(financialYearOf("2026-03-31T18:30:00.000Z"), 2026);
  assertEquals(financialYearOf("2026-12-31T12:00:00.000Z"), 2026);
  assertEquals(financialYearOf("2027-01-15T12:00:00.000Z"), 2026);
});

Deno.test("GST: taxable value plus tax equals the amount paid to the paisa, intra- and inter-state", () => {
  assertEquals(gstSplit(49900, "Karnataka", "Karnataka"), {
    taxable: 42288,
    cgst: 3806,
    sgst: 3806,
    igst: 0,
    interState: false,
  });
  assertEquals(gstSplit(49900, "Karnataka", "Maharashtra"), {
    taxable: 42288,
    cgst: 0,
    sgst: 0,
    igst: 7612,
    interState: true,
  });
  // Unknown buyer state: intra-state. State names compare without case or extra spaces.
  assertEquals(gstSplit(11800, "Karnataka", null).cgst, 900);
  assertEquals(gstSplit(11800, " karnataka ", "KARNATAKA").interState, false);
  for (let amount = 100; amount <= 1_000_000; amount += 37) {
    for (const buyer of ["Karnataka", "Kerala"]) {
      const split = gstSplit(amount, "Karnataka", buyer);
      assertEquals(split.taxable + split.cgst + split.sgst + split.igst, amount);
      // The tax is 18 % of the taxable value, to the nearest paisa (within one rounding step).
      assert(Math.abs(split.cgst + split.sgst + split.igst - split.taxable * 0.18) <= 1, String(amount));
      assert(Math.abs(split.cgst - split.sgst) <= 1);
    }
  }
});
