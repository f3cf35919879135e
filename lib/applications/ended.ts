/**
 * The `applications-ended` job (docs/decisions.md, Applications, "Every applicant hears back"): every 5 minutes it
 * brings forward the due times of the waiting applications (`applied`, `shortlisted`) of each listing whose end came
 * forward (closed, deleted, its deadline brought forward or removed: the markers of `lib/internships/ended.ts`), to
 * the time the timeout job would now give them (`timeoutDueAt` by the listing as it is), so the `applications-timeout`
 * job answers them 15 days after the listing ended (30 after applying without a deadline) rather than after the
 * deadline it had. A due time never moves later here (the
 * timeout job postpones one whose listing opened again when it meets it).
 *
 * A run takes up to `LISTINGS_PER_RUN` markers in key order, from the one after the marker the last run looked at last
 * (`SCAN_KEY`), coming round to the first, and walks each listing's waiting applications in the order they were sent
 * (`sentPage`), `PAGE` a write, at most `PER_LISTING` a run (a listing with more goes on at its next turn, the others
 * get theirs meanwhile), and no new page after `BUDGET_MS`: a listing with thousands of applications, or thousands of
 * markers after the backfill, never keep a new close waiting behind them for more than a round. Each write moves the applications that
 * need it (their records and due entries, checked as read, so a poster's move in between wins and the page is read
 * again) and stores the walk's place in the marker, checked as read too: a newer end of the listing (a new marker)
 * starts the walk again from the start, and two runs at once cannot both write a page. The last write drops the
 * marker. Each listing is judged as KV holds it (`currentInternshipRecord`), not as this process's read model has it,
 * which may not have the close that wrote the marker yet. A listing gone from the store drops its marker.
 * Until it is done, a run first gives the listings closed or deleted before ends were recorded their markers
 * (`ENDED_BACKFILL`, `runBackfill`: one read a run once done).
 */
import type { Job } from "@/lib/jobs/job.ts";
import { currentInternshipRecord } from "@/lib/internships/internships.ts";
import { ENDED_BACKFILL, ENDED_PREFIX, type EndedMarker } from "@/lib/internships/ended.ts";
import type { Internship } from "@/lib/internships/schema.ts";
import { runBackfill } from "@/lib/kv/backfill.ts";
import { timeoutDueAt } from "./applications.ts";
import { type ApplicationRecord, WAITING } from "./schema.ts";
import { applicationOps, batchOps, BatchWrites, readApplications, sentPage } from "./store.ts";

/** Applications read and written per write: ten records of up to 64 KiB stay under KV's 800 KiB a commit. */
const PAGE = 10;
/** Where the next run starts: after the listing whose marker the last run looked at last. */
const SCAN_KEY: Deno.KvKey = ["listing_ended_meta", "scan"];
/** Most applications of one listing walked per run. */
const PER_LISTING = 500;
/** Most listings one run walks (most have no application waiting: a read, two short lists and a write each). */
const LISTINGS_PER_RUN = 50;
/** Tries of one page lost to a move of one of its applications before the run leaves the listing to the next. */
const TRIES = 5;
/**
 * How long (ms) a run works when not told: it writes no new page after that (one at least), so the jobs of its cron
 * (every 5 minutes, skipped while one of them works) wait little; the next run goes on from the markers' places.
 */
const BUDGET_MS = 20_000;

/** What a run did: applications walked, due times brought forward, listings whose walk ended. */
export interface EndedCounts {
  walked: number;
  moved: number;
  listings: number;
  [kind: string]: number;
}

/** How a run goes: `giveWay()` after each write, `now` (ms) on the change logs, no new page once `until` passed. */
interface EndedRun {
  giveWay: () => Promise<void>;
  now: number;
  /** `performance.now()` ms after which the run writes no new page. */
  until: number;
  /** Pages the run has written (or lost) so far. */
  pages: number;
}

/**
 * Brings forward the due times of the applications of the listings whose end came forward (see the module's
 * docstring), calling `giveWay` after each write, with `now` (ms) stamped on their change logs, writing no new page
 * once `until` (`performance.now()` ms; `BUDGET_MS` from the start when not given) passed, one at least.
 * @returns the counts of `EndedCounts`.
 */
