/**
 * Browser-safe: what the admin toolkit and lesson forms refuse before sending (the server refuses the same, in its
 * own words) and the odd values they warn about but save, in the language of `t`. Prices in rupees.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** Refusal of an http video address. */
export const HTTP_VIDEO: MessageKey = "admin.checks.httpVideo";
/** Refusal of an original price below the price. */
export const ORIGINAL_BELOW_PRICE: MessageKey = "admin.checks.originalBelowPrice";

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
