/**
 * The `applications-timeout` job (docs/decisions.md, Applications, "Every applicant hears back"): every day at 09:00
 * IST, it rejects the applications still waiting (`applied` or `shortlisted`) whose due time passed (15 days after the
 * internship's deadline, or 30 after applying without one), on behalf of the organization that did not answer, and
 * tells each applicant once per run, in the app and by e-mail (queued in the outbox, which the `outbox` job delivers).
 * The due time is judged by the internship's deadline as it is when the job meets the application: one whose deadline
 * was extended (or added) since it was sent is not rejected but moved to its new due time (its record and due entry,
 * one checked write of the batch's), so an edit of the listing writes nothing to its applications.
 *
 * A run holds a lease (`["applications_timeout_lease"]`, 2 minutes, renewed as it goes) that every one of its writes
 * checks, so two runs never work at once and a run that lost it (its process stalled) stops; a run whose process died
 * is taken over once the lease runs out, and it finds its work where the last one left it. It then works in two steps:
 * 1. The moves: it reads the due-time index 500 entries at a time and writes each batch in atomic writes of up to 15
 *    moves (fewer when KV's limits bind first), every move checked against the record as read, so a poster's move in
 *    between wins and the job leaves that one. A move writes the record and its indexes and the applicant's tracker
 *    item; an applicant's moves of a batch go to one write where they fit, with one "untold" entry naming them all
 *    (`["applications_untold", applicantId, firstApplicationId]` → `TimedOutItem[]`); what the moves of one write share
 *    (each internship's change marker and change log, the track record's counters) is written once per write
 *    (`BatchWrites`). A write's size is estimated from the records' texts (`valueBytes`), never by serialising them
 *    twice. The next write is prepared while KV commits the last two (a local KV commits on a thread of its own, after
 *    converting the write on the event loop's thread), and records are read 20 at a time: a local KV answers reads
 *    and writes in turn, so a request's own reads wait for two small writes and a few reads of the job at most. A
 *    batch keeps only what it still needs (a move is prepared when packed, a write let go once sent), so the young
 *    generation's collections, which copy whatever is still reachable, stay short. It gives way to requests between
 *    batches, and after each 50 due entries decoded, after the records and again the tracker items of each read,
 *    every 5 moves packed and around sending each write it takes a turn (`InFlightRequests.turns`): the event loop
 *    takes in the requests that arrived (a turn through its sockets; `setImmediate` would not take them in, and
 *    `setTimeout(0)` waits a millisecond or more), and the job waits while requests are being answered: a request
 *    waits for the piece of the job running when it arrives, most well under a millisecond of CPU, never for a batch
 *    (`bench/applications_job.ts` measures the pieces).
 * 2. The telling: for each applicant with untold entries, one write removes them and adds one notification and one
 *    e-mail naming every application closed (`tellTimedOutOps`), four applicants a write, each on a turn of its own,
 *    each applicant read afresh and their user record checked (one who deleted their account is told nothing).
 *    Untold entries a stopped run left are told by the next.
 * It also drops the poster notices' day counters older than two days.
 */
import { setImmediate } from "node:timers";
import { istToday } from "@/lib/dates.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { DEFAULT_LANG } from "@/lib/i18n/languages.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import { endedAt } from "@/lib/internships/ended.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { followApplicationOps, readTrackerItems, type TrackerEntries } from "@/lib/saved/saved.ts";
import {
  type NamedListing,
  namedListing,
  recipientById,
  recipientEntry,
  timedOut,
  TIMEOUT_SCHEDULE,
  timeoutDueAt,
} from "./applications.ts";
import { dropDayCounts } from "./daily.ts";
import { type Recipient, tellTimedOutOps, type TimedOutItem, timeoutMessage } from "./notices.ts";
import { type ApplicationRecord, WAITING } from "./schema.ts";
import { countChanges } from "./track_record.ts";
import { applicationOps, batchOps, BatchWrites, dueIds, dueKey, readApplications, recordKey } from "./store.ts";
import { valueBytes } from "@/lib/kv/value_size.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Due entries read per batch. */
const BATCH = 500;
/** Most batches one run works through (200,000 applications); the next run goes on. */
const MAX_BATCHES = 400;
/** What one atomic write may hold here, under KV's limits (100 checks, 1,000 mutations, 800 KiB, 80 KiB of keys). */
const MAX_CHECKS = 95;
const MAX_MUTATIONS = 900;
const MAX_BYTES = 500_000;
const MAX_KEY_BYTES = 64_000;
/**
 * Most moves one write holds (a postponement counts as one): sending a write converts every mutation on the event
 * loop's thread (about 25 µs of CPU a move), so a request that arrives meanwhile waits for that: 15 moves, about half a
 * millisecond (30 took one to two).
 * Each write also costs KV about 0.7 ms of its writer's CPU whatever it holds; with two in flight
 * (`WRITES_IN_FLIGHT`) that writer stays busy while the next is prepared: over 100,000 moves, quiet, 40–47 s with writes
 * of 15 against 40–41 s with writes of 30 one at a time (docs/performance.md, Applications benchmark).
 */
