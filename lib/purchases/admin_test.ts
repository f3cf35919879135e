import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { createUser } from "@/lib/users/users.ts";
import { listPurchasesForAdmin } from "./admin.ts";
import { USER_COUNT_LIMIT } from "@/lib/users/user_index.ts";
import type { PurchaseRecord } from "./purchases.ts";

/** `n` buyers with one paid purchase each (`student{i}@example.in`, "Student {i}"), newest last. */
async function shop(kv: Deno.Kv, n: number): Promise<void> {
  await kv.set(["toolkits", "t1"], { id: "t1", title: "Resume That Gets Read" });
  for (let i = 0; i < n; i++) {
    const user = await createUser(kv, {
      name: `Student ${i}`,
      email: `student${i}@example.in`,
      emailVerified: true,
      role: "user",
    });
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    const record = {
      id: `p${i}`,
      userId: user.id,
      toolkitId: "t1",
      gatewayOrderId: `order_${i}`,
      paymentStatus: "paid",
      amountPaid: 49900,
      couponId: null,
      reservation: null,
      paymentId: `pay_${i}`,
      orders: { [`order_${i}`]: { amount: 49900, couponId: null } },
      history: [],
      createdAt: at,
      updatedAt: at,
    } as unknown as PurchaseRecord;
    await kv.set(["purchases", record.id], record);
  }
}

const QUERY = { limit: 10, offset: 0 };
const userReads = (keys: Deno.KvKey[]) => keys.filter((key) => key[0] === "users").length;

Deno.test("admin purchases: a search by a whole address reads the e-mail index, not every buyer", async () => {
  using memory = await Deno.openKv(":memory:");
  await shop(memory, 40);
  const reads = kvReads();
  const kv = recordingReads(memory, reads);
  const page = await listPurchasesForAdmin(kv, { ...QUERY, search: "Student12@example.in" });
  assertEquals(page.purchases.map((p) => [p.id, p.user?.email]), [["p12", "student12@example.in"]]);
  assertEquals(page.counts.all, 1);
  assertEquals(userReads(reads.keys), 1, "the page's one buyer only");
  assertEquals(reads.keys.filter((key) => key[0] === "users_by_email").length, 1);
});

Deno.test("admin purchases: other words match the start of a buyer's words through the word index", async () => {
  using memory = await Deno.openKv(":memory:");
  await shop(memory, 40);
  const reads = kvReads();
  const kv = recordingReads(memory, reads);
  const page = await listPurchasesForAdmin(kv, { ...QUERY, search: "student 3" });
  assertEquals(page.purchases.map((p) => p.id), ["p39", "p38", "p37", "p36", "p35", "p34", "p33", "p32", "p31", "p30"]);
  assertEquals(page.pagination.total, 13, "Student 3 and 30–39 by name, 13 and 23 by their order ids");
  assertEquals(userReads(reads.keys), 10, "the page's buyers only");
  const byOrder = await listPurchasesForAdmin(kv, { ...QUERY, search: "ORDER_7" });
  assertEquals(byOrder.purchases.map((p) => p.id), ["p7"]);
});

Deno.test("admin purchases: a word starting over 1,000 users' words reads every buyer, in parallel", async () => {
  using memory = await Deno.openKv(":memory:");
  await shop(memory, USER_COUNT_LIMIT + 5);
  const reads = kvReads();
  const kv = recordingReads(memory, reads);
  const page = await listPurchasesForAdmin(kv, { ...QUERY, search: "student 1004" });
  assertEquals(page.purchases.map((p) => p.id), ["p1004"]);
  assertEquals(page.pagination.total, 1);
  assert(reads.maxInFlight >= 100, `the buyers' batches are read at once (${reads.maxInFlight} in flight at most)`);
});
