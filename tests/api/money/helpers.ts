/**
 * Shared steps of the money tests: reading records back, webhooks, refunds, and the dashboard counters as stored and as
 * recounted from the records. A paid purchase is `buy` of `tests/fixtures/toolkits.ts`.
 */
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { type Count, purchaseCounts, toolkitCounts, userCounts } from "@/lib/stats/counters.ts";
import type { User } from "@/lib/users/users.ts";
import type { ToolkitRecord } from "@/lib/toolkits/schema.ts";
import type { Shop } from "@/tests/fixtures/toolkits.ts";

/** The stored record of a purchase. */
export async function purchaseRecord(shop: Shop, id: string): Promise<PurchaseRecord> {
  return (await shop.t.kv.get<PurchaseRecord>(["purchases", id])).value!;
}

/** Delivers a signed webhook to the app. */
export function deliver(shop: Shop, delivery: { body: string; headers: Record<string, string> }) {
  return shop.t.fetch("/api/webhooks/razorpay", { method: "POST", body: delivery.body, headers: delivery.headers });
}

/** Refunds a purchase as the admin: status and body. */
export async function refund(shop: Shop, purchaseId: string, reason?: string) {
  const res = await shop.t.json(
    "POST",
    `/api/admin/purchases/${purchaseId}/refund`,
    { body: reason === undefined ? {} : { reason }, headers: shop.admin.headers },
  );
  return { status: res.status, body: await res.json() };
}

/** Every counter as stored: key (JSON) → signed value, zeros left out. */
export async function stored(kv: Deno.Kv): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const prefix of ["stats_days", "stats_totals", "stats_toolkits", "stats_coupons"]) {
    for await (const entry of kv.list<Deno.KvU64>({ prefix: [prefix] })) {
      const value = Number(BigInt.asIntN(64, entry.value.value));
      if (value !== 0) found.set(JSON.stringify(entry.key), value);
    }
  }
  return found;
}

/** The counters recounted from every user, toolkit and purchase record. */
export async function recount(kv: Deno.Kv): Promise<Map<string, number>> {
  const counts: Count[] = [];
  for await (const e of kv.list<User>({ prefix: ["users"] })) counts.push(...userCounts(e.value));
  for await (const e of kv.list<ToolkitRecord>({ prefix: ["toolkits"] })) counts.push(...toolkitCounts(e.value));
  for await (const e of kv.list<PurchaseRecord>({ prefix: ["purchases"] })) counts.push(...purchaseCounts(e.value));
  const sums = new Map<string, number>();
  for (const [key, amount] of counts) sums.set(JSON.stringify(key), (sums.get(JSON.stringify(key)) ?? 0) + amount);
  for (const [key, amount] of sums) if (amount === 0) sums.delete(key);
  return sums;
}
