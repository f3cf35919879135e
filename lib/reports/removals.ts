/**
 * The reports of a post, comment or listing removed by other means than their resolution (docs/decisions.md, Trust,
 * "Reports of what is removed"): its author's deletion, an admin's removal, a suspension's removal of its author's
 * comments or hide of their listings, the deletion of the post a comment was under, an admin's reject of a listing in
 * the moderation queue (a listing's store retries its own writes: `removingListing`). The write that removes the
 * target also checks its summary as read (a report filed meanwhile makes the removal read again) and resolves its first
 * `RESOLVE_BATCH` open reports as `removed`, with who removed it (`removalOps`), telling their reporters
 * (`targetRemovedNotification`); with more open, the same write records the rest (`["report_removals", kind, targetId]`
 * → `Removal`), which the request resolves next (`finishRemoval`, a write per `RESOLVE_BATCH`) and the
 * `report-removals` job finishes should the request stop. Nothing new can be reported of a removed target: `createReport` checks what it read of it.
 */
import { BusyError } from "@/lib/errors.ts";
import { type OnLostRace, RaceLost, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { Job } from "@/lib/jobs/job.ts";
import type { Remover, Report, ReportKind } from "./schema.ts";
import { reportsOfTarget, RESOLVE_BATCH, resolveBatchOps, summaryKey, type TargetSummary } from "./store.ts";
import { targetRemovedNotification } from "./notices.ts";

/** A removed target's reports left to resolve: who removed it and when (ISO), which their resolution says. */
export interface Removal {
  by: Remover;
  at: string;
}

const removalKey = (kind: ReportKind, targetId: string): Deno.KvKey => ["report_removals", kind, targetId];

/** Lost races in a row after which resolving a removed target's reports gives up (its record stays for the job). */
const ATTEMPTS = 20;
/** How old a removal's record is (ms) before the job takes it: the request that removed the target is on it before. */
const LEFT_MS = 60_000;
/** How long (ms) a run of the job works before it leaves the rest to the next run. */
const RUN_MS = 20_000;

/** A target's open reports as read before its removal, with its summary as read (`value` null: never reported). */
export interface OpenReports {
  kind: ReportKind;
  targetId: string;
  summary: Deno.KvEntryMaybe<TargetSummary>;
  /** Its open reports, newest first; none when the summary counts none. */
  open: Deno.KvEntry<Report>[];
}

/**
 * The open reports of `kind`/`targetId`, read before the write that removes it: its summary (`summary` when the caller
 * read it with others, else read here) and, only when that counts open reports, their records. One read for a target
 * with none open.
 */
export async function openReportsOf(
  kv: Deno.Kv,
  { kind, targetId, summary }: { kind: ReportKind; targetId: string; summary?: Deno.KvEntryMaybe<TargetSummary> },
): Promise<OpenReports> {
  const read = summary ?? await kv.get<TargetSummary>(summaryKey(kind, targetId));
  if (!read.value || read.value.open === 0) return { kind, targetId, summary: read, open: [] };
  const open = (await reportsOfTarget(kv, kind, targetId)).filter((entry) => entry.value.status === "open");
  return { kind, targetId, summary: read, open };
}

/** The summary keys of `kind`'s `ids`, to read them at once (`openReportsOf`'s `summary`). */
export function summaryKeys(kind: ReportKind, ids: string[]): Deno.KvKey[] {
  return ids.map((id) => summaryKey(kind, id));
}

/**
 * Adds to `op` (the write that removes the target of `reports`) the check of its summary as read and the resolution of
 * its first `RESOLVE_BATCH` open reports as `removed` by `by` at `at` (ISO), each reporter told; with more open, the
 * record of the rest. At most 359 mutations and 51 checks. Returns whether reports are left, for `finishRemoval` after
 * the commit.
 */
export function removalOps(
  op: Deno.AtomicOperation,
  reports: OpenReports,
  { by, at }: Removal,
): boolean {
  op.check(reports.summary);
  if (reports.open.length === 0) return false;
  batchOps(op, reports.summary as Deno.KvEntry<TargetSummary>, reports.open.slice(0, RESOLVE_BATCH), { by, at });
  const left = reports.open.length > RESOLVE_BATCH;
  if (left) op.set(removalKey(reports.kind, reports.targetId), { by, at } satisfies Removal);
  return left;
}

/** Resolves `batch` of the target of `summary` (both as read) as removed by `removal.by`, telling each reporter. */
function batchOps(
  op: Deno.AtomicOperation,
  summary: Deno.KvEntry<TargetSummary>,
  batch: Deno.KvEntry<Report>[],
  removal: Removal,
): void {
  const { kind, words, title } = summary.value;
  resolveBatchOps(op, {
    summary,
    batch,
    resolution: { action: "removed", by: removal.by, note: null, at: removal.at },
    notice: (userId) => targetRemovedNotification({ userId, kind, words: words ?? { name: title }, by: removal.by }),
    last: false,
  });
}

/**
 * Resolves the reports the removal of `kind`/`targetId` left (`removalOps`), `RESOLVE_BATCH` a write, each checked
 * against what it read, the last one dropping the removal's record; nothing when none is left. Returns how many it
 * resolved.
 * @throws BusyError after `ATTEMPTS` lost races in a row (the record stays: the job goes on).
 */
export async function finishRemoval(kv: Deno.Kv, kind: ReportKind, targetId: string): Promise<number> {
  let resolved = 0;
  for (let lost = 0; lost < ATTEMPTS;) {
    const removal = await kv.get<Removal>(removalKey(kind, targetId));
    if (!removal.value) return resolved;
    const reports = await openReportsOf(kv, { kind, targetId });
    const batch = reports.open.slice(0, RESOLVE_BATCH);
    const op = kv.atomic();
    if (batch.length > 0) batchOps(op, reports.summary as Deno.KvEntry<TargetSummary>, batch, removal.value);
    if (reports.open.length <= RESOLVE_BATCH) op.check(removal).delete(removal.key);
    if ((await op.commit()).ok) {
      resolved += batch.length;
      lost = 0;
    } else lost++;
  }
  throw new BusyError(REFUSALS.reportsBusy);
}

/**
 * Resolves every open report of `kind`/`targetId` as removed by `by` when the write that removed it had none of them
 * (a post's comments, removed in bounded writes of their own): a first write as `removalOps` makes it, then
 * `finishRemoval`. Idempotent: nothing once none is open. Returns how many it resolved.
 * @throws BusyError after `ATTEMPTS` lost races in a row.
 */
export async function resolveRemoved(
  kv: Deno.Kv,
  { kind, targetId, by }: { kind: ReportKind; targetId: string; by: Remover },
): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const reports = await openReportsOf(kv, { kind, targetId });
    if (reports.open.length === 0) return 0;
    const op = kv.atomic();
    const left = removalOps(op, reports, { by, at: new Date().toISOString() });
    if (!(await op.commit()).ok) continue;
    const first = Math.min(reports.open.length, RESOLVE_BATCH);
    return left ? first + await finishRemoval(kv, kind, targetId) : first;
  }
  throw new BusyError(REFUSALS.reportsBusy);
}

