/**
 * Removing a suspended person's comments (docs/decisions.md, Admin, "Suspension"): when an admin suspends someone with
 * "Also remove their comments", the suspension's write records a removal (`commentPurgeOps`) with how many comments
 * they had, and `purgeComments` deletes each of them as an admin's removal of a comment does (`deleteComment`: one with
 * replies stays as a placeholder, the counters move, a reply's notification is redacted and its pending e-mail and push
 * message dropped), one write each with the audit log's `comment.delete` in the name of the admin who suspended them,
 * a check of the removal and its open reports resolved as removed by the suspension (docs/decisions.md, Trust,
 * "Reports of what is removed"), walking their comments through their index (`commentPageOf`), `BATCH` at a time with
 * the progress written after each batch. The request that suspends removes the first batch; the `comment-purges` job
 * goes on with the rest. Lifting the suspension ends a removal still under way; the comments removed stay removed.
 *
 * Keys (owned by this module only):
 * - `["comment_purges", userId]` → `CommentPurge`, a removal under way: from the suspension's write until the batch
 *   that leaves no comment, the lift (`cancelCommentPurgeOps`) or the account's deletion (`forgetCommentPurges`);
 *   `adminId` null once that admin's account is gone. The job lists only these, so a finished removal costs its runs
 *   nothing however many suspensions there were.
 * - `["comment_purges_done", userId]` → `CommentRemoval` (`done` true), written by the write that finishes a removal
 *   in place of the one above, for the admin list's "Comments removed", until the lift or the account's deletion; it
 *   names no admin.
 */
import { claim, claimTime, HOLDER, isLeased, type Lease } from "@/lib/jobs/lease.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { auditOps } from "@/lib/admin_log/admin_log.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { type AuthoredComment, commentPageOf, deleteComment } from "@/lib/comments/store.ts";
import type { Comment } from "@/lib/comments/schema.ts";
import { finishRemoval, openReportsOf, removalOps, summaryKeys } from "@/lib/reports/removals.ts";
import type { TargetSummary } from "@/lib/reports/store.ts";

/** A removal of a person's comments: who asked it, how far it is, its lease. */
export interface CommentPurge {
  /** The admin who suspended them; null once their account is gone. */
  adminId: string | null;
  /** How many comments of theirs there were at the suspension. */
  total: number;
  /** How many were removed so far (written after each batch). */
  removed: number;
  /** True once every comment of theirs is removed. */
  done: boolean;
  lease: Lease | null;
}

/** A removal's progress as the admin list shows it on the person's row. */
export type CommentRemoval = Pick<CommentPurge, "total" | "removed" | "done">;

/** How long a run holds a removal (ms); renewed after every `BATCH` comments. */
const LEASE_MS = 2 * 60_000;
/**
 * Comments removed between two writes of the progress (each is one write), and by the request that suspends: one after
 * another, a comment is 2 to 4 round trips to KV (some 40 for the batch, about 3.5 s at Deploy's 90 ms; 50 took 17 s),
 * and the batch's report summaries one more (a reported comment's reports two more).
 */
export const BATCH = 10;
/** How long (ms) a run of the job works before it leaves the rest to the next run. */
const RUN_MS = 20_000;

const purgeKey = (userId: string): Deno.KvKey => ["comment_purges", userId];
const doneKey = (userId: string): Deno.KvKey => ["comment_purges_done", userId];

/**
 * Adds to `op` (the suspension's write) the removal of `userId`'s `total` comments, leased to this process for the
 * request that runs its first batch right after the commit (`purgeComments`). It replaces a removal left from an
 * earlier suspension (a run of that one stops at its next write).
 */
export function commentPurgeOps(
  op: Deno.AtomicOperation,
  { userId, adminId, total }: { userId: string; adminId: string; total: number },
): void {
  const purge: CommentPurge = {
    adminId,
    total,
    removed: 0,
    done: false,
    lease: { holder: HOLDER, until: Date.now() + LEASE_MS },
  };
  op.set(purgeKey(userId), purge);
}

/**
 * Adds to `op` (the lifting's write) the end of a removal of `userId`'s comments, under way or done: the comments left
 * stay, those removed stay removed.
 */
export function cancelCommentPurgeOps(op: Deno.AtomicOperation, userId: string): void {
  op.delete(purgeKey(userId)).delete(doneKey(userId));
}

