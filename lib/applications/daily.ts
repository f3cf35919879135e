/**
 * The poster's `new_applicant` notification (docs/decisions.md, Applications, "Telling people"): one per internship
 * per IST day that had applications, made by the day's first application (in its own write, checked absent, so two
 * first applications make one) and counted by the later ones, whose count is written into it after their write (and
 * marks it unread again). Never one per application. Its words are catalogue messages, written in the reader's language
 * when read (docs/decisions.md, Languages, "Stored words").
 *
 * Keys (owned by this module only):
 * - `["applications_daily", day, internshipId]` → `{notificationId, userId}`, kept 3 days
 * - `["applications_daily_count", day, internshipId]` → KvU64, the day's applications (removed by the timeout job two
 *   days later: `sum` cannot set an expiry)
 */
import { addNotification, type NotificationMessage, reviseNotification } from "@/lib/notifications/notifications.ts";
import { istToday } from "@/lib/dates.ts";
import { counterValue } from "@/lib/stats/counters.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";

/** How long a day's notice record is kept (ms): 3 days. */
const KEPT_MS = 3 * 24 * 60 * 60 * 1000;

/** A day's notice: the notification and whose it is. */
interface DailyNotice {
  notificationId: string;
  userId: string;
}

const dailyKey = (day: string, internshipId: string): Deno.KvKey => ["applications_daily", day, internshipId];
const countKey = (day: string, internshipId: string): Deno.KvKey => ["applications_daily_count", day, internshipId];

/** The day's notice of internship `internshipId` at `now` (value null before the day's first application). */
export async function readDailyEntry(
  kv: Deno.Kv,
  internshipId: string,
  now: Date,
): Promise<Deno.KvEntryMaybe<DailyNotice>> {
  return await kv.get<DailyNotice>(dailyKey(istToday(now), internshipId));
}

/** The words of the notice of `count` applications to `title` today, as catalogue messages. */
function noticeOf(count: number, title: string): NotificationMessage {
  return {
    title: { key: "applications.daily.title", values: { count, title } },
    body: { key: "applications.daily.body" },
  };
}

/**
 * Adds to `op` an application's share of the day's notice of `listing` for its owner `owner` at `now`: the count, and
 * for the day's first (`entry` as read is empty) the notification itself, checked absent. Returns whether the notice
 * is complete (made here, or nobody to tell); false when `reviseDailyNotice` must write the new count after the commit.
 */
export function dailyApplicantOps(
  op: Deno.AtomicOperation,
  { entry, listing, owner, now }: {
    entry: Deno.KvEntryMaybe<DailyNotice>;
    listing: InternshipView;
    owner: { id: string } | null;
    now: Date;
  },
): boolean {
  const day = istToday(now);
  op.sum(countKey(day, listing.id), 1n);
  if (!owner) return true;
  if (entry.value) return false;
  const notification = addNotification(op, {
    userId: owner.id,
    type: "new_applicant",
    message: noticeOf(1, listing.title),
    url: `/internships/${listing.id}/applicants`,
  }, now);
  op.check(entry).set(
    dailyKey(day, listing.id),
    { notificationId: notification.id, userId: owner.id } satisfies DailyNotice,
    { expireIn: KEPT_MS },
  );
  return true;
}

/**
 * Writes the day's count of applications to `internship` into its notice (see the module docstring). Applications
 * that arrive together each revise the notice; one whose count was overtaken while it wrote (the count moved since
 * it read it) writes again, so the last word is the latest count.
 */
export async function reviseDailyNotice(
  kv: Deno.Kv,
  { internship, now }: { internship: InternshipView; now: Date },
): Promise<void> {
  const day = istToday(now);
  for (let round = 0; round < 10; round++) {
    const [entry, count] = await kv.getMany<[DailyNotice, Deno.KvU64]>([
      dailyKey(day, internship.id),
      countKey(day, internship.id),
    ]);
    if (!entry.value) return;
    await reviseNotification(kv, {
      userId: entry.value.userId,
      id: entry.value.notificationId,
      message: noticeOf(Math.max(1, counterValue(count)), internship.title),
      now,
    });
    if ((await kv.get(countKey(day, internship.id))).versionstamp === count.versionstamp) return;
  }
}

/** Removes the day counts of days before `before` (`YYYY-MM-DD`), in bounded writes. Returns how many went. */
export async function dropDayCounts(kv: Deno.Kv, before: string): Promise<number> {
  let dropped = 0;
  let keys: Deno.KvKey[] = [];
  const flush = async () => {
    await keys.reduce((op, key) => op.delete(key), kv.atomic()).commit();
    dropped += keys.length;
    keys = [];
  };
  for await (
    const entry of kv.list({ start: ["applications_daily_count"], end: ["applications_daily_count", before] })
  ) {
    keys.push(entry.key);
    if (keys.length === 500) await flush();
  }
  if (keys.length > 0) await flush();
  return dropped;
}
