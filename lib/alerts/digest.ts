/**
 * The `alerts-digest` job (docs/decisions.md, Alerts): daily at 09:00 IST it takes every active daily alert, and every
 * active weekly alert not sent in the last 7 days, and sends each person one e-mail listing, per alert, the open
 * listings created since that alert last ran (first run: the last 24 hours, or 7 days for a weekly alert) that match
 * it, at most 20 per alert. Nothing is sent when nothing matches; people with an unverified e-mail get nothing.
 *
 * It walks `["alerts"]` (kept by person) in batches of `BATCH` entries. The listings created in a window are read once
 * per run and window (`newInternships`, `newOpportunities`), and each distinct filter is tested against those few
 * listings once per run; an alert whose window holds no new listing is skipped untouched. The due alerts of about
 * `CLAIMS_PER_WRITE` are claimed at a time in one write with the jobs' leases (`lib/jobs/lease.ts`; after a lost race
 * each on its own with `claim`). Each person's digest is then planned, and the plans are committed in writes of at
 * most `BYTES_PER_WRITE` of e-mail, each checked against every claim it settles (after a lost race each plan on its
 * own with `settle`): the write moves every claimed alert's `lastRunAt` (and `lastSentAt` when listed), stores the
 * unsubscribe tokens and queues the e-mail in the outbox, whose job (every minute) delivers it. A second run, at once
 * or overlapping, finds the alerts claimed or their windows empty: it sends nothing twice. The run shares the server
 * process with requests: after every `SLICE_MS` of work it gives way to the requests being answered
 * (`InFlightRequests.giveWay`).
 *
 * A person is told about a listing once (docs/decisions.md, Alerts, "Told once"): the write of a digest records the
 * listings its e-mail shows, `["alerts_told", userId, runAt]` → `kind` and id of each (kept `TOLD_KEPT_MS`), and a
 * later digest leaves out the listings recorded, so one hidden and listed again (public again, so new in the next
 * window) is not mailed twice, nor one a person's other alert (with another window, or since deleted) showed them;
 * within one e-mail a section leaves out the listings an earlier section shows. The records of a batch's people are
 * read together, one list each, and only where one can hold a listing in an alert's window (`toldSince`).
 *
 * An e-mail fits the outbox (`fitMail`): past `MAIL_BUDGET` the matches left out are counted in a line linking to
 * the list with the alert's filters. One person's digest cannot stop the run: an error planning or writing it is
 * logged with the person's id and counted as `failed`, and their claims are released with the alerts' `failedRuns`
 * raised, so the next run tries the same window again; after `MAX_FAILED_RUNS` in a row the window is passed over
 * (`lastRunAt` moves), so a digest that always fails does not fail for ever.
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { istToday } from "@/lib/dates.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { claimEach, claimTime, isLeased, settle, settleEach } from "@/lib/jobs/lease.ts";
import { InternshipQuerySchema, type NewInternships, newInternships } from "@/lib/internships/internships.ts";
import { type NewOpportunities, newOpportunities, OpportunityQuerySchema } from "@/lib/opportunities/opportunities.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { type User, userKey } from "@/lib/users/users.ts";
import { type AlertRecord, MAX_ALERTS, queryParams } from "./alerts.ts";
import { digestMail, type DigestSection, fitMail, internshipItem, type MailItem, opportunityItem } from "./mails.tsx";
import { type NewUnsubscribeToken, newUnsubscribeToken } from "./unsubscribe.ts";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { appliedOn } from "@/lib/applications/applications.ts";

/** 09:00 IST is 03:30 UTC. */
export const DAILY_AT_9_IST = "30 3 * * *";
/** Alert entries read from KV per batch. */
export const BATCH = 200;
/** Most alerts claimed in one write (each a check and a set; KV allows 100 checks per write). */
const CLAIMS_PER_WRITE = 100;
/** Bytes of e-mail one write carries at most: small writes keep KV free for the requests between them. */
const BYTES_PER_WRITE = 50_000;
/** How long the run works (ms) before it gives way to the requests being answered. */
const SLICE_MS = 1;
/** How long a run holds the alerts it claimed (ms). */
const LEASE_MS = 5 * 60 * 1000;
/** Most listings of one alert in one digest. */
export const MAX_PER_ALERT = 20;
/** Matches of an alert whose told marks are read: enough to fill `MAX_PER_ALERT` after those already told. */
const CANDIDATES = 2 * MAX_PER_ALERT;
/** How long the record of what a digest showed its reader is kept (ms): 90 days. */
export const TOLD_KEPT_MS = 90 * 24 * 60 * 60 * 1000;
/** Runs in a row an alert's digest may fail before its window is passed over. */
export const MAX_FAILED_RUNS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A window that starts less than this long (ms) before a run started at the daily run before. */
const LAST_RUN_MS = 36 * 60 * 60 * 1000;

