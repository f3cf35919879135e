/**
 * Reports (docs/api.md, Trust; docs/decisions.md, Trust, "Reports"): a signed-in person with a verified e-mail reports
 * a listing, an organization, a post or a comment; admins see the reports grouped by target, most reported first, and
 * resolve a target's open reports at once (dismiss, hide, delete), which tells each reporter and, for what was hidden
 * or deleted, its owner. Three different people's reports of money or impersonation hold a listing; once an admin
 * dismissed someone's reports of a target, their later reports of it are filed but hold nothing. The routes count
 * new reports against the person's daily limit (`RATE_LIMITS.reportsPerPerson`) between `checkReport` and
 * `createReport`.
 * The keys, and the write that resolves a batch of a target's reports, are in `store.ts`; the reports of a post or
 * comment removed by other means are resolved by `removals.ts`.
 */
import { auditOps } from "@/lib/admin_log/admin_log.ts";
import { type Backfill, backfillDone, runBackfill } from "@/lib/kv/backfill.ts";
import { BusyError, ConflictError, ForbiddenError, NotFoundError, VERIFY_FIRST } from "@/lib/errors.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import type { ObjectStore } from "@/lib/files/object_store.ts";
import type { Logger } from "@/lib/log.ts";
import { getUserSummaries, type User } from "@/lib/users/users.ts";
import {
  type AdminReportQuery,
  type AdminReportView,
  countsToHold,
  HOLD_MAILBOXES_MAX,
  HOLD_REASONS,
  HOLD_REPORTERS,
  notCounted,
  type Outcome,
  outcomeOf,
  RECENT_DETAILS_LENGTH,
  RECENT_DETAILS_MAX,
  type Report,
  type ReportCreate,
  type ReportedTarget,
  type ReportKind,
  type ReportView,
  reportView,
  type Resolution,
  type ResolveAction,
  type ResolveBody,
} from "./schema.ts";
import { clip } from "@/lib/notifications/words.ts";
import { actOn, findTarget, holdTarget, type Target, targetTitle } from "./targets.ts";
import { RaceLost } from "@/lib/kv/retry.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { removedNotification, removerAsTold, resolvedNotification } from "./notices.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { mailboxId } from "./mailbox.ts";
import { counterValue } from "@/lib/stats/counters.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import {
  byReporterKey,
  byTargetKey,
  counted,
  holdSince,
  indexOps,
  newestHolding,
  openKey,
  type OpenTarget,
  remembered,
  reportKey,
  reportsOfTarget,
  RESOLVE_BATCH,
  resolveBatchOps,
  resolvedCountKey,
  type Scope,
  summaryKey,
  type TargetSummary,
  without,
} from "./store.ts";

export * from "./schema.ts";

/** Attempts of a write that loses races. */
const ATTEMPTS = 20;
/** How long an admin's claim on a target's open reports keeps other admins out, in milliseconds. */
const CLAIM_MS = 2 * 60_000;

/** `details` as the admin list shows them: on one line, at most `RECENT_DETAILS_LENGTH` characters. */
function recentDetails(details: string): string {
  return clip(details.replace(/\s+/g, " "), RECENT_DETAILS_LENGTH);
}

/** The result of a report: the report, and whether it was made now (false: the person's open one of the target). */
export interface Filed {
  report: ReportView;
  created: boolean;
}

/** What `checkReport` found: the person's open report of the target, or the target to report. */
export type ReportCheck = { open: ReportView } | { target: Target };

/**
 * `userId`'s open report of `kind`/`targetId`, or null (none, or resolved): a page shows "You reported this on …" in
 * place of the report form (docs/decisions.md, Trust, "Reports").
 */
export async function openReportOf(
  kv: Deno.Kv,
  { userId, kind, targetId }: { userId: string; kind: ReportKind; targetId: string },
): Promise<ReportView | null> {
  const mine = await kv.get<string>(openKey(userId, kind, targetId));
  const first = mine.value ? (await kv.get<Report>(reportKey(mine.value))).value : null;
  return first ? reportView(first) : null;
}

/**
 * Checks that `user` may report `input.kind`/`input.id`, before the route counts a new report against the person's
 * daily limit: answers their open report of it when there is one.
 * @throws ForbiddenError for an unverified e-mail; NotFoundError for an unknown target (or one hidden from `user`).
 */
export async function checkReport(kv: Deno.Kv, user: User, input: ReportCreate): Promise<ReportCheck> {
  if (!user.emailVerified) throw new ForbiddenError(VERIFY_FIRST);
  const target = await findTarget(kv, input.kind, input.id, user);
  const open = await openReportOf(kv, { userId: user.id, kind: input.kind, targetId: input.id });
  return open ? { open } : { target };
}

