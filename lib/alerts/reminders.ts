/**
 * The `deadline-reminders` job (docs/decisions.md, Alerts): daily at 09:00 IST it tells each person of the saved
 * internships still at status `saved` whose deadline is today or tomorrow (IST) and the saved opportunities starting
 * tomorrow, once per person, each item once: a `deadline_reminder` notification (which the push outbox also pushes
 * when its channel allows, docs/decisions.md, Notifications, "Channels"), and an e-mail unless the person turned
 * reminder e-mails off (`deadlineReminders`) or their address is unverified.
 *
 * It finds the listings due from the read models' columns (deadline days, start dates), then who saved them from
 * `["saved_by_listing", kind, id]`, read in batches of `BATCH`, `LISTS_AT_ONCE` listings at a time. A reminder names at most `MAX_NAMED` items, fewer when
 * its e-mail would pass `MAIL_BUDGET` (`fitMail`); the others are counted in a line linking to the tracker. Per person,
 * one write queues the e-mail and the notification and marks each named item reminded (`["reminded", userId, kind,
 * id]`, kept 14 days), checked against those marks being absent: the work is only KV writes, so that checked write is
 * the claim, and a second run (at once or overlapping) sends nothing twice. The same write marks the items only
 * counted (up to `MARKS_IN_CLAIM`; any beyond in later writes of at most `MARKS_PER_WRITE`, each tried `MARK_TRIES`
 * times, a failure logged but not the person's), so no second reminder follows one that went out. The outbox job
 * (every minute) delivers the e-mails. People are reminded `PEOPLE_PER_BATCH` at a time: their records and settings,
 * their items' marks and the due listings read together, their writes packed into few commits (`commitPacked`; after
 * a lost race each on its own), giving way to requests between people as the digest does (`slicer`).
 *
 * One person's reminder cannot stop the run: an error is logged with the person's id and counted as `failed`, and the
 * others are reminded. Nothing of theirs was marked, so the next run tries again while the items are due (two days at
 * most: then they are past their deadline or start).
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import pLimit from "p-limit";
import { istToday } from "@/lib/dates.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { dayNumber } from "@/lib/internships/columns.ts";
import { publicInternshipsById } from "@/lib/internships/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { OPPORTUNITY_STATUSES, publishedOpportunitiesById } from "@/lib/opportunities/opportunities.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { addNotification, BODY_MAX, type NotificationInput } from "@/lib/notifications/notifications.ts";
import { clip } from "@/lib/notifications/words.ts";
import type { SavedKind, SavedStatus } from "@/lib/saved/schema.ts";
import { getSettingsOfMany, type Settings } from "@/lib/settings/settings.ts";
import type { User } from "@/lib/users/users.ts";
import { DAILY_AT_9_IST, slicer } from "./digest.ts";
import { fitMail, internshipItem, type MailItem, opportunityItem, reminderMail } from "./mails.tsx";
import { newUnsubscribeToken } from "./unsubscribe.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import type { OpportunityView } from "@/lib/opportunities/schema.ts";

/** Saved-by entries read from KV per batch. */
const BATCH = 500;
/**
 * Due listings whose savers are read at once: each is a list round trip, which a remote KV answers in tens of
 * milliseconds, so 3,000 due listings read one after another would wait minutes before the first reminder.
 */
const LISTS_AT_ONCE = 12;
/**
 * People whose reminders are made together: their records, settings and marks read at once, their writes packed into
 * few commits, so a remote KV is asked a few times per batch rather than three times per person.
 */
const PEOPLE_PER_BATCH = 50;
/** Most items one reminder names (each a check of the claiming write: KV allows 100). */
export const MAX_NAMED = 50;
/**
 * Marks of items only counted that the claiming write sets too (unchecked). Beside at most `MAX_NAMED` checked marks,
 * the e-mail, its token and the notification, its keys stay under KV's 80 KiB of keys a write (a mark's key is about
 * 100 bytes: 850 marks in one write failed "Total key size too large").
 */
