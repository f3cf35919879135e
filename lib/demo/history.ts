/**
 * A month of the platform's life for the admin's dashboard (docs/decisions.md, Money operations, "The demo's month"):
 * demo students who signed up over the last 30 days, some verified, some of whom bought a toolkit a few days later
 * (one with the `FLAT100` coupon, one refunded by the admin a few days after, one asking for a refund the admin has
 * not answered yet). Every step runs through the real write
 * path at the time it happens (`createUser` with its `createdAt`, checkout, confirmation and refund on a clock set to
 * that time), in time order, so the dashboard's day counters are the ones those writes keep and receipt numbers follow
 * the dates. Idempotent: a student who exists is not made again, a toolkit bought is not bought again.
 */
import type { PaymentContext } from "@/lib/purchases/payment_context.ts";
import { refundPayment } from "@/lib/purchases/refunds.ts";
import type { SellerConfig } from "@/lib/purchases/receipts.ts";
import { askRefund } from "@/lib/purchases/refund_requests.ts";
import { listActiveToolkits } from "@/lib/toolkits/catalog.ts";
import { createUser, getUserByEmail, type User } from "@/lib/users/users.ts";
import { buy, offlineGateway } from "./money.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A student of the month: when they signed up (days before the seed), and what they bought how many days later. */
interface MonthStudent {
  name: string;
  daysAgo: number;
  verified: boolean;
  bought?: {
    title: string;
    daysLater: number;
    couponCode?: string;
    refundedDaysLater?: number;
    /** Days after paying the buyer asked for a refund, with their reason; left open for the admin. */
    asked?: { daysLater: number; reason: string };
  };
}

const RESUME = "Resume That Gets Read";
const INTERVIEW = "Crack the Data Analyst Interview";
const SALARY = "Salary Negotiation for Freshers";

/** The students of the month (e-mail `<first name>@month.demo.careers`; they have no password). */
export const MONTH_STUDENTS: MonthStudent[] = [
  { name: "Aarav Mehta", daysAgo: 28, verified: true, bought: { title: RESUME, daysLater: 1 } },
  { name: "Diya Nair", daysAgo: 27, verified: true },
  { name: "Kabir Singh", daysAgo: 25, verified: false },
  { name: "Ishita Rao", daysAgo: 24, verified: true, bought: { title: INTERVIEW, daysLater: 2 } },
  { name: "Vihaan Gupta", daysAgo: 22, verified: true, bought: { title: SALARY, daysLater: 0 } },
  { name: "Anika Reddy", daysAgo: 21, verified: true },
  {
    name: "Arjun Iyer",
    daysAgo: 19,
    verified: true,
    bought: { title: INTERVIEW, daysLater: 1, couponCode: "FLAT100" },
  },
  { name: "Myra Kapoor", daysAgo: 18, verified: false },
  { name: "Reyansh Das", daysAgo: 16, verified: true, bought: { title: RESUME, daysLater: 3, refundedDaysLater: 2 } },
  { name: "Saanvi Joshi", daysAgo: 14, verified: true, bought: { title: SALARY, daysLater: 1 } },
  { name: "Ayaan Khan", daysAgo: 12, verified: true },
  { name: "Kiara Menon", daysAgo: 11, verified: true, bought: { title: RESUME, daysLater: 2 } },
  { name: "Advik Bose", daysAgo: 9, verified: false },
  { name: "Tara Pillai", daysAgo: 7, verified: true, bought: { title: INTERVIEW, daysLater: 1 } },
  { name: "Dev Malhotra", daysAgo: 5, verified: true },
  {
    name: "Zara Sheikh",
    daysAgo: 4,
    verified: true,
    bought: {
      title: SALARY,
      daysLater: 2,
      asked: { daysLater: 1, reason: "I meant to buy the data analyst interview toolkit" },
    },
  },
  { name: "Neil Verma", daysAgo: 2, verified: true },
];

/** The e-mail of a student of the month. */
export function monthStudentEmail(student: MonthStudent): string {
  return `${student.name.split(" ")[0].toLowerCase()}@month.demo.careers`;
}

/** One step of the month at `at` (ms). */
interface Step {
  at: number;
  run(): Promise<void>;
}

/**
 * Seeds the month (see the module docstring) over the offline gateway of `money.ts`, `admin` refunding, receipts issued by
 * `seller` (kept with them), the month ending at `now` (ms); returns lines describing what was added.
 */
export async function seedMonth(
  kv: Deno.Kv,
  { appUrl, seller, admin, now = Date.now() }: { appUrl: string; seller?: SellerConfig; admin: User; now?: number },
): Promise<string[]> {
  const ctx: PaymentContext = { kv, payments: offlineGateway(), appUrl, seller };
  const toolkits = new Map((await listActiveToolkits(ctx.kv)).map((t) => [t.title, t]));
  const at = (ms: number): PaymentContext => ({ ...ctx, clock: () => new Date(ms) });
  const counts = { signups: 0, purchases: 0, refunds: 0, asked: 0 };
  const steps: Step[] = [];
  for (const [i, student] of MONTH_STUDENTS.entries()) {
    const email = monthStudentEmail(student);
    if (await getUserByEmail(ctx.kv, email)) continue;
    // Spread over the day too, and never later than `now`.
    const joined = now - student.daysAgo * DAY_MS - (i % 5) * 47 * 60 * 1000;
    let user: User | null = null;
    steps.push({
      at: joined,
      run: async () => {
        user = await createUser(ctx.kv, {
          name: student.name,
          email,
          emailVerified: student.verified,
          role: "user",
          createdAt: new Date(joined).toISOString(),
        });
        counts.signups++;
      },
    });
    const bought = student.bought;
    if (!bought) continue;
    const paidAt = joined + bought.daysLater * DAY_MS + 90 * 60 * 1000;
    let purchaseId: string | null = null;
    steps.push({
      at: paidAt,
      run: async () => {
        const toolkit = toolkits.get(bought.title)!;
        purchaseId = await buy(at(paidAt), { buyer: user!, toolkit, couponCode: bought.couponCode });
        counts.purchases++;
      },
    });
    const asked = bought.asked;
    if (asked) {
      const askedAt = paidAt + asked.daysLater * DAY_MS;
      steps.push({
        at: askedAt,
        run: async () => {
          await askRefund(at(askedAt), { purchaseId: purchaseId!, userId: user!.id, reason: asked.reason });
          counts.asked++;
        },
      });
    }
    if (bought.refundedDaysLater === undefined) continue;
    const refundedAt = paidAt + bought.refundedDaysLater * DAY_MS;
    steps.push({
      at: refundedAt,
      run: async () => {
        await refundPayment(at(refundedAt), {
          by: admin,
          target: { purchaseId: purchaseId! },
          reason: "Changed plans",
        });
        counts.refunds++;
      },
    });
  }
  for (const step of steps.sort((a, b) => a.at - b.at)) await step.run();
  if (counts.signups === 0) return [];
  return [
    `The last 30 days: ${counts.signups} students signed up, ${counts.purchases} bought a toolkit, ` +
    `${counts.refunds} refunded, ${counts.asked} asking for a refund (${MONTH_STUDENTS[0].name} and others, ` +
    "*@month.demo.careers)",
  ];
}