/**
 * Files `user`'s report of `found` (the target as `checkReport` found it): the report, its indexes and the target's
 * summary are one write (another report of theirs made meanwhile is answered instead); while the listing has three
 * different people's open reports of money or impersonation filed after an admin's last decision on it (`holdSince`),
 * the report holds it (so a hold lost to a crash after the report's write is redone).
 * A report from someone whose reports of the target an admin dismissed before (by account or mailbox) does not count
 * toward the three, nor one from a mailbox another open counting report came from (docs/decisions.md, Trust, "One
 * mailbox, one reporter"). The write also checks the records `found` was read from (`Target.records`): after a lost
 * race the target is read again, so a post, comment or listing removed meanwhile is not reported (docs/decisions.md,
 * Trust, "Reports of what is removed").
 * @throws BusyError after lost races; NotFoundError when the target is gone (or hidden from `user`) since it was read.
 */
export async function createReport(kv: Deno.Kv, user: User, input: ReportCreate, found: Target): Promise<Filed> {
  let target = found;
  const mailbox = await mailboxId(user.email);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [open, summaryEntry] = await kv.getMany<[string, TargetSummary]>([
      openKey(user.id, input.kind, input.id),
      summaryKey(input.kind, input.id),
    ]);
    if (open.value) {
      const first = (await kv.get<Report>(reportKey(open.value))).value;
      if (first) return { report: reportView(first), created: false };
    }
    const now = new Date().toISOString();
    const dismissedBefore = (summaryEntry.value?.dismissedReporters?.includes(user.id) ||
      summaryEntry.value?.dismissedMailboxes?.includes(mailbox)) ?? false;
    const mailboxCounted = summaryEntry.value?.holdMailboxes?.includes(mailbox) ?? false;
    const report: Report = {
      id: crypto.randomUUID(),
      kind: input.kind,
      targetId: input.id,
      reason: input.reason,
      details: input.details,
      status: "open",
      userId: user.id,
      createdAt: now,
      resolvedAt: null,
      resolution: null,
      countsToHold: HOLD_REASONS.has(input.reason) && !dismissedBefore && !mailboxCounted,
      mailbox,
    };
    const before: TargetSummary = summaryEntry.value ?? {
      kind: input.kind,
      targetId: input.id,
      title: target.title,
      words: target.words,
      open: 0,
      openReasons: {},
      holdReports: 0,
      resolved: 0,
      resolvedReasons: {},
      lastReportedAt: now,
    };
    const holds = countsToHold(report);
    const summary: TargetSummary = {
      ...before,
      title: target.title,
      words: target.words,
      open: before.open + 1,
      openReasons: counted(before.openReasons, input.reason, 1),
      holdReports: before.holdReports + (holds ? 1 : 0),
      ...holds
        ? {
          holdMailboxes: remembered(before.holdMailboxes, mailbox, HOLD_MAILBOXES_MAX),
          holdNewest: newestHolding(before.holdNewest, [{ id: report.id, at: now }]),
        }
        : {},
      lastReportedAt: now,
    };
    if (report.details) {
      const words = { id: report.id, reason: report.reason, details: recentDetails(report.details), createdAt: now };
      summary.recentDetails = [{ ...words, open: true }, ...before.recentDetails ?? []].slice(0, RECENT_DETAILS_MAX);
    }
    delete summary.resolvedAt;
    delete summary.outcome;
    const op = kv.atomic().check(open, summaryEntry, ...target.records)
      .set(reportKey(report.id), report)
      .set(byTargetKey(report.kind, report.targetId, report.id), true)
      .set(byReporterKey(user.id, report.id), true)
      .set(openKey(user.id, report.kind, report.targetId), report.id)
      .set(summaryKey(report.kind, report.targetId), summary);
    indexOps(op, summaryEntry.value, summary);
    const result = await op.commit();
    if (!result.ok) {
      if (target.records.length > 0) target = await findTarget(kv, input.kind, input.id, user);
      continue;
    }
    // The hold is a write of its own (a listing is written by its store), so a hold lost after this commit is redone
    // by the next report; holding is idempotent and gives way to an admin's decision since the reports that make it.
    const since = holdSince(summary);
    if (target.holdable && since) await holdTarget(kv, target.kind, target.id, since);
    return { report: reportView(report), created: true };
  }
  throw new BusyError(REFUSALS.reportsBusy);
}

/** `checkReport` then `createReport`, without the routes' daily limit (the demo's reports). */
export async function fileReport(kv: Deno.Kv, user: User, input: ReportCreate): Promise<Filed> {
  const check = await checkReport(kv, user, input);
  return "open" in check ? { report: check.open, created: false } : await createReport(kv, user, input, check.target);
}

/** The title of `summary`'s target in the language of `t` (a summary without `words`: its English title as kept). */
function summaryTitle(summary: TargetSummary, t: Translate): string {
  return summary.words ? targetTitle({ kind: summary.kind, words: summary.words }, t) : summary.title;
}

