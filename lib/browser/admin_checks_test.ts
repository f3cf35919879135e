import { assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { isHttpAddress, toolkitWarnings } from "./admin_checks.ts";

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

Deno.test("the toolkit warnings read in the translator's language, amounts in Indian grouping", () => {
  assertEquals(toolkitWarnings(hi, 49900, null), [
    "टूलकिट के लिए ₹49,900 बहुत ज़्यादा है: क़ीमत रुपयों में लिखी जाती है, पैसों में नहीं।",
  ]);
});
