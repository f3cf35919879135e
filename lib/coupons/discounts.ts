/**
 * What a coupon takes off a price: the pure rule, shared by checkout and its unit tests (docs/decisions.md, Toolkits
 * and payments). Amounts in paise; a percentage coupon's `discountAmount` is the percent.
 */
import type { CouponRecord } from "./coupons.ts";

/**
 * The discount of `coupon` on a price, both in paise (docs/decisions.md, Toolkits and payments): a percentage of the price
 * rounded to the paisa, or the fixed amount, capped at the price.
 */
export function discountPaise(
  coupon: Pick<CouponRecord, "discountType" | "discountAmount">,
  pricePaise: number,
): number {
  const raw = coupon.discountType === "percentage"
    ? Math.round(pricePaise * coupon.discountAmount / 100)
    : coupon.discountAmount;
  return Math.min(raw, pricePaise);
}