/**
 * A target of the admin list, from its summary, its title in the language of `t`; its reasons and recent words those of
 * its open reports, or in the resolved view of its resolved ones.
 */
function listed(summary: TargetSummary, status: "open" | "resolved", t: Translate): ReportedTarget {
  return {
    kind: summary.kind,
    targetId: summary.targetId,
    title: summaryTitle(summary, t),
    openReports: summary.open,
    reasons: status === "open" ? summary.openReasons : summary.resolvedReasons,
    lastReportedAt: summary.lastReportedAt,
    recentDetails: (summary.recentDetails ?? []).filter((words) => words.open === (status === "open"))
      .map(({ reason, details, createdAt }) => ({ reason, details, createdAt })),
    outcome: status === "resolved" ? summary.outcome ?? null : null,
  };
}

/** The outcome of the last resolved of `reports` (null: none is resolved). */
function lastOutcome(reports: Report[]): Outcome | null {
  let last: Resolution | null = null;
  for (const { resolution } of reports) {
    if (resolution && (!last || resolution.at > last.at)) last = resolution;
  }
  return last && outcomeOf(last);
}

/**
 * `targets` (of the resolved view) with the outcome their summaries lack, kept before summaries had one, read from
 * their reports: each target's index listed, all at once, then the reports read together (`getManyChunked`). Only
 * until the `report-summaries` job has written it on those summaries.
 */
async function lastOutcomes(kv: Deno.Kv, targets: ReportedTarget[]): Promise<ReportedTarget[]> {
  const missing = targets.filter((target) => target.outcome === null);
  if (missing.length === 0) return targets;
  const ids = await Promise.all(
    missing.map(({ kind, targetId }) =>
      Array.fromAsync(kv.list({ prefix: ["reports_by_target", kind, targetId] }), ({ key }) => key[3] as string)
    ),
  );
  const reports = (await getManyChunked<Report>(kv, ids.flat().map(reportKey))).flatMap(({ value }) => value ?? []);
  const outcomes = new Map(missing.map(({ kind, targetId }) => {
    const own = reports.filter((report) => report.kind === kind && report.targetId === targetId);
    return [`${kind} ${targetId}`, lastOutcome(own)];
  }));
  return targets.map((target) =>
    target.outcome ? target : { ...target, outcome: outcomes.get(`${target.kind} ${target.targetId}`) ?? null }
  );
}