const toldKey = (userId: string, runAt: string): Deno.KvKey => ["alerts_told", userId, runAt];

/**
 * What a run did: people e-mailed, alerts listed in those e-mails, people skipped (unverified, claimed, nothing due),
 * people whose digest failed (logged with their id).
 */
type DigestCounts = { sent: number; alerts: number; skipped: number; failed: number };

/** Whether `alert` is due at `now`: active, and daily, or weekly and not sent in the last 7 days. */
function isDue(alert: AlertRecord, now: number): boolean {
  if (!alert.isActive || isLeased(alert, now)) return false;
  return alert.frequency === "daily" || alert.lastSentAt === null || Date.parse(alert.lastSentAt) <= now - 7 * DAY_MS;
}

/** The start of `alert`'s window at `now`: when it last ran, else 24 hours (weekly: 7 days) back. */
function windowStart(alert: AlertRecord, now: number): string {
  return alert.lastRunAt ?? new Date(now - (alert.frequency === "weekly" ? 7 : 1) * DAY_MS).toISOString();
}

/** What one run reuses: the listings new in each window, and the matches of each filter and window. */
class RunState {
  readonly #listings = new Map<string, Promise<NewInternships | NewOpportunities>>();
  readonly #matches = new Map<string, Matches>();

  /** `pause` gives way to requests once the run has worked a slice (`slicer`). */
  constructor(readonly ctx: JobContext, readonly pause: () => Promise<void>) {}

  /** The listings of `kind` published after `since` (ISO) and not after the run's time. */
  listings(kind: AlertRecord["kind"], since: string): Promise<NewInternships | NewOpportunities> {
    const key = `${kind}\0${since}`;
    let found = this.#listings.get(key);
    if (!found) {
      const window = { after: Date.parse(since), until: this.ctx.now.getTime(), today: istToday(this.ctx.now) };
      found = kind === "internships"
        ? newInternships(this.ctx.kv, { ...window, pause: this.pause })
        : newOpportunities(this.ctx.kv, window);
      this.#listings.set(key, found);
    }
    return found;
  }

  /**
   * The new listings matching `alert` in its window, newest first, the first `CANDIDATES` of them, their facts in
   * `t`'s language (shared, do not change).
   */
  async matches(alert: AlertRecord, t: Translate): Promise<Matches> {
    const since = windowStart(alert, this.ctx.now.getTime());
    const key = `${alert.kind}\0${since}\0${JSON.stringify(alert.query)}\0${t.lang}`;
    let found = this.#matches.get(key);
    if (found) return found;
    const listings = await this.listings(alert.kind, since);
    const { appUrl } = this.ctx.config;
    const params = queryParams(alert.query);
    let ids: string[], items: MailItem[];
    if (alert.kind === "internships") {
      const query = InternshipQuerySchema.parse(params);
      const views = (listings as NewInternships).matching(query).slice(0, CANDIDATES);
      [ids, items] = [views.map((i) => i.id), views.map((i) => internshipItem(appUrl, i, t))];
    } else {
      const query = OpportunityQuerySchema.parse(params);
      const views = (listings as NewOpportunities).matching(query).slice(0, CANDIDATES);
      [ids, items] = [views.map((o) => o.id), views.map((o) => opportunityItem(appUrl, o, t))];
    }
    const { republished } = listings;
    found = { ids, items, first: items.slice(0, MAX_PER_ALERT), republished: ids.filter((id) => republished.has(id)) };
    this.#matches.set(key, found);
    return found;
  }
}

