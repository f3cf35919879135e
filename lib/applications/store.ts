/**
 * Application storage (docs/decisions.md, Applications, "Storage"): the records and every index they keep, all
 * changed by one function in the caller's atomic write (`applicationOps`), so a record and its index entries never
 * drift apart.
 *
 * Keys (owned by this module only):
 * - `["applications", id]` → `ApplicationRecord`
 * - `["applications_by_person", applicantId, internshipId]` → `{id, createdAt}`: one per person and internship, the
 *   guard of the one-application rule (a write checks it absent), and the person's list
 * - `["applications_by_internship", internshipId, status, createdMs, id]` → `{t}`: the per-status secondary index
 *   the poster's list reads, oldest first, with the applicant's search text
 * - `["applications_sent_by_person", applicantId, createdMs, id]` → null and
 *   `["applications_sent_by_person_status", applicantId, status, createdMs, id]` → null: the applicant's applications
 *   by when they were sent, all and per status, which their tracker pages read newest first (`sentPlaces`); kept while
 *   the application has its applicant, and filled for the applications sent before them by `SENT_INDEX_BACKFILL`
 * - `["applications_changes", internshipId]` → KvU64, one more at every write of an application of the internship
 * - `["applications_made", internshipId]` → KvU64, one more at every application made to the internship (records are
 *   never deleted), and `["applications_made_base", internshipId]` → number: how many it had less that counter, stored
 *   by its first count (`applicationCount`, `pipeline.ts`), so a count reads two keys, not the index
 * - `["applications_log", internshipId, atMs, id]` → `PipelineChange`, kept a day: what changed, for the processes
 *   that keep the poster's list in memory (`pipeline.ts`); a batched write (`BatchWrites`) puts one entry
 *   `["applications_log", internshipId, atMs, "batch-" + uuid]` → `{changes: [id, PipelineChange][]}` for many; an
 *   application's entries go when its applicant's account is deleted (`logEntriesOf`, `forgetLogOps`)
 * - `["applications_due", dueMs, id]` → true while the application waits (`applied` or `shortlisted`): the timeout
 *   job's due-time index
 * - the track record's counters (`track_record.ts`)
 */
import type { Count } from "@/lib/stats/counters.ts";
import { applicationCounts, countChanges, trackCountOps } from "./track_record.ts";
import { APPLICATION_STATUSES, type ApplicationRecord, type ApplicationStatus } from "./schema.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import type { Backfill } from "@/lib/kv/backfill.ts";

/** How long (ms) a change stays in the log the in-memory lists catch up from: a day. */
export const LOG_KEPT_MS = 24 * 60 * 60 * 1000;

export const recordKey = (id: string): Deno.KvKey => ["applications", id];
export const personKey = (applicantId: string, internshipId: string): Deno.KvKey => [
  "applications_by_person",
  applicantId,
  internshipId,
];
const statusKey = (record: ApplicationRecord): Deno.KvKey => [
  "applications_by_internship",
  record.internshipId,
  record.status,
  Date.parse(record.createdAt),
  record.id,
];
const sentKey = (applicantId: string, createdMs: number, id: string): Deno.KvKey => [
  "applications_sent_by_person",
  applicantId,
  createdMs,
  id,
];
const sentStatusKey = (applicantId: string, status: ApplicationStatus, createdMs: number, id: string): Deno.KvKey => [
  "applications_sent_by_person_status",
  applicantId,
  status,
  createdMs,
  id,
];
export const changesKey = (internshipId: string): Deno.KvKey => ["applications_changes", internshipId];
export const madeKey = (internshipId: string): Deno.KvKey => ["applications_made", internshipId];
export const madeBaseKey = (internshipId: string): Deno.KvKey => ["applications_made_base", internshipId];
const logKey = (internshipId: string, atMs: number, id: string): Deno.KvKey => [
  "applications_log",
  internshipId,
  atMs,
  id,
];
export const dueKey = (dueMs: number, id: string): Deno.KvKey => ["applications_due", dueMs, id];

/** An entry of the person's list: which application, and when it was sent. */
export interface PersonEntry {
  id: string;
  createdAt: string;
}

/** An entry of the per-status index: the applicant's search text. */
export interface StatusEntry {
  t: string;
}

/** A change as the log keeps it: the application's status now, when it was sent, its search text and history length. */
export interface PipelineChange {
  status: ApplicationStatus;
  createdMs: number;
  t: string;
  /** The length of its history: a later change has a longer one. */
  v: number;
}

