import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { creditNoteSplit, financialYearOf, gstSplit } from "./receipts.ts";

Deno.test("financialYearOf: the financial year runs April to March in IST", () => {
  assertEquals(financialYearOf("2026-03-31T18:29:59.000Z"), 2025);
  assertEquals(financialYearOf("2026-03-31T18:30:00.000Z"), 2026);
  assertEquals(financialYearOf("2026-12-31T12:00:00.000Z"), 2026);
  assertEquals(financialYearOf("2027-01-15T12:00:00.000Z"), 2026);
});

Deno.test("gstSplit: taxable value plus tax equals the amount paid to the paisa, intra- and inter-state", () => {
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

Deno.test("gstSplit: amounts are paise, the taxable value rounds to the nearest paisa, CGST takes the odd paisa", () => {
  // ₹118 paid is ₹100 taxable and ₹18 tax; the same figure read as rupees would be a hundredth of it.
  assertEquals(gstSplit(11800, "Karnataka", "Karnataka"), {
    taxable: 10000,
    cgst: 900,
    sgst: 900,
    igst: 0,
    interState: false,
  });
  // 100 paise: taxable 84.75… rounds to 85, tax 15 splits 8 + 7.
  assertEquals(gstSplit(100, "Karnataka", "Karnataka"), { taxable: 85, cgst: 8, sgst: 7, igst: 0, interState: false });
  // 1 paisa: no tax to split; nothing paid: nothing at all.
  assertEquals(gstSplit(1, "Karnataka", "Kerala"), { taxable: 1, cgst: 0, sgst: 0, igst: 0, interState: true });
  assertEquals(gstSplit(0, "Karnataka", "Karnataka"), { taxable: 0, cgst: 0, sgst: 0, igst: 0, interState: false });
});

Deno.test("gstSplit: inter-state only when both states are known and differ", () => {
  assertEquals(gstSplit(11800, "Karnataka", "Kerala").igst, 1800);
  assertEquals(gstSplit(11800, null, "Kerala").interState, false, "the seller's state unknown");
  assertEquals(gstSplit(11800, "Karnataka", null).interState, false, "the buyer's state unknown");
  assertEquals(gstSplit(11800, "Tamil  Nadu", "tamil nadu").interState, false, "spaces and case aside");
});

Deno.test("creditNoteSplit: credit notes in parts add up to the invoice's split, each figure 0 or more", () => {
  // Splitting each part of 11 paise on its own would take 3 × round(1,100 / 118) = 27 paise of taxable value and 6 of
  // tax, where the invoice of 33 paise has 28 and 5.
  const rounds = (parts: number[], seller: string, buyer: string) => {
    let before = 0;
    const sum = { taxable: 0, cgst: 0, sgst: 0, igst: 0 };
    for (const amount of parts) {
      const split = creditNoteSplit({ amount, creditedBefore: before }, seller, buyer);
      for (const key of ["taxable", "cgst", "sgst", "igst"] as const) {
        assert(split[key] >= 0, `${key} of ${amount} after ${before}: ${split[key]}`);
        sum[key] += split[key];
      }
      assertEquals(split.taxable + split.cgst + split.sgst + split.igst, amount);
      before += amount;
    }
    return sum;
  };
  for (const [seller, buyer] of [["Karnataka", "Karnataka"], ["Karnataka", "Maharashtra"]]) {
    for (const parts of [[11, 11, 11], [12345, 23456, 14099], [1, 1, 1, 1, 49896], [49900]]) {
      const total = parts.reduce((a, b) => a + b, 0);
      const { interState: _, ...invoice } = gstSplit(total, seller, buyer);
      assertEquals(rounds(parts, seller, buyer), invoice, `${parts} ${seller}→${buyer}`);
    }
  }
  // Part of the way, what was credited is at most the invoice's split.
  const { interState: _, ...whole } = gstSplit(49900, "Karnataka", "Karnataka");
  const some = rounds([7, 3333, 101], "Karnataka", "Karnataka");
  for (const key of ["taxable", "cgst", "sgst", "igst"] as const) assert(some[key] <= whole[key]);
});
