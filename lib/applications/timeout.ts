/**
 * The `applications-timeout` job (docs/decisions.md, Applications, "Every applicant hears back"): every day at 09:00
 * IST, it rejects the applications still waiting (`applied` or `shortlisted`) whose due time passed (15 days after the
 * internship's deadline, or 30 after applying without one), on behalf of the organization that did not answer, telling
 * each applicant in the app and by e-mail (queued in the outbox, which the `outbox` job delivers). It reads the due-time
 * index in batches of `BATCH`, prepares the batch's writes at once (their reads side by side) and sends them together,
 * up to `PER_WRITE` moves each, each checked against the record as read (so a poster's move in between wins and the job
 * leaves that one), giving way to requests between batches.
 * It also drops the poster notices' day counters older than two days.
 */
import { istToday } from "@/lib/dates.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { timeoutOps } from "./applications.ts";
import { dropDayCounts } from "./daily.ts";
import { WAITING } from "./schema.ts";
import { dueIds, dueKey, readApplications, recordKey } from "./store.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Due entries read per batch. */
const BATCH = 200;
/** Moves per atomic write (each about 20 mutations and 8 KB, under KV's 1,000 mutations and 800 KiB). */
const PER_WRITE = 40;
/** Most batches one run works through (200,000 applications); the next run goes on. */
const MAX_BATCHES = 1000;

/** What a run did: rejected, left (moved meanwhile, or lost a race; the next run looks again), day counters dropped. */
export interface TimeoutCounts {
  rejected: number;
  skipped: number;
  dayCounts: number;
  [kind: string]: number;
}

/**
 * Rejects every waiting application due at or before `now`. `giveWay` is awaited between writes.
 * @returns the counts of `TimeoutCounts`.
 */
export async function timeOutApplications(
  kv: Deno.Kv,
  { now, appUrl, giveWay }: { now: Date; appUrl: string; giveWay: () => Promise<void> },
): Promise<TimeoutCounts> {
  const counts: TimeoutCounts = { rejected: 0, skipped: 0, dayCounts: 0 };
  const listings = new Map<string, Promise<InternshipView | null>>();
  const listingOf = (id: string) => {
    if (!listings.has(id)) listings.set(id, internshipRecord(kv, id).then((found) => found?.view ?? null));
    return listings.get(id)!;
  };
  const seen = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = (await dueIds(kv, now.getTime(), BATCH + seen.size)).filter((item) => !seen.has(item.id));
    if (due.length === 0) break;
    const records = await readApplications(kv, due.map((item) => item.id));
    // Every write of the batch is prepared at once (its reads run side by side), then committed one after another.
    const groups = [];
    for (let i = 0; i < due.length; i += PER_WRITE) groups.push(due.slice(i, i + PER_WRITE));
    const prepared = await Promise.all(groups.map(async (group) => {
      const op = kv.atomic();
      let moves = 0;
      await Promise.all(group.map(async ({ id, dueMs }) => {
        const entry = records.get(id);
        if (!entry || !WAITING.includes(entry.value.status) || !entry.value.dueAt) {
          // A due entry its record no longer has: remove it, checked against the record as read.
          op.check(entry ?? { key: recordKey(id), versionstamp: null }).delete(dueKey(dueMs, id));
          return;
        }
        const listing = await listingOf(entry.value.internshipId);
        if (!listing) {
          counts.skipped++;
          seen.add(id);
          return;
        }
        await timeoutOps(kv, op, { entry, listing, appUrl, now });
        moves++;
      }));
      return { group, op, moves };
    }));
    // The writes touch different records (the counters they share are sums, which never conflict): sent together.
    const results = await Promise.all(prepared.map(({ op }) => op.commit()));
    prepared.forEach(({ group, moves }, i) => {
      if (results[i].ok) counts.rejected += moves;
      else {
        counts.skipped += moves;
        for (const { id } of group) seen.add(id);
      }
    });
    await giveWay();
  }
  counts.dayCounts = await dropDayCounts(kv, istToday(new Date(now.getTime() - 2 * DAY_MS)));
  return counts;
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