/**
 * The text the poster's search matches: the applicant's name, college, role and field, lower case; the name alone once
 * the application was withdrawn (the poster no longer reads the rest: `applicantView`), so no search tells it.
 */
export function searchTextOf(record: ApplicationRecord): string {
  const a = record.applicant;
  if (!a) return "";
  if (record.status === "withdrawn") return a.name.toLowerCase();
  return [a.name, a.collegeInstitute, a.currentRole, a.fieldOfStudy, ...a.fieldInterests]
    .filter(Boolean).join(" ").toLowerCase();
}

/**
 * What a write of many applications shares, summed once instead of once per application (the timeout job): per
 * internship its change marker and one log entry with every change, and the track record's counters per key. Filled
 * by `applicationOps(..., batch)`, written by `batchOps`.
 */
export class BatchWrites {
  readonly changes = new Map<string, [string, PipelineChange][]>();
  readonly counts: Count[] = [];
}

/** Most changes in one batched log entry: well under KV's 64 KiB per value with long search texts. */
const CHANGES_PER_LOG_ENTRY = 100;

/**
 * Adds to `op` what `batch` gathered at `now` (ms): per internship, one `sum` on its change marker and its changes in
 * log entries of at most 100; the counters' net changes, one `sum` per key.
 */
export function batchOps(op: Deno.AtomicOperation, batch: BatchWrites, now = Date.now()): void {
  for (const [internshipId, changes] of batch.changes) {
    for (let i = 0; i < changes.length; i += CHANGES_PER_LOG_ENTRY) {
      const part: BatchedChanges = { changes: changes.slice(i, i + CHANGES_PER_LOG_ENTRY) };
      op.set(logKey(internshipId, now, `batch-${crypto.randomUUID()}`), part, { expireIn: LOG_KEPT_MS });
    }
    op.sum(changesKey(internshipId), 1n);
  }
  trackCountOps(op, [], batch.counts);
}

/** A batched log entry's value: the changes of many applications of one internship, with their ids. */
interface BatchedChanges {
  changes: [string, PipelineChange][];
}

/**
 * Adds to `op` the write of `next` over `previous` (null for a new application) at `now` (ms): the record, its person
 * entry (when new), its per-status index entry (moved when the status changed, its text refreshed), its applicant's
 * entries by when it was sent (`sentPlaces`: made with it, the status one moved with its status, both gone with its
 * applicant), the due-time entry, the change marker and log of its internship, and the track record's counters (as
 * `trackCountOps`: the difference). Up to about 20 mutations. With `batch`, the marker, the log and the counters go there instead (see `BatchWrites`),
 * and `batchOps` must add them to the same `op`.
 */
export function applicationOps(
  op: Deno.AtomicOperation,
  previous: ApplicationRecord | null,
  next: ApplicationRecord,
  now = Date.now(),
  batch?: BatchWrites,
): void {
  op.set(recordKey(next.id), next);
  if (!previous) op.sum(madeKey(next.internshipId), 1n);
  if (!previous && next.applicantId) {
    op.set(personKey(next.applicantId, next.internshipId), { id: next.id, createdAt: next.createdAt });
  }
  if (previous && previous.applicantId && !next.applicantId) {
    op.delete(personKey(previous.applicantId, previous.internshipId));
  }
  if (previous) op.delete(statusKey(previous));
  sentOps(op, previous, next);
  const t = searchTextOf(next);
  op.set(statusKey(next), { t } satisfies StatusEntry);
  if (previous?.dueAt && previous.dueAt !== next.dueAt) op.delete(dueKey(Date.parse(previous.dueAt), previous.id));
  if (next.dueAt && next.dueAt !== previous?.dueAt) op.set(dueKey(Date.parse(next.dueAt), next.id), true);
  const change: PipelineChange = {
    status: next.status,
    createdMs: Date.parse(next.createdAt),
    t,
    v: next.history.length,
  };
  if (batch) {
    const changes = batch.changes.get(next.internshipId) ?? [];
    changes.push([next.id, change]);
    batch.changes.set(next.internshipId, changes);
    for (const count of countChanges(previous, next)) batch.counts.push(count);
    return;
  }
  op.set(logKey(next.internshipId, now, next.id), change, { expireIn: LOG_KEPT_MS })
    .sum(changesKey(next.internshipId), 1n);
  trackCountOps(op, applicationCounts(previous), applicationCounts(next));
}