export async function bringDueTimesForward(
  kv: Deno.Kv,
  { giveWay, now = Date.now(), until = performance.now() + BUDGET_MS }: {
    giveWay: () => Promise<void>;
    now?: number;
    until?: number;
  },
): Promise<EndedCounts> {
  const counts: EndedCounts = { walked: 0, moved: 0, listings: 0 };
  const place = await kv.get<{ after: string }>(SCAN_KEY);
  const after = place.value?.after ?? null;
  // From the marker after the one the last run looked at last, coming round to the first ones.
  const markers = await Array.fromAsync(
    kv.list<EndedMarker>(
      after === null ? { prefix: ENDED_PREFIX } : { prefix: ENDED_PREFIX, start: [...ENDED_PREFIX, after, ""] },
      { limit: LISTINGS_PER_RUN },
    ),
  );
  if (after !== null && markers.length < LISTINGS_PER_RUN) {
    const first = kv.list<EndedMarker>({ prefix: ENDED_PREFIX, end: [...ENDED_PREFIX, after, ""] }, {
      limit: LISTINGS_PER_RUN - markers.length,
    });
    markers.push(...await Array.fromAsync(first));
  }
  const run: EndedRun = { giveWay, now, until, pages: 0 };
  let last: string | null = null;
  for (const marker of markers) {
    if (spent(run)) break;
    last = marker.key[1] as string;
    await walkListing(kv, marker, counts, run);
  }
  // Two runs at once may both store theirs: either place is one a run reached, and every marker still comes round.
  if (last !== null && last !== after) await kv.set(SCAN_KEY, { after: last });
  return counts;
}

/** Whether `run` has written a page and its time is up. */
function spent(run: EndedRun): boolean {
  return run.pages > 0 && performance.now() >= run.until;
}

/** Walks the waiting applications of the listing of `marker` from its place, up to `PER_LISTING`, adding to `counts`. */
async function walkListing(
  kv: Deno.Kv,
  marker: Deno.KvEntry<EndedMarker>,
  counts: EndedCounts,
  run: EndedRun,
): Promise<void> {
  const { giveWay, now } = run;
  const internshipId = marker.key[1] as string;
  // As KV holds it: this process's read model may not have the close that wrote the marker yet.
  const listing = await currentInternshipRecord(kv, internshipId);
  if (!listing) {
    await kv.atomic().check(marker).delete(marker.key).commit();
    return;
  }
  let held = marker;
  let tries = 0;
  for (let walked = 0; walked < PER_LISTING && !spent(run);) {
    const places = await sentPage(kv, {
      internshipId,
      statuses: WAITING,
      after: held.value.place ?? null,
      beforeMs: Number.MAX_SAFE_INTEGER,
      limit: PAGE,
    });
    const read = await readApplications(kv, places.map((place) => place.id));
    const op = kv.atomic().check(held);
    const batch = new BatchWrites();
    let moved = 0;
    for (const entry of read.values()) {
      const dueAt = earlierDueAt(entry.value, listing.record);
      if (dueAt === null) continue;
      op.check(entry);
      applicationOps(op, entry.value, { ...entry.value, dueAt }, now, batch);
      moved++;
    }
    batchOps(op, batch, now);
    const last = places.length === PAGE ? places[PAGE - 1] : null;
    const value: EndedMarker = { at: held.value.at, ...(last && { place: last }) };
    if (last) op.set(held.key, value);
    else op.delete(held.key);
    const result = await op.commit();
    run.pages++;
    await giveWay();
    if (!result.ok) {
      // The listing ended again (its walk starts over at the next run), another run wrote this page, or an
      // application of the page moved: read again.
      const current = await kv.get<EndedMarker>(held.key);
      if (current.versionstamp !== held.versionstamp || ++tries >= TRIES) return;
      continue;
    }
    tries = 0;
    walked += places.length;
    counts.walked += places.length;
    counts.moved += moved;
    if (!last) {
      counts.listings++;
      return;
    }
    held = { key: held.key, value, versionstamp: result.versionstamp };
  }
}

/**
 * The due time `record` gets by its listing now (`listing`: its deadline, close and deletion) when that is earlier than
 * its own and it is still waiting; null otherwise.
 */
function earlierDueAt(record: ApplicationRecord, listing: Internship): string | null {
  if (!WAITING.includes(record.status) || !record.dueAt) return null;
  const dueAt = timeoutDueAt(listing, record.createdAt);
  return Date.parse(dueAt) < Date.parse(record.dueAt) ? dueAt : null;
}

export const applicationsEndedJob: Job = {
  name: "applications-ended",
  schedule: "*/5 * * * *",
  async run(ctx) {
    const giveWay = () => ctx.requests.giveWay();
    const { written } = await runBackfill(ctx.kv, ENDED_BACKFILL, { giveWay });
    return { marked: written, ...await bringDueTimesForward(ctx.kv, { giveWay }) };
  },
};
