import { assertEquals } from "@/tests/helpers/assert.ts";
import { type CountedPurchase, purchaseCounts } from "./counters.ts";

/** The refunds counters of `purchase`: key (JSON) → amount, summed. */
function refunds(purchase: CountedPurchase): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [key, amount] of purchaseCounts(purchase)) {
    if (key.at(-1) === "refunds") found[JSON.stringify(key)] = (found[JSON.stringify(key)] ?? 0) + amount;
  }
  return found;
}

const PAID = {
  toolkitId: "kit",
  paymentStatus: "paid",
  amountPaid: 49900,
  couponId: null,
  paidAt: "2026-11-01T06:00:00.000Z",
};

Deno.test("purchaseCounts: parts refunded at the gateway count on their days, a final refund what it returned", () => {
  const part = { paymentId: "pay_own", amount: 10000, at: "2026-11-02T06:00:00.000Z" };
  assertEquals(refunds({ ...PAID, gatewayPartialRefunds: [part] }), {
    '["stats_days","2026-11-02","refunds"]': 10000,
    '["stats_totals","refunds"]': 10000,
  });
  const refund = { amount: 49900, refundedBefore: 10000, at: "2026-11-05T06:00:00.000Z" };
  assertEquals(refunds({ ...PAID, paymentStatus: "refunded", refund, gatewayPartialRefunds: [part] }), {
    '["stats_days","2026-11-02","refunds"]': 10000,
    '["stats_days","2026-11-05","refunds"]': 39900,
    '["stats_totals","refunds"]': 49900,
  });
});

Deno.test("purchaseCounts: an extra payment's parts count as its refunds do; none in another currency", () => {
  const extra = (paymentId: string, currency?: string) => ({
    paymentId,
    amount: 20000,
    ...currency ? { currency } : {},
    at: "2026-11-01T07:00:00.000Z",
    refund: { amount: 20000, refundedBefore: 5000, at: "2026-11-04T06:00:00.000Z" },
  });
  const parts = [
    { paymentId: "pay_inr", amount: 5000, at: "2026-11-03T06:00:00.000Z" },
    { paymentId: "pay_usd", amount: 100, at: "2026-11-03T06:00:00.000Z" },
  ];
  assertEquals(
    refunds({ ...PAID, extraPayments: [extra("pay_inr"), extra("pay_usd", "USD")], gatewayPartialRefunds: parts }),
    {
      '["stats_days","2026-11-03","refunds"]': 5000,
      '["stats_days","2026-11-04","refunds"]': 15000,
      '["stats_totals","refunds"]': 20000,
    },
  );
});
