/**
 * Browser-safe: what the admin forms refuse before sending (the server refuses the same, in its
 * own words) and the odd values they warn about but save, in the language of `t`. Prices in rupees.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** Refusal of an http video address. */
export const HTTP_VIDEO: MessageKey = "admin.checks.httpVideo";
/** Refusal of an original price below the price. */
export const ORIGINAL_BELOW_PRICE: MessageKey = "admin.checks.originalBelowPrice";
/** Refusal of a coupon expiry that has passed (the server's own sentence for it). */
export const EXPIRY_PASSED: MessageKey = "fields.expiryPassed";

/** True for an `http:` address (an https site cannot play it). */
export function isHttpAddress(text: string): boolean {
  return /^http:/i.test(text.trim());
}

/** Warnings about a toolkit's prices that are allowed but probably not meant. */
export function toolkitWarnings(t: Translate, price: number, originalPrice: number | null): string[] {
  const warnings: string[] = [];
  if (price === 0) warnings.push(t("admin.checks.free"));
  if (price > 20_000) warnings.push(t("admin.checks.priceHigh", { price: t.rupees(price) }));
  if (originalPrice !== null && originalPrice === price) warnings.push(t("admin.checks.noDiscount"));
  if (originalPrice !== null && price > 0 && originalPrice > 10 * price) warnings.push(t("admin.checks.tenfold"));
  return warnings;
}

/** Warnings about a new coupon that are allowed but probably not meant; `expiresAt` is ISO 8601. */
export function couponWarnings(
  t: Translate,
  coupon: { discountType: string; discountValue: number; expiresAt: string | null },
  now = Date.now(),
): string[] {
  const warnings: string[] = [];
  if (coupon.discountType === "percentage" && coupon.discountValue === 100) {
    warnings.push(t("admin.checks.percentAll"));
  } else if (coupon.discountType === "percentage" && coupon.discountValue >= 90) {
    warnings.push(t("admin.checks.percentHigh", { percent: coupon.discountValue }));
  }
  if (coupon.discountType === "fixed" && coupon.discountValue >= 5_000) {
    warnings.push(t("admin.checks.fixedHigh", { amount: t.rupees(coupon.discountValue) }));
  }
  const expires = coupon.expiresAt === null ? NaN : Date.parse(coupon.expiresAt);
  if (expires > now && expires - now < 24 * 3600_000) warnings.push(t("admin.checks.expiresSoon"));
  return warnings;
}