/** A page of the admin list. */
export interface ReportedTargetPage {
  targets: ReportedTarget[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

/**
 * The admin list: the targets with open reports, most reported first (then the latest report first), or with
 * `status=resolved` those whose reports are all resolved, the latest resolved first; of one kind when asked; titles in
 * the language of `t`. The open view reads the open targets' entries and the page's summaries; the resolved view the
 * first `offset + limit` keys of its index, the page's summaries and its count, never every summary kept, once the
 * `report-targets-index` job is done; until then every summary, as before (`summariesPage`). A resolved target says
 * what resolved it and when (`outcome`, kept on its summary; until the `report-summaries` job is done, one resolved
 * before that was kept reads its reports: `lastOutcomes`).
 */
export async function reportedTargets(
  kv: Deno.Kv,
  query: AdminReportQuery,
  t: Translate,
): Promise<ReportedTargetPage> {
  const { keys, total } = !(await backfillDone(kv, TARGET_INDEX_PROGRESS))
    ? await summariesPage(kv, query)
    : query.status === "open"
    ? await openPage(kv, query)
    : await resolvedPage(kv, query);
  const summaries = (await getManyChunked<TargetSummary>(kv, keys)).flatMap(({ value }) => value ? [value] : []);
  const targets = summaries.map((summary) => listed(summary, query.status, t));
  return {
    targets: query.status === "resolved" && !(await backfillDone(kv, SUMMARIES_PROGRESS))
      ? await lastOutcomes(kv, targets)
      : targets,
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total,
      hasMore: query.offset + keys.length < total,
    },
  };
}

/** KV's largest list batch. */
const LIST_BATCH = 500;

/** The summary keys of the open view's page, and how many targets have open reports (of the kind asked). */
async function openPage(kv: Deno.Kv, query: AdminReportQuery): Promise<{ keys: Deno.KvKey[]; total: number }> {
  const prefix = query.kind ? ["report_targets_open", query.kind] : ["report_targets_open"];
  const open: (OpenTarget & { key: Deno.KvKey })[] = [];
  for await (const { key, value } of kv.list<OpenTarget>({ prefix }, { batchSize: LIST_BATCH })) {
    open.push({ ...value, key: summaryKey(key[1] as ReportKind, key[2] as string) });
  }
  open.sort((a, b) => b.open - a.open || b.lastReportedAt.localeCompare(a.lastReportedAt));
  return { keys: open.slice(query.offset, query.offset + query.limit).map(({ key }) => key), total: open.length };
}

/** The summary keys of the resolved view's page, the latest resolved first, and how many there are (of the kind). */
async function resolvedPage(kv: Deno.Kv, query: AdminReportQuery): Promise<{ keys: Deno.KvKey[]; total: number }> {
  const scope: Scope = query.kind ?? "all";
  const keys: Deno.KvKey[] = [];
  const limit = query.offset + query.limit;
  const options = { reverse: true, limit, batchSize: Math.min(LIST_BATCH, limit) };
  const [count] = await Promise.all([
    kv.get<Deno.KvU64>(resolvedCountKey(scope)),
    (async () => {
      for await (const { key } of kv.list({ prefix: ["report_targets_resolved", scope] }, options)) {
        keys.push(summaryKey(key[3] as ReportKind, key[4] as string));
      }
    })(),
  ]);
  return { keys: keys.slice(query.offset), total: counterValue(count) };
}

/**
 * The page's summary keys and total read from every summary kept, as before the views' entries: until the
 * `report-targets-index` job is done, a target reported before them with nothing new since is only there. Open: most
 * reported first, then the latest report; resolved: the latest resolved first (a summary kept before `resolvedAt` by
 * its last report).
 */
async function summariesPage(kv: Deno.Kv, query: AdminReportQuery): Promise<{ keys: Deno.KvKey[]; total: number }> {
  const prefix = query.kind ? ["report_targets", query.kind] : ["report_targets"];
  const found: TargetSummary[] = [];
  for await (const { value } of kv.list<TargetSummary>({ prefix }, { batchSize: LIST_BATCH })) {
    if ((value.open > 0) === (query.status === "open")) found.push(value);
  }
  const resolvedAt = (summary: TargetSummary) => summary.resolvedAt ?? summary.lastReportedAt;
  found.sort((a, b) =>
    query.status === "open"
      ? b.open - a.open || b.lastReportedAt.localeCompare(a.lastReportedAt)
      : resolvedAt(b).localeCompare(resolvedAt(a))
  );
  const page = found.slice(query.offset, query.offset + query.limit);
  return { keys: page.map((summary) => summaryKey(summary.kind, summary.targetId)), total: found.length };
}

/**
 * One reported target as the admin list shows it (its title in the language of `t`), with `status`: `open` while it
 * has open reports (the open view's card), else `resolved`; null when nobody reported it. One read: its summary.
 */
export async function reportedTarget(
  kv: Deno.Kv,
  { kind, targetId, t }: { kind: ReportKind; targetId: string; t: Translate },
): Promise<(ReportedTarget & { status: "open" | "resolved" }) | null> {
  const summary = (await kv.get<TargetSummary>(summaryKey(kind, targetId))).value;
  if (!summary) return null;
  const status = summary.open > 0 ? "open" : "resolved";
  return { ...listed(summary, status, t), status };
}

/** A target with its reports, as the admin reads them. */
export interface TargetReports {
  target: ReportedTarget & { url: string | null; status: "open" | "resolved" };
  reports: AdminReportView[];
}

/**
 * A reported target with every report of it, newest first, each with who sent it; its title in the language of `t`.
 * @throws NotFoundError when nobody reported `kind`/`targetId`.
 */
export async function targetReports(
  kv: Deno.Kv,
  { kind, targetId, t }: { kind: ReportKind; targetId: string; t: Translate },
): Promise<TargetReports> {
  const summary = (await kv.get<TargetSummary>(summaryKey(kind, targetId))).value;
  if (!summary) throw new NotFoundError(REFUSALS.noReports);
  const entries = await reportsOfTarget(kv, kind, targetId);
  const reporters = await getUserSummaries(kv, entries.flatMap((entry) => entry.value.userId ?? []));
  let url: string | null = null;
  try {
    url = (await findTarget(kv, kind, targetId, null)).url;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const status = summary.open > 0 ? "open" : "resolved";
  const target = listed(summary, status, t);
  if (status === "resolved" && !target.outcome) target.outcome = lastOutcome(entries.map(({ value }) => value));
  return {
    target: { ...target, url, status },
    reports: entries.map(({ value: report }) => {
      const reporter = report.userId ? reporters.get(report.userId) : undefined;
      return {
        ...reportView(report),
        reporter: reporter ? { id: reporter.id, name: reporter.name } : null,
        notCounted: notCounted(report),
        resolvedAt: report.resolvedAt,
        resolution: report.resolution,
      };
    }),
  };
}

/**
 * Resolves every open report of `kind`/`targetId` with `body.action` (see `actOn`) and `body.note`, in writes of 50
 * reports, each write also telling their reporters (`report_resolved`, never naming the others) and updating the
 * target's summary; the owner of what was hidden or deleted is told once (`content_removed`); the first of those writes
 * is the action's own (`actOn`'s `also`), and holds the audit log's entry (`report.resolve`), so the action is never
 * done unlogged; when the action writes nothing (the target gone, or so already) the first write of reports holds
 * the entry. A dismissal also adds the reporters of its `HOLD_REASONS` reports to the summary's `dismissedReporters`, so
 * their later reports of the target hold nothing (docs/decisions.md, Trust, "Dismissed reporters"). The admin first
 * claims the open reports (`claimTarget`), so two admins never act on one target at once. Returns
 * how many reports were resolved (0 when none was open, another admin having resolved them), and whether a dismissed
 * listing stays held because the never-pay rule holds it too (the admin is told to decide on it in moderation).
 * @throws NotFoundError when nobody reported it; InvalidInputError for an action the kind does not take;
 *   ConflictError (`reportsBeingResolved`) while another admin resolves them; BusyError when a write of reports still
 *   lost its races after every attempt (the action done: the same admin's retry finishes it).
 */
export async function resolveTarget(
  services: { kv: Deno.Kv; files: ObjectStore; log: Logger },
  { kind, targetId, admin, body }: { kind: ReportKind; targetId: string; admin: User; body: ResolveBody },
): Promise<{ resolved: number; stillHeld: boolean }> {
  const { kv } = services;
  const summaryEntry = await kv.get<TargetSummary>(summaryKey(kind, targetId));
  if (!summaryEntry.value) throw new NotFoundError(REFUSALS.noReports);
  let target: Target | null = null;
  try {
    target = await findTarget(kv, kind, targetId, null);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const open = (await reportsOfTarget(kv, kind, targetId)).filter((entry) => entry.value.status === "open");
  if (open.length === 0) return { resolved: 0, stillHeld: false };
  if (!(await claimTarget(kv, { kind, targetId, admin, action: body.action }))) {
    return { resolved: 0, stillHeld: false };
  }
  // Worded in each reader's language when read; a summary kept before `words` has only its English title.
  const words = target?.words ?? summaryEntry.value.words ?? { name: summaryEntry.value.title };
  const now = new Date().toISOString();
  const resolution = { action: body.action, note: body.note, at: now };
  let resolved = 0;
  let ownerTold = body.action === "dismiss" || !target?.ownerId;
  const audit = auditOps({ adminId: admin.id, action: "report.resolve", targetKind: kind, summary: body.action });
  let logged = false;
  /** Resolves `batch` in `op`, checked against it and the summary as read; `last` drops the admin's claim. */
  const batchOps = (
    op: Deno.AtomicOperation,
    summary: Deno.KvEntry<TargetSummary>,
    batch: Deno.KvEntry<Report>[],
    last: boolean,
  ) => {
    const url = target?.url ?? null;
    resolveBatchOps(op, {
      summary,
      batch,
      resolution,
      notice: (userId) => resolvedNotification({ userId, kind, words, action: body.action, note: body.note, url }),
      last,
    });
    if (!ownerTold) {
      addNotification(
        op,
        removedNotification({ userId: target!.ownerId!, kind, words, action: body.action, note: body.note }),
      );
    }
    if (!logged) audit(op, targetId);
  };
  /** `batch` as it is now, those still open. */
  const stillOpen = async (batch: Deno.KvEntry<Report>[]) =>
    (await getManyChunked<Report>(kv, batch.map((entry) => entry.key)))
      .filter((entry) => entry.value?.status === "open") as Deno.KvEntry<Report>[];

  const act = { kind, id: targetId, action: body.action, admin, note: body.note };
  let stillHeld = false;
  let from = 0;
  // The action's own write also resolves the first batch, tells its reporters and the owner and logs it: one commit.
  let first = open.slice(0, RESOLVE_BATCH);
  for (let attempt = 0;; attempt++) {
    const summary = await kv.get<TargetSummary>(summaryKey(kind, targetId));
    let joined = false;
    try {
      stillHeld = await actOn(services, {
        ...act,
        also: (op) => {
          batchOps(op, summary as Deno.KvEntry<TargetSummary>, first, open.length <= RESOLVE_BATCH);
          joined = true;
        },
      });
    } catch (error) {
      if (!(error instanceof RaceLost)) {
        // Refused (an organization is never deleted) or failed before anything was written: the claim goes too.
        await releaseClaim(kv, { kind, targetId, admin });
        throw error;
      }
      if (attempt + 1 >= ATTEMPTS) throw new BusyError(REFUSALS.reportsBusy);
      first = await stillOpen(first);
      continue;
    }
    // Nothing to write (the target gone, or so already): the reports are resolved by the writes below, the first one
    // logged.
    if (joined) [resolved, ownerTold, logged, from] = [first.length, true, true, RESOLVE_BATCH];
    break;
  }
  for (let i = from; i < open.length; i += RESOLVE_BATCH) {
    let batch = open.slice(i, i + RESOLVE_BATCH);
    for (let attempt = 0; attempt < ATTEMPTS && batch.length > 0; attempt++) {
      const summary = await kv.get<TargetSummary>(summaryKey(kind, targetId));
      const op = kv.atomic();
      batchOps(op, summary as Deno.KvEntry<TargetSummary>, batch, i + RESOLVE_BATCH >= open.length);
      if ((await op.commit()).ok) {
        resolved += batch.length;
        ownerTold = true;
        logged = true;
        batch = [];
        break;
      }
      // Lost a race (a report resolved or added meanwhile): resolve those still open, as they are now.
      batch = await stillOpen(batch);
    }
    // Still open after every attempt: the admin is told to try again (the action is done and idempotent; their claim
    // lets them, and them only, finish it now).
    if (batch.length > 0) throw new BusyError(REFUSALS.reportsBusy);
  }
  return { resolved, stillHeld };
}

/**
 * Claims the open reports of `kind`/`targetId` for `admin` resolving them with `action` (docs/decisions.md, Trust,
 * "One admin resolves at a time"): a write checked against the summary as read, so of two admins at once one claims
 * and the other reads the claim. Answers false when nothing is open any more (resolved meanwhile).
 * @throws ConflictError (`reportsBeingResolved`) while another admin's claim holds; BusyError after lost races.
 */
async function claimTarget(
  kv: Deno.Kv,
  { kind, targetId, admin, action }: { kind: ReportKind; targetId: string; admin: User; action: ResolveAction },
): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv.get<TargetSummary>(summaryKey(kind, targetId));
    if (!entry.value || entry.value.open === 0) return false;
    const claim = entry.value.resolving;
    if (claim && claim.adminId !== admin.id && Date.parse(claim.at) > Date.now() - CLAIM_MS) {
      throw new ConflictError(REFUSALS.reportsBeingResolved);
    }
    const resolving = { adminId: admin.id, action, at: new Date().toISOString() };
    if ((await kv.atomic().check(entry).set(entry.key, { ...entry.value, resolving }).commit()).ok) return true;
  }
  throw new BusyError(REFUSALS.reportsBusy);
}

/**
 * Takes `admin`'s claim off the reports of `kind`/`targetId` (`claimTarget`), when it is still theirs: after an action
 * that was refused or failed before writing anything, so other admins need not wait out the claim. Best effort: a write
 * that loses a race leaves the claim to lapse.
 */
async function releaseClaim(
  kv: Deno.Kv,
  { kind, targetId, admin }: { kind: ReportKind; targetId: string; admin: User },
): Promise<void> {
  const entry = await kv.get<TargetSummary>(summaryKey(kind, targetId));
  if (entry.value?.resolving?.adminId !== admin.id) return;
  const { resolving: _, ...released } = entry.value;
  await kv.atomic().check(entry).set(entry.key, released).commit();
}

/**
 * Every report `userId` sent, newest first, as they read them with how each was resolved (the account export; who
 * removed what they reported as their notice said it, `removerAsTold`): their index entries listed, then the reports
 * read together (`getManyChunked`), not one round trip each.
 */
export async function reportsBy(kv: Deno.Kv, userId: string) {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["reports_by_reporter", userId] }, { batchSize: 500 })) {
    ids.push(key[2] as string);
  }
  const told = (resolution: Resolution | null) =>
    resolution?.by ? { ...resolution, by: removerAsTold(resolution.by) } : resolution;
  const reports = (await getManyChunked<Report>(kv, ids.map(reportKey))).flatMap(({ value }) =>
    value ? [{ ...reportView(value), resolution: told(value.resolution) }] : []
  );
  return reports.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** How many reports `userId` sent, from their index entries ("Your data" counts them without reading them). */