/**
 * An alert's matches in a window: the first `CANDIDATES` listings' ids and items, and the first `MAX_PER_ALERT` items
 * (one array shared by everyone told about none of them, so the list is rendered once).
 */
interface Matches {
  ids: string[];
  items: MailItem[];
  first: MailItem[];
  /** Those of `ids` made public after their creation (`republished`): told, if at all, possibly before the window. */
  republished: string[];
}

/** A person's claimed alerts with their matches, and how many alerts they have in all. */
interface Reader {
  userId: string;
  alertCount: number;
  alerts: { alert: AlertRecord; matches: Matches }[];
}

/**
 * The first run whose told records of `reader` can hold a listing of their alerts' windows at `now` (ISO; `""`: every
 * run), or `null` when none can. A listing published once, after a window's start, was told (if at all) by a later
 * digest, so the runs after the earliest window start suffice; one made public again may have been told before it.
 * Such a record is another alert's (maybe since deleted), from a run this alert missed (before its first window, not
 * due, paused): a person's only alert whose window starts at the run before (`LAST_RUN_MS`) missed none, and reads none.
 */
function toldSince({ alertCount, alerts }: Reader, now: number): string | null {
  if (alerts.some(({ matches }) => matches.republished.length > 0)) return "";
  const starts = alerts.map(({ alert }) => Date.parse(windowStart(alert, now)));
  if (starts.length === 0) return null;
  const only = alertCount === 1 && alerts[0].alert.lastRunAt !== null && starts[0] > now - LAST_RUN_MS;
  return only ? null : new Date(Math.min(...starts) + 1).toISOString();
}

/**
 * The listings `readers` were already told about, as `kind` and id joined by a space, per reader: the records of what
 * digests showed them since `toldSince`, one list each, all at once, and the internships among their matches they
 * applied to here (they know those: `appliedOn`, a read of those ids only).
 */
async function toldOf(kv: Deno.Kv, readers: Reader[], now: number): Promise<Set<string>[]> {
  return await Promise.all(readers.map(async (reader) => {
    const told = new Set<string>();
    const internships = reader.alerts.flatMap(({ alert, matches }) => alert.kind === "internships" ? matches.ids : []);
    if (internships.length > 0) {
      for (const id of Object.keys(await appliedOn(kv, reader.userId, [...new Set(internships)]))) {
        told.add(`internships ${id}`);
      }
    }
    const since = toldSince(reader, now);
    if (since === null) return told;
    const prefix = ["alerts_told", reader.userId];
    for await (const { value } of kv.list<string[]>({ prefix, start: [...prefix, since] }, { batchSize: 100 })) {
      for (const listing of value) told.add(listing);
    }
    return told;
  }));
}

/** One person's due alerts, claimed, the person, and how many alerts they have in all. */
interface Claimed {
  user: User;
  alerts: Deno.KvEntry<AlertRecord>[];
  alertCount: number;
}

/**
 * Claims the due alerts of `people` (each person's alert entries) at `now`, leaving out those whose window holds no new
 * listing (nothing can match: they are not touched, and their next window starts where this one did). People without
 * such alerts, or unknown or unverified, are left out (counted as skipped when they had due alerts). The claims go in
 * one write checked against each alert as read, or each on its own after a lost race (`claimEach`).
 */
