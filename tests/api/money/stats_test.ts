import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestUser } from "@/tests/helpers/app.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { toRupees } from "@/lib/money.ts";
import { readStats, type Stats } from "@/lib/stats/stats.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { signedPayment, webhookDelivery } from "@/tests/fakes/razorpay.ts";
import { updateUser } from "@/lib/users/users.ts";
import { istToday } from "@/lib/dates.ts";
import { addCoupon, addToolkit, buy, checkout, openShop, type Shop } from "@/tests/fixtures/toolkits.ts";
import { deliver, recount, refund, stored } from "./helpers.ts";

/** A small deterministic random source (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("stats: the counters equal a recount of the records after 200 mixed operations", async () => {
  await using shop = await openShop();
  const rand = random(20261125);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const users: TestUser[] = [];
  const kits = [await addToolkit(shop, { price: 400 }), await addToolkit(shop, { price: 0 })];
  await addCoupon(shop, { code: "HALF", discountType: "percentage", discountValue: 50 });
  // One coupon use that no operation below refunds (a coupon typed on the free toolkit takes nothing off, so no use).
  await buy(shop, await createTestUser(shop.t), kits[0].id, "HALF");
  const paid: string[] = [];
  const pendingOrders: { user: TestUser; kitId: string; orderId: string }[] = [];
  const ops: Record<string, () => Promise<unknown>> = {
    async signUp() {
      users.push(await createTestUser(shop.t));
    },
    async signUpUnverified() {
      const user = await createTestUser(shop.t);
      await updateUser(shop.t.kv, user.user.id, { emailVerified: false });
      users.push(user);
    },
    async verify() {
      if (users.length) await updateUser(shop.t.kv, pick(users).user.id, { emailVerified: true });
    },
    async deleteAccount() {
      if (users.length < 3) return;
      const user = users.splice(Math.floor(rand() * users.length), 1)[0];
      const res = await shop.t.json("DELETE", "/api/me", { body: { confirm: user.user.email }, headers: user.headers });
      assertEquals(res.status, 200);
    },
    async addToolkit() {
      kits.push(await addToolkit(shop, { price: pick([99, 250, 1000]), isActive: rand() < 0.7 }));
    },
    async toggleToolkit() {
      const kit = pick(kits);
      await shop.t.json("PUT", `/api/admin/toolkits/${kit.id}`, {
        body: { isActive: rand() < 0.5 },
        headers: shop.admin.headers,
      });
    },
    async deleteToolkit() {
      if (kits.length < 4) return;
      const kit = kits.splice(2 + Math.floor(rand() * (kits.length - 2)), 1)[0];
      await shop.t.json("DELETE", `/api/admin/toolkits/${kit.id}`, { headers: shop.admin.headers });
    },
    async checkout() {
      if (!users.length) return;
      const user = pick(users);
      const kit = pick(kits);
      const started = await checkout(shop, user, kit.id, rand() < 0.3 ? "HALF" : undefined);
      if (started.status === 200 && !started.body.free) {
        pendingOrders.push({ user, kitId: kit.id, orderId: started.body.order.id });
      }
    },
    async pay() {
      const order = pendingOrders.splice(Math.floor(rand() * pendingOrders.length), 1)[0];
      if (!order) return;
      const res = await shop.t.json(
        "POST",
        `/api/toolkits/${order.kitId}/verify`,
        {
          body: signedPayment(order.orderId, shop.fake.addPayment(order.orderId, "captured").id),
          headers: order.user.headers,
        },
      );
      if (res.status === 200) paid.push((await res.json()).purchase.id);
    },
    async fail() {
      const order = pick(pendingOrders);
      if (order) await deliver(shop, webhookDelivery({ event: "payment.failed", orderId: order.orderId }));
    },
    async payTwice() {
      const order = pick(pendingOrders);
      if (!order) return;
      const payment = shop.fake.addPayment(order.orderId, "captured");
      await deliver(
        shop,
        webhookDelivery({ event: "payment.captured", orderId: order.orderId, paymentId: payment.id }),
      );
    },
    async refund() {
      if (!paid.length) return;
      const answer = await refund(shop, paid.splice(Math.floor(rand() * paid.length), 1)[0]);
      assert([200, 400].includes(answer.status), JSON.stringify(answer));
    },
  };
  const weights: [string, number][] = [
    ["signUp", 14],
    ["signUpUnverified", 5],
    ["verify", 6],
    ["deleteAccount", 4],
    ["addToolkit", 4],
    ["toggleToolkit", 5],
    ["deleteToolkit", 2],
    ["checkout", 25],
    ["pay", 18],
    ["fail", 5],
    ["payTwice", 5],
    ["refund", 7],
  ];
  const sum = weights.reduce((s, [, w]) => s + w, 0);
  const done: Record<string, number> = {};
  for (let i = 0; i < 200; i++) {
    let roll = rand() * sum;
    const [name] = weights.find(([, w]) => (roll -= w) < 0)!;
    done[name] = (done[name] ?? 0) + 1;
    await ops[name]();
  }
  const counters = await stored(shop.t.kv);
  assertEquals(counters, await recount(shop.t.kv));
  // Enough of each happened for the comparison to mean something.
  for (const kind of ['"refunds"', '"purchases"', '"verifiedSignups"', '"uses"']) {
    assert([...counters.keys()].some((key) => key.includes(kind)), `no ${kind} counter: ${JSON.stringify(done)}`);
  }

  const res = await shop.t.fetch("/api/admin/stats?days=7", { headers: shop.admin.headers });
  assertEquals(res.status, 200);
  const stats = await res.json();
  assertEquals(stats.days.length, 7);
  assertEquals(stats.days.at(-1).date, istToday());
  let userCount = 0;
  for await (const _ of shop.t.kv.list({ prefix: ["users"] })) userCount++;
  assertEquals(stats.totals.users, userCount);
  const today = stats.days.at(-1);
  assertEquals(today.signups, userCount);
  assertEquals(today.revenue, stats.totals.revenue);
  assertEquals(today.refunds, stats.totals.refunds);
  assert(stats.topToolkits.length > 0 && stats.coupons[0].code === "HALF");
});

Deno.test("stats: admins only; days must be 7 to 365", async () => {
  await using shop: Shop = await openShop();
  const user = await createTestUser(shop.t);
  assertEquals((await shop.t.fetch("/api/admin/stats", { headers: user.headers })).status, 403);
  assertEquals((await shop.t.fetch("/api/admin/stats")).status, 401);
  for (const days of ["6", "366", "x"]) {
    assertEquals((await shop.t.fetch(`/api/admin/stats?days=${days}`, { headers: shop.admin.headers })).status, 400);
  }
  const stats = await (await shop.t.fetch("/api/admin/stats", { headers: shop.admin.headers })).json();
  assertEquals(stats.days.length, 30);
  assertEquals(Object.keys(stats.totals).sort(), [
    "activeToolkits",
    "openInternships",
    "pendingOpportunities",
    "refundRequests",
    "refunds",
    "revenue",
    "users",
    "verifiedUsers",
  ]);
});

Deno.test("stats: the demo's month has sign-ups and revenue on many days, equal to a recount of its records", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  const admin = await createTestUser(t, "admin");
  const read = async () =>
    (await (await t.fetch("/api/admin/stats?days=30", { headers: admin.headers })).json()) as Stats;
  const stats = await read();
  const daysWith = (field: "signups" | "revenue" | "refunds") => stats.days.filter((d) => d[field] > 0).length;
  assert(daysWith("signups") > 10, JSON.stringify(stats.days));
  assert(daysWith("revenue") > 5, JSON.stringify(stats.days));
  assert(daysWith("refunds") >= 2, JSON.stringify(stats.days));
  assertEquals(stats.coupons.map((c) => c.code).sort(), ["FLAT100", "FREEPASS", "WELCOME20"]);
  // One student asked for a refund the admin has not answered: the "Refunds asked" tile and the list's tab.
  assertEquals(stats.totals.refundRequests, 1);
  const asked = await (await t.fetch("/api/admin/purchases?refundRequest=open", { headers: admin.headers })).json();
  assertEquals(asked.purchases.map((p: { user: { name: string } }) => p.user.name), ["Zara Sheikh"]);
  // Each day's figures are those of a recount of the records the demo wrote, and so is every counter.
  const counted = await recount(t.kv);
  const count = (date: string, field: string) => counted.get(JSON.stringify(["stats_days", date, field])) ?? 0;
  for (const day of stats.days) {
    assertEquals(day, {
      date: day.date,
      signups: count(day.date, "signups"),
      verifiedSignups: count(day.date, "verifiedSignups"),
      purchases: count(day.date, "purchases"),
      revenue: toRupees(count(day.date, "revenue")),
      refunds: toRupees(count(day.date, "refunds")),
    });
  }
  assertEquals(await stored(t.kv), counted);
  // Seeding again adds nothing.
  await seedDemoData(t.kv);
  assertEquals(await read(), stats);
});

Deno.test("stats: a payment the gateway reports in another currency is owed back as it is, never counted as rupees", async () => {
  await using shop: Shop = await openShop();
  const buyer = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 500 });
  const started = await checkout(shop, buyer, kit.id);
  const orderId = started.body.order.id;
  const usd = shop.fake.addPayment(orderId, "captured", { amount: 600, currency: "USD" });
  const res = await deliver(
    shop,
    webhookDelivery({ event: "payment.captured", orderId, paymentId: usd.id, amount: 600, currency: "USD" }),
  );
  assertEquals(res.status, 200);
  const record = (await shop.t.kv.get<{ extraPayments: { amount: number; currency?: string; reason: string }[] }>([
    "purchases",
    started.body.purchase.id,
  ])).value!;
  assertEquals(record.extraPayments.map((p) => [p.amount, p.currency, p.reason]), [[600, "USD", "amount mismatch"]]);
  const totals = async () =>
    (await (await shop.t.fetch("/api/admin/stats", { headers: shop.admin.headers })).json()).totals;
  assertEquals((await totals()).revenue, 0, "US$6 is not ₹6");
  // Refunded as what it is: the buyer is told the amount in its own currency; the refunds figure stays in rupees.
  const back = await shop.t.json(
    "POST",
    `/api/admin/purchases/${started.body.purchase.id}/extra-payments/${usd.id}/refund`,
    {
      body: {},
      headers: shop.admin.headers,
    },
  );
  assertEquals(back.status, 200);
  assertEquals((await totals()).refunds, 0);
  const notes = (await (await shop.t.fetch("/api/me/notifications", { headers: buyer.headers })).json()).notifications;
  assert(notes[0].body.startsWith("USD 6.00 for Resume Toolkit"), notes[0].body);
  assertEquals(await stored(shop.t.kv), await recount(shop.t.kv));
});

/** The IST day `n` days after `day` (`YYYY-MM-DD`). */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

Deno.test("stats: open internships are counted as of the day asked for, not the clock's", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  await addInternships(t, member, [{ deadline: addDays(istToday(), 3) }, {}]);
  assertEquals((await readStats(t.kv, 7)).totals.openInternships, 2);
  assertEquals((await readStats(t.kv, 7, addDays(istToday(), 10))).totals.openInternships, 1, "the deadline passed");
});