const MARKS_IN_CLAIM = 500;
/** Marks of items only counted beyond `MARKS_IN_CLAIM`, set per write after the claim. */
const MARKS_PER_WRITE = 500;
/** Tries of one such write of marks. */
const MARK_TRIES = 3;
/** How long an item stays marked reminded (ms): past its deadline, so it is never reminded again. */
const REMINDED_KEPT_MS = 14 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const APPROVED = OPPORTUNITY_STATUSES.indexOf("approved");

/**
 * People e-mailed, people notified (in the app and by push), items named to them, people skipped, people whose
 * reminder failed (logged with their id).
 */
type ReminderCounts = { sent: number; notified: number; items: number; skipped: number; failed: number };
type Due = { kind: SavedKind; id: string };

const remindedKey = (userId: string, { kind, id }: Due): Deno.KvKey => ["reminded", userId, kind, id];

/** The listings due at `now`: open internships closing today or tomorrow, published opportunities starting tomorrow. */
async function dueListings(kv: Deno.Kv, now: Date): Promise<Due[]> {
  const today = istToday(now), tomorrow = istToday(new Date(now.getTime() + DAY_MS));
  const days = new Set([dayNumber(today), dayNumber(tomorrow)]);
  const internships = (await internshipStore(kv)).model;
  const view = internships.columns.publicView();
  const due: Due[] = [];
  for (let i = 0; i < view.slots.length; i++) {
    if (days.has(view.deadlineDays[i])) due.push({ kind: "internships", id: internships.slots.ids[view.slots[i]] });
  }
  const opportunities = (await opportunityStore(kv)).model;
  for (const slot of opportunities.slots.order) {
    const { statuses, startDates } = opportunities.columns;
    if (statuses[slot] === APPROVED && startDates[slot] === tomorrow) {
      due.push({ kind: "opportunities", id: opportunities.slots.ids[slot] });
    }
  }
  return due;
}

/** A person's reminder, planned: its write (checked against the named items' marks being absent) and what it tells. */
interface Reminder {
  userId: string;
  unit: WriteUnit;
  email: boolean;
  named: number;
  /** The items only counted whose marks the write does not set (past `MARKS_IN_CLAIM`), set after it. */
  rest: Due[];
}

/**
 * The reminder of `user` for `fresh` (their items not reminded yet) with their `settings`, the due listings as read
 * (`internships`, `opportunities`), or null when none of those items is still public.
 */
async function planReminder(
  ctx: JobContext,
  { user, settings, fresh, internships, opportunities }: {
    user: User;
    settings: Settings;
    fresh: Due[];
    internships: Map<string, InternshipView>;
    opportunities: Map<string, OpportunityView>;
  },
): Promise<Reminder | null> {
  const { config } = ctx;
  const userId = user.id;
  const email = user.emailVerified && settings.deadlineReminders;
  const t = translatorOfPerson(user);
  const listed = fresh.flatMap((item) => {
    const internship = item.kind === "internships" ? internships.get(item.id) : undefined;
    if (internship) return [{ item, mail: internshipItem(config.appUrl, internship, t) }];
    const opportunity = item.kind === "opportunities" ? opportunities.get(item.id) : undefined;
    return opportunity ? [{ item, mail: opportunityItem(config.appUrl, opportunity, t) }] : [];
  });
  if (listed.length === 0) return null;
  let named = listed.slice(0, MAX_NAMED);
  const unit = new WriteUnit();
  const op = unit.op;
  if (email) {
    const token = await newUnsubscribeToken({ userId, kind: "reminders" });
    const { mail, kept } = fitMail(named.length, (kept) =>
      reminderMail({
        to: user.email,
        name: user.name,
        appUrl: config.appUrl,
        items: named.slice(0, kept).map((entry) => entry.mail),
        more: listed.length - kept,
        unsubscribeUrl: `${config.appUrl}/unsubscribe/${token.token}`,
        t,
      }));
    named = named.slice(0, kept);
    token.write(op);
    queueMailOps(op, { ...mail, userId }, ctx.now.getTime());
  }
  for (const { item } of named) {
    op.check({ key: remindedKey(userId, item), versionstamp: null })
      .set(remindedKey(userId, item), true, { expireIn: REMINDED_KEPT_MS });
  }
  const counted = fresh.filter((item) => !named.some((entry) => entry.item === item));
  for (const item of counted.slice(0, MARKS_IN_CLAIM)) {
    op.set(remindedKey(userId, item), true, { expireIn: REMINDED_KEPT_MS });
  }
  addNotification(op, reminderNotification(userId, named.map((entry) => entry.mail)), ctx.now);
  return { userId, unit, email, named: named.length, rest: counted.slice(MARKS_IN_CLAIM) };
}

