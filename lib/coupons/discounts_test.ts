import { assertEquals } from "@/tests/helpers/assert.ts";
import { discountPaise } from "./discounts.ts";

const percent = (discountAmount: number) => ({ discountType: "percentage" as const, discountAmount });
const fixed = (discountAmount: number) => ({ discountType: "fixed" as const, discountAmount });

Deno.test("discountPaise: a percentage of the price, rounded to the nearest paisa (a half up)", () => {
  assertEquals(discountPaise(percent(20), 49900), 9980);
  assertEquals(discountPaise(percent(15), 33333), 5000, "4999.95 paise");
  assertEquals(discountPaise(percent(10), 49905), 4991, "4990.5 paise");
  assertEquals(discountPaise(percent(10), 49904), 4990, "4990.4 paise");
  assertEquals(discountPaise(percent(0), 49900), 0);
  assertEquals(discountPaise(percent(100), 49900), 49900);
});

Deno.test("discountPaise: a fixed amount is in paise, never above the price", () => {
  assertEquals(discountPaise(fixed(10000), 49900), 10000, "₹100 off ₹499");
  assertEquals(discountPaise(fixed(49900), 49900), 49900);
  assertEquals(discountPaise(fixed(60000), 49900), 49900, "₹600 off ₹499 is the whole price");
  assertEquals(discountPaise(fixed(10000), 0), 0, "nothing off a free toolkit");
});