const MOVES_PER_WRITE = 15;
/** Applicants told per write of the second step (each one notification, one e-mail of up to 60 KB). */
const TOLD_PER_WRITE = 4;
/** Most untold entries one digest removes (its write stays under KV's 1,000 mutations). */
const UNTOLD_PER_DIGEST = 800;
/** Untold entries read at once by the second step (each names up to 15 applications): 50 decode in well under 1 ms. */
const UNTOLD_PAGE = 50;
/** How long (ms) a run's lease lasts, and after how long it is renewed. */
const LEASE_MS = 2 * 60_000;
const RENEW_AFTER_MS = 20_000;

const leaseKey: Deno.KvKey = ["applications_timeout_lease"];
const untoldKey = (applicantId: string, applicationId: string): Deno.KvKey => [
  "applications_untold",
  applicantId,
  applicationId,
];

/** Who runs the job and until when (ms since the epoch, by the clock). */
interface RunLease {
  holder: string;
  until: number;
}

/**
 * What a run did: rejected; moved to a later due time (their deadline moved); applicants told; left (moved meanwhile,
 * lost a race, or no listing); counters dropped.
 */
export interface TimeoutCounts {
  rejected: number;
  postponed: number;
  told: number;
  skipped: number;
  dayCounts: number;
  [kind: string]: number;
}

/**
 * Takes the run's lease (`held` null: only when nobody holds a live one) or renews `held`. Returns the lease as
 * written, or null when another run holds it (or took it over).
 */
async function leaseRun(
  kv: Deno.Kv,
  holder: string,
  held: Deno.KvEntry<RunLease> | null,
): Promise<Deno.KvEntry<RunLease> | null> {
  const current = held ?? await kv.get<RunLease>(leaseKey);
  if (!held && current.value && current.value.until > Date.now()) return null;
  const value: RunLease = { holder, until: Date.now() + LEASE_MS };
  const result = await kv.atomic().check(current).set(leaseKey, value).commit();
  return result.ok ? { key: leaseKey, value, versionstamp: result.versionstamp } : null;
}

/** What a piece of an atomic write costs against KV's limits: checks, mutations, bytes of values and of keys. */
interface Cost {
  checks: number;
  mutations: number;
  bytes: number;
  keyBytes: number;
}

/**
 * An internship as the run reads it once: its title, its organization's name and whether an admin holds it
 * (`namedListing`), its deadline now (or null) and when its poster closed or deleted it, the earlier (or null).
 */
interface ListingFacts extends NamedListing {
  deadline: string | null;
  closedAt: string | null;
}

/**
 * One rejection as read, to be prepared when packed: the record as read, its tracker item (when it follows), its
 * internship's title and organization.
 */
interface Pending {
  entry: Deno.KvEntry<ApplicationRecord>;
  /** The applicant's tracker item as read, when it moves too (null: no item, or one already `rejected`). */
  tracker: TrackerEntries | null;
  listing: ListingFacts;
}

