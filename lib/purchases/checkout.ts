/**
 * Purchase initiation, `POST /api/toolkits/{id}` (docs/api.md, Toolkits; docs/api.md,
 * Toolkits, "Coupon and purchase errors"; docs/decisions.md, Toolkits and payments).
 *
 * Checks in the order of "Coupon and purchase errors": the toolkit exists and is active (404), the coupon
 * (invalid, inactive, expired, per-user limit, usage limit), then "Toolkit already purchased". A coupon that takes
 * nothing off the price (a free toolkit; a price the ₹1 minimum keeps) is checked to be valid but not used: no
 * reservation, no use of its limits, and the purchase names no coupon.
 * The gateway order is created after the checks and before anything is written, so a gateway
 * that fails or times out leaves nothing behind (502). Then one atomic write, checked against
 * everything it read, records the purchase (pending, or paid when free) and the coupon
 * reservation; a lost race reads again and checks again. A caller's earlier pending checkout of
 * the same toolkit is replaced: the same purchase record takes the new order (it keeps the latest `ORDERS_KEPT`;
 * older ones move to their own keys, `keptOrders`); so is their latest purchase of it when its payment failed
 * (`failedCheckoutEntry`), so failed tries add orders to one purchase, never purchases. The earlier
 * orders' coupon reservations are kept until they lapse (their orders can still be paid; the
 * same coupon again takes the same slots), or given up when the new checkout is free and so
 * paid at once (docs/decisions.md, Toolkits and payments).
 */
import { type CouponRecord, usableCoupon } from "@/lib/coupons/coupons.ts";
import { COUPON_ERRORS } from "@/lib/coupons/errors.ts";
import { discountPaise } from "@/lib/coupons/discounts.ts";
import { heldSlots, planReservation, releaseOps, reserveOps } from "@/lib/coupons/reservations.ts";
import { ConflictError, InvalidInputError, NotConfiguredError, NotFoundError } from "@/lib/errors.ts";
import { PAISE_PER_RUPEE, toRupees } from "@/lib/money.ts";
import type { GatewayOrder, PaymentGateway } from "@/lib/payments/gateway.ts";
import { getToolkitRecord, TOOLKIT_NOT_FOUND } from "@/lib/toolkits/catalog.ts";
import type { User } from "@/lib/users/users.ts";
import { BUYER_STATE_MESSAGE, indianState } from "./indian_states.ts";
import {
  type BuyerPurchase,
  checkoutGuards,
  failedCheckoutEntry,
  keptOrders,
  type Purchase,
  purchaseView,
  reservationsOf,
  writePurchaseOps,
} from "./purchases.ts";
import { REFUSALS } from "@/lib/refusals.ts";

/** Currency of every order (docs/decisions.md, Toolkits and payments). */
export const CURRENCY = "INR";
/** The message when paid checkout is needed and the gateway keys are unset (docs/decisions.md, Running). */
export const PAYMENTS_NOT_CONFIGURED = REFUSALS.paymentsNotConfigured;
/** Attempts of the atomic write: each lost race means another checkout took a slot or changed the guards. */
const MAX_ATTEMPTS = 100;

/**
 * A started purchase: the gateway order for Checkout.js (none when `free`), the purchase, and the price; `discountAmount`
 * and `finalPrice` in rupees. `POST /api/toolkits/{id}` answers it.
 */
export interface CheckoutResult {
  free: boolean;
  order?: GatewayOrder;
  key: string;
  purchase: Purchase;
  toolkit: { id: string; title: string; price: number };
  discountAmount: number;
  finalPrice: number;
}

/**
 * Discount and amount to charge, in paise (docs/decisions.md, Toolkits and payments): the coupon's discount capped at the
 * price; a final price above 0 and below ₹1 (the gateway's minimum) is charged as ₹1 with the
 * discount reduced to match.
 */
export function priceAfterDiscount(pricePaise: number, coupon: CouponRecord | null): {
  discount: number;
  final: number;
} {
  const discount = coupon ? discountPaise(coupon, pricePaise) : 0;
  const final = pricePaise - discount;
  if (final > 0 && final < PAISE_PER_RUPEE) {
    return { discount: Math.max(0, pricePaise - PAISE_PER_RUPEE), final: PAISE_PER_RUPEE };
  }
  return { discount, final };
}

/** The refusal of a `buyerState` that names no Indian state or union territory. */
export const INVALID_BUYER_STATE = REFUSALS.invalidBuyerState;

/**
 * The state `buyerState` names (its name as `indianState` gives it), or null without one.
 * @throws InvalidInputError `INVALID_BUYER_STATE` when it names no Indian state or union territory.
 */
export function checkoutState(buyerState: string | null | undefined): string | null {
  if (buyerState === undefined || buyerState === null || buyerState.trim() === "") return null;
  const state = indianState(buyerState);
  if (!state) {
    throw new InvalidInputError(INVALID_BUYER_STATE, [{ field: "buyerState", message: BUYER_STATE_MESSAGE }]);
  }
  return state.name;
}