/**
 * The reminders of `batch` (people and their due items): their records and settings, their items' marks and the due
 * listings read together, each person's reminder planned (one that fails is logged with their id and counted as
 * `failed`), then the writes packed into few commits (`commitPacked`; a commit that fails is sent again write by write,
 * so a lost claim skips only its person). Adds what it did to `counts`.
 */
async function remindBatch(
  ctx: JobContext,
  { batch, counts, pause }: { batch: [string, Due[]][]; counts: ReminderCounts; pause: () => Promise<void> },
): Promise<void> {
  const { kv, log } = ctx;
  const fail = (userId: string, error: unknown) => {
    counts.failed++;
    log.error("deadline reminder of a person failed", { userId, error: String(error) });
  };
  let people: Map<string, { settings: Settings; user: User | null }>;
  let marks: Deno.KvEntryMaybe<unknown>[];
  try {
    [people, marks] = await Promise.all([
      getSettingsOfMany(kv, batch.map(([userId]) => userId)),
      getManyChunked(kv, batch.flatMap(([userId, items]) => items.map((item) => remindedKey(userId, item)))),
    ]);
  } catch (error) {
    for (const [userId] of batch) fail(userId, error);
    return;
  }
  let at = 0;
  const fresh = batch.map(([, items]) => {
    const left = items.filter((_, i) => marks[at + i].versionstamp === null);
    at += items.length;
    return left;
  });
  const ids = (kind: SavedKind) => [...new Set(fresh.flat().filter((item) => item.kind === kind).map((i) => i.id))];
  const [internships, opportunities] = await Promise.all([
    publicInternshipsById(kv, ids("internships"), istToday(ctx.now)),
    publishedOpportunitiesById(kv, ids("opportunities")),
  ]);
  const reminders: Reminder[] = [];
  for (const [i, [userId]] of batch.entries()) {
    const { user, settings } = people.get(userId)!;
    // A suspended person cannot sign in to act on a reminder: none is made (docs/decisions.md, Admin, "Suspension").
    if (!user || user.suspension) {
      counts.skipped++;
      continue;
    }
    if (fresh[i].length === 0) continue;
    try {
      const reminder = await planReminder(ctx, { user, settings, fresh: fresh[i], internships, opportunities });
      if (reminder) reminders.push(reminder);
    } catch (error) {
      fail(userId, error);
    }
    await pause();
  }
  // Whether each was written; null for a write that threw (logged as its person's failure).
  let written: (boolean | null)[];
  try {
    written = await commitPacked(kv, reminders.map((reminder) => reminder.unit));
  } catch {
    // A write past KV's limits: each on its own, so it fails only its person (one already written finds its claim
    // taken and is skipped).
    written = [];
    for (const reminder of reminders) {
      try {
        written.push((await commitPacked(kv, [reminder.unit]))[0]);
      } catch (error) {
        fail(reminder.userId, error);
        written.push(null);
      }
    }
  }
  for (const [i, reminder] of reminders.entries()) {
    if (written[i] === false) counts.skipped++;
    if (!written[i]) continue;
    if (reminder.email) counts.sent++;
    counts.notified++;
    counts.items += reminder.named;
    for (let j = 0; j < reminder.rest.length; j += MARKS_PER_WRITE) {
      await markCounted(ctx, reminder.userId, reminder.rest.slice(j, j + MARKS_PER_WRITE));
    }
  }
}