/**
 * Adds to `op` the change of the applicant's entries by when the application was sent (`sentPlaces`) from `previous`
 * (null for a new application) to `next`: both made with it, the status entry moved when the status changes, both
 * deleted when it loses its applicant (account deletion).
 */
function sentOps(op: Deno.AtomicOperation, previous: ApplicationRecord | null, next: ApplicationRecord): void {
  const was = previous?.applicantId ? previous : null;
  const is = next.applicantId ? next : null;
  const createdMs = Date.parse(next.createdAt);
  if (was && (!is || was.status !== is.status)) {
    op.delete(sentStatusKey(was.applicantId!, was.status, createdMs, was.id));
  }
  if (was && !is) op.delete(sentKey(was.applicantId!, createdMs, was.id));
  if (is && (!was || was.status !== is.status)) {
    op.set(sentStatusKey(is.applicantId!, is.status, createdMs, is.id), null);
  }
  if (is && !was) op.set(sentKey(is.applicantId!, createdMs, is.id), null);
}

/**
 * Adds to `op` the deletion of every entry by when it was sent (`sentPlaces`) that application `place` of `applicantId`
 * could have (all statuses), for a person entry whose application is gone or not theirs (`forgetApplicant`).
 */
export function forgetSentOps(op: Deno.AtomicOperation, applicantId: string, place: PersonEntry): void {
  const createdMs = Date.parse(place.createdAt);
  op.delete(sentKey(applicantId, createdMs, place.id));
  for (const status of APPLICATION_STATUSES) op.delete(sentStatusKey(applicantId, status, createdMs, place.id));
}

/** A place in a person's applications ordered by when they were sent: the time (ms) and the id. */
export interface PersonPlace {
  createdMs: number;
  id: string;
}

/**
 * The places of `applicantId`'s next `limit` applications (of `status` when given) newest first (the later sent, then
 * the greater id), read from their entries by when they were sent in one list: from the newest, or those before
 * `before` (`before` itself too when `inclusive`). Complete once `SENT_INDEX_BACKFILL` is done (`SENT_INDEX_PROGRESS`).
 */
export async function sentPlaces(
  kv: Deno.Kv,
  { applicantId, status, before, limit }: {
    applicantId: string;
    status?: ApplicationStatus;
    before: (PersonPlace & { inclusive: boolean }) | null;
    limit: number;
  },
): Promise<PersonPlace[]> {
  const prefix = status
    ? ["applications_sent_by_person_status", applicantId, status]
    : ["applications_sent_by_person", applicantId];
  // A key one part longer than `before`'s sorts right after it, so that it ends the list past `before`.
  const selector = before
    ? { prefix, end: [...prefix, before.createdMs, before.id, ...(before.inclusive ? [""] : [])] }
    : { prefix };
  const places: PersonPlace[] = [];
  for await (const { key } of kv.list(selector, { limit, reverse: true })) {
    places.push({ createdMs: key.at(-2) as number, id: key.at(-1) as string });
  }
  return places;
}

/** The progress of `SENT_INDEX_BACKFILL` (`backfillDone` tells the readers when it is done). */
export const SENT_INDEX_PROGRESS: Deno.KvKey = ["applications_meta", "sent_index"];

/**
 * The applications sent before their applicants' entries by when they were sent (`sentPlaces`), indexed once by
 * `runBackfill` (docs/decisions.md, Background work, "Index backfills"): the records in key order, 50 a page and a
 * commit (records up to 64 KB as listed), those of a deleted account (no applicant) walked past.
 */
export const SENT_INDEX_BACKFILL: Backfill<ApplicationRecord> = {
  progressKey: SENT_INDEX_PROGRESS,
  prefix: ["applications"],
  page: 50,
  needs: (record) => record.applicantId !== null,
  write: (op, { value: { applicantId, status, createdAt, id } }) => {
    const createdMs = Date.parse(createdAt);
    op.set(sentKey(applicantId!, createdMs, id), null).set(sentStatusKey(applicantId!, status, createdMs, id), null);
  },
};

