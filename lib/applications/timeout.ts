/**
 * The `applications-timeout` job (docs/decisions.md, Applications, "Every applicant hears back"): every day at 09:00
 * IST, it rejects the applications still waiting (`applied` or `shortlisted`) whose due time passed (15 days after the
 * internship's deadline, or 30 after applying without one), on behalf of the organization that did not answer, and
 * tells each applicant once per run, in the app and by e-mail (queued in the outbox, which the `outbox` job delivers).
 *
 * A run holds a lease (`["applications_timeout_lease"]`, 2 minutes, renewed as it goes) that every one of its writes
 * checks, so two runs never work at once and a run that lost it (its process stalled) stops; a run whose process died
 * is taken over once the lease runs out, and it finds its work where the last one left it. It then works in two steps:
 * 1. The moves: it reads the due-time index 500 entries at a time and writes each batch in as few atomic writes as KV's
 *    limits allow (up to 80 moves each), every move checked against the record as read, so a poster's move in between
 *    wins and the job leaves that one. A move writes the record and its indexes, the applicant's tracker item, and an
 *    "untold" entry (`["applications_untold", applicantId, applicationId]`); what applications of one write share
 *    (each internship's change marker and change log, the track record's counters) is written once per write
 *    (`BatchWrites`). It gives way to requests between batches, and lets the event loop take in requests every 100
 *    moves prepared and before each commit (a local KV commits on the event loop's thread).
 * 2. The telling: for each applicant with untold entries, one write removes them and adds one notification and one
 *    e-mail naming every application closed (`tellTimedOutOps`). Untold entries a stopped run left are told by the next.
 * It also drops the poster notices' day counters older than two days.
 */
import { istToday } from "@/lib/dates.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { followApplicationOps, readTrackerItems, type TrackerEntries } from "@/lib/saved/saved.ts";
import { recipientById, timedOut } from "./applications.ts";
import { dropDayCounts } from "./daily.ts";
import { type Recipient, tellTimedOutOps, type TimedOutItem } from "./notices.ts";
import { type ApplicationRecord, WAITING } from "./schema.ts";
import { countChanges } from "./track_record.ts";
import { applicationOps, batchOps, BatchWrites, dueIds, dueKey, readApplications, recordKey } from "./store.ts";

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
/** Applicants told per write of the second step (each one notification, one e-mail of up to 60 KB). */
const TOLD_PER_WRITE = 8;
/** Most untold entries one digest removes (its write stays under KV's 1,000 mutations). */
const UNTOLD_PER_DIGEST = 800;
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

/** What a run did: rejected; applicants told; left (moved meanwhile, lost a race, or no listing); counters dropped. */
export interface TimeoutCounts {
  rejected: number;
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

/** One rejection as prepared: the record as read, as it becomes, its tracker item and what it costs a write. */
interface Plan {
  entry: Deno.KvEntry<ApplicationRecord>;
  next: ApplicationRecord;
  tracker: TrackerEntries | null;
  item: TimedOutItem;
  checks: number;
  mutations: number;
  bytes: number;
  keyBytes: number;
}

/** An atomic write being filled, with what it holds against the limits. */
class Write {
  readonly op: Deno.AtomicOperation;
  readonly batch = new BatchWrites();
  /** Moves per internship in this write. */
  readonly internships = new Map<string, number>();
  moves = 0;
  checks = 1;
  mutations = 0;
  bytes = 0;
  keyBytes = 0;

  constructor(kv: Deno.Kv, lease: Deno.KvEntry<RunLease>) {
    this.op = kv.atomic().check(lease);
  }

  /** Whether a piece costing these (and, for a new internship, its marker and log entry) still fits. */
  fits(piece: { checks: number; mutations: number; bytes: number; keyBytes: number }, internshipId?: string): boolean {
    const extra = internshipId && (this.internships.get(internshipId) ?? 0) % 100 === 0 ? 2 : 0;
    return this.checks + piece.checks <= MAX_CHECKS && this.mutations + piece.mutations + extra <= MAX_MUTATIONS &&
      this.bytes + piece.bytes <= MAX_BYTES && this.keyBytes + piece.keyBytes <= MAX_KEY_BYTES;
  }