/**
 * Starts the purchase of `toolkitId` by `user`, with an optional coupon code and the buyer's state for the tax
 * invoice (`buyerState`, docs/decisions.md, Money operations, "Place of supply"), at `at` (ISO; default now: only the
 * demo's history of `lib/demo/history.ts` checks out at an earlier time).
 * @throws NotFoundError "Toolkit not found"; InvalidInputError with a message of `COUPON_ERRORS`, or
 *   `INVALID_BUYER_STATE`; NotConfiguredError "Payments are not configured" (paid checkout without gateway keys);
 *   UpstreamError "Payment gateway unavailable"; ConflictError `REFUSALS.checkoutBusy` (409) after `MAX_ATTEMPTS` lost
 *   races.
 */
export async function initiatePurchase(
  kv: Deno.Kv,
  { payments, user, toolkitId, couponCode, buyerState, at }: {
    payments: PaymentGateway | null;
    user: User;
    toolkitId: string;
    couponCode?: string;
    buyerState?: string | null;
    at?: string;
  },
): Promise<CheckoutResult> {
  const state = checkoutState(buyerState);
  const toolkit = await getToolkitRecord(kv, toolkitId);
  if (!toolkit || !toolkit.isActive) throw new NotFoundError(TOOLKIT_NOT_FOUND);
  const code = couponCode?.trim() || undefined;
  const newId = crypto.randomUUID();
  let order: GatewayOrder | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const typed = code ? await usableCoupon(kv, { code, toolkitId }) : null;
    const { discount, final } = priceAfterDiscount(toolkit.pricePaise, typed?.value ?? null);
    // A coupon that takes nothing off (a free toolkit, or a price the ₹1 minimum keeps) is not used up.
    const coupon = discount > 0 ? typed : null;
    const guards = await checkoutGuards(kv, user.id, toolkitId);
    // The checkout in progress, else the latest one whose payment failed: each try adds an order, not a purchase.
    const taken = guards.pendingPurchase ?? await failedCheckoutEntry(kv, user.id, toolkitId);
    const previous = taken?.value ?? null;
    const purchaseId = previous?.id ?? newId;
    const held = previous ? reservationsOf(previous) : [];
    const plan = coupon ? await planReservation(kv, { coupon: coupon.value, userId: user.id, purchaseId, held }) : null;
    if (plan && !plan.ok) throw new InvalidInputError(COUPON_ERRORS[plan.reason]);
    if (guards.owned.value !== null) throw new InvalidInputError(COUPON_ERRORS.purchased);

    const free = final === 0;
    if (!free && !payments) throw new NotConfiguredError(PAYMENTS_NOT_CONFIGURED);
    if (!free && order?.amount !== final) {
      order = await payments!.createOrder({
        amountPaise: final,
        currency: CURRENCY,
        receipt: purchaseId,
        notes: { toolkitId, userId: user.id },
      });
    }

    const op = kv.atomic().check(guards.pending).check(guards.owned);
    if (taken) op.check(taken);
    if (coupon) op.check(coupon);
    if (previous && free) {
      // Paid at once: no earlier order can grant anything any more, so their reservations go.
      const claimed = plan?.ok ? [plan.slot.key, plan.userSlot.key].map((k) => JSON.stringify(k)) : [];
      const held = (await Promise.all(
        reservationsOf(previous).map((ref) => heldSlots(kv, { ref, userId: user.id, purchaseId: previous.id })),
      )).flat();
      releaseOps(op, held.filter((entry) => !claimed.includes(JSON.stringify(entry.key))));
    }
    const reservation = plan?.ok
      ? reserveOps(op, { plan, value: { purchaseId, userId: user.id, toolkitId }, paid: free })
      : null;
    const couponId = coupon?.value.id ?? null;
    const couponCode = coupon?.value.code ?? null;
    const now = at ?? new Date().toISOString();
    const status = free ? "paid" : "pending";
    const terms = { listPricePaise: toolkit.pricePaise, discountPaise: discount, couponCode, buyerState: state };
    const record: BuyerPurchase = {
      id: purchaseId,
      userId: user.id,
      toolkitId,
      gatewayOrderId: free ? null : order!.id,
      paymentStatus: status,
      amountPaid: final,
      couponId,
      ...terms,
      reservation,
      paymentId: null,
      orders: keptOrders(op, {
        id: purchaseId,
        orders: free ? { ...previous?.orders } : {
          ...previous?.orders,
          [order!.id]: { amountPaid: final, couponId, reservation, ...terms, orderedAt: now },
        },
      }),
      history: [...previous?.history ?? [], { status, at: now, source: free ? "free checkout" : "checkout" }],
      // What the earlier checkouts' orders were paid and refunded at the gateway stays: money owed back, and its parts.
      ...(previous?.extraPayments ? { extraPayments: previous.extraPayments } : {}),
      ...(previous?.gatewayPartialRefunds ? { gatewayPartialRefunds: previous.gatewayPartialRefunds } : {}),
      paidAt: free ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    writePurchaseOps(op, { before: previous, record, guards });
    if (!(await op.commit()).ok) continue;
    return {
      free,
      ...(free ? {} : { order: order! }),
      key: payments?.keyId ?? "",
      purchase: purchaseView(record),
      toolkit: { id: toolkit.id, title: toolkit.title, price: toRupees(toolkit.pricePaise) },
      discountAmount: toRupees(discount),
      finalPrice: toRupees(final),
    };
  }
  throw new ConflictError(REFUSALS.checkoutBusy);
}
