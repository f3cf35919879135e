import { assertEquals } from "@/tests/helpers/assert.ts";
import { couponWarnings, isHttpAddress, toolkitWarnings } from "./admin_checks.ts";

Deno.test("isHttpAddress: an http address, however cased or padded; not https", () => {
  assertEquals([" HTTP://x.example/v.mp4", "http://x", "https://x", ""].map(isHttpAddress), [true, true, false, false]);
});

Deno.test("toolkitWarnings: free, paise typed as rupees, no discount shown, a tenfold original price", () => {
  assertEquals(toolkitWarnings(499, 999), []);
  assertEquals(toolkitWarnings(0, null).length, 1);
  assertEquals(toolkitWarnings(49900, null), [
    "₹49900 is unusually high for a toolkit: prices are in rupees, not paise.",
  ]);
  assertEquals(toolkitWarnings(499, 499), ["The original price equals the price, so no discount is shown."]);
  assertEquals(toolkitWarnings(100, 1001), ["The original price is more than ten times the price: check it."]);
});

Deno.test("couponWarnings: 100 % and 90 % off, a large fixed amount, an expiry within a day", () => {
  const now = Date.parse("2026-03-01T00:00:00.000Z");
  const coupon = { discountType: "percentage", discountValue: 10, expiresAt: null };
  assertEquals(couponWarnings(coupon, now), []);
  assertEquals(couponWarnings({ ...coupon, discountValue: 100 }, now), [
    "100 % off makes every toolkit it applies to free.",
  ]);
  assertEquals(couponWarnings({ ...coupon, discountValue: 95 }, now), ["95 % off leaves almost nothing to pay."]);
  assertEquals(couponWarnings({ discountType: "fixed", discountValue: 5000, expiresAt: null }, now).length, 1);
  assertEquals(couponWarnings({ ...coupon, expiresAt: "2026-03-01T12:00:00.000Z" }, now), [
    "The coupon expires within 24 hours.",
  ]);
  assertEquals(couponWarnings({ ...coupon, expiresAt: "2026-03-03T00:00:00.000Z" }, now), []);
});
