/**
 * The admin moderation queue's index (docs/decisions.md, Trust, "Moderation"; docs/api.md, Trust): one key per listing
 * that is held or rejected and not deleted, written by the listing's own atomic write (`moderationQueueOps`), so the
 * queue never disagrees with the listings. Held ones come first, the longest waiting on top; rejected ones after, the
 * latest first.
 *
 * Keys (owned by this module only):
 * - `["moderation_queue", kind, status, heldAt, id]` → true;
 * - `["moderation_queue_count", kind, status]` → `Deno.KvU64`, how many entries of the kind are in that status, kept by
 *   the same writes (a wrapping sum: −1 is 2^64 − 1), so the page's counts are two reads, not every entry;
 * - `["moderation_queue_meta", "counts"]` → `{done: true}` once the `moderation-counts` job counted the entries kept
 *   before the counters (`countQueueEntries`); until then a page counts the entries it needs by listing them.
 * A page reads only the status asked for, and of it the keys up to its end: never the listings beyond its own.
 */
import { type Moderation, moderationOf } from "./moderation.ts";
import { counterValue } from "@/lib/stats/counters.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { reopeningOps } from "@/lib/reports/removals.ts";

/** The kinds of listing moderation covers, as the API names them. */
export const MODERATION_KINDS = ["internships", "opportunities"] as const;
export type ModerationKind = typeof MODERATION_KINDS[number];

/** What the queue reads of a listing. */
export interface QueuedListing {
  id: string;
  moderation?: Moderation | null;
  deletedAt?: string | null;
}

/** One entry of the queue. */
export interface QueueEntry {
  kind: ModerationKind;
  id: string;
  status: "held" | "rejected";
  /** When the listing was held (ISO), or null for one rejected without being held. */
  heldAt: string | null;
}

/** The queue key of `listing`, or null when it is not in the queue (clear, or deleted). */
function keyOf(kind: ModerationKind, listing: QueuedListing): Deno.KvKey | null {
  const { status, heldAt } = moderationOf(listing);
  if (status === "clear" || listing.deletedAt) return null;
  return ["moderation_queue", kind, status, heldAt ?? "", listing.id];
}

/** A queue status of the counters. */
type Status = QueueEntry["status"];
const STATUSES: readonly Status[] = ["held", "rejected"];
const countKey = (kind: ModerationKind, status: Status): Deno.KvKey => ["moderation_queue_count", kind, status];
const COUNTS_PROGRESS: Deno.KvKey = ["moderation_queue_meta", "counts"];
/** −1 as KV's wrapping 64-bit sum sees it. */
const MINUS_ONE = 0xffffffffffffffffn;

/**
 * Adds to `op` (the listing's own write) the queue change from `previous` (null for a new listing) to `next`: at most
 * one delete and one set, and the counts of their statuses moved when the status changes; and, when it leaves
 * `rejected` for the lists or goes back, the record that reopens the reports its reject resolved, or its drop
 * (`reopeningOps`; docs/decisions.md, Trust, "Reports of what is removed").
 */
export function moderationQueueOps(
  op: Deno.AtomicOperation,
  kind: ModerationKind,
  previous: QueuedListing | null,
  next: QueuedListing,
): void {
  const reported = kind === "internships" ? "internship" : "opportunity";
  reopeningOps(op, { kind: reported, targetId: next.id, previous, next });
  const before = previous && keyOf(kind, previous);
  const after = keyOf(kind, next);
  if (before && after && before.join("\0") === after.join("\0")) return;
  if (before) op.delete(before);
  if (after) op.set(after, true);
  if (before?.[2] === after?.[2]) return;
  if (before) op.sum(countKey(kind, before[2] as Status), MINUS_ONE);
  if (after) op.sum(countKey(kind, after[2] as Status), 1n);
}

/** KV's largest list batch. */
const LIST_BATCH = 500;

/**
 * The first `count` entries of `status` (held: the oldest held first; rejected: the latest first), the kinds merged by
 * that time: at most `count` keys of each kind read.
 */
async function firstOf(
  kv: Deno.Kv,
  { kinds, status, count }: { kinds: readonly ModerationKind[]; status: Status; count: number },
): Promise<QueueEntry[]> {
  if (count === 0) return [];
  const options = { reverse: status === "rejected", limit: count, batchSize: Math.min(LIST_BATCH, count) };
  const lists = await Promise.all(kinds.map(async (kind) => {
    const entries: QueueEntry[] = [];
    for await (const { key } of kv.list({ prefix: ["moderation_queue", kind, status] }, options)) {
      entries.push({ kind, id: key[4] as string, status, heldAt: (key[3] as string) || null });
    }
    return entries;
  }));
  return lists.flat()
    .sort((a, b) => (a.heldAt ?? "").localeCompare(b.heldAt ?? "") * (status === "held" ? 1 : -1))
    .slice(0, count);
}