/** The progress of the removals of `userIds`' comments (those with one), for the admin list's rows. */
export async function commentRemovalsOf(kv: Deno.Kv, userIds: string[]): Promise<Map<string, CommentRemoval>> {
  const removals = new Map<string, CommentRemoval>();
  const keys = userIds.flatMap((userId) => [purgeKey(userId), doneKey(userId)]);
  for (const { key, value } of await getManyChunked<CommentRemoval>(kv, keys)) {
    if (value) removals.set(key[1] as string, { total: value.total, removed: value.removed, done: value.done });
  }
  return removals;
}

/**
 * Forgets `userId` in removals of comments (their account's deletion, docs/decisions.md, Data rights): the removal of
 * their own comments goes, and each they asked for as an admin is kept with `adminId` null, so what it still removes is
 * logged under no admin. One checked write per removal (read again after a lost race); a run under way finds its
 * removal changed and stops, and the job goes on once its lease runs out. Idempotent.
 * @throws BusyError when one removal kept changing for 30 s.
 */
export async function forgetCommentPurges(kv: Deno.Kv, userId: string): Promise<void> {
  await kv.atomic().delete(purgeKey(userId)).delete(doneKey(userId)).commit();
  for await (const { key, value } of kv.list<CommentPurge>({ prefix: ["comment_purges"] })) {
    if (value.adminId !== userId) continue;
    await retrying(async () => {
      const entry = await kv.get<CommentPurge>(key);
      if (entry.value?.adminId !== userId) return true;
      return (await kv.atomic().check(entry).set(key, { ...entry.value, adminId: null }).commit()).ok;
    }, RETRY_BUDGET_MS);
  }
}

/**
 * Runs the removal of `userId`'s comments, when one is recorded, not done, and this process may hold it (its own
 * lease, or a lease that ran out at `now`, ms): removes their comments oldest first, `BATCH` at a time, each in one
 * write with the audit log's `comment.delete` and a check of the removal (`removeOne`), and after each batch writes
 * the progress with the lease renewed; the batch that leaves none after it marks it done (`finish`). After `batches` batches (all
 * without it), or once `until` (`performance.now()` ms) passed, it leaves the rest to the `comment-purges` job with
 * the lease dropped. Stops at once, leaving the rest, when the removal changed meanwhile (the suspension lifted, or
 * the removal taken over or replaced). A comment no longer theirs is walked past. Returns how many this run removed.
 * @throws BusyError after 30 s of races lost on one comment (the removal's lease runs out; the job goes on later).
 */
export async function purgeComments(
  kv: Deno.Kv,
  { userId, now, batches, until }: { userId: string; now: number; batches?: number; until?: number },
): Promise<number> {
  const entry = await kv.get<CommentPurge>(purgeKey(userId));
  if (!entry.value || entry.value.done) return 0;
  let held: Deno.KvEntry<CommentPurge> | null = entry.value.lease?.holder === HOLDER
    ? entry as Deno.KvEntry<CommentPurge>
    : await claim(kv, entry, { now: claimTime(now), leaseMs: LEASE_MS });
  if (!held) return 0;
  let removed = 0;
  let after: Deno.KvKey | null = null;
  for (let batch = 1;; batch++) {
    // One more than a batch: the batch that leaves none after it is the last, and marks the removal done.
    const read = await commentPageOf(kv, userId, { after, limit: BATCH + 1 });
    const page = read.slice(0, BATCH);
    // Their reports' summaries, read at once: a comment nobody reported costs its removal no read more.
    const ids = page.map(({ entry, indexKey }) => entry.value?.id ?? indexKey[3] as string);
    const summaries = await getManyChunked<TargetSummary>(kv, summaryKeys("comment", ids));
    let inBatch = 0;
    for (const [i, comment] of page.entries()) {
      const outcome = await removeOne(kv, { comment, userId, held, summary: summaries[i] });
      if (outcome === "stopped") return removed + inBatch;
      if (outcome === "removed") inBatch++;
    }
    removed += inBatch;
    after = page.at(-1)?.indexKey ?? after;
    const done = read.length <= BATCH;
    const more = !done && batch !== batches && (until === undefined || performance.now() < until);
    const lease = more ? { holder: HOLDER, until: Date.now() + LEASE_MS } : null;
    const progressed = held.value.removed + inBatch;
    if (done) {
      await finish(kv, { ...held, value: { ...held.value, removed: progressed } });
      return removed;
    }
    held = await progress(kv, held, { removed: progressed, lease });
    if (!held || !more) return removed;
  }
}

