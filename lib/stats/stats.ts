/**
 * `GET /api/admin/stats` (docs/api.md, Money operations; docs/decisions.md, Money operations, "The dashboard's
 * counters"): the figures of the last `days` IST days and the totals, read from the counters of `counters.ts` (one
 * range read of the day counters, one of the per-toolkit and one of the per-coupon counters) and from the read models
 * the internship and opportunity lists keep in memory (open internships, opportunities waiting for review), never from
 * a scan of users or purchases. Money in rupees.
 */
import { z } from "zod";
import { istToday } from "@/lib/dates.ts";
import { toRupees } from "@/lib/money.ts";
import { getCouponRecord } from "@/lib/coupons/coupons.ts";
import { listInternships } from "@/lib/internships/internships.ts";
import { DEFAULT_QUERY } from "@/lib/internships/schema.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { getToolkitsByIds } from "@/lib/toolkits/catalog.ts";
import { counterValue, DAY_FIELDS, TOTAL_FIELDS } from "./counters.ts";

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/** Query of `GET /api/admin/stats`: `days`, 7 to 365 (default 30). */
export const statsQuerySchema = z.object({ days: integer(7, 365).default(30) });

/** One IST day's figures; money in rupees. */
export interface DayStats {
  date: string;
  signups: number;
  verifiedSignups: number;
  purchases: number;
  revenue: number;
  refunds: number;
}

/** The body of `GET /api/admin/stats`. */
export interface Stats {
  days: DayStats[];
  totals: {
    users: number;
    verifiedUsers: number;
    openInternships: number;
    pendingOpportunities: number;
    activeToolkits: number;
    revenue: number;
    refunds: number;
    /** Refund requests waiting for an admin's answer. */
    refundRequests: number;
  };
  /** The best sellers; `title` null for a toolkit that was removed. */
  topToolkits: { id: string; title: string | null; sales: number; revenue: number }[];
  coupons: { code: string; uses: number; discountGiven: number }[];
}

/** How many toolkits and coupons are listed. */
export const TOP = 10;
const MONEY = new Set(["revenue", "refunds", "discount"]);

/** The IST day `n` days after `day` (both `YYYY-MM-DD`). */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Counters under `prefix` grouped by their id (the key part after the prefix), each a map of field → value. */
async function grouped(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Map<string, Record<string, number>>> {
  const groups = new Map<string, Record<string, number>>();
  for await (const entry of kv.list<Deno.KvU64>({ prefix })) {
    const id = String(entry.key[prefix.length]);
    const field = String(entry.key[prefix.length + 1]);
    const value = counterValue(entry);
    groups.set(id, { ...groups.get(id), [field]: MONEY.has(field) ? toRupees(value) : value });
  }
  return groups;
}

/** The dashboard's figures for the `days` IST days up to today (`today`, `YYYY-MM-DD`). */
export async function readStats(kv: Deno.Kv, days: number, today = istToday()): Promise<Stats> {
  const first = addDays(today, 1 - days);
  const byDay = new Map<string, DayStats>();
  for (let i = 0; i < days; i++) {
    const date = addDays(first, i);
    byDay.set(date, { date, signups: 0, verifiedSignups: 0, purchases: 0, revenue: 0, refunds: 0 });
  }
  const dayRange = { start: ["stats_days", first], end: ["stats_days", addDays(today, 1)] };
  const [dayEntries, totals, toolkitGroups, couponGroups, internships, opportunities] = await Promise.all([
    Array.fromAsync(kv.list<Deno.KvU64>(dayRange)),
    kv.getMany<Deno.KvU64[]>(TOTAL_FIELDS.map((field) => ["stats_totals", field])),
    grouped(kv, ["stats_toolkits"]),
    grouped(kv, ["stats_coupons"]),
    listInternships(kv, { query: { ...DEFAULT_QUERY, limit: 1 }, viewer: null, today }),
    opportunityStore(kv),
  ]);
  for (const entry of dayEntries) {
    const day = byDay.get(String(entry.key[1]));
    const field = entry.key[2] as typeof DAY_FIELDS[number];
    if (day && DAY_FIELDS.includes(field)) {
      day[field] = MONEY.has(field) ? toRupees(counterValue(entry)) : counterValue(entry);
    }
  }
  const total = Object.fromEntries(TOTAL_FIELDS.map((field, i) => [field, counterValue(totals[i])]));

  const ranked = [...toolkitGroups].map(([id, c]) => ({ id, sales: c.sales ?? 0, revenue: c.revenue ?? 0 }))
    .filter((t) => t.sales > 0)
    .sort((a, b) => b.revenue - a.revenue || b.sales - a.sales)
    .slice(0, TOP);
  const titles = await getToolkitsByIds(kv, ranked.map((t) => t.id));
  const topToolkits = ranked.map((t) => ({ ...t, title: titles.get(t.id)?.title ?? null }));

  const usedCoupons = [...couponGroups].map(([id, c]) => ({ id, uses: c.uses ?? 0, discountGiven: c.discount ?? 0 }))
    .filter((c) => c.uses > 0)
    .sort((a, b) => b.uses - a.uses || b.discountGiven - a.discountGiven)
    .slice(0, TOP);
  const coupons = await Promise.all(usedCoupons.map(async ({ id, uses, discountGiven }) => ({
    code: (await getCouponRecord(kv, id))?.code ?? "(deleted coupon)",
    uses,
    discountGiven,
  })));

  return {
    days: [...byDay.values()],
    totals: {
      users: total.users,
      verifiedUsers: total.verifiedUsers,
      openInternships: internships.pagination.total,
      pendingOpportunities: opportunities.model.columns.counts[0],
      activeToolkits: total.activeToolkits,
      revenue: toRupees(total.revenue),
      refunds: toRupees(total.refunds),
      refundRequests: total.refundRequests,
    },
    topToolkits,
    coupons,
  };
}