/** A write sent to KV: the ids of the applications (and due entries) it holds, what it moved, and KV's answer. */
interface Sent {
  ids: string[];
  moves: number;
  postponed: number;
  commit: Promise<Deno.KvCommitResult | Deno.KvCommitError>;
}

/**
 * What the move of `next` costs a write: the record (checked and written), its status entry moved, its applicant's
 * status entry by when it was sent moved, its due entry, its share of the untold entry (its item) and, when `follows`,
 * the tracker item (checked and written) and its listing entry; `counters` the track record's counters it changes (each
 * with its organization's marker at worst). Key bytes count the ids (ASCII) where they appear and 40 bytes of each
 * key's names and numbers.
 */
function moveCost(next: ApplicationRecord, item: TimedOutItem, follows: boolean, counters: number): Cost {
  const ids = next.id.length + 40;
  const person = next.applicantId ? next.applicantId.length + ids + 40 : 0;
  const tracker = next.internshipId.length + (next.applicantId?.length ?? 0) + 40;
  return {
    checks: 1 + (follows ? 1 : 0),
    mutations: 4 + (person ? 2 : 0) + (follows ? 2 : 0) + counters * 2,
    // The record, the search text in its status entry and in the change log, its item and the tracker item.
    bytes: valueBytes(next) + 2 * valueBytes(next.applicant) + valueBytes(item) + (follows ? 1_000 : 0),
    keyBytes: 5 * ids + 2 * person + 2 * (next.internshipId.length + 20) + (follows ? 3 * tracker : 0),
  };
}

/**
 * What moving `next` to its later due time costs a write: the record (checked and written), its status entry written
 * again, its due entry moved; bytes and key bytes counted as `moveCost` counts them.
 */
function postponeCost(next: ApplicationRecord): Cost {
  return {
    checks: 1,
    mutations: 5,
    bytes: valueBytes(next) + 2 * valueBytes(next.applicant),
    keyBytes: 5 * (next.id.length + 40) + 2 * (next.internshipId.length + 20),
  };
}

/** What an untold entry costs besides its items: one mutation, and its key. */
const untoldCost = (applicantId: string, applicationId: string): Cost => ({
  checks: 0,
  mutations: 1,
  bytes: 16,
  keyBytes: applicantId.length + applicationId.length + 60,
});

/**
 * An atomic write being filled, with what it holds against the limits, and the untold entry it is filling for one
 * applicant (the items of that applicant's moves in this write).
 */
class Write {
  readonly op: Deno.AtomicOperation;
  readonly batch = new BatchWrites();
  /** Moves per internship in this write. */
  readonly internships = new Map<string, number>();
  /** The ids of the applications whose moves it holds, and of the due entries it removes. */
  readonly ids: string[] = [];
  moves = 0;
  postponed = 0;
  checks = 1;
  mutations = 0;
  bytes = 0;
  keyBytes = 0;
  untold: { applicantId: string; items: TimedOutItem[] } | null = null;

  constructor(kv: Deno.Kv, lease: Deno.KvEntry<RunLease>) {
    this.op = kv.atomic().check(lease);
  }

  /** Whether a piece costing `cost` (and, for a new internship, its marker and log entry) still fits. */
  fits(cost: Cost, internshipId?: string): boolean {
    const extra = internshipId && (this.internships.get(internshipId) ?? 0) % 100 === 0 ? 2 : 0;
    return this.moves + this.postponed < MOVES_PER_WRITE && this.checks + cost.checks <= MAX_CHECKS &&
      this.mutations + cost.mutations + extra <= MAX_MUTATIONS && this.bytes + cost.bytes <= MAX_BYTES &&
      this.keyBytes + cost.keyBytes <= MAX_KEY_BYTES;
  }

  take(cost: Cost, internshipId?: string): void {
    if (internshipId) {
      // Per internship its marker, and a log entry every 100 changes.
      const moves = this.internships.get(internshipId) ?? 0;
      if (moves === 0) this.mutations++;
      if (moves % 100 === 0) this.mutations++;
      this.internships.set(internshipId, moves + 1);
    }
    this.checks += cost.checks;
    this.mutations += cost.mutations;
    this.bytes += cost.bytes;
    this.keyBytes += cost.keyBytes;
  }

