/**
 * Browser-safe: what the admin coupon form refuses before sending (the server refuses the same, in its own words) and
 * the odd values it warns about but saves, in the language of `t` (docs/decisions.md, Toolkits and payments). Amounts
 * in rupees. The toolkit form's are in `admin_checks.ts`, apart, so neither island carries the other's.
 */
import type { MessageKey, Translate } from "@/lib/i18n/translator.ts";

/** Refusal of a coupon expiry that has passed (the server's own sentence for it). */
export const EXPIRY_PASSED: MessageKey = "fields.expiryPassed";

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