  take(piece: { checks: number; mutations: number; bytes: number; keyBytes: number }, internshipId?: string): void {
    if (internshipId) {
      // Per internship its marker, and a log entry every 100 changes.
      const moves = this.internships.get(internshipId) ?? 0;
      if (moves === 0) this.mutations++;
      if (moves % 100 === 0) this.mutations++;
      this.internships.set(internshipId, moves + 1);
    }
    this.checks += piece.checks;
    this.mutations += piece.mutations;
    this.bytes += piece.bytes;
    this.keyBytes += piece.keyBytes;
  }
}

/** Lets the event loop take in what arrived meanwhile (requests), between two pieces of a batch. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Plans prepared between two turns of the event loop. */
const PLANS_PER_TURN = 100;

/**
 * Rejects every waiting application due at or before `now` and tells their applicants. `giveWay` is awaited between
 * batches and writes. Another run holding the lease: does nothing (every count 0).
 * @returns the counts of `TimeoutCounts`.
 */
export async function timeOutApplications(
  kv: Deno.Kv,
  { now, appUrl, giveWay }: { now: Date; appUrl: string; giveWay: () => Promise<void> },
): Promise<TimeoutCounts> {
  const counts: TimeoutCounts = { rejected: 0, told: 0, skipped: 0, dayCounts: 0 };
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
  const listings = new Map<string, Promise<InternshipView | null>>();
  const listingOf = (id: string) => {
    if (!listings.has(id)) listings.set(id, internshipRecord(kv, id).then((found) => found?.view ?? null));
    return listings.get(id)!;
  };
  const recipients = new Map<string, Promise<Recipient | null>>();
  const recipientOf = (id: string) => {
    if (!recipients.has(id)) recipients.set(id, recipientById(kv, id));
    return recipients.get(id)!;
  };

  const seen = new Set<string>();
  for (let round = 0; round < MAX_BATCHES && await keepLease(); round++) {
    const due = (await dueIds(kv, now.getTime(), BATCH + seen.size)).filter((item) => !seen.has(item.id));
    if (due.length === 0) break;
    const records = await readApplications(kv, due.map((item) => item.id));
    const stale: { id: string; dueMs: number; entry: Deno.KvEntry<ApplicationRecord> | undefined }[] = [];
    const waiting: Deno.KvEntry<ApplicationRecord>[] = [];
    for (const { id, dueMs } of due) {
      const entry = records.get(id);
      if (!entry || !WAITING.includes(entry.value.status) || !entry.value.dueAt) stale.push({ id, dueMs, entry });
      else waiting.push(entry);
    }
    const withApplicant = waiting.filter((entry) => entry.value.applicantId);
    const [trackers, prepared] = await Promise.all([
      readTrackerItems(
        kv,
        withApplicant.map((entry) => ({ userId: entry.value.applicantId!, internshipId: entry.value.internshipId })),
      ),
      Promise.all(waiting.map(async (entry) => {
        const [listing, recipient] = await Promise.all([
          listingOf(entry.value.internshipId),
          entry.value.applicantId ? recipientOf(entry.value.applicantId) : null,
        ]);
        return { entry, listing, recipient };
      })),
    ]);
    const trackerOf = new Map(withApplicant.map((entry, i) => [entry.value.id, trackers[i]]));
    const plans: Plan[] = [];
    for (const [i, { entry, listing, recipient }] of prepared.entries()) {
      if (i > 0 && i % PLANS_PER_TURN === 0) await nextTurn();
      if (!listing) {
        counts.skipped++;
        seen.add(entry.value.id);
        continue;
      }
      const organization = listing.organization?.name ?? listing.hiringOrganization;
      const next = timedOut(entry.value, { organization, recipient, now });
      const tracker = trackerOf.get(entry.value.id) ?? null;
      const follows = tracker?.[0].value != null && tracker[0].value.status !== "rejected";
      plans.push({
        entry,
        next,
        tracker,
        item: { applicationId: next.id, title: listing.title, organization },
        checks: 1 + (follows ? 1 : 0),
        // The record, its status entry moved, its due entry, the untold entry; the tracker item and its listing entry; the
        // counters it changes, each with its organization's marker at worst.
        mutations: 5 + (follows ? 2 : 0) + countChanges(entry.value, next).length * 2,
        // Values as UTF-8 at worst three bytes a character, with the tracker item, log change and untold entry.
        bytes: JSON.stringify(next).length * 3 + 2_000,
        keyBytes: 800,
      });
    }

    // Pack the batch into writes within the limits; they touch different records and share only sums. Each is sent
    // on its own turn of the event loop: a local KV's commit works on the event loop's thread, so requests that came
    // in meanwhile are served between two commits rather than after the whole batch.
    const writes: { write: Write; ids: string[] }[] = [];
    const held = lease!;
    const room = (piece: Parameters<Write["fits"]>[0], internshipId?: string) => {
      let last = writes.at(-1);
      if (!last || !last.write.fits(piece, internshipId)) {
        last = { write: new Write(kv, held), ids: [] };
        writes.push(last);
      }
      last.write.take(piece, internshipId);
      return last;
    };
    for (const { id, dueMs, entry } of stale) {
      // A due entry its record no longer has: removed, checked against the record as read.
      const target = room({ checks: 1, mutations: 1, bytes: 200, keyBytes: 200 });
      target.write.op.check(entry ?? { key: recordKey(id), versionstamp: null }).delete(dueKey(dueMs, id));
      target.ids.push(id);
    }
    for (const [i, plan] of plans.entries()) {
      if (i > 0 && i % PLANS_PER_TURN === 0) await nextTurn();
      const target = room(plan, plan.next.internshipId);
      const { op, batch } = target.write;
      op.check(plan.entry);
      applicationOps(op, plan.entry.value, plan.next, now.getTime(), batch);
      const applicantId = plan.next.applicantId;
      if (applicantId && plan.tracker) {
        followApplicationOps(op, {
          userId: applicantId,
          internshipId: plan.next.internshipId,
          entries: plan.tracker,
          status: "rejected",
          now: now.toISOString(),
          create: false,
        });
      }
      if (applicantId) op.set(untoldKey(applicantId, plan.next.id), plan.item);
      target.write.moves++;
      target.ids.push(plan.next.id);
    }
    const results: (Deno.KvCommitResult | Deno.KvCommitError)[] = [];
    for (const { write } of writes) {
      await nextTurn();
      batchOps(write.op, write.batch, now.getTime());
      results.push(await write.op.commit());
    }
    const failed = writes.filter((_, i) => !results[i].ok);
    for (const { write } of writes.filter((_, i) => results[i].ok)) counts.rejected += write.moves;
    if (failed.length > 0) {
      // A write fails when one of its records changed meanwhile (or the lease was lost): the records that changed are
      // left to the next run (the poster's move wins); the others are done again with the next batch.
      const ids = failed.flatMap(({ ids }) => ids);
      const [again, leaseNow] = await Promise.all([readApplications(kv, ids), kv.get(leaseKey)]);
      if (leaseNow.versionstamp !== lease.versionstamp) {
        lease = null;
        break;
      }
      for (const plan of plans) {
        if (ids.includes(plan.next.id) && again.get(plan.next.id)?.versionstamp !== plan.entry.versionstamp) {
          counts.skipped++;
          seen.add(plan.next.id);
        }
      }
    }
    await giveWay();
  }

  if (lease) {
    const told = await tellUntold(kv, {
      lease: () => lease,
      keepLease,
      recipientOf,
      appUrl,
      now,
      giveWay,
    });
    counts.told = told;
  }
  counts.dayCounts = await dropDayCounts(kv, istToday(new Date(now.getTime() - 2 * DAY_MS)));
  if (lease) await kv.atomic().check(lease).delete(leaseKey).commit();
  return counts;
}

/**
 * The second step: one notification and e-mail per applicant for every untold entry, in writes of 8 applicants, each
 * removing what it tells, checked against the lease. Returns how many applicants were told.
 */
async function tellUntold(
  kv: Deno.Kv,
  { lease, keepLease, recipientOf, appUrl, now, giveWay }: {
    lease: () => Deno.KvEntry<RunLease> | null;
    keepLease: () => Promise<boolean>;
    recipientOf: (id: string) => Promise<Recipient | null>;
    appUrl: string;
    now: Date;
    giveWay: () => Promise<void>;
  },
): Promise<number> {
  let told = 0;
  let group: { applicantId: string; items: TimedOutItem[]; keys: Deno.KvKey[] }[] = [];
  const flush = async () => {
    if (group.length === 0) return true;
    if (!await keepLease()) return false;
    const op = kv.atomic().check(lease()!);
    const found = await Promise.all(group.map(({ applicantId }) => recipientOf(applicantId)));
    group.forEach(({ items, keys }, i) => {
      for (const key of keys) op.delete(key);
      // A person who deleted their account meanwhile is told nothing.
      if (found[i]) tellTimedOutOps(op, { recipient: found[i]!, items, appUrl, now });
    });
    const { ok } = await op.commit();
    if (ok) told += found.filter(Boolean).length;
    group = [];
    await giveWay();
    return ok;
  };
  let last: (typeof group)[number] | null = null;
  for await (const entry of kv.list<TimedOutItem>({ prefix: ["applications_untold"] }, { batchSize: 1000 })) {
    const applicantId = entry.key[1] as string;
    if (!last || last.applicantId !== applicantId || last.keys.length >= UNTOLD_PER_DIGEST) {
      if (group.length >= TOLD_PER_WRITE && !await flush()) return told;
      last = { applicantId, items: [], keys: [] };
      group.push(last);
    }
    last.items.push(entry.value);
    last.keys.push(entry.key);
  }
  await flush();
  return told;
}

export const applicationsTimeoutJob: Job = {
  name: "applications-timeout",
  schedule: "30 3 * * *",
  async run(ctx) {
    return await timeOutApplications(ctx.kv, {
      now: ctx.now,
      appUrl: ctx.config.appUrl,
      giveWay: () => ctx.requests.giveWay(),
    });
  },
};