export async function reportCountBy(kv: Deno.Kv, userId: string): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["reports_by_reporter", userId] }, { batchSize: 500 })) count++;
  return count;
}

/** Reports whose targets the export reads at once (a few reads each): only their words are kept. */
const EXPORT_TARGETS = 20;

/**
 * Every report `reporter` sent as the export lists it (`reportsBy`), each with what it reported as they may see it now
 * (docs/decisions.md, Data rights, "Export"): `title` (a comment's excerpt) and an internship's `organization`, or
 * `removed` true and neither once it is gone or hidden from them: nothing of a hidden listing, which may have changed
 * since they reported it. The targets are read `EXPORT_TARGETS` at a time (`findTarget` as the reporter), so the
 * export holds no more than that many.
 */
export async function reportsForExport(kv: Deno.Kv, reporter: User) {
  const reports = await reportsBy(kv, reporter.id);
  const listed = [];
  for (let i = 0; i < reports.length; i += EXPORT_TARGETS) {
    const batch = reports.slice(i, i + EXPORT_TARGETS);
    const words = await Promise.all(batch.map(async ({ kind, targetId }) => {
      try {
        return (await findTarget(kv, kind, targetId, reporter)).words;
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
    }));
    listed.push(...batch.map((report, j) => ({
      ...report,
      title: words[j]?.name ?? null,
      organization: words[j]?.organization ?? null,
      removed: words[j] === null,
    })));
  }
  return listed;
}

/** Reports account deletion reads at once, between two renewals of its lease. */
const FORGET_BATCH = 50;

/**
 * Adds to `op` the forgetting of `userId` in the report `report` (as read, checked) that their index entry `indexKey`
 * names: the entry and their open key go, the report stays with `userId` null and no `mailbox`, and when `summary`
 * (its target's summary as read) remembers them, it is checked and set to `next`, which forgets them and `mailboxes`.
 */
function forgetReporterOps(
  op: Deno.AtomicOperation,
  { userId, indexKey, report, summary, mailboxes }: {
    userId: string;
    indexKey: Deno.KvKey;
    report: Deno.KvEntryMaybe<Report>;
    summary: Deno.KvEntryMaybe<TargetSummary> | null;
    mailboxes: string[];
  },
): void {
  op.check(report).delete(indexKey);
  if (!report.value) return;
  const { mailbox: _, ...kept } = report.value;
  op.set(report.key, { ...kept, userId: null });
  op.delete(openKey(userId, report.value.kind, report.value.targetId));
  const people = summary?.value?.dismissedReporters;
  const dismissed = summary?.value?.dismissedMailboxes;
  if (summary?.value && (people?.includes(userId) || mailboxes.some((mailbox) => dismissed?.includes(mailbox)))) {
    const next: TargetSummary = { ...summary.value, dismissedReporters: without(people, userId) };
    next.dismissedMailboxes = mailboxes.reduce<string[] | undefined>(
      (left, mailbox) => without(left, mailbox),
      dismissed,
    );
    op.check(summary).set(summary.key, next);
  }
}

/**
 * Keeps the reports `userId` sent without them (account deletion): each report's `userId` becomes null and their
 * indexes go, the report keeps no `mailbox`, and the report's target summary forgets them among its
 * `dismissedReporters` and their mailbox among its `dismissedMailboxes`; the reports stay for the admins. The reports
 * are taken `FORGET_BATCH` at a time, read at once with their targets' summaries (`getManyChunked`), their writes packed
 * into few commits (`commitPacked`); one changed meanwhile is read again and written alone. After each batch it calls
 * `renew` (the deletion's lease), whose throw stops it. Idempotent.
 * @throws what `renew` throws.
 */
export async function forgetReporter(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  const indexKeys = await Array.fromAsync(
    kv.list({ prefix: ["reports_by_reporter", userId] }, { batchSize: 500 }),
    ({ key }) => key,
  );
  for (let start = 0; start < indexKeys.length; start += FORGET_BATCH) {
    const batch = indexKeys.slice(start, start + FORGET_BATCH);
    const reports = await getManyChunked<Report>(kv, batch.map((key) => reportKey(key[2] as string)));
    const targets = [
      ...new Map(reports.flatMap(({ value }) => value ? [[`${value.kind} ${value.targetId}`, value]] : []))
        .values(),
    ];
    const summaries = new Map(
      (await getManyChunked<TargetSummary>(kv, targets.map((r) => summaryKey(r.kind, r.targetId))))
        .map((summary, i) => [`${targets[i].kind} ${targets[i].targetId}`, summary]),
    );
    // Every mailbox of theirs a target's reports carry, so that each write of one of them forgets them all.
    const mailboxesOf = (target: string) =>
      reports.flatMap(({ value }) =>
        value?.mailbox && `${value.kind} ${value.targetId}` === target ? [value.mailbox] : []
      );
    const units = batch.map((indexKey, i) => {
      const unit = new WriteUnit();
      const target = reports[i].value ? `${reports[i].value!.kind} ${reports[i].value!.targetId}` : "";
      const summary = summaries.get(target) ?? null;
      forgetReporterOps(unit.op, { userId, indexKey, report: reports[i], summary, mailboxes: mailboxesOf(target) });
      return unit;
    });
    const written = await commitPacked(kv, units);
    for (const [i, indexKey] of batch.entries()) {
      if (written[i]) continue;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const op = kv.atomic();
        const report = await kv.get<Report>(reportKey(indexKey[2] as string));
        const summary = report.value
          ? await kv.get<TargetSummary>(summaryKey(report.value.kind, report.value.targetId))
          : null;
        const mailboxes = report.value?.mailbox ? [report.value.mailbox] : [];
        forgetReporterOps(op, { userId, indexKey, report, summary, mailboxes });
        if ((await op.commit()).ok) break;
      }
    }
    await renew?.();
  }
}