async function claimDue(
  run: RunState,
  people: Deno.KvEntry<AlertRecord>[][],
  counts: DigestCounts,
): Promise<Claimed[]> {
  const { kv } = run.ctx;
  const now = run.ctx.now.getTime();
  const due: Deno.KvEntry<AlertRecord>[][] = [];
  const alertCounts = new Map<string, number>();
  for (const entries of people) {
    alertCounts.set(entries[0].value.userId, entries.length);
    const held: Deno.KvEntry<AlertRecord>[] = [];
    for (const entry of entries) {
      if (!isDue(entry.value, now)) continue;
      if ((await run.listings(entry.value.kind, windowStart(entry.value, now))).count > 0) held.push(entry);
    }
    if (held.length > 0) due.push(held);
  }
  const users = await getManyChunked<User>(kv, due.map((alerts) => userKey(alerts[0].value.userId)));
  const wanted = due.flatMap((alerts, i) => {
    const user = users[i].value;
    // A suspended person gets no digest: they cannot sign in to open what it lists (docs/decisions.md, Admin, "Suspension").
    if (user?.emailVerified && !user.suspension) return [{ user, alerts }];
    counts.skipped++;
    return [];
  });
  if (wanted.length === 0) return [];
  const taken = await claimEach(kv, wanted.flatMap(({ alerts }) => alerts), { now: claimTime(now), leaseMs: LEASE_MS });
  let next = 0;
  const claimed: Claimed[] = [];
  for (const { user, alerts } of wanted) {
    const held = alerts.map(() => taken[next++]).filter((entry) => entry !== null);
    if (held.length > 0) claimed.push({ user, alerts: held, alertCount: alertCounts.get(user.id) as number });
    else counts.skipped++;
  }
  return claimed;
}

/** What one person's digest writes: checked against their claims, it settles them and queues the e-mail (if any). */
interface Plan {
  userId: string;
  claimed: Deno.KvEntry<AlertRecord>[];
  write: (op: Deno.AtomicOperation) => void;
  /** How many alerts the e-mail lists (0: no e-mail), and its size in bytes with the record of what it shows. */
  listed: number;
  bytes: number;
}

/**
 * The items of `matches` for a person told about `told` already (`kind` and id: told before, or shown in an earlier
 * section): the first `MAX_PER_ALERT` of the others, with their ids.
 */
function untold(kind: AlertRecord["kind"], matches: Matches, told: Set<string>): { ids: string[]; items: MailItem[] } {
  const ids = matches.ids.slice(0, MAX_PER_ALERT);
  if (!ids.some((id) => told.has(`${kind} ${id}`))) return { ids, items: matches.first };
  const kept = matches.ids.flatMap((id, i) => told.has(`${kind} ${id}`) ? [] : [i]).slice(0, MAX_PER_ALERT);
  return { ids: kept.map((i) => matches.ids[i]), items: kept.map((i) => matches.items[i]) };
}

/**
 * The digest of `user` for the alerts `claimed`, whose matches are `matches` (in order), leaving out the listings in
 * `told` and, in each section, those an earlier section shows (see the module docstring).
 */
