import { assertEquals } from "@/tests/helpers/assert.ts";
import { plainRupees, rupeesOrText, withScheme } from "./input_formats.ts";

Deno.test("plainRupees keeps the digits of the ways people write an amount", () => {
  for (
    const typed of ["25000", "25,000", "₹25,000", "₹ 25,000", "Rs. 25,000", "INR 25000", "25,000 / month", " 25 000 "]
  ) {
    assertEquals(plainRupees(typed), "25000", typed);
  }
  assertEquals(plainRupees("1,500.50"), "1500.50");
  assertEquals(plainRupees("unpaid"), "unpaid");
  assertEquals(plainRupees("-5"), "-5");
  assertEquals(plainRupees(""), "");
});

Deno.test("withScheme puts https:// before an address typed without one, and nothing else", () => {
  assertEquals(withScheme("coep.ac.in/hack"), "https://coep.ac.in/hack");
  assertEquals(withScheme(" www.example.com "), "https://www.example.com");
  assertEquals(withScheme("jobs.example.co.in/apply?ref=1"), "https://jobs.example.co.in/apply?ref=1");
  for (const kept of ["https://example.com", "http://example.com/x", "/api/files/1", "a@b.com", "not a link", ""]) {
    assertEquals(withScheme(kept), kept.trim());
  }
});

Deno.test("rupeesOrText gives an amount as a number and anything else as its text", () => {
  assertEquals(rupeesOrText("₹25,000 /month"), 25000);
  assertEquals(rupeesOrText(" 15k "), "15k");
  assertEquals(rupeesOrText(""), "");
});
