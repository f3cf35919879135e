/**
 * A buyer's unfinished checkout of a toolkit, as its page finds it again (docs/decisions.md, Toolkits and payments,
 * "A coupon survives a reload"): a reload, or coming back, must not drop an applied coupon without a word. While the
 * latest checkout is unpaid and its coupon reservation still holds, the page shows the coupon applied and Buy pays
 * that order; once the reservation lapsed (30 minutes) or the payment failed (which gives the reservation up), the
 * page says the coupon was released and offers to apply it again. Only a checkout of the last day counts. It reads the
 * buyer's latest purchase of the toolkit alone (`purchasesOfToolkit`), whatever else they bought.
 */
import { heldSlots } from "@/lib/coupons/reservations.ts";
import { toRupees } from "@/lib/money.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { type CheckoutResult, CURRENCY } from "./checkout.ts";
import { purchasesOfToolkit, purchaseView } from "./purchases.ts";

/** How long after its last change an unfinished checkout is still offered again (ms). */
export const RESUME_WITHIN_MS = 24 * 60 * 60 * 1000;

/**
 * What the page resumes: the coupon `code` with the checkout's `quote` (as `POST /api/toolkits/{id}` answered it) and
 * the state it was priced for while its order can be paid with it, or `quote` null and `released` saying why the
 * coupon is no longer held.
 */
export type PendingCheckout =
  | { code: string; quote: CheckoutResult; released: null; buyerState: string }
  | { code: string; quote: null; released: "lapsed" | "failed" };

/**
 * `userId`'s unfinished checkout of `toolkitId` with a coupon at `now` (see the module docstring), or null when there
 * is none (no checkout of the last day, one without a coupon, or one paid). `keyId` is the gateway's public key.
 */
export async function pendingCheckout(
  kv: Deno.Kv,
  { userId, toolkitId, keyId, now = Date.now() }: { userId: string; toolkitId: string; keyId: string; now?: number },
): Promise<PendingCheckout | null> {
  const [latest] = await purchasesOfToolkit(kv, { userId, toolkitId, limit: 1 });
  if (!latest || now - Date.parse(latest.updatedAt) > RESUME_WITHIN_MS) return null;
  const terms = latest.gatewayOrderId ? latest.orders[latest.gatewayOrderId] : undefined;
  const code = terms?.couponCode ?? latest.couponCode;
  if (!code || !terms) return null;
  if (latest.paymentStatus === "failed") return { code, quote: null, released: "failed" };
  if (latest.paymentStatus !== "pending") return null;
  const ref = terms.reservation ?? latest.reservation;
  const held = ref ? await heldSlots(kv, { ref, userId, purchaseId: latest.id }) : [];
  if (held.length < 2) return { code, quote: null, released: "lapsed" };
  const toolkit = await getToolkitRecord(kv, toolkitId);
  if (!toolkit) return null;
  return {
    code,
    released: null,
    buyerState: terms.buyerState ?? "",
    quote: {
      free: false,
      order: { id: latest.gatewayOrderId!, amount: terms.amountPaid, currency: CURRENCY },
      key: keyId,
      purchase: purchaseView(latest),
      toolkit: { id: toolkit.id, title: toolkit.title, price: toRupees(toolkit.pricePaise) },
      discountAmount: toRupees(terms.discountPaise ?? (terms.listPricePaise ?? toolkit.pricePaise) - terms.amountPaid),
      finalPrice: toRupees(terms.amountPaid),
    },
  };
}