async function planDigest(
  run: RunState,
  { user, alerts: claimed }: Claimed,
  { matches, told }: { matches: Matches[]; told: Set<string> },
): Promise<Plan> {
  const { ctx } = run;
  const until = ctx.now.toISOString();
  const t = translatorOfPerson(user);
  const left = new Set(told);
  const found = claimed.map((entry, i) => {
    const section = untold(entry.value.kind, matches[i], left);
    for (const id of section.ids) left.add(`${entry.value.kind} ${id}`);
    return section;
  });
  const listed = claimed.filter((_, i) => found[i].items.length > 0);
  const tokens: NewUnsubscribeToken[] = [];
  const link = async (alertIds: string[]) => {
    const token = await newUnsubscribeToken({ userId: user.id, kind: "alerts", alertIds });
    tokens.push(token);
    return `${ctx.config.appUrl}/unsubscribe/${token.token}`;
  };
  const sections: DigestSection[] = [];
  const sectionIds: string[][] = [];
  for (const entry of listed) {
    const { ids, items } = found[claimed.indexOf(entry)];
    sections.push({ alert: entry.value, items, unsubscribeUrl: await link([entry.value.id]) });
    sectionIds.push(ids.map((id) => `${entry.value.kind} ${id}`));
  }
  // One alert: its own link stops everything the e-mail was sent for.
  const unsubscribeUrl = listed.length > 1 ? await link(listed.map((e) => e.value.id)) : sections[0]?.unsubscribeUrl;
  // The first `kept` matches, in the order of the sections; each section counts the ones it leaves out.
  const cut = (kept: number) =>
    sections.map((section) => {
      const shown = Math.min(kept, section.items.length);
      kept -= shown;
      const more = section.items.length - shown;
      return more === 0 ? section : { ...section, items: section.items.slice(0, shown), more };
    });
  const total = sections.reduce((n, section) => n + section.items.length, 0);
  const { appUrl } = ctx.config;
  const fitted = listed.length === 0 ? null : fitMail(
    total,
    (kept) => digestMail({ to: user.email, name: user.name, appUrl, sections: cut(kept), t, unsubscribeUrl }),
  );
  const mail = fitted?.mail ?? null;
  // The listings the e-mail shows: the first `kept`, in the order of the sections (no section repeats another's).
  const shown = sectionIds.flat().slice(0, fitted?.kept ?? 0);
  return {
    userId: user.id,
    claimed,
    listed: listed.length,
    bytes: mail ? mail.text.length + mail.html.length + JSON.stringify(shown).length : 0,
    write(op) {
      for (const entry of claimed) {
        const lastSentAt = listed.includes(entry) ? until : entry.value.lastSentAt;
        op.check(entry).set(entry.key, { ...entry.value, lease: null, lastRunAt: until, lastSentAt, failedRuns: 0 });
      }
      for (const token of tokens) token.write(op);
      if (shown.length > 0) op.set(toldKey(user.id, until), shown, { expireIn: TOLD_KEPT_MS });
      if (mail) queueMailOps(op, { ...mail, userId: user.id }, ctx.now.getTime());
    },
  };
}

/**
 * Records that the digest of `userId` failed with `error` (see the module docstring): logs it, counts it, and releases
 * the person's `claimed` alerts with `failedRuns` raised, or, at `MAX_FAILED_RUNS`, with the window passed over. When
 * that write fails too, the leases run out and the next run tries again.
 */
async function recordFailure(
  ctx: JobContext,
  { userId, claimed, error, counts }: {
    userId: string;
    claimed: Deno.KvEntry<AlertRecord>[];
    error: unknown;
    counts: DigestCounts;
  },
): Promise<void> {
  counts.failed++;
  ctx.log.error("alerts digest of a person failed", { userId, error: String(error) });
  const until = ctx.now.toISOString();
  const release = (entry: Deno.KvEntry<AlertRecord>) => (op: Deno.AtomicOperation) => {
    const failedRuns = (entry.value.failedRuns ?? 0) + 1;
    op.set(
      entry.key,
      failedRuns < MAX_FAILED_RUNS
        ? { ...entry.value, lease: null, failedRuns }
        : { ...entry.value, lease: null, failedRuns: 0, lastRunAt: until },
    );
  };
  try {
    await settleEach(ctx.kv, claimed.map((entry) => ({ claimed: entry, write: release(entry) })));
  } catch (releaseError) {
    ctx.log.error("alerts digest claims left to run out", { userId, error: String(releaseError) });
  }
}

/**
 * Commits `plans` in writes of at most `BYTES_PER_WRITE` of e-mail, each checked against every claim it settles, giving
 * way to requests between writes; when such a write fails (a claim was lost, or it threw), each of its plans is settled
 * on its own (`settle`), so only the lost ones are skipped and only the failing ones recorded as failed.
 */
