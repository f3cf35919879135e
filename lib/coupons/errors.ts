/**
 * The coupon and purchase refusals of `POST /api/toolkits/{id}`, each 400 (docs/api.md, Toolkits, "Coupon and purchase
 * errors"): the API answers the English sentence as `{error}`; a page or island words it in its reader's language with
 * `couponRefusalKey` (docs/decisions.md, Languages, "Refusals on pages"). Browser-safe: the checkout island imports it.
 */
import type { MessageKey } from "@/lib/i18n/translator.ts";

/** Each refusal's English sentence, by name. */
export const COUPON_ERRORS = {
  invalid: "Invalid coupon code",
  inactive: "Coupon is not active",
  expired: "Coupon has expired",
  perUserLimit: "You have already used this coupon",
  usageLimit: "Coupon usage limit reached",
  purchased: "Toolkit already purchased",
} as const;

/** The catalogue message of the coupon refusal whose English sentence is `message`, or undefined for any other. */
export function couponRefusalKey(message: string): MessageKey | undefined {
  const name = (Object.keys(COUPON_ERRORS) as (keyof typeof COUPON_ERRORS)[])
    .find((key) => COUPON_ERRORS[key] === message);
  return name && `toolkits.checkout.couponRefused.${name}`;
}