/**
 * The applications withdrawn while a withdrawn application's search text still held its applicant's college, role,
 * field and interests (before 29 Nov 2026), written again once by `runBackfill` so that no search for those finds them
 * (`searchTextOf`; docs/decisions.md, Applications, "Status changes"): the records in key order, 50 a page; a withdrawn
 * one with an applicant is written as any write of it is (`applicationOps`: its status entry's text, and the change log
 * the posters' lists kept in memory catch up from), 10 a commit (records up to 64 KB).
 */
export const WITHDRAWN_SEARCH_BACKFILL: Backfill<ApplicationRecord> = {
  progressKey: ["applications_meta", "withdrawn_search"],
  prefix: ["applications"],
  page: 50,
  perCommit: 10,
  needs: (record) => record.status === "withdrawn" && record.applicant !== null,
  write: (op, { value }) => applicationOps(op, value, value),
};

/** The applications of `ids` as stored (`getManyChunked`), by id; unknown ids are absent. */
export async function readApplications(
  kv: Deno.Kv,
  ids: readonly string[],
): Promise<Map<string, Deno.KvEntry<ApplicationRecord>>> {
  const found = new Map<string, Deno.KvEntry<ApplicationRecord>>();
  for (const entry of await getManyChunked<ApplicationRecord>(kv, ids.map(recordKey))) {
    if (entry.value) found.set(entry.value.id, entry as Deno.KvEntry<ApplicationRecord>);
  }
  return found;
}

/** The person entries of `applicantId` (every internship they applied to), in key order, 500 a list round trip. */
export async function personEntries(
  kv: Deno.Kv,
  applicantId: string,
): Promise<{ internshipId: string; entry: PersonEntry }[]> {
  const found: { internshipId: string; entry: PersonEntry }[] = [];
  for await (
    const item of kv.list<PersonEntry>({ prefix: ["applications_by_person", applicantId] }, { batchSize: 500 })
  ) {
    found.push({ internshipId: item.key[2] as string, entry: item.value });
  }
  return found;
}

/**
 * The person entries of `applicantId` for `internshipIds` (those they applied to; the others are absent), read with
 * `getManyChunked`: one `getMany` per 10 ids, whatever the person applied to elsewhere.
 */
export async function personEntriesOf(
  kv: Deno.Kv,
  applicantId: string,
  internshipIds: readonly string[],
): Promise<{ internshipId: string; entry: PersonEntry }[]> {
  const read = await getManyChunked<PersonEntry>(kv, internshipIds.map((id) => personKey(applicantId, id)));
  return read.flatMap((item) => item.value ? [{ internshipId: item.key[2] as string, entry: item.value }] : []);
}

/** Due entries decoded between two of `dueIds`'s turns. */
const DUE_PAGE = 50;

/**
 * The ids due at or before `now` (ms) in the timeout index, oldest due first, at most `limit`, read 50 at a time with
 * `turn` awaited after each 50 (a job's turn, so that decoding hundreds of keys is not one piece of work).
 */
export async function dueIds(
  kv: Deno.Kv,
  now: number,
  limit: number,
  turn: () => Promise<void> = () => Promise.resolve(),
): Promise<{ id: string; dueMs: number }[]> {
  const found: { id: string; dueMs: number }[] = [];
  const iter = kv.list({ start: ["applications_due"], end: ["applications_due", now + 1] }, {
    limit,
    batchSize: Math.min(limit, DUE_PAGE),
  });
  for await (const entry of iter) {
    found.push({ id: entry.key[2] as string, dueMs: entry.key[1] as number });
    if (found.length % DUE_PAGE === 0) await turn();
  }
  return found;
}

/** One page of the log of `internshipId` from `fromMs` on: the changes in key order, with their ids. */
export async function logSince(
  kv: Deno.Kv,
  internshipId: string,
  fromMs: number,
): Promise<{ id: string; change: PipelineChange }[]> {
  const changes: { id: string; change: PipelineChange }[] = [];
  const iter = kv.list<PipelineChange | BatchedChanges>(
    {
      start: ["applications_log", internshipId, fromMs],
      end: ["applications_log", internshipId, Number.MAX_SAFE_INTEGER],
    },
    { batchSize: 500 },
  );
  for await (const entry of iter) {
    const value = entry.value;
    if ("changes" in value) { for (const [id, change] of value.changes) changes.push({ id, change }); }
    else changes.push({ id: entry.key[3] as string, change: value });
  }
  return changes;
}

/** How far (ms) before an application's sending `logEntriesOf` looks: the log's keys carry each writer's own clock. */
const LOG_CLOCK_SLACK_MS = 60_000;