async function commitPlans(
  ctx: JobContext,
  { plans, counts, pause }: { plans: Plan[]; counts: DigestCounts; pause: () => Promise<void> },
): Promise<void> {
  const { kv } = ctx;
  const done = (plan: Plan) => {
    if (plan.listed === 0) return;
    counts.sent++;
    counts.alerts += plan.listed;
  };
  for (let i = 0; i < plans.length;) {
    const group: Plan[] = [];
    let bytes = 0;
    while (i < plans.length && (group.length === 0 || bytes + plans[i].bytes <= BYTES_PER_WRITE)) {
      bytes += plans[i].bytes;
      group.push(plans[i++]);
    }
    const together = async () => {
      const op = kv.atomic();
      for (const plan of group) plan.write(op);
      return (await op.commit()).ok;
    };
    if (await together().catch(() => false)) group.forEach(done);
    else {
      for (const plan of group) {
        try {
          if (await settle(kv, plan.claimed[0], plan.write)) done(plan);
          else counts.skipped++;
        } catch (error) {
          await recordFailure(ctx, { userId: plan.userId, claimed: plan.claimed, error, counts });
        }
      }
    }
    await pause();
  }
}

/**
 * A pause for the requests being answered, taken once the run has worked `SLICE_MS` since the last one (the digest's
 * and the deadline reminders').
 */
export function slicer(ctx: Pick<JobContext, "requests">): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await ctx.requests.giveWay();
    since = performance.now();
  };
}

/** One run of the digest at `ctx.now` (see the module docstring). */
export async function runAlertsDigest(ctx: JobContext): Promise<DigestCounts> {
  const counts: DigestCounts = { sent: 0, alerts: 0, skipped: 0, failed: 0 };
  const pause = slicer(ctx);
  const run = new RunState(ctx, pause);
  const work = async (people: Deno.KvEntry<AlertRecord>[][]) => {
    const plans: Plan[] = [];
    const claimed = await claimDue(run, people, counts);
    // Each person's matches (in their language), then what they were told about already, for all of them at once.
    const found = await Promise.all(claimed.map(async (person) => {
      const t = translatorOfPerson(person.user);
      try {
        return await Promise.all(person.alerts.map((entry) => run.matches(entry.value, t)));
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }));
    const told = await toldOf(
      ctx.kv,
      claimed.map((person, i) => {
        const matches = found[i];
        const alerts = matches instanceof Error
          ? []
          : matches.map((found, j) => ({ alert: person.alerts[j].value, matches: found }));
        return { userId: person.user.id, alertCount: person.alertCount, alerts };
      }),
      ctx.now.getTime(),
    );
    for (const [i, person] of claimed.entries()) {
      try {
        const matches = found[i];
        if (matches instanceof Error) throw matches;
        plans.push(await planDigest(run, person, { matches, told: told[i] }));
      } catch (error) {
        await recordFailure(ctx, { userId: person.user.id, claimed: person.alerts, error, counts });
      }
      await pause();
    }
    await commitPlans(ctx, { plans, counts, pause });
  };
  let people: Deno.KvEntry<AlertRecord>[][] = [];
  let size = 0;
  for await (const entry of ctx.kv.list<AlertRecord>({ prefix: ["alerts"] }, { batchSize: BATCH })) {
    const last = people.at(-1);
    if (last && last[0].value.userId === entry.value.userId) last.push(entry);
    else {
      if (size + MAX_ALERTS > CLAIMS_PER_WRITE) {
        await work(people);
        people = [];
        size = 0;
      }
      people.push([entry]);
    }
    size++;
  }
  await work(people);
  return counts;
}

/** The job of the registry. */
export const alertsDigestJob: Job = { name: "alerts-digest", schedule: DAILY_AT_9_IST, run: runAlertsDigest };

/** Deletes `userId`'s told marks (account deletion); idempotent: `deleteListed`. */
export async function deleteToldOf(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed(kv, ["alerts_told", userId]);
}
