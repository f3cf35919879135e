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
 * A rejected listing listed again (an admin's approval) gets back the reports its reject resolved as removed (by
 * `moderation` or a `suspension`), as nobody decided on them: the listing's write records it (`reopeningOps`:
 * `["report_reopens", kind, targetId]` → `Reopening`), which the approval's request (`reopenRemoved`) or the job does,
 * `RESOLVE_BATCH` a write; a reject or deletion before that drops the record.
 */
import { BusyError } from "@/lib/errors.ts";
import { type OnLostRace, RaceLost, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import type { Job } from "@/lib/jobs/job.ts";
import type { ModerationStatus } from "@/lib/moderation/moderation.ts";
import { countsToHold, HOLD_MAILBOXES_MAX, type Remover, type Report, type ReportKind } from "./schema.ts";
import {
  counted,
  indexOps,
  newestHolding,
  openKey,
  openTargetKey,
  remembered,
  reportsOfTarget,
  RESOLVE_BATCH,
  resolveBatchOps,
  summaryKey,
  type TargetSummary,
} from "./store.ts";
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
 * record of the rest. At most 359 mutations and 52 checks. Returns whether reports are left, for `finishRemoval` after
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
 * against what it read and the removal's record (a listing listed again drops it: `reopeningOps`), the last one
 * dropping the record; nothing when none is left. Returns how many it
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
    const op = kv.atomic().check(removal);
    if (batch.length > 0) batchOps(op, reports.summary as Deno.KvEntry<TargetSummary>, batch, removal.value);
    if (reports.open.length <= RESOLVE_BATCH) op.delete(removal.key);
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

/** What `removingListing` hands the write that removes a listing. */
export interface ListingRemoval {
  /** Settles once the listing's open reports are read (alongside the write's own reads): its `change` awaits it. */
  reportsRead: Promise<void>;
  /** Adds to the write's `op`, when it removes the listing, the resolution of its open reports (`removalOps`). */
  join(op: Deno.AtomicOperation, removal: Removal): void;
}

/**
 * Runs `write`, the removal of a listing `kind`/`targetId` whose store retries its own lost races, with the listing's
 * open reports read alongside the write's own reads of the listing, not before them (a round trip less; the write
 * checks the report summary as read all the same): `write` awaits `reportsRead` in its `change`, writes once, giving
 * up on a lost race (`RaceLost`), and calls `join` with its atomic operation and who removed the listing when that
 * write removes it (`removalOps`). After a lost race the reports are read again and `write` runs again, for up to
 * `RETRY_BUDGET_MS` (`onLostRace` "give-up": once); then what the write left is resolved (`finishRemoval`). With
 * `reports` false (the write removes nothing, or the caller resolves them) nothing of them is read and `join` does
 * nothing. Returns what `write` returned.
 * @throws BusyError after 30 s of lost races, or of the reports' writes; RaceLost with `onLostRace` "give-up"; what
 *   `write` throws; Error when `write` joins before awaiting `reportsRead`.
 */
export async function removingListing<T>(
  kv: Deno.Kv,
  { kind, targetId, reports: wanted, onLostRace }: {
    kind: ReportKind;
    targetId: string;
    reports: boolean;
    onLostRace?: OnLostRace;
  },
  write: (removal: ListingRemoval) => Promise<T>,
): Promise<T> {
  let written: { result: T } | null = null;
  let left = false;
  await retrying(
    async () => {
      let reports: OpenReports | null | undefined;
      const reportsRead = (wanted ? openReportsOf(kv, { kind, targetId }) : Promise.resolve(null))
        .then((read) => void (reports = read));
      // Handled here too: a write that throws before awaiting it (an unknown listing) would leave a failed read unhandled.
      reportsRead.catch(() => undefined);
      left = false;
      const join = (op: Deno.AtomicOperation, removal: Removal) => {
        if (reports === undefined) throw new Error(`The reports of ${kind} ${targetId} were joined before read`);
        left = reports !== null && removalOps(op, reports, removal);
      };
      try {
        written = { result: await write({ reportsRead, join }) };
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

/** A rejected listing listed again: when (ISO), for the reports its reject resolved as removed (`reopenRemoved`). */
export interface Reopening {
  at: string;
}

const reopenKey = (kind: ReportKind, targetId: string): Deno.KvKey => ["report_reopens", kind, targetId];

/** The removers whose resolution a listing listed again undoes: a reject, in moderation or by a suspension's hide. */
const UNDONE_BY_LISTING: ReadonlySet<Remover | undefined> = new Set(["moderation", "suspension"]);

/** What `reopeningOps` reads of a listing: its moderation status (absent: clear) and its deletion. */
export interface ListingState {
  moderation?: { status: ModerationStatus } | null;
  deletedAt?: string | null;
}

/**
 * Adds to `op` (the write of listing `kind`/`targetId` from `previous`, null for a new one, to `next`) the record that
 * its reports resolved as removed by a reject are to be reopened (`Reopening`), when it leaves `rejected` for the
 * lists (an admin approved it), dropping what its reject left to resolve (`finishRemoval` stops); or drops that
 * record when it is rejected or deleted again, so that nothing is reopened about a listing gone. At most two
 * mutations, only on those changes.
 */
export function reopeningOps(
  op: Deno.AtomicOperation,
  { kind, targetId, previous, next }: {
    kind: ReportKind;
    targetId: string;
    previous: ListingState | null;
    next: ListingState;
  },
): void {
  const rejected = (listing: ListingState) => listing.moderation?.status === "rejected";
  const gone = (listing: ListingState) => rejected(listing) || !!listing.deletedAt;
  if (previous && rejected(previous) && !gone(next)) {
    op.set(reopenKey(kind, targetId), { at: new Date().toISOString() } satisfies Reopening)
      .delete(removalKey(kind, targetId));
  } else if (previous && !gone(previous) && gone(next)) op.delete(reopenKey(kind, targetId));
}

/**
 * Reopens the reports of `kind`/`targetId` that its last reject resolved as removed (by `moderation` or a
 * `suspension`) once it is listed again (`reopeningOps`), `RESOLVE_BATCH` a write, each checked against the record,
 * the summary and the reports as read (`reopenOps`), the last one dropping the record: each report open again (no reporter is told:
 * an admin's decision on them will tell them), its reporter's open key back (one whose reporter has an open report of
 * it again stays resolved), the summary moved back with its view entries; counting toward a hold by their own times
 * (`holdNewest`), which are before the approval, so they do not hold the listing again. Nothing without a record.
 * Returns how many it reopened.
 * @throws BusyError after `ATTEMPTS` lost races in a row (the record stays: the `report-removals` job goes on).
 */
export async function reopenRemoved(kv: Deno.Kv, kind: ReportKind, targetId: string): Promise<number> {
  let reopened = 0;
  for (let lost = 0; lost < ATTEMPTS;) {
    const [record, summary] = await kv.getMany<[Reopening, TargetSummary]>([
      reopenKey(kind, targetId),
      summaryKey(kind, targetId),
    ]);
    if (!record.value) return reopened;
    const removed = !summary.value || summary.value.resolved === 0 ? [] : (await reportsOfTarget(kv, kind, targetId))
      .filter(({ value }) => value.resolution?.action === "removed" && UNDONE_BY_LISTING.has(value.resolution.by));
    const opens = new Map(
      (await getManyChunked(kv, removed.flatMap(({ value }) => value.userId ? [openKeyOf(value)] : [])))
        .map((entry) => [JSON.stringify(entry.key), entry]),
    );
    const openOf = (report: Report) => report.userId ? opens.get(JSON.stringify(openKeyOf(report))) : undefined;
    const undone = removed.filter(({ value }) => !openOf(value)?.value);
    const batch = undone.slice(0, RESOLVE_BATCH);
    const op = kv.atomic().check(record);
    if (batch.length > 0) reopenOps(op, summary as Deno.KvEntry<TargetSummary>, batch);
    if (undone.length <= RESOLVE_BATCH) op.delete(record.key);
    if ((await op.commit()).ok) {
      reopened += batch.length;
      lost = 0;
      if (undone.length <= RESOLVE_BATCH) return reopened;
    } else lost++;
  }
  throw new BusyError(REFUSALS.reportsBusy);
}

/** The open key of `report`'s reporter for its target. */
function openKeyOf(report: Report): Deno.KvKey {
  return openKey(report.userId!, report.kind, report.targetId);
}

/**
 * Adds to `op` the reopening of `batch` (resolved reports of the target of `summary`, both as read and checked), each
 * reporter's open key set (every report's write changes the summary, so a report filed meanwhile fails the check): the
 * inverse of `resolveBatchOps`. Up to 50 reports: 2 mutations and a check each, and 8 for the summary.
 */
function reopenOps(
  op: Deno.AtomicOperation,
  summary: Deno.KvEntry<TargetSummary>,
  batch: Deno.KvEntry<Report>[],
): void {
  op.check(summary);
  let next = summary.value;
  for (const entry of batch) {
    const report = entry.value;
    op.check(entry).set(entry.key, { ...report, status: "open", resolvedAt: null, resolution: null });
    if (report.userId) op.set(openKeyOf(report), report.id);
    const holds = countsToHold(report);
    next = {
      ...next,
      open: next.open + 1,
      openReasons: counted(next.openReasons, report.reason, 1),
      holdReports: next.holdReports + (holds ? 1 : 0),
      ...holds && report.mailbox
        ? { holdMailboxes: remembered(next.holdMailboxes, report.mailbox, HOLD_MAILBOXES_MAX) }
        : {},
      resolved: next.resolved - 1,
      resolvedReasons: counted(next.resolvedReasons, report.reason, -1),
    };
  }
  const reopened = new Set(batch.map((entry) => entry.value.id));
  if (next.recentDetails) {
    next.recentDetails = next.recentDetails.map((words) => reopened.has(words.id) ? { ...words, open: true } : words);
  }
  delete next.resolvedAt;
  delete next.outcome;
  const holding = batch.filter((entry) => countsToHold(entry.value));
  if (holding.length > 0) {
    next.holdNewest = newestHolding(
      next.holdNewest,
      holding.map(({ value }) => ({ id: value.id, at: value.createdAt })),
    );
  }
  op.set(summary.key, next);
  indexOps(op, summary.value, next);
}

/**
 * Which of the `kind` targets `ids` have open reports: a point read of each one's entry in the open view (`getManyChunked`,
 * 10 keys a call), so what it reads grows with `ids`, never with the open reports elsewhere.
 */
export async function reportedAmong(kv: Deno.Kv, kind: ReportKind, ids: readonly string[]): Promise<Set<string>> {
  const entries = await getManyChunked(kv, ids.map((id) => openTargetKey(kind, id)));
  return new Set(ids.filter((_, i) => entries[i].value !== null));
}

/**
 * The `report-removals` job (every 5 minutes): finishes the removals whose request stopped before their reports were
 * all resolved (`finishRemoval`), those recorded over `LEFT_MS` ago, and reopens the reports of the listings listed
 * again (`reopenRemoved`), for at most `RUN_MS` a run. Counts `resolved` and `reopened` reports.
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
    let reopened = 0;
    for await (const { key } of kv.list({ prefix: ["report_reopens"] })) {
      if (performance.now() >= until) break;
      reopened += await reopenRemoved(kv, key[1] as ReportKind, key[2] as string);
    }
    return { resolved, reopened };
  },
};