/**
 * Removes one `comment` of `userId` under the removal `held` (as read), in one write with the audit log's entry, a
 * check of the removal, so a lift (`cancelCommentPurgeOps`) stops it at once, and the first of its open reports
 * resolved as removed by the suspension (`removalOps`, from its reports' `summary` as read; the rest right after,
 * `finishRemoval`); after a lost race the comment, its reports and the removal are read again. @returns "removed";
 * "skipped" for a comment gone, a placeholder, or no longer theirs (their account deleted meanwhile); "stopped" when the
 * removal changed.
 * @throws BusyError after 30 s of races lost by the comment's write while the removal stands, or by its reports'.
 */
async function removeOne(
  kv: Deno.Kv,
  { comment, userId, held, summary }: {
    comment: AuthoredComment;
    userId: string;
    held: Deno.KvEntry<CommentPurge>;
    summary: Deno.KvEntryMaybe<TargetSummary>;
  },
): Promise<"removed" | "skipped" | "stopped"> {
  const audit = auditOps({ adminId: held.value.adminId, action: "comment.delete", targetKind: "comment" });
  let entry = comment.entry;
  let read: Deno.KvEntryMaybe<TargetSummary> | undefined = summary;
  let outcome: "removed" | "skipped" | "stopped" = "removed";
  let reportsLeft = false;
  await retrying(async () => {
    if (!entry.value || entry.value.isDeleted || entry.value.userId !== userId) {
      outcome = "skipped";
      return true;
    }
    const id = entry.value.id;
    const reports = await openReportsOf(kv, { kind: "comment", targetId: id, summary: read });
    const now = new Date().toISOString();
    const deleted = await deleteComment(kv, entry as Deno.KvEntry<Comment>, {
      now,
      also: (op) => {
        audit(op, id);
        op.check(held);
        reportsLeft = removalOps(op, reports, { by: "suspension", at: now });
      },
    });
    if (deleted) return true;
    if ((await kv.get(held.key)).versionstamp !== held.versionstamp) {
      outcome = "stopped";
      return true;
    }
    entry = await kv.get(entry.key);
    read = undefined;
    return false;
  }, RETRY_BUDGET_MS);
  if (outcome === "removed" && reportsLeft) await finishRemoval(kv, "comment", entry.value!.id);
  return outcome;
}

/** `held` with `change` written, or null when it changed meanwhile (taken over, replaced, or lifted). */
async function progress(
  kv: Deno.Kv,
  held: Deno.KvEntry<CommentPurge>,
  change: Pick<CommentPurge, "removed" | "lease">,
): Promise<Deno.KvEntry<CommentPurge> | null> {
  const value = { ...held.value, ...change };
  const result = await kv.atomic().check(held).set(held.key, value).commit();
  return result.ok ? { key: held.key, value, versionstamp: result.versionstamp } : null;
}

/**
 * Writes the removal `held` (as read) done, unless it changed meanwhile (lifted, taken over or replaced): its record
 * under way goes and its progress (`CommentRemoval`) is kept for the admin list, in one checked write.
 */
async function finish(kv: Deno.Kv, { key, value, versionstamp }: Deno.KvEntry<CommentPurge>): Promise<void> {
  const kept: CommentRemoval = { total: value.total, removed: value.removed, done: true };
  await kv.atomic().check({ key, versionstamp }).delete(key).set(doneKey(key[1] as string), kept).commit();
}

/**
 * The `comment-purges` job (every minute): goes on with each removal under way that nobody holds (the request that
 * suspended removed the first batch, or a run stopped), for at most 20 s a run; one written done under its key of
 * before (`done` true there) is moved to its own. Counts `removed` comments.
 */
export const commentPurgesJob: Job = {
  name: "comment-purges",
  schedule: "* * * * *",
  async run({ kv, now }) {
    const until = performance.now() + RUN_MS;
    let removed = 0;
    for await (const { key, value, versionstamp } of kv.list<CommentPurge>({ prefix: ["comment_purges"] })) {
      if (value.done) await finish(kv, { key, value, versionstamp });
      if (value.done || isLeased(value, now.getTime())) continue;
      if (performance.now() >= until) break;
      removed += await purgeComments(kv, { userId: key[1] as string, now: now.getTime(), until });
    }
    return { removed };
  },
};