  /** Writes the untold entry being filled: keyed by its first application, holding every item of its applicant here. */
  closeUntold(): void {
    if (!this.untold) return;
    const { applicantId, items } = this.untold;
    this.op.set(untoldKey(applicantId, items[0].applicationId), items);
    this.untold = null;
  }
}

/**
 * A turn of the event loop between two pieces of a batch when the run is given no `turn` (no server beside it: tests,
 * `bench/applications_job.ts`): other work of the process runs, but network I/O is not taken in (`IoTurns`).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves prepared (written into their write: about 50 µs of CPU each) between two turns of the event loop. */
const MOVES_PER_TURN = 5;
/**
 * Writes sent and not yet answered at once: the next write is prepared and converted while KV commits the last ones.
 * Two: with one, the event loop waited for each commit before sending the next, and writes of 10 moves made a run over
 * 100,000 take 61 s instead of 41 s; a local KV answers reads and writes in turn, so a request's own reads wait for the
 * writes already sent (two of 15 moves: about what one of 30 took).
 */
const WRITES_IN_FLIGHT = 2;
/**
 * Records read at once (in `getMany`s of ten), so that a request's own reads wait for few of the job's, and decoding
 * the answers (with their tracker items) takes under a millisecond.
 */
const READ_WAVE = 20;

/**
 * Rejects every waiting application due at or before `now` and tells their applicants. `giveWay` is awaited between
 * batches; between two pieces of a batch, `turn` (the server's `InFlightRequests.turns`: the requests that arrived are
 * taken in, and those in flight answered first), or without it one turn of the event loop. Another run holding the
 * lease: does nothing (every count 0).
 * @returns the counts of `TimeoutCounts`.
 */