const TARGET_INDEX_PROGRESS: Deno.KvKey = ["report_targets_meta", "index"];

/**
 * The target summaries kept before the open and resolved views' entries, indexed (see the module docstring): 50
 * summaries a write, of up to about 8 KB and 6 mutations each. A summary with open reports gets its open entry; one
 * whose reports are all resolved gets `resolvedAt` (its last report's time: when it was resolved was not kept), its
 * resolved entries and counts.
 */
const TARGET_INDEX_BACKFILL: Backfill<TargetSummary> = {
  progressKey: TARGET_INDEX_PROGRESS,
  prefix: ["report_targets"],
  page: 50,
  tally: true,
  write(op, { key, value: summary }) {
    const next = summary.open === 0 && summary.resolved > 0 && !summary.resolvedAt
      ? { ...summary, resolvedAt: summary.lastReportedAt }
      : summary;
    if (next !== summary) op.set(key, next);
    indexOps(op, summary, next);
  },
};

/**
 * Indexes, once, the target summaries kept before the open and resolved views' entries (`runBackfill`;
 * docs/decisions.md, Background work, "Index backfills"). Returns how many summaries this run indexed; nothing once
 * done (one read).
 */
export async function indexExistingTargets(ctx: Pick<JobContext, "kv" | "requests">): Promise<{ indexed: number }> {
  return { indexed: (await runBackfill(ctx.kv, TARGET_INDEX_BACKFILL, ctx.requests)).read };
}

