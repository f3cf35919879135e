import { assertEquals } from "@/tests/helpers/assert.ts";
import type { CouponRecord } from "@/lib/coupons/coupons.ts";
import { priceAfterDiscount } from "./checkout.ts";

const percent = (amount: number) => ({ discountType: "percentage", discountAmount: amount }) as CouponRecord;
const fixed = (paise: number) => ({ discountType: "fixed", discountAmount: paise }) as CouponRecord;

Deno.test("priceAfterDiscount: no coupon, a coupon, free at 100 %, and ₹1 at the least when something is due", () => {
  assertEquals(priceAfterDiscount(49900, null), { discount: 0, final: 49900 });
  assertEquals(priceAfterDiscount(49900, percent(20)), { discount: 9980, final: 39920 });
  assertEquals(priceAfterDiscount(49900, percent(100)), { discount: 49900, final: 0 });
  assertEquals(priceAfterDiscount(49900, fixed(49850)), { discount: 49800, final: 100 });
  assertEquals(priceAfterDiscount(50, null), { discount: 0, final: 100 }, "a price below ₹1 is charged ₹1");
});
