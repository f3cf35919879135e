import { assertEquals } from "@/tests/helpers/assert.ts";
import { formatRupees, hasAtMostTwoDecimals, toPaise, toRupees } from "./money.ts";

Deno.test("prices: rupees with at most 2 decimals become integer paise and back", () => {
  assertEquals([499, 399.2, 0.1 + 0.2, 19.99].map(toPaise), [49900, 39920, 30, 1999]);
  assertEquals(toRupees(39920), 399.2);
  assertEquals([1, 0.1 + 0.2, 19.99, 1.005, 0.001].map(hasAtMostTwoDecimals), [true, true, true, false, false]);
});

Deno.test("formatRupees: whole rupees without decimals, else two; Indian digit grouping", () => {
  assertEquals([499, 399.2, 150000, 0].map((rupees) => formatRupees(rupees)), ["₹499", "₹399.20", "₹1,50,000", "₹0"]);
});