/**
 * The `report-targets-index` job: every 5 minutes until the summaries kept before the admin list's entries are indexed
 * (then one read a run).
 */
export const reportTargetsIndexJob: Job = {
  name: "report-targets-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ ...await indexExistingTargets(ctx) }),
};

const SUMMARIES_PROGRESS: Deno.KvKey = ["report_targets_meta", "summaries"];

/**
 * Whether `summary` lacks what later writes keep and its reports give: one resolved before summaries kept their
 * outcome lacks it; one with open reports that count toward the hold lacks `holdNewest` (or some of it: a summary kept
 * before it that a report reached since keeps that report alone) when it keeps fewer of them than it counts, up to
 * `HOLD_REPORTERS`.
 */
function lacksWhatReportsGive(summary: TargetSummary): boolean {
  return summary.open === 0
    ? summary.resolved > 0 && !summary.outcome
    : (summary.holdNewest?.length ?? 0) < Math.min(summary.holdReports, HOLD_REPORTERS);
}

/**
 * `summary` given what it lacks (`lacksWhatReportsGive`) from `reports`, its target's: a resolved one the outcome of
 * its last resolution (`lastOutcome`); one with open reports its newest open ones that count toward the hold
 * (`countsToHold`, as `createReport` decided for each: not one from a dismissed reporter or a mailbox already counted)
 * as `holdNewest` (`newestHolding`). Null when the reports give nothing.
 */
