/**
 * An organization's track record from its applications (docs/decisions.md, Applications, "Track record"): how many
 * applications it had, the share of applicants its posters answered within 14 days, the median days to that first
 * answer, and what hired interns said of the stipend. Counted as applications change (KV `sum` counters written by
 * each application's own write, `countOps`), never by a scan, so the organization page reads a few dozen keys whatever
 * the number of applications.
 *
 * The rate and the median count applications at least 7 days old (by the IST day they were sent). Totals are kept
 * over all applications, and beside them the same counts per day of sending for the days that are not old enough yet:
 * a read takes the totals and subtracts the last 7 days. A first answer after `d` whole days lands in the histogram bin
 * `d` (the last bin holds all later ones); an application younger than 7 days can only have been answered within 6
 * days, so only those bins are kept per day.
 *
 * A read costs one key when nothing changed: each write that changes an organization's counters also bumps its change
 * marker, and each process keeps the figures it computed last per organization (up to 1,000), valid while the marker
 * and the IST day are the same.
 *
 * Keys (owned by this module only):
 * - `["track_changes", organizationId]` → KvU64, one more at every write that changes the organization's counters
 * - `["track_totals", organizationId, field]` → KvU64; fields `applications`, `answered14`, `d0` … `d60`,
 *   `stipend_yes`, `stipend_partly`, `stipend_no`
 * - `["track_days", organizationId, dayNumber, field]` → KvU64 (days since the epoch in IST); fields `applications`,
 *   `answered14`, `d0` … `d6`
 */
import { type Count, counterValue } from "@/lib/stats/counters.ts";
import type { StipendPaid } from "./schema.ts";

/** Days an application must be old before it counts toward the rate and the median. */
export const MATURE_DAYS = 7;
/** The window (days) within which a first answer counts as a response. */
export const RESPONSE_DAYS = 14;
/** The last histogram bin: first answers after this many days or more. */
const LAST_BIN = 60;
/** Below this many applications the rate and the median are null. */
export const MIN_APPLICATIONS = 5;
/** Below this many stipend answers the stipend counts are shown as 0. */
export const MIN_STIPEND_REPORTS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;
const IST_OFFSET_MS = 330 * 60_000;

/** The IST day number (days since 1970-01-01 in India) of the moment `ms`. */
export function istDayNumber(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
}

const markerKey = (organizationId: string): Deno.KvKey => ["track_changes", organizationId];
const totalKey = (organizationId: string, field: string): Deno.KvKey => ["track_totals", organizationId, field];
const dayKey = (organizationId: string, day: number, field: string): Deno.KvKey => [
  "track_days",
  organizationId,
  day,
  field,
];

/** What the counters read of an application. */
export interface CountedApplication {
  organizationId: string | null;
  createdAt: string;
  firstResponseAt: string | null;
  stipendReport: { paid: StipendPaid } | null;
}

/**
 * What `application` counts toward (see the module docstring): one application on its day and in the totals; once the
 * poster first answered, its histogram bin and, within 14 days, `answered14`; its stipend answer.
 */
export function applicationCounts(application: CountedApplication | null): Count[] {
  if (!application?.organizationId) return [];
  const org = application.organizationId;
  const sent = Date.parse(application.createdAt);
  const day = istDayNumber(sent);
  const counts: Count[] = [[totalKey(org, "applications"), 1], [dayKey(org, day, "applications"), 1]];
  if (application.firstResponseAt) {
    const waited = Date.parse(application.firstResponseAt) - sent;
    const days = Math.max(0, Math.floor(waited / DAY_MS));
    counts.push([totalKey(org, `d${Math.min(days, LAST_BIN)}`), 1]);
    if (days < MATURE_DAYS) counts.push([dayKey(org, day, `d${days}`), 1]);
    if (waited <= RESPONSE_DAYS * DAY_MS) {
      counts.push([totalKey(org, "answered14"), 1], [dayKey(org, day, "answered14"), 1]);
    }
  }
  if (application.stipendReport) counts.push([totalKey(org, `stipend_${application.stipendReport.paid}`), 1]);
  return counts;
}

/**
 * The counter changes of one application going from `previous` to `next` (`applicationCounts` of each; null: none):
 * nothing when both count the same keys (most moves, such as a rejection by the system, which answers nobody),
 * otherwise the previous counts negated and the next ones, for `trackCountOps` to net.
 */
export function countChanges(previous: CountedApplication | null, next: CountedApplication | null): Count[] {
  // The counts read these four fields only: when none changed, neither did the counts.
  if (
    previous && next && previous.organizationId === next.organizationId && previous.createdAt === next.createdAt &&
    previous.firstResponseAt === next.firstResponseAt && previous.stipendReport?.paid === next.stipendReport?.paid
  ) return [];
  const before = applicationCounts(previous);
  const after = applicationCounts(next);
  if (before.length === after.length && before.every(([key, amount], i) => sameCount(key, amount, after[i]))) return [];
  return [...before.map(([key, amount]): Count => [key, -amount]), ...after];
}

