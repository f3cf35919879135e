import { renderToString } from "preact-render-to-string";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { PurchaseRow } from "./PurchaseRow.tsx";
import { TextContext } from "@/lib/i18n/context.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { AdminPurchaseRow } from "@/lib/purchases/admin.ts";
import { EXTRA_PAYMENT_REASONS } from "@/lib/purchases/purchases.ts";

const AT = "2026-11-20T10:00:00.000Z";

/** A paid purchase of ₹290 with one extra payment of each reason (and one written before reasons were kept). */
function purchase(): AdminPurchaseRow {
  const reasons = [...EXTRA_PAYMENT_REASONS, undefined];
  return {
    id: "p1",
    userId: "u1",
    toolkitId: "t1",
    gatewayOrderId: "order_0",
    paymentStatus: "paid",
    amountPaid: 29000,
    refundedParts: [],
    couponId: null,
    creditNotes: [],
    createdAt: AT,
    updatedAt: AT,
    user: { id: "u1", name: "Rohan Mehta", email: "rohan@example.com" },
    toolkit: { id: "t1", title: "Resume That Gets Read" },
    paymentId: "pay_0",
    extraPayments: reasons.map((reason, i) => ({
      orderId: `order_${i + 1}`,
      paymentId: `pay_${i + 1}`,
      amount: i === 0 ? null : 29000,
      at: AT,
      ...(reason ? { reason } : {}),
      refund: i === 1
        ? {
          id: "rfnd_1",
          paymentId: "pay_2",
          amount: 29000,
          reason: null,
          by: "admin",
          at: AT,
          status: "processed",
          processedAt: AT,
        }
        : null,
    })),
    refund: null,
    listPricePaise: 29000,
    discountPaise: 0,
    couponCode: null,
    receiptNumber: null,
    receiptUrl: null,
    refundRequest: null,
    gatewayPartialRefunds: [],
    policy: null,
  };
}

/** The row of `p` (default `purchase()`) as text in `lang`, tags taken out. */
function rowText(lang: "en" | "hi", p = purchase()): string {
  const html = renderToString(
    <TextContext.Provider value={translatorFor(lang)}>
      <table>
        <tbody>
          <PurchaseRow p={p} busy={false} onRefund={() => {}} />
        </tbody>
      </table>
    </TextContext.Provider>,
  );
  return html.replace(/<[^>]+>/g, "\n").replace(/&#x27;|&#39;/g, "'");
}

Deno.test("an extra payment says in words why it is owed back, and its refund, in English and Hindi", () => {
  const en = rowText("en");
  for (
    const line of [
      "Extra payment, owed back: paid twice, another order of this purchase was paid first",
      "Extra payment ₹290, owed back: the buyer already owned the toolkit through another purchase",
      "Extra payment ₹290, owed back: its coupon could no longer be used when the payment came",
      "Extra payment ₹290, owed back: the buyer had deleted their account",
      "Extra payment ₹290, owed back: the gateway reported another amount or currency than the order's",
      "Extra payment ₹290, owed back: reason not recorded (an older payment)",
      "Refunded ₹290 on",
    ]
  ) assert(en.includes(line), `${line}\n${en}`);
  assertEquals(
    en.match(/Refund extra ₹290/g)?.length,
    4,
    "one refund button per extra payment with an amount not refunded",
  );
  const hi = rowText("hi");
  assert(hi.includes("अतिरिक्त पेमेंट ₹290, वापस देना है: ख़रीदार अपना अकाउंट डिलीट कर चुका था"), hi);
  assert(hi.includes("दो बार पेमेंट हुआ"), hi);
  assert(!/owed back|paid twice/.test(hi), hi);
});

Deno.test("a refund request shows its reason, the policy's facts and a warning past the policy, and can be declined", () => {
  const asked = {
    ...purchase(),
    extraPayments: [],
    refundRequest: { at: AT, reason: "Wrong toolkit", status: "open" as const, answeredAt: null, note: null },
    policy: { daysSincePaid: 9, lessonsCompleted: 4, lessonsTotal: 4, certificateIssued: true, pastPolicy: true },
  };
  const en = rowText("en", asked).replace(/\n+/g, " ");
  for (
    const words of [
      "Refund asked 20 Nov 2026:  “Wrong toolkit”",
      "paid 9 days ago · 4 of 4 lessons done · certificate issued",
      "Past the refund policy (7 days, at most two lessons). You may still refund.",
      "Decline request",
    ]
  ) assert(en.includes(words), `${words}\n${en}`);
  const within = rowText("en", { ...asked, policy: { ...asked.policy, daysSincePaid: 1, pastPolicy: false } });
  assert(!within.includes("Past the refund policy"), within);
  const hi = rowText("hi", asked);
  assert(hi.includes("रिफ़ंड पॉलिसी से बाहर") && hi.includes("4 में से 4 लेसन पूरे"), hi);
});

Deno.test("a payment refunded in part at the gateway says so on the row, in English and Hindi", () => {
  const p = purchase();
  const partly = {
    ...p,
    gatewayPartialRefunds: [
      { id: "rfnd_a", paymentId: "pay_0", amount: 5000, at: AT },
      { id: "rfnd_b", paymentId: "pay_0", amount: 5000, at: AT },
      { id: "rfnd_c", paymentId: "pay_3", amount: 2500, at: AT },
    ],
  };
  const en = rowText("en", partly);
  assert(en.includes("Partly refunded ₹100"), en);
  assert(en.includes("Partly refunded ₹25"), "the extra payment's part too");
  assert(!rowText("en", p).includes("Partly refunded"), "nothing without a partial refund");
  assert(!rowText("en", { ...partly, paymentStatus: "refunded" }).includes("Partly refunded ₹100"), "refunded since");
  const hi = rowText("hi", partly);
  assert(hi.includes("कुछ रिफ़ंड हुआ: ₹100"), hi);
});