function givenByReports(summary: TargetSummary, reports: Report[]): TargetSummary | null {
  if (summary.open === 0) {
    const outcome = lastOutcome(reports);
    return outcome && { ...summary, outcome };
  }
  const holding = reports.filter((report) => report.status === "open" && countsToHold(report));
  return holding.length > 0
    ? { ...summary, holdNewest: newestHolding(undefined, holding.map(({ id, createdAt }) => ({ id, at: createdAt }))) }
    : null;
}

/**
 * The summaries kept before `outcome` and `holdNewest`, given them from their reports (`givenByReports`): 50 summaries
 * listed at once, each that lacks one read with its reports (a list and a `getMany` of up to 10 keys a call) and
 * written checked as read, so a report filed or resolved meanwhile makes that commit start again. Holds no listing:
 * the next report of one does (`createReport`).
 */
function summariesBackfill(kv: Deno.Kv): Backfill<TargetSummary> {
  return {
    progressKey: SUMMARIES_PROGRESS,
    prefix: ["report_targets"],
    page: 50,
    perCommit: 10,
    needs: lacksWhatReportsGive,
    async write(op, { key, value: summary }) {
      const reports = await reportsOfTarget(kv, summary.kind, summary.targetId);
      const next = givenByReports(summary, reports.map(({ value }) => value));
      if (next) op.set(key, next);
    },
  };
}

/**
 * Gives, once, the summaries kept before `outcome` and `holdNewest` what they lack (`summariesBackfill`, `runBackfill`;
 * docs/decisions.md, Background work, "Index backfills"; Trust, "Reports"), after which the resolved view reads
 * summaries only, and a listing's next report holds it counting the reports open before.
 * Returns how many summaries this run wrote; nothing once done (one read).
 */
export async function completeOldSummaries(ctx: Pick<JobContext, "kv" | "requests">): Promise<{ written: number }> {
  return { written: (await runBackfill(ctx.kv, summariesBackfill(ctx.kv), ctx.requests)).written };
}

/**
 * The `report-summaries` job: every 5 minutes until the summaries kept before outcomes and `holdNewest` have them from
 * their reports.
 */
export const reportSummariesJob: Job = {
  name: "report-summaries",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ ...await completeOldSummaries(ctx) }),
};
