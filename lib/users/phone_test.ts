import { assertEquals } from "@/tests/helpers/assert.ts";
import { nationalNumber } from "./phone.ts";

Deno.test("nationalNumber keeps the 10 digits of the ways people write an Indian mobile number", () => {
  for (
    const typed of [
      "9876543210",
      "98765 43210",
      "+91 98765 43210",
      "+91-98765-43210",
      "+919876543210",
      "0091 98765 43210",
      "91 98765 43210",
      "098765 43210",
      "(987) 654-3210",
      " 98765.43210 ",
    ]
  ) {
    assertEquals(nationalNumber(typed), "9876543210", typed);
  }
});

Deno.test("nationalNumber leaves what is not a 10-digit number for the API to refuse", () => {
  assertEquals(nationalNumber(""), "");
  assertEquals(nationalNumber("  "), "");
  assertEquals(nationalNumber(" 98765 4321 "), "98765 4321");
  assertEquals(nationalNumber("+44 20 7946 0958"), "+44 20 7946 0958");
  assertEquals(nationalNumber("+91 98765 432101"), "+91 98765 432101");
  assertEquals(nationalNumber("call me"), "call me");
});