/**
 * Marks `items` (only counted in `userId`'s reminder, which went out) reminded in one write, tried up to
 * `MARK_TRIES` times; a write that still fails is logged, not thrown: the reminder is not the person's failure, and
 * those items may be counted again in the next run's reminder.
 */
async function markCounted({ kv, log }: JobContext, userId: string, items: Due[]): Promise<void> {
  let error: unknown;
  for (let attempt = 0; attempt < MARK_TRIES; attempt++) {
    const marks = kv.atomic();
    for (const item of items) marks.set(remindedKey(userId, item), true, { expireIn: REMINDED_KEPT_MS });
    try {
      await marks.commit();
      return;
    } catch (thrown) {
      error = thrown;
    }
  }
  log.error("deadline reminder marks not written", { userId, items: items.length, error: String(error) });
}

/**
 * The in-app (and pushed) reminder of `items`, linking to the tracker: its title by key, its body the items' lines
 * (their facts in the person's language, as the e-mail's), cut at `BODY_MAX` characters as a body is shown.
 */
function reminderNotification(userId: string, items: MailItem[]): NotificationInput {
  return {
    userId,
    type: "deadline_reminder",
    message: {
      title: items.length === 1
        ? { key: "notifications.text.reminder.titleOne", values: { title: items[0].title } }
        : { key: "notifications.text.reminder.titleMany", values: { count: items.length } },
      body: {
        key: "notifications.text.reminder.body",
        values: { lines: clip(items.map((item) => `${item.title}: ${item.facts}`).join("\n"), BODY_MAX) },
      },
    },
    url: "/me/tracker",
  };
}

/** The people who saved `item` and still have it at status `saved`, in key order. */
async function saversOf(kv: Deno.Kv, { kind, id }: Due): Promise<string[]> {
  const userIds: string[] = [];
  for await (const entry of kv.list<SavedStatus>({ prefix: ["saved_by_listing", kind, id] }, { batchSize: BATCH })) {
    if (entry.value === "saved") userIds.push(entry.key[3] as string);
  }
  return userIds;
}

/** One run of the reminders at `ctx.now` (see the module docstring). */
export async function runDeadlineReminders(ctx: JobContext): Promise<ReminderCounts> {
  const counts: ReminderCounts = { sent: 0, notified: 0, items: 0, skipped: 0, failed: 0 };
  const due = await dueListings(ctx.kv, ctx.now);
  const turn = pLimit(LISTS_AT_ONCE);
  const savers = await Promise.all(due.map((item) => turn(() => saversOf(ctx.kv, item))));
  // Gathered in the order of `due`, as one list after another did: a reminder names its first `MAX_NAMED` items.
  const byUser = new Map<string, Due[]>();
  due.forEach((item, i) => {
    for (const userId of savers[i]) byUser.set(userId, [...byUser.get(userId) ?? [], item]);
  });
  const pause = slicer(ctx);
  const people = [...byUser];
  for (let i = 0; i < people.length; i += PEOPLE_PER_BATCH) {
    await remindBatch(ctx, { batch: people.slice(i, i + PEOPLE_PER_BATCH), counts, pause });
  }
  return counts;
}

/** The job of the registry. */
export const deadlineRemindersJob: Job = {
  name: "deadline-reminders",
  schedule: DAILY_AT_9_IST,
  run: runDeadlineReminders,
};

/** Deletes `userId`'s reminded marks (account deletion); idempotent: `deleteListed`. */
export async function deleteRemindedOf(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed(kv, ["reminded", userId]);
}