/** Whether `key` and `amount` are the count `other`. */
function sameCount(key: Deno.KvKey, amount: number, [otherKey, otherAmount]: Count): boolean {
  return amount === otherAmount && key.length === otherKey.length && key.every((part, i) => part === otherKey[i]);
}

/**
 * Adds to `op` the counter changes of applications that counted `before` and now count `after` (lists of
 * `applicationCounts`, of one application or of many: each key is summed once, by its net change), and one more on the
 * change marker of each organization whose counters change.
 */
export function trackCountOps(op: Deno.AtomicOperation, before: readonly Count[], after: readonly Count[]): void {
  const net = new Map<string, { key: Deno.KvKey; amount: number }>();
  for (const [list, sign] of [[before, -1], [after, 1]] as const) {
    for (const [key, amount] of list) {
      const id = JSON.stringify(key);
      const entry = net.get(id) ?? { key, amount: 0 };
      entry.amount += sign * amount;
      net.set(id, entry);
    }
  }
  const changed = new Set<string>();
  for (const { key, amount } of net.values()) {
    if (amount === 0) continue;
    op.sum(key, BigInt.asUintN(64, BigInt(amount)));
    changed.add(key[1] as string);
  }
  for (const organizationId of changed) op.sum(markerKey(organizationId), 1n);
}

/** An organization's application figures (docs/decisions.md, Trust, "Organizations"). */
export interface TrackRecord {
  applications: number;
  /** Share (0 to 1) of applications at least 7 days old the poster answered within 14 days; null below 5 of them. */
  responseRate: number | null;
  /** Median whole days to the poster's first answer, of those answered; null below 5 applications or none answered. */
  medianDaysToFirstResponse: number | null;
  /** The hired interns' stipend answers, all 0 below 3 answers. */
  stipendReports: { yes: number; partly: number; no: number };
}

/** The value of every counter under `prefix` by its last key part. */
async function countersUnder(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for await (const entry of kv.list<Deno.KvU64>(selector, { batchSize: 200 })) {
    const field = String(entry.key.at(-1));
    values.set(field, (values.get(field) ?? 0) + counterValue(entry));
  }
  return values;
}

/** The median of the histogram `bins` (count of first answers after `i` days at index `i`), or null when empty. */
function medianOf(bins: number[]): number | null {
  const total = bins.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const at = (rank: number) => {
    let seen = 0;
    for (let days = 0; days < bins.length; days++) {
      seen += bins[days];
      if (seen > rank) return days;
    }
    return bins.length - 1;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/** How many organizations' figures a process keeps. */
const KEPT = 1000;
const kept = new Map<string, { marker: number; day: number; record: TrackRecord }>();

/** The change marker of `organizationId`'s counters (0 before any change): pages cached by it follow the figures. */
export async function trackRecordVersion(kv: Deno.Kv, organizationId: string): Promise<number> {
  return counterValue(await kv.get<Deno.KvU64>(markerKey(organizationId)));
}

/**
 * The track record of `organizationId` on the IST day of `now` (ms): the figures this process computed last while the
 * change marker and the day are the same (one key read), else two short KV lists (the totals, and the counts of the
 * last 7 days of sending).
 */
export async function trackRecordOf(kv: Deno.Kv, organizationId: string, now = Date.now()): Promise<TrackRecord> {
  const today = istDayNumber(now);
  const marker = await trackRecordVersion(kv, organizationId);
  const hit = kept.get(organizationId);
  if (hit && hit.marker === marker && hit.day === today) return hit.record;
  // Read after the marker: figures at least as new as it, so keeping them under it is never stale.
  const record = await computeTrackRecord(kv, organizationId, today);
  kept.delete(organizationId);
  kept.set(organizationId, { marker, day: today, record });
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return record;
}

/** The track record of `organizationId` on IST day number `today`, from its counters. */
async function computeTrackRecord(kv: Deno.Kv, organizationId: string, today: number): Promise<TrackRecord> {
  const [totals, young] = await Promise.all([
    countersUnder(kv, { prefix: ["track_totals", organizationId] }),
    countersUnder(kv, {
      start: ["track_days", organizationId, today - MATURE_DAYS + 1],
      end: ["track_days", organizationId, today + 1],
    }),
  ]);
  const total = (field: string) => totals.get(field) ?? 0;
  const mature = (field: string) => total(field) - (young.get(field) ?? 0);
  const eligible = mature("applications");
  const bins = Array.from({ length: LAST_BIN + 1 }, (_, days) => mature(`d${days}`));
  const enough = eligible >= MIN_APPLICATIONS;
  const stipend = { yes: total("stipend_yes"), partly: total("stipend_partly"), no: total("stipend_no") };
  const answers = stipend.yes + stipend.partly + stipend.no;
  return {
    applications: total("applications"),
    responseRate: enough ? mature("answered14") / eligible : null,
    medianDaysToFirstResponse: enough ? medianOf(bins) : null,
    stipendReports: answers >= MIN_STIPEND_REPORTS ? stipend : { yes: 0, partly: 0, no: 0 },
  };
}
