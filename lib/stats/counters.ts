/**
 * The admin dashboard's counters (docs/decisions.md, Money operations, "The dashboard's counters"), kept in KV as
 * records change so `GET /api/admin/stats` never scans users or purchases.
 *
 * Each kind of record has a function that says what it counts toward (`userCounts`, `purchaseCounts`,
 * `toolkitCounts`: a list of counter keys and amounts), and every write of such a record adds
 * `countOps(op, before, after)` to its own atomic operation: the difference between what the record counted as
 * read and what it counts as written, as KV `sum` mutations (which never conflict, so counting adds no contention).
 * A counter therefore always equals a recount of the records it describes, and a record written
 * twice with the same counts changes nothing. Counters are unsigned 64-bit in KV; a decrement is the sum of the
 * two's complement, read back as signed.
 *
 * What counts (money in paise):
 * - a user: a sign-up on the IST day of `createdAt`, and a verified sign-up on that day while the e-mail is verified;
 *   the totals `users` and `verifiedUsers`.
 * - a purchase once paid (`paidAt`, free ones included): a purchase and its `amountPaid` as revenue on the IST day it
 *   was paid, the toolkit's sales and revenue, and while it stays paid, its coupon's use and discount; a refund, what
 *   it returned (its amount less the parts refunded at the gateway before it, `refundedBefore`) on the IST day of the
 *   refund, and each part refunded at the gateway (`gatewayPartialRefunds`) on its own day, so a payment refunded in
 *   parts counts its whole amount once. An extra payment (money received that grants nothing) in rupees is revenue on
 *   the day it arrived and its refunds count as the purchase's do; one in another currency counts toward neither.
 *   While its buyer's refund request is open, one toward `refundRequests` (the admin's "Refunds asked").
 * - a toolkit: `activeToolkits` while it is active.
 *
 * Keys (owned by this module only):
 * - `["stats_days", yyyy-mm-dd, "signups" | "verifiedSignups" | "purchases" | "revenue" | "refunds"]` → KvU64
 * - `["stats_totals", "users" | "verifiedUsers" | "activeToolkits" | "revenue" | "refunds" | "refundRequests"]` → KvU64
 * - `["stats_toolkits", toolkitId, "sales" | "revenue"]` → KvU64
 * - `["stats_coupons", couponId, "uses" | "discount"]` → KvU64
 */
import { istDayOf } from "@/lib/dates.ts";

/** A counter key and what a record adds to it. */
export type Count = readonly [key: Deno.KvKey, amount: number];

/** The per-day counters. */
export const DAY_FIELDS = ["signups", "verifiedSignups", "purchases", "revenue", "refunds"] as const;
/** The running totals. */
export const TOTAL_FIELDS = [
  "users",
  "verifiedUsers",
  "activeToolkits",
  "revenue",
  "refunds",
  "refundRequests",
] as const;

const dayKey = (at: string, field: typeof DAY_FIELDS[number]): Deno.KvKey => ["stats_days", istDayOf(at)!, field];
const totalKey = (field: typeof TOTAL_FIELDS[number]): Deno.KvKey => ["stats_totals", field];

/** What a user counts toward (see the module docstring). */
export function userCounts(user: { createdAt: string; emailVerified: boolean } | null): Count[] {
  if (!user) return [];
  const counts: Count[] = [[dayKey(user.createdAt, "signups"), 1], [totalKey("users"), 1]];
  if (user.emailVerified) counts.push([dayKey(user.createdAt, "verifiedSignups"), 1], [totalKey("verifiedUsers"), 1]);
  return counts;
}

/** A toolkit's share of the counters. */
export function toolkitCounts(toolkit: { isActive: boolean } | null): Count[] {
  return toolkit?.isActive ? [[totalKey("activeToolkits"), 1]] : [];
}

/** The fields of a purchase the counters read; money in paise. */
export interface CountedPurchase {
  toolkitId: string;
  paymentStatus: string;
  amountPaid: number;
  couponId: string | null;
  paidAt?: string | null;
  discountPaise?: number;
  refund?: CountedRefund | null;
  refundRequest?: { status: string } | null;
  extraPayments?: {
    paymentId: string | null;
    amount: number | null;
    currency?: string;
    at: string;
    refund?: CountedRefund | null;
  }[];
  /** Parts of a payment refunded at the gateway: the purchase's own, or the extra payment whose `paymentId` it names. */
  gatewayPartialRefunds?: { paymentId: string; amount: number; at: string }[];
  /** Set on a record with parts written since they count (see `storedPurchaseCounts`). */
  partsCounted?: boolean;
}