export async function timeOutApplications(
  kv: Deno.Kv,
  { now, appUrl, giveWay, turn = nextTurn }: {
    now: Date;
    appUrl: string;
    giveWay: () => Promise<void>;
    turn?: () => Promise<void>;
  },
): Promise<TimeoutCounts> {
  const counts: TimeoutCounts = { rejected: 0, postponed: 0, told: 0, skipped: 0, dayCounts: 0 };
  const holder = crypto.randomUUID();
  let lease = await leaseRun(kv, holder, null);
  if (!lease) return counts;
  let renewedAt = Date.now();
  /** Renews the lease when due; false once it was lost. */
  const keepLease = async () => {
    if (Date.now() - renewedAt < RENEW_AFTER_MS) return true;
    lease = lease && await leaseRun(kv, holder, lease);
    renewedAt = Date.now();
    return lease !== null;
  };
  // Each internship's title, organization and deadline, and each applicant, read once per run.
  const listings = new Map<string, ListingFacts | null>();
  const recipients = new Map<string, Recipient | null>();
  // The rejection's message per language and organization, formatted once per run.
  const messages = new Map<string, string>();
  const messageOf = (recipient: Recipient | null, organization: string) => {
    const key = `${recipient?.language ?? DEFAULT_LANG} ${organization}`;
    let message = messages.get(key);
    if (message === undefined) {
      message = timeoutMessage(translatorOfPerson(recipient ?? {}), organization);
      messages.set(key, message);
    }
    return message;
  };
  const at = now.toISOString();
  const recipientOf = async (id: string) => {
    if (!recipients.has(id)) recipients.set(id, await recipientById(kv, id));
    return recipients.get(id)!;
  };
  const readListings = (ids: Iterable<string>) =>
    Promise.all(
      [...new Set(ids)].filter((id) => !listings.has(id)).map(async (id) => {
        const found = await internshipRecord(kv, id);
        listings.set(
          id,
          found && {
            title: found.view.title,
            organization: found.view.organization?.name ?? found.view.hiringOrganization,
            held: found.view.moderation.status !== "clear",
            deadline: found.record.deadline,
            // A deleted listing is judged as one its poster closed when deleting it.
            closedAt: endedAt(found.record),
          },
        );
      }),
    );

  const seen = new Set<string>();
  for (let round = 0; round < MAX_BATCHES && await keepLease(); round++) {
    const due = (await dueIds(kv, now.getTime(), BATCH + seen.size, turn)).filter((item) => !seen.has(item.id));
    if (due.length === 0) break;
    // The moves, by applicant (first due first): an applicant's moves of a batch go to as few writes as they fit in,
    // with one untold entry per write naming them all. Read 20 at a time, so that a request's own KV reads never queue
    // behind hundreds of the job's.
    // Only what the batch still needs is kept: each record's versionstamp as read, the moves not yet packed, and the
    // write being filled; a write's mutations go with it once sent, a move's once packed (a collection of the young
    // generation copies whatever is still reachable, so a batch kept whole to its end costs every one of them).
    const versions = new Map<string, string>();
    const stale: { id: string; dueMs: number; entry: Deno.KvEntry<ApplicationRecord> | undefined }[] = [];
    const byApplicant = new Map<string, Pending[]>();
    // Applications whose due time, by their internship's deadline now, is still ahead: each with that due time.
    const postpone: { entry: Deno.KvEntry<ApplicationRecord>; dueAt: string }[] = [];
    for (let from = 0; from < due.length; from += READ_WAVE) {
      const wave = due.slice(from, from + READ_WAVE);
      const read = await readApplications(kv, wave.map((item) => item.id));
      const waiting: Deno.KvEntry<ApplicationRecord>[] = [];
      for (const { id, dueMs } of wave) {
        const entry = read.get(id);
        if (entry) versions.set(id, entry.versionstamp);
        if (!entry || !WAITING.includes(entry.value.status) || !entry.value.dueAt) stale.push({ id, dueMs, entry });
        else waiting.push(entry);
      }
      const withApplicant = waiting.filter((entry) => entry.value.applicantId);
      // The records were decoded on a turn of their own; the tracker items, listings and applicants on the next.
      await turn();
      const [trackers] = await Promise.all([
        readTrackerItems(
          kv,
          withApplicant.map((entry) => ({ userId: entry.value.applicantId!, internshipId: entry.value.internshipId })),
        ),
        readListings(waiting.map((entry) => entry.value.internshipId)),
        Promise.all([...new Set(withApplicant.map((entry) => entry.value.applicantId!))].map(recipientOf)),
      ]);
      const trackerOf = new Map(withApplicant.map((entry, i) => [entry.value.id, trackers[i]]));
      for (const entry of waiting) {
        const listing = listings.get(entry.value.internshipId);
        if (!listing) {
          counts.skipped++;
          seen.add(entry.value.id);
          continue;
        }
        const dueAt = timeoutDueAt(listing, entry.value.createdAt);
        if (Date.parse(dueAt) > now.getTime()) {
          postpone.push({ entry, dueAt });
          continue;
        }
        const found = trackerOf.get(entry.value.id) ?? null;
        const tracker = found?.[0].value != null && found[0].value.status !== "rejected" ? found : null;
        const group = entry.value.applicantId ?? `none:${entry.value.id}`;
        const pending = byApplicant.get(group) ?? [];
        pending.push({ entry, tracker, listing });
        byApplicant.set(group, pending);
      }
      // The reads' answers were decoded on a turn of their own; the next reads start on the next.
      await turn();
    }

    // Pack the batch into writes within the limits; they touch different records and share only sums. Each is sent
    // on its own turn of the event loop: converting a write for KV takes the event loop's thread, so requests that
    // came in meanwhile are served between two writes rather than after the whole batch.
    const sent: Sent[] = [];
    let open = null as Write | null;
    const held = lease!;
    /**
     * Sends the write being filled once at most `WRITES_IN_FLIGHT - 1` others are unanswered, on a turn of its own:
     * converting it for KV (about 25 µs of CPU a move) is a piece of its own.
     */
    const send = async () => {
      const write = open;
      if (!write) return;
      open = null;
      write.closeUntold();
      // The change log is stamped now, when it is sent, not at the run's start: a poster's list catches up from
      // shortly before its last read, and a run can reach this write minutes after it began.
      batchOps(write.op, write.batch, Date.now());
      if (sent.length >= WRITES_IN_FLIGHT) await sent[sent.length - WRITES_IN_FLIGHT].commit;
      await turn();
      const commit = write.op.commit();
      // Awaited later (before a later send, or with the batch's others): a KV error there ends the run with that error,
      // while this handler keeps it from counting as unhandled in the meantime (which would end the process).
      commit.catch(() => {});
      sent.push({ ids: write.ids, moves: write.moves, postponed: write.postponed, commit });
      await turn();
    };
    /** The write `cost` goes to: the one being filled while it fits, else a new one (the last one is sent). */
    const writeFor = async (cost: Cost, internshipId?: string) => {
      if (open && !open.fits(cost, internshipId)) await send();
      open ??= new Write(kv, held);
      open.take(cost, internshipId);
      return open;
    };
    for (const { id, dueMs, entry } of stale) {
      // A due entry its record no longer has: removed, checked against the record as read.
      const write = await writeFor({ checks: 1, mutations: 1, bytes: 200, keyBytes: 200 });
      write.op.check(entry ?? { key: recordKey(id), versionstamp: null }).delete(dueKey(dueMs, id));
      write.ids.push(id);
    }
    const moved = new Set<string>();
    for (const { entry, dueAt } of postpone) {
      // Its deadline moved since it was sent: the record and its due entry go to the new due time, checked as read.
      if (moved.size > 0 && moved.size % MOVES_PER_TURN === 0) await turn();
      const next: ApplicationRecord = { ...entry.value, dueAt };
      const write = await writeFor(postponeCost(next), next.internshipId);
      write.op.check(entry);
      applicationOps(write.op, entry.value, next, now.getTime(), write.batch);
      write.postponed++;
      write.ids.push(next.id);
      moved.add(next.id);
    }
    for (const [group, pending] of byApplicant) {
      byApplicant.delete(group);
      for (const { entry, tracker, listing } of pending) {
        if (moved.size > 0 && moved.size % MOVES_PER_TURN === 0) await turn();
        const applicantId = entry.value.applicantId;
        const recipient = applicantId ? recipients.get(applicantId) ?? null : null;
        const named = namedListing(entry.value, listing);
        const next = timedOut(entry.value, { message: messageOf(recipient, named.organization), now: at });
        const item = { applicationId: next.id, ...named };
        const cost = moveCost(next, item, tracker !== null, countChanges(entry.value, next).length);
        // A move opens an untold entry unless the write it goes to holds one of its applicant already.
        const joins = applicantId !== null && open?.untold?.applicantId === applicantId &&
          open.fits(cost, next.internshipId);
        const write = await writeFor(
          applicantId && !joins ? plus(cost, untoldCost(applicantId, next.id)) : cost,
          next.internshipId,
        );
        if (applicantId && !joins) {
          write.closeUntold();
          write.untold = { applicantId, items: [] };
        }
        write.op.check(entry);
        applicationOps(write.op, entry.value, next, now.getTime(), write.batch);
        if (applicantId && tracker) {
          followApplicationOps(write.op, {
            userId: applicantId,
            internshipId: next.internshipId,
            entries: tracker,
            status: "rejected",
            now: at,
            create: false,
          });
        }
        write.untold?.items.push(item);
        write.moves++;
        write.ids.push(next.id);
        moved.add(next.id);
      }
    }
    await send();
    const results = await Promise.all(sent.map((write) => write.commit));
    const failed = sent.filter((_, i) => !results[i].ok);
    for (const [i, write] of sent.entries()) {
      if (!results[i].ok) continue;
      counts.rejected += write.moves;
      counts.postponed += write.postponed;
    }
    if (failed.length > 0) {
      // A write fails when one of its records changed meanwhile (or the lease was lost): the records that changed are
      // left to the next run (the poster's move wins); the others are done again with the next batch.
      const ids = failed.flatMap((write) => write.ids);
      const [again, leaseNow] = await Promise.all([readApplications(kv, ids), kv.get(leaseKey)]);
      if (leaseNow.versionstamp !== lease.versionstamp) {
        lease = null;
        break;
      }
      for (const id of ids) {
        if (moved.has(id) && again.get(id)?.versionstamp !== versions.get(id)) {
          counts.skipped++;
          seen.add(id);
        }
      }
    }
    await giveWay();
  }

  if (lease) {
    const told = await tellUntold(kv, {
      lease: () => lease,
      keepLease,
      appUrl,
      now,
      giveWay,
      turn,
    });
    counts.told = told;
  }
  counts.dayCounts = await dropDayCounts(kv, istToday(new Date(now.getTime() - 2 * DAY_MS)));
  if (lease) await kv.atomic().check(lease).delete(leaseKey).commit();
  return counts;
}