/**
 * Runs `write`, the removal of a listing `kind`/`targetId` whose store retries its own lost races, with the listing's
 * open reports read just before: `write` writes once, giving up on a lost race (`RaceLost`), and calls `join` with its
 * atomic operation and who removed the listing when that write removes it (`removalOps`). After a lost race the
 * reports are read again and `write` runs again, for up to `RETRY_BUDGET_MS` (`onLostRace` "give-up": once); then what
 * the write left is resolved (`finishRemoval`). With `reports` false (the write removes nothing, or the caller resolves
 * them) nothing of them is read and `join` does nothing. Returns what `write` returned.
 * @throws BusyError after 30 s of lost races, or of the reports' writes; RaceLost with `onLostRace` "give-up"; what
 *   `write` throws.
 */
export async function removingListing<T>(
  kv: Deno.Kv,
  { kind, targetId, reports: wanted, onLostRace }: {
    kind: ReportKind;
    targetId: string;
    reports: boolean;
    onLostRace?: OnLostRace;
  },
  write: (join: (op: Deno.AtomicOperation, removal: Removal) => void) => Promise<T>,
): Promise<T> {
  let written: { result: T } | null = null;
  let left = false;
  await retrying(
    async () => {
      const reports = wanted ? await openReportsOf(kv, { kind, targetId }) : null;
      left = false;
      try {
        written = { result: await write((op, removal) => left = reports !== null && removalOps(op, reports, removal)) };
        return true;
      } catch (error) {
        if (error instanceof RaceLost) return false;
        throw error;
      }
    },
    RETRY_BUDGET_MS,
    onLostRace,
  );
  if (left) await finishRemoval(kv, kind, targetId);
  return written!.result;
}

/** The ids of the `kind` targets with open reports, from the open view's entries: one range read. */
export async function reportedIds(kv: Deno.Kv, kind: ReportKind): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const { key } of kv.list({ prefix: ["report_targets_open", kind] }, { batchSize: 500 })) {
    ids.add(key[2] as string);
  }
  return ids;
}

/**
 * The `report-removals` job (every 5 minutes): finishes the removals whose request stopped before their reports were
 * all resolved (`finishRemoval`), those recorded over `LEFT_MS` ago, for at most `RUN_MS` a run. Counts `resolved`
 * reports.
 */
export const reportRemovalsJob: Job = {
  name: "report-removals",
  schedule: "*/5 * * * *",
  async run({ kv, now }) {
    const until = performance.now() + RUN_MS;
    let resolved = 0;
    for await (const { key, value } of kv.list<Removal>({ prefix: ["report_removals"] })) {
      if (performance.now() >= until) break;
      if (Date.parse(value.at) > now.getTime() - LEFT_MS) continue;
      resolved += await finishRemoval(kv, key[1] as ReportKind, key[2] as string);
    }
    return { resolved };
  },
};