/** An entry of the change log, one application's change or a batch of them. */
export type LogEntry = Deno.KvEntry<PipelineChange | BatchedChanges>;

/**
 * The change log's entries that carry a change of application `record` (as read): its own entries and the batched
 * ones that hold it, from its sending on (the log keeps a day, so at most a day's entries of its internship are read;
 * `forgetApplicant` reads a few applications' at a time), for `forgetLogOps`.
 */
export async function logEntriesOf(kv: Deno.Kv, record: ApplicationRecord, now = Date.now()): Promise<LogEntry[]> {
  const fromMs = Math.max(Date.parse(record.createdAt), now - LOG_KEPT_MS) - LOG_CLOCK_SLACK_MS;
  const found: LogEntry[] = [];
  const iter = kv.list<PipelineChange | BatchedChanges>(
    {
      start: ["applications_log", record.internshipId, fromMs],
      end: ["applications_log", record.internshipId, Number.MAX_SAFE_INTEGER],
    },
    { batchSize: 500 },
  );
  for await (const entry of iter) {
    const value = entry.value;
    const holds = "changes" in value ? value.changes.some(([id]) => id === record.id) : entry.key[3] === record.id;
    if (holds) found.push(entry);
  }
  return found;
}

/**
 * Adds to `op` the removal of application `id`'s changes from the log `entries` (`logEntriesOf`, read before `now`,
 * ms), so what it said of the applicant (the search text: name, college, role, field) does not outlive their account's
 * deletion by the day the log keeps it: its own entries go; a batched entry is checked and written again without its
 * change, expiring when it would have, or goes when that change was its only one. The write that forgets the applicant
 * puts its own change in the log (`applicationOps`), which the processes' in-memory lists catch up from instead.
 */
export function forgetLogOps(op: Deno.AtomicOperation, id: string, entries: LogEntry[], now = Date.now()): void {
  for (const entry of entries) {
    const atMs = entry.key[2] as number;
    if (atMs >= now) continue; // the forgetting write's own entry, or a later one
    const value = entry.value;
    const rest = "changes" in value ? value.changes.filter(([changed]) => changed !== id) : [];
    const left = atMs + LOG_KEPT_MS - now;
    if (rest.length === 0 || left <= 0) {
      op.delete(entry.key);
      continue;
    }
    op.check(entry).set(entry.key, { changes: rest } satisfies BatchedChanges, { expireIn: left });
  }
}

/** Every entry of the per-status index of `internshipId`: status, when sent, id and search text, oldest first by status. */
export async function* statusIndex(
  kv: Deno.Kv,
  internshipId: string,
): AsyncGenerator<{ status: ApplicationStatus; createdMs: number; id: string; t: string }> {
  for await (
    const entry of kv.list<StatusEntry>({ prefix: ["applications_by_internship", internshipId] }, { batchSize: 1000 })
  ) {
    const [, , status, createdMs, id] = entry.key as [string, string, ApplicationStatus, number, string];
    yield { status, createdMs, id, t: entry.value.t };
  }
}

/** A place in an internship's applications ordered by when they were sent: the time (ms) and the id. */
export interface SentPlace {
  createdMs: number;
  id: string;
}

/**
 * The next `limit` applications of `internshipId` in `statuses` after `after` (none before it: null) and sent before
 * `beforeMs`, ordered by when they were sent (then id), read from the per-status index (one short list per status). An
 * application that moves between two of `statuses` keeps its place, so a walk from page to page meets it once.
 */
export async function sentPage(
  kv: Deno.Kv,
  { internshipId, statuses, after, beforeMs, limit }: {
    internshipId: string;
    statuses: readonly ApplicationStatus[];
    after: SentPlace | null;
    beforeMs: number;
    limit: number;
  },
): Promise<SentPlace[]> {
  const lists = await Promise.all(statuses.map((status) =>
    Array.fromAsync(kv.list<StatusEntry>({
      start: after === null
        ? ["applications_by_internship", internshipId, status]
        : ["applications_by_internship", internshipId, status, after.createdMs, after.id],
      end: ["applications_by_internship", internshipId, status, beforeMs],
    }, { limit: limit + 1 }))
  ));
  return lists.flat()
    .map(({ key }) => ({ createdMs: key[3] as number, id: key[4] as string }))
    .filter((place) => after === null || place.createdMs !== after.createdMs || place.id !== after.id)
    .sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