/** A refund as the counters read it: `amount` counts the parts refunded before it (`refundedBefore`). */
interface CountedRefund {
  amount: number;
  refundedBefore?: number;
  at: string;
}

/** What a purchase counts toward (see the module docstring). */
export function purchaseCounts(purchase: CountedPurchase | null): Count[] {
  if (!purchase) return [];
  const counts: Count[] = [];
  const refunded = ({ amount, at }: { amount: number; at: string }) =>
    counts.push([dayKey(at, "refunds"), amount], [totalKey("refunds"), amount]);
  // A refund counts what it returned itself: the parts before it count on their own days, below.
  const finalRefund = (refund: CountedRefund) =>
    refunded({ amount: refund.amount - (refund.refundedBefore ?? 0), at: refund.at });
  if (purchase.paidAt) {
    const amount = purchase.amountPaid;
    counts.push(
      [dayKey(purchase.paidAt, "purchases"), 1],
      [dayKey(purchase.paidAt, "revenue"), amount],
      [totalKey("revenue"), amount],
      [["stats_toolkits", purchase.toolkitId, "sales"], 1],
      [["stats_toolkits", purchase.toolkitId, "revenue"], amount],
    );
    if (purchase.couponId && purchase.paymentStatus === "paid") {
      counts.push(
        [["stats_coupons", purchase.couponId, "uses"], 1],
        [["stats_coupons", purchase.couponId, "discount"], purchase.discountPaise ?? 0],
      );
    }
  }
  if (purchase.refund) finalRefund(purchase.refund);
  if (purchase.refundRequest?.status === "open") counts.push([totalKey("refundRequests"), 1]);
  for (const extra of purchase.extraPayments ?? []) {
    // Money in another currency is not rupees: the figures leave it out (the admin list shows it as it is).
    if ((extra.currency ?? "INR") !== "INR") continue;
    if (extra.amount) counts.push([dayKey(extra.at, "revenue"), extra.amount], [totalKey("revenue"), extra.amount]);
    if (extra.refund) finalRefund(extra.refund);
  }
  for (const part of purchase.gatewayPartialRefunds ?? []) {
    const extra = purchase.extraPayments?.find((p) => p.paymentId === part.paymentId);
    if ((extra?.currency ?? "INR") === "INR") refunded(part);
  }
  return counts;
}

/**
 * What a purchase record as read counted when it was written. A record with parts refunded at the gateway written
 * before they counted (no `partsCounted`) counted none of them and each final refund's whole amount on its day; any
 * other record counts `purchaseCounts`. A write moves the counters from this to `purchaseCounts` of what it writes, so
 * the first write of such a record by this code (the `purchase-counts` job's, or any other) brings them in line.
 */
export function storedPurchaseCounts(purchase: CountedPurchase | null): Count[] {
  if (!purchase?.gatewayPartialRefunds?.length || purchase.partsCounted) return purchaseCounts(purchase);
  const whole = (refund: CountedRefund | null | undefined) => refund && { amount: refund.amount, at: refund.at };
  return purchaseCounts({
    ...purchase,
    gatewayPartialRefunds: [],
    refund: whole(purchase.refund),
    extraPayments: purchase.extraPayments?.map((extra) => ({ ...extra, refund: whole(extra.refund) })),
  });
}

/** Adds to `op` the counter changes of a record that counted `before` and now counts `after`. */
export function countOps(op: Deno.AtomicOperation, before: Count[], after: Count[]): void {
  const net = new Map<string, { key: Deno.KvKey; amount: number }>();
  for (const [list, sign] of [[before, -1], [after, 1]] as const) {
    for (const [key, amount] of list) {
      const id = JSON.stringify(key);
      const entry = net.get(id) ?? { key, amount: 0 };
      entry.amount += sign * amount;
      net.set(id, entry);
    }
  }
  for (const { key, amount } of net.values()) {
    if (amount !== 0) op.sum(key, BigInt.asUintN(64, BigInt(amount)));
  }
}

/** A counter's value as a signed number (0 when absent). */
export function counterValue(entry: Deno.KvEntryMaybe<Deno.KvU64>): number {
  return entry.value ? Number(BigInt.asIntN(64, entry.value.value)) : 0;
}