/** How many listings of `kinds` are held and rejected: the counters, or before they were counted the entries. */
async function countsOf(kv: Deno.Kv, kinds: readonly ModerationKind[]): Promise<QueuePage["counts"]> {
  const keys = kinds.flatMap((kind) => STATUSES.map((status) => countKey(kind, status)));
  const [progress, ...counters] = await kv.getMany<[{ done: boolean }, ...Deno.KvU64[]]>([COUNTS_PROGRESS, ...keys]);
  const counts = { held: 0, rejected: 0 };
  if (progress.value?.done) {
    counters.forEach((entry, i) => counts[STATUSES[i % STATUSES.length]] += counterValue(entry));
    return counts;
  }
  for (const kind of kinds) {
    for (const status of STATUSES) counts[status] += await entriesIn(kv, kind, status);
  }
  return counts;
}

/** How many entries of `kind` are in `status`, by listing their keys. */
async function entriesIn(kv: Deno.Kv, kind: ModerationKind, status: Status): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["moderation_queue", kind, status] }, { batchSize: LIST_BATCH })) count++;
  return count;
}

/** How the queue is asked for: kinds (both when absent), states (both when absent), and the page. */
export interface QueueQuery {
  kind?: ModerationKind;
  status?: QueueEntry["status"];
  limit: number;
  offset: number;
}

/** A page of queue entries, how many match in all, and how many are held and rejected of the kinds asked for. */
export interface QueuePage {
  entries: QueueEntry[];
  total: number;
  counts: { held: number; rejected: number };
}

/**
 * One page of the queue: held listings first (oldest held first, the kinds merged by that time), then rejected ones
 * (latest held first). Reads the counts and, of the status asked for (held, then rejected, when none is), the keys up
 * to the page's end (docs/decisions.md, Trust, "The moderation queue reads its page").
 */
export async function moderationQueuePage(kv: Deno.Kv, query: QueueQuery): Promise<QueuePage> {
  const kinds = query.kind ? [query.kind] : MODERATION_KINDS;
  const end = query.offset + query.limit;
  const [counts, held] = await Promise.all([
    countsOf(kv, kinds),
    query.status === "rejected" ? [] : firstOf(kv, { kinds, status: "held", count: end }),
  ]);
  // The rejected ones the page reaches: after every held one when both are asked for.
  const rejectedEnd = query.status === "held" ? 0 : query.status === "rejected" ? end : Math.max(0, end - held.length);
  const rejected = await firstOf(kv, { kinds, status: "rejected", count: rejectedEnd });
  return {
    // Both asked for: the held ones read are every held one unless they fill the page, so the rejected follow them.
    entries: [...held, ...rejected].slice(query.offset, end),
    total: query.status ? counts[query.status] : counts.held + counts.rejected,
    counts,
  };
}

/** Counts of one kind and status tried per run before it leaves them to the next run. */
const COUNT_ATTEMPTS = 10;

/**
 * Counts, once, the entries kept before the counters (docs/decisions.md, Background work, "Index backfills"): for each
 * kind and status, reads its counter, lists its entries and sets the counter to how many there are, checked against
 * the counter as read, so a listing write meanwhile (which moves the counter) makes it count again (at most
 * `COUNT_ATTEMPTS` times a run); the last write marks it done. Returns how many entries it counted; nothing once done (one read).
 */
export async function countQueueEntries(kv: Deno.Kv): Promise<{ counted: number }> {
  if ((await kv.get<{ done: boolean }>(COUNTS_PROGRESS)).value?.done) return { counted: 0 };
  let counted = 0;
  const pairs = MODERATION_KINDS.flatMap((kind) => STATUSES.map((status) => [kind, status] as const));
  for (const [i, [kind, status]] of pairs.entries()) {
    for (let attempt = 0;; attempt++) {
      // Listings changing all the while: the next run counts again (nothing is marked done before the last pair).
      if (attempt === COUNT_ATTEMPTS) return { counted };
      const counter = await kv.get<Deno.KvU64>(countKey(kind, status));
      const count = await entriesIn(kv, kind, status);
      const op = kv.atomic().check(counter).set(counter.key, new Deno.KvU64(BigInt(count)));
      if (i === pairs.length - 1) op.set(COUNTS_PROGRESS, { done: true });
      if (!(await op.commit()).ok) continue;
      counted += count;
      break;
    }
  }
  return { counted };
}

/** The `moderation-counts` job: every 5 minutes until the queue's entries kept before its counters are counted. */
export const moderationCountsJob: Job = {
  name: "moderation-counts",
  schedule: "*/5 * * * *",
  run: async (ctx: JobContext) => ({ ...await countQueueEntries(ctx.kv) }),
};
