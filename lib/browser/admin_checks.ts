/**
 * Browser-safe: what the admin forms refuse before sending (the server refuses the same, in its
 * own words) and the odd values they warn about but save. Prices in rupees.
 */

/** Refusal of an http video address. */
export const HTTP_VIDEO = "Use an https address: an http video does not play on an https site.";
/** Refusal of an original price below the price. */
export const ORIGINAL_BELOW_PRICE = "The original price must not be below the price.";
/** Refusal of a coupon expiry that has passed. */
export const EXPIRY_PASSED = "This date has already passed: choose a later one, or leave it empty.";

/** True for an `http:` address (an https site cannot play it). */
export function isHttpAddress(text: string): boolean {
  return /^http:/i.test(text.trim());
}

/** Warnings about a toolkit's prices that are allowed but probably not meant. */
export function toolkitWarnings(price: number, originalPrice: number | null): string[] {
  const warnings: string[] = [];
  if (price === 0) warnings.push("The price is 0: the toolkit is free, and every lesson opens to anyone signed in.");
  if (price > 20_000) warnings.push(`₹${price} is unusually high for a toolkit: prices are in rupees, not paise.`);
  if (originalPrice !== null && originalPrice === price) {
    warnings.push("The original price equals the price, so no discount is shown.");
  }
  if (originalPrice !== null && price > 0 && originalPrice > 10 * price) {
    warnings.push("The original price is more than ten times the price: check it.");
  }
  return warnings;
}

/** Warnings about a new coupon that are allowed but probably not meant; `expiresAt` is ISO 8601. */
export function couponWarnings(
  coupon: { discountType: string; discountValue: number; expiresAt: string | null },
  now = Date.now(),
): string[] {
  const warnings: string[] = [];
  if (coupon.discountType === "percentage" && coupon.discountValue === 100) {
    warnings.push("100 % off makes every toolkit it applies to free.");
  } else if (coupon.discountType === "percentage" && coupon.discountValue >= 90) {
    warnings.push(`${coupon.discountValue} % off leaves almost nothing to pay.`);
  }
  if (coupon.discountType === "fixed" && coupon.discountValue >= 5_000) {
    warnings.push(`₹${coupon.discountValue} off is more than most toolkits cost: they become free.`);
  }
  const expires = coupon.expiresAt === null ? NaN : Date.parse(coupon.expiresAt);
  if (expires > now && expires - now < 24 * 3600_000) warnings.push("The coupon expires within 24 hours.");
  return warnings;
}
