/**
 * The KV layout of reports (docs/decisions.md, Trust, "Reports"), and the write that resolves a batch of a target's open
 * reports, which an admin's resolution (`reports.ts`) and the removal of what was reported (`removals.ts`) share. The
 * keys are owned by `lib/reports/` only:
 * - `["reports", id]` → `Report`
 * - `["reports_by_target", kind, targetId, id]` → true
 * - `["reports_by_reporter", userId, id]` → true (the export, account deletion)
 * - `["reports_open", userId, kind, targetId]` → id, while that person's report of that target is open (one at a time)
 * - `["report_targets", kind, targetId]` → `TargetSummary`, kept by every write of its reports (the admin list, with
 *   the newest reports' own words cut short, so the list reads no report)
 * - `["report_targets_open", kind, targetId]` → `{open, lastReportedAt}` while the target has open reports: the open
 *   view reads only these, not every summary ever kept
 * - `["report_targets_resolved", scope, resolvedAt, kind, targetId]` → null while none of its reports is open, `scope`
 *   `all` and its kind, and `["report_targets_resolved_count", scope]` → `Deno.KvU64` of them: the resolved view, the
 *   latest resolved first, reads a page of these and its summaries
 * - `["report_targets_meta", "index"]` → where the `report-targets-index` job stands (`{after, indexed, done}`)
 * - `["report_removals", kind, targetId]` → a removed target's reports left to resolve (`removals.ts`)
 * - `["report_reopens", kind, targetId]` → a rejected listing listed again, its removed reports to reopen (`removals.ts`)
 * Every write of a summary changes its entries and counts in the same atomic operation (`indexOps`); summaries kept
 * before them are indexed once by the `report-targets-index` job (`indexExistingTargets`; docs/decisions.md, Trust,
 * "The reports list reads its page").
 */
import { addNotification, type NotificationInput } from "@/lib/notifications/notifications.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import {
  countsToHold,
  DISMISSED_REPORTERS_MAX,
  HOLD_REASONS,
  HOLD_REPORTERS,
  type Outcome,
  outcomeOf,
  type RecentDetails,
  type Report,
  type ReportKind,
  type ReportReason,
  type Resolution,
  type ResolveAction,
} from "./schema.ts";
import type { Target } from "./targets.ts";

/** What the admin list keeps of a reported target, kept by every write of its reports. */
export interface TargetSummary {
  kind: ReportKind;
  targetId: string;
  /** Its title in English, as summaries written before `words` was kept have only this. */
  title: string;
  /** What its title is made of (`Target.words`), worded in each reader's language (`targetTitle`); absent before. */
  words?: Target["words"];
  open: number;
  openReasons: Partial<Record<ReportReason, number>>;
  /** Open reports that count toward the hold (`countsToHold`; one per person, so the people who sent them). */
  holdReports: number;
  /**
   * The people whose reports of `HOLD_REASONS` an admin dismissed, the latest last, at most `DISMISSED_REPORTERS_MAX`:
   * their later reports of the target are filed and shown but do not count toward the hold (absent: nobody yet).
   */
  dismissedReporters?: string[];
  /** The mailboxes (`mailboxId`) of those people, kept the same way: an alias of a dismissed reporter counts no more. */
  dismissedMailboxes?: string[];
  /** The mailboxes of the open reports that count toward the hold, one each (absent: none, or kept before this). */
  holdMailboxes?: string[];
  /**
   * The newest open reports that count toward the hold, newest first, at most `HOLD_REPORTERS`: what `holdSince` reads
   * (absent: none, or a summary kept before it, until the `report-summaries` job gives it from its reports). A
   * resolution takes its reports off and does not bring older ones back, which only delays a hold until new reports
   * make it up again.
   */
  holdNewest?: HoldReport[];
  resolved: number;
  resolvedReasons: Partial<Record<ReportReason, number>>;
  lastReportedAt: string;
  /**
   * The newest reports with `details`, newest first, at most `RECENT_DETAILS_MAX`, their words cut short
   * (`recentDetails`), each marked open until resolved: the admin list shows the open ones, or in the resolved view
   * those resolved. Absent: none yet (or a summary kept before them).
   */
  recentDetails?: (RecentDetails & { id: string; open: boolean })[];
  /**
   * When its last open report was resolved (ISO), while none is open: its entries of the resolved view are keyed by it.
   * Absent while reports are open, and on a summary kept before the index that `indexExistingTargets` has not reached.
   */
  resolvedAt?: string;
  /**
   * What resolved its last open reports and when (`Outcome`), kept with `resolvedAt`: the resolved view words it
   * without reading a report. Absent while reports are open, and on a summary resolved before it was kept (the list
   * reads that target's reports then: `lastOutcomes`).
   */
  outcome?: Outcome;
  /**
   * The admin resolving its open reports now, with what and since when (ISO): other admins are refused until the
   * resolution's last write drops it, or `CLAIM_MS` after it (a resolution that crashed). Absent: nobody.
   */
  resolving?: { adminId: string; action: ResolveAction; at: string };
}

