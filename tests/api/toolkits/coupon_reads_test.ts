/**
 * A popular coupon's checkout reads a few of its slots, not every use it ever had (docs/decisions.md, Toolkits and
 * payments, "Coupon uses"), and its limits still hold when it is nearly full or its limit was lowered below its uses.
 * Reads are counted through `tests/helpers/kv_reads.ts`, never timed.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, checkout } from "@/tests/fixtures/toolkits.ts";
import type { Coupon } from "@/lib/coupons/coupons.ts";
import { planReservation, reserveOps } from "@/lib/coupons/reservations.ts";

/** Writes paid uses of `coupon` at slots `indexes`, as earlier buyers' purchases left them. */
async function seedUses(t: TestApp, coupon: Coupon, toolkitId: string, indexes: number[]) {
  for (let i = 0; i < indexes.length; i += 500) {
    const op = t.kv.atomic();
    for (const index of indexes.slice(i, i + 500)) {
      const value = { purchaseId: `p${index}`, userId: `u${index}`, toolkitId, status: "used", expiresAt: null };
      op.set(["coupon_slots", coupon.id, index], value);
    }
    await op.commit();
  }
}

const usedCountOf = async (t: TestApp, admin: { headers: Record<string, string> }, code: string) =>
  (await (await t.fetch(`/api/admin/coupons?search=${code}`, { headers: admin.headers })).json()).coupons[0].usedCount;

Deno.test("a checkout with a coupon used 5,000 times reads a few of its slots, not every one", async () => {
  await using fake = startFakeRazorpay();
  const reads = kvReads();
  await using t = await createTestApp({ env: fake.env, kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const toolkit = await addToolkit({ t, admin });
  const uses = Array.from({ length: 5000 }, (_, i) => i);
  for (const [code, usageLimit] of [["WELCOME20", null], ["FIRST10K", 10_000]] as const) {
    const coupon = await addCoupon({ t, admin }, { code, perUserLimit: 1, usageLimit });
    await seedUses(t, coupon, toolkit.id, uses);
    const buyer = await createTestUser(t);
    for (const attempt of ["first", "again"]) {
      reads.lists.length = 0;
      reads.keys.length = 0;
      const started = await checkout({ t }, buyer, toolkit.id, code);
      assertEquals(started.status, 200, JSON.stringify(started.body));
      const everySlot = reads.lists.filter(({ selector }) =>
        "prefix" in selector && selector.prefix[0] === "coupon_slots" && !("start" in selector)
      );
      assertEquals(everySlot, [], `${code} (${attempt}) read every slot of the coupon`);
      const slotKeys = reads.keys.filter((key) => key[0] === "coupon_slots").length;
      assert(slotKeys <= 11, `${code} (${attempt}) read ${slotKeys} slots`);
    }
    // Checking out again kept the purchase's own slot: one use more, not two.
    assertEquals(await usedCountOf(t, admin, code), 5001);
  }
});

Deno.test("a nearly full coupon takes its last use once; a limit lowered below its uses takes none", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ env: fake.env });
  const admin = await createTestUser(t, "admin");
  const toolkit = await addToolkit({ t, admin });
  const nearlyFull = await addCoupon({ t, admin }, { code: "LAST1", usageLimit: 2000 });
  const free = 1234;
  await seedUses(t, nearlyFull, toolkit.id, Array.from({ length: 2000 }, (_, i) => i).filter((i) => i !== free));
  const [first, second] = [await createTestUser(t), await createTestUser(t)];
  assertEquals((await checkout({ t }, first, toolkit.id, "LAST1")).status, 200);
  assertEquals((await checkout({ t }, second, toolkit.id, "LAST1")).body, { error: "Coupon usage limit reached" });
  assertEquals(await usedCountOf(t, admin, "LAST1"), 2000);
  // Uses at slots 20..24 of a coupon whose limit was then lowered to 5: its five uses stay, and no sixth is taken.
  const lowered = await addCoupon({ t, admin }, { code: "LOWERED", usageLimit: 5 });
  await seedUses(t, lowered, toolkit.id, [20, 21, 22, 23, 24]);
  for (const buyer of [first, second]) {
    assertEquals((await checkout({ t }, buyer, toolkit.id, "LOWERED")).body, { error: "Coupon usage limit reached" });
  }
  assertEquals(await usedCountOf(t, admin, "LOWERED"), 5);
});

Deno.test("a limit given to a coupon that had none holds when two checkouts take its last use at once", async () => {
  await using fake = startFakeRazorpay();
  const reads = kvReads();
  await using t = await createTestApp({ env: fake.env, kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const toolkit = await addToolkit({ t, admin });
  const coupon = await addCoupon({ t, admin }, { code: "OPEN", usageLimit: null });
  // Eight uses while it had no limit: their slots lie at random far beyond any limit given later.
  for (let i = 0; i < 8; i++) {
    assertEquals((await checkout({ t }, await createTestUser(t), toolkit.id, "OPEN")).status, 200);
  }
  const limited = await t.json("PATCH", `/api/admin/coupons/${coupon.id}`, {
    body: { usageLimit: 10 },
    headers: admin.headers,
  });
  assertEquals(limited.status, 200, JSON.stringify(limited.body));
  reads.listed = 0;
  assertEquals((await checkout({ t }, await createTestUser(t), toolkit.id, "OPEN")).status, 200, "the ninth use");
  // Its slots are read in full, those beyond the limit (the eight uses) once, not twice.
  assertEquals(reads.listed, 8, "entries listed");
  // Two checkouts read the coupon at once, each finding the tenth use free; both then commit.
  const limits = { id: coupon.id, perUserLimit: 1, usageLimit: 10 };
  const buyers = ["late1", "late2"];
  const plans = await Promise.all(
    buyers.map((userId) => planReservation(t.kv, { coupon: limits, userId, purchaseId: `p-${userId}`, held: [] })),
  );
  const taken = [];
  for (const [i, plan] of plans.entries()) {
    if (!plan.ok) continue;
    const op = t.kv.atomic();
    reserveOps(op, {
      plan,
      value: { purchaseId: `p-${buyers[i]}`, userId: buyers[i], toolkitId: toolkit.id },
      paid: true,
    });
    if ((await op.commit()).ok) taken.push(buyers[i]);
  }
  assertEquals(taken.length, 1, "one of them takes the tenth use");
  assertEquals(await usedCountOf(t, admin, "OPEN"), 10);
  const refused = await checkout({ t }, await createTestUser(t), toolkit.id, "OPEN");
  assertEquals(refused.body, { error: "Coupon usage limit reached" });
});