/** The sum of two costs. */
const plus = (a: Cost, b: Cost): Cost => ({
  checks: a.checks + b.checks,
  mutations: a.mutations + b.mutations,
  bytes: a.bytes + b.bytes,
  keyBytes: a.keyBytes + b.keyBytes,
});

/** How often a write of `tellUntold` is tried when a person it tells changed meanwhile; then the next run goes on. */
const TELL_TRIES = 3;

/**
 * The second step: one notification and e-mail per applicant for every untold entry, in writes of 4 applicants, each
 * removing what it tells, checked against the lease and each applicant's user record, read afresh for the write (a
 * person who deleted their account meanwhile is told nothing); each applicant's notice is written on a turn of its own
 * (`turn`). Returns how many applicants were told.
 */
async function tellUntold(
  kv: Deno.Kv,
  { lease, keepLease, appUrl, now, giveWay, turn }: {
    lease: () => Deno.KvEntry<RunLease> | null;
    keepLease: () => Promise<boolean>;
    appUrl: string;
    now: Date;
    giveWay: () => Promise<void>;
    turn: () => Promise<void>;
  },
): Promise<number> {
  let told = 0;
  let group: { applicantId: string; items: TimedOutItem[]; keys: Deno.KvKey[] }[] = [];
  const flush = async () => {
    if (group.length === 0) return true;
    for (let tries = 0; tries < TELL_TRIES; tries++) {
      if (!await keepLease()) return false;
      const held = lease()!;
      const op = kv.atomic().check(held);
      const found = await Promise.all(group.map(({ applicantId }) => recipientEntry(kv, applicantId)));
      for (const [i, { items, keys }] of group.entries()) {
        await turn();
        for (const key of keys) op.delete(key);
        op.check(found[i].user);
        const recipient = found[i].recipient;
        if (recipient) tellTimedOutOps(op, { recipient, items, appUrl, now });
      }
      await turn();
      const { ok } = await op.commit();
      if (ok) {
        told += found.filter(({ recipient }) => recipient).length;
        group = [];
        await giveWay();
        return true;
      }
      // A person's record changed (or went) since it was read: read again; the lease lost: the run stops.
      if ((await kv.get(leaseKey)).versionstamp !== held.versionstamp) return false;
    }
    return false;
  };
  let last: (typeof group)[number] | null = null;
  const entries = kv.list<TimedOutItem[] | TimedOutItem>({ prefix: ["applications_untold"] }, {
    batchSize: UNTOLD_PAGE,
  });
  for await (const entry of entries) {
    const applicantId = entry.key[1] as string;
    if (!last || last.applicantId !== applicantId || last.keys.length >= UNTOLD_PER_DIGEST) {
      if (group.length >= TOLD_PER_WRITE && !await flush()) return told;
      last = { applicantId, items: [], keys: [] };
      group.push(last);
    }
    // An entry names the moves of one write; one left by an earlier version of the job names a single application.
    if (Array.isArray(entry.value)) last.items.push(...entry.value);
    else last.items.push(entry.value);
    last.keys.push(entry.key);
  }
  await flush();
  return told;
}

export const applicationsTimeoutJob: Job = {
  name: "applications-timeout",
  schedule: TIMEOUT_SCHEDULE,
  async run(ctx) {
    await using turns = ctx.requests.turns();
    return await timeOutApplications(ctx.kv, {
      now: ctx.now,
      appUrl: ctx.config.appUrl,
      giveWay: () => ctx.requests.giveWay(),
      turn: () => turns.next(),
    });
  },
};