/** A report that counts toward the hold, as its target's summary keeps it: its id and when it was filed (ISO). */
export interface HoldReport {
  id: string;
  at: string;
}

/** `kept` with `added` (reports that count toward the hold), the newest first, cut to `HOLD_REPORTERS`. */
export function newestHolding(kept: HoldReport[] | undefined, added: HoldReport[]): HoldReport[] {
  return [...added, ...kept ?? []].sort((a, b) => b.at.localeCompare(a.at)).slice(0, HOLD_REPORTERS);
}

/**
 * When the last of the `HOLD_REPORTERS` newest open reports of `summary` that count toward the hold was filed (ISO), or
 * null with fewer: a listing is held unless an admin decided on it at or after that time (`moderationOnReports`), so
 * only reports filed after an admin's last decision make the count, reopened ones included (docs/decisions.md, Trust,
 * "Reports").
 */
export function holdSince(summary: TargetSummary): string | null {
  return summary.holdNewest?.[HOLD_REPORTERS - 1]?.at ?? null;
}

export const reportKey = (id: string): Deno.KvKey => ["reports", id];
export const byTargetKey = (kind: ReportKind, targetId: string, id: string): Deno.KvKey => [
  "reports_by_target",
  kind,
  targetId,
  id,
];
export const byReporterKey = (userId: string, id: string): Deno.KvKey => ["reports_by_reporter", userId, id];
export const openKey = (userId: string, kind: ReportKind, targetId: string): Deno.KvKey => [
  "reports_open",
  userId,
  kind,
  targetId,
];
export const summaryKey = (kind: ReportKind, targetId: string): Deno.KvKey => ["report_targets", kind, targetId];
export const openTargetKey = (
  kind: ReportKind,
  targetId: string,
): Deno.KvKey => ["report_targets_open", kind, targetId];
/** The scopes of the resolved view: every kind, and each kind alone. */
export type Scope = ReportKind | "all";
export const resolvedKey = (scope: Scope, summary: TargetSummary): Deno.KvKey => [
  "report_targets_resolved",
  scope,
  summary.resolvedAt!,
  summary.kind,
  summary.targetId,
];
export const resolvedCountKey = (scope: Scope): Deno.KvKey => ["report_targets_resolved_count", scope];

/** What the open view sorts by, kept in a target's entry of `["report_targets_open"]`. */
export interface OpenTarget {
  open: number;
  lastReportedAt: string;
}

/** −1 as KV's wrapping 64-bit sum sees it. */
const MINUS_ONE = 0xffffffffffffffffn;

/**
 * Adds to `op` (the write of a summary) the change of its view entries from `before` (null: a new summary) to
 * `after`: the open entry set while reports are open and deleted once none is; the resolved entries and counts moved
 * when `resolvedAt` changes. At most 7 mutations.
 */
export function indexOps(op: Deno.AtomicOperation, before: TargetSummary | null, after: TargetSummary): void {
  const open = openTargetKey(after.kind, after.targetId);
  if (after.open > 0) op.set(open, { open: after.open, lastReportedAt: after.lastReportedAt } satisfies OpenTarget);
  else op.delete(open);
  if (before?.resolvedAt === after.resolvedAt) return;
  for (const scope of ["all", after.kind] as const) {
    if (before?.resolvedAt) op.delete(resolvedKey(scope, before)).sum(resolvedCountKey(scope), MINUS_ONE);
    if (after.resolvedAt) op.set(resolvedKey(scope, after), null).sum(resolvedCountKey(scope), 1n);
  }
}

/** Reports resolved per atomic write (each: the report, its open key, a notification: within KV's limits). */
export const RESOLVE_BATCH = 50;

/** `counts` with `reason` moved by `by`, without zero entries. */
export function counted(counts: Partial<Record<ReportReason, number>>, reason: ReportReason, by: number) {
  const next = { ...counts, [reason]: (counts[reason] ?? 0) + by };
  if (next[reason]! <= 0) delete next[reason];
  return next;
}

