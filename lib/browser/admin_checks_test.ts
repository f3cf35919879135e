import { assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { couponWarnings, isHttpAddress, toolkitWarnings } from "./admin_checks.ts";

const en = translatorFor("en");
const hi = translatorFor("hi");

Deno.test("isHttpAddress: an http address, however cased or padded; not https", () => {
  assertEquals([" HTTP://x.example/v.mp4", "http://x", "https://x", ""].map(isHttpAddress), [true, true, false, false]);
});

Deno.test("toolkitWarnings: free, paise typed as rupees, no discount shown, a tenfold original price", () => {
  assertEquals(toolkitWarnings(en, 499, 999), []);
  assertEquals(toolkitWarnings(en, 0, null).length, 1);
  assertEquals(toolkitWarnings(en, 49900, null), [
    "₹49,900 is unusually high for a toolkit: prices are in rupees, not paise.",
  ]);
  assertEquals(toolkitWarnings(en, 499, 499), ["The original price equals the price, so no discount is shown."]);
  assertEquals(toolkitWarnings(en, 100, 1001), ["The original price is more than ten times the price: check it."]);
});

Deno.test("couponWarnings: 100 % and 90 % off, a large fixed amount, an expiry within a day", () => {
  const now = Date.parse("2026-03-01T00:00:00.000Z");
  const coupon = { discountType: "percentage", discountValue: 10, expiresAt: null };
  assertEquals(couponWarnings(en, coupon, now), []);
  assertEquals(couponWarnings(en, { ...coupon, discountValue: 100 }, now), [
    "100 % off makes every toolkit it applies to free.",
  ]);
  assertEquals(couponWarnings(en, { ...coupon, discountValue: 95 }, now), ["95 % off leaves almost nothing to pay."]);
  assertEquals(couponWarnings(en, { discountType: "fixed", discountValue: 5000, expiresAt: null }, now).length, 1);
  assertEquals(couponWarnings(en, { ...coupon, expiresAt: "2026-03-01T12:00:00.000Z" }, now), [
    "The coupon expires within 24 hours.",
  ]);
  assertEquals(couponWarnings(en, { ...coupon, expiresAt: "2026-03-03T00:00:00.000Z" }, now), []);
});

Deno.test("the warnings read in the translator's language, amounts in Indian grouping", () => {
  assertEquals(toolkitWarnings(hi, 49900, null), [
    "टूलकिट के लिए ₹49,900 बहुत ज़्यादा है: क़ीमत रुपयों में लिखी जाती है, पैसों में नहीं।",
  ]);
  assertEquals(couponWarnings(hi, { discountType: "fixed", discountValue: 5000, expiresAt: null }), [
    "₹5,000 की छूट ज़्यादातर टूलकिट की क़ीमत से ज़्यादा है: वे मुफ़्त हो जाएँगे।",
  ]);
});