/**
 * `ids` (people or mailboxes) with `id` added last (moved there when it was in), the oldest dropped past `max`: a target
 * reported by thousands keeps its summary under KV's 64 KiB a value.
 */
export function remembered(ids: string[] | undefined, id: string, max = DISMISSED_REPORTERS_MAX): string[] {
  return [...(ids ?? []).filter((kept) => kept !== id), id].slice(-max);
}

/** `list` without `item`; `undefined` for an empty result, so a summary does not keep an empty list. */
export function without(list: string[] | undefined, item: string | undefined): string[] | undefined {
  const rest = (list ?? []).filter((entry) => entry !== item);
  return rest.length > 0 ? rest : undefined;
}

/** Every report of a target, newest first. */
export async function reportsOfTarget(
  kv: Deno.Kv,
  kind: ReportKind,
  targetId: string,
): Promise<Deno.KvEntry<Report>[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["reports_by_target", kind, targetId] })) {
    ids.push(entry.key[3] as string);
  }
  const reports = (await getManyChunked<Report>(kv, ids.map(reportKey))).filter((entry) => entry.value !== null);
  return (reports as Deno.KvEntry<Report>[]).sort((a, b) => b.value.createdAt.localeCompare(a.value.createdAt));
}

/**
 * Adds to `op` the resolution of `batch` (open reports of the target of `summary`, both as read and checked) with
 * `resolution`: each report written resolved, its reporter's open key deleted and `notice(userId)` added for them (a
 * report kept without its reporter tells nobody); the summary moved by them and written with its view entries
 * (`indexOps`), resolved once none is open. A dismissal remembers the reporters of its `HOLD_REASONS` reports
 * (`dismissedReporters`, their mailboxes too). The admin's claim (`resolving`) goes with `last`, or once nothing is
 * open. Up to 50 reports: 7 mutations and a check each (`RESOLVE_BATCH`), and 8 for the summary. Returns the summary
 * as written.
 */
export function resolveBatchOps(
  op: Deno.AtomicOperation,
  { summary, batch, resolution, notice, last }: {
    summary: Deno.KvEntry<TargetSummary>;
    batch: Deno.KvEntry<Report>[];
    resolution: Resolution;
    notice: (userId: string) => NotificationInput;
    last: boolean;
  },
): TargetSummary {
  const { kind, targetId } = summary.value;
  op.check(summary);
  let next = summary.value;
  for (const entry of batch) {
    const report = entry.value;
    op.check(entry).set(entry.key, { ...report, status: "resolved", resolvedAt: resolution.at, resolution });
    if (report.userId) {
      op.delete(openKey(report.userId, kind, targetId));
      addNotification(op, notice(report.userId));
    }
    next = {
      ...next,
      open: next.open - 1,
      openReasons: counted(next.openReasons, report.reason, -1),
      holdReports: next.holdReports - (countsToHold(report) ? 1 : 0),
      holdMailboxes: countsToHold(report) ? without(next.holdMailboxes, report.mailbox) : next.holdMailboxes,
      holdNewest: next.holdNewest?.filter((kept) => kept.id !== report.id),
      resolved: next.resolved + 1,
      resolvedReasons: counted(next.resolvedReasons, report.reason, 1),
    };
    if (resolution.action === "dismiss" && report.userId && HOLD_REASONS.has(report.reason)) {
      next.dismissedReporters = remembered(next.dismissedReporters, report.userId);
      if (report.mailbox) next.dismissedMailboxes = remembered(next.dismissedMailboxes, report.mailbox);
    }
  }
  const resolvedNow = new Set(batch.map((entry) => entry.value.id));
  if (next.recentDetails) {
    next.recentDetails = next.recentDetails.map((words) =>
      resolvedNow.has(words.id) ? { ...words, open: false } : words
    );
  }
  // A report kept without its mailbox (its reporter deleted their account) cannot take its entry off: none is left
  // once nothing is open.
  if (next.open === 0 || !next.holdMailboxes) delete next.holdMailboxes;
  if (!next.holdNewest?.length) delete next.holdNewest;
  if (next.open === 0) {
    next.resolvedAt = resolution.at;
    next.outcome = outcomeOf(resolution);
  }
  if (last || next.open === 0) delete next.resolving;
  op.set(summaryKey(kind, targetId), next);
  indexOps(op, summary.value, next);
  return next;
}
