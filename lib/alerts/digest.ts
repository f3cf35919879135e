/**
 * The `alerts-digest` job (docs/decisions.md, Alerts): daily at 09:00 IST it takes every active daily alert, and every
 * active weekly alert not sent in the last 7 days, and sends each person one e-mail listing, per alert, the open
 * listings created since that alert last ran (first run: the last 24 hours, or 7 days for a weekly alert) that match
 * it, at most 20 per alert. Nothing is sent when nothing matches; people with an unverified e-mail get nothing.
 *
 * It walks `["alerts"]` (kept by person) in batches of `BATCH` entries. An alert whose window starts after the newest
 * open listing of its kind is skipped untouched (nothing can match). The due alerts of about 80 are claimed at a time
 * in one write with the jobs' leases (`lib/jobs/lease.ts`; after a lost race each alert is claimed on its own with
 * `claim`). Each person's digest is then planned (the matches of a filter and window are found once per run, as
 * people share filters), pausing for the server's requests after every 4 ms of work, and the plans are committed in as few
 * writes as KV's limits allow, each checked against every claim it settles (after a lost race each plan is settled on
 * its own with `settle`): the write moves every claimed alert's `lastRunAt` (and `lastSentAt` when listed), stores the
 * unsubscribe tokens and queues the e-mail in the outbox, whose job (every minute) delivers it. A second run, at once
 * or overlapping, finds the alerts claimed or their windows empty: it sends nothing twice.
 */
import { istToday } from "@/lib/dates.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { claim, HOLDER, isLeased, settle } from "@/lib/jobs/lease.ts";
import { DEFAULT_QUERY, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import {
  listOpportunities,
  openPublishedOpportunities,
  OpportunityQuerySchema,
} from "@/lib/opportunities/opportunities.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { type User, userKey } from "@/lib/users/users.ts";
import { type AlertRecord, MAX_ALERTS, queryParams } from "./alerts.ts";
import { digestMail, type DigestSection, internshipItem, type MailItem, opportunityItem } from "./mails.ts";
import { type NewUnsubscribeToken, newUnsubscribeToken } from "./unsubscribe.ts";

/** 09:00 IST is 03:30 UTC. */
export const DAILY_AT_9_IST = "30 3 * * *";
/** Alert entries read from KV per batch. */
export const BATCH = 200;
/** Most alerts claimed in one write (each a check and a set; KV allows 100 checks per write). */
const CLAIMS_PER_WRITE = 100;
/** How long a run holds the alerts it claimed (ms). */
const LEASE_MS = 5 * 60 * 1000;
/** Most listings of one alert in one digest. */
export const MAX_PER_ALERT = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a run did: people e-mailed, alerts listed in those e-mails, people skipped (unverified, claimed, nothing due). */
type DigestCounts = { sent: number; alerts: number; skipped: number };

/** Whether `alert` is due at `now`: active, and daily, or weekly and not sent in the last 7 days. */
function isDue(alert: AlertRecord, now: number): boolean {
  if (!alert.isActive || isLeased(alert, now)) return false;
  return alert.frequency === "daily" || alert.lastSentAt === null || Date.parse(alert.lastSentAt) <= now - 7 * DAY_MS;
}

/** The start of `alert`'s window at `now`: when it last ran, else 24 hours (weekly: 7 days) back. */
function windowStart(alert: AlertRecord, now: number): string {
  return alert.lastRunAt ?? new Date(now - (alert.frequency === "weekly" ? 7 : 1) * DAY_MS).toISOString();
}

/** The open listings matching `alert` created after `since` and not after `until` (ISO), newest first, at most 20. */
async function matches(ctx: JobContext, alert: AlertRecord, since: string, until: string): Promise<MailItem[]> {
  const { kv, config } = ctx;
  const params = queryParams(alert.query);
  const fresh = (createdAt: string) => createdAt > since && createdAt <= until;
  if (alert.kind === "internships") {
    const query = InternshipQuerySchema.parse({ ...params, limit: String(MAX_PER_ALERT) });
    const page = await listInternships(kv, query, null, istToday(ctx.now));
    return page.internships.filter((i) => fresh(i.createdAt)).map((i) => internshipItem(config.appUrl, i));
  }
  const found = [];
  for (let offset = 0;; offset += 100) {
    const query = OpportunityQuerySchema.parse({
      ...params,
      includeClosed: "false",
      limit: "100",
      offset: String(offset),
    });
    const page = await listOpportunities(kv, query, null);
    found.push(...page.opportunities.filter((o) => fresh(o.createdAt)));
    if (!page.pagination.hasMore) break;
  }
  return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, MAX_PER_ALERT)
    .map((o) => opportunityItem(config.appUrl, o));
}

/** One person's due alerts, claimed, and the person. */
interface Claimed {
  user: User;
  alerts: Deno.KvEntry<AlertRecord>[];
}

/**
 * Claims the due alerts of `people` (each person's alert entries) at `now`, leaving out those whose window starts
 * after the newest listing of their kind (nothing can match: they are not touched, and their next window starts where
 * this one did). People without such alerts, or unknown or unverified, are left out (counted as skipped when they had due alerts). The claims of up to `CLAIMS_PER_WRITE`
 * alerts go in one write checked against each alert as read (the leases `claim` puts); when that write loses a race,
 * each alert is claimed on its own with `claim`, so only the ones taken meanwhile are left out.
 */
async function claimDue(
  kv: Deno.Kv,
  people: Deno.KvEntry<AlertRecord>[][],
  now: number,
  run: RunState,
  counts: DigestCounts,
): Promise<Claimed[]> {
  const due = people.map((entries) =>
    entries.filter((entry) => isDue(entry.value, now) && windowStart(entry.value, now) < run.newest[entry.value.kind])
  ).filter((d) => d.length > 0);
  const users: (User | null)[] = [];
  for (let i = 0; i < due.length; i += 10) {
    const entries = await kv.getMany<User[]>(due.slice(i, i + 10).map((d) => userKey(d[0].value.userId)));
    users.push(...entries.map((entry) => entry.value));
  }
  const wanted = due.flatMap((alerts, i) => {
    const user = users[i];
    if (user?.emailVerified) return [{ user, alerts }];
    counts.skipped++;
    return [];
  });
  const lease = { holder: HOLDER, until: now + LEASE_MS };
  const op = kv.atomic();
  for (const { alerts } of wanted) {
    for (const entry of alerts) op.check(entry).set(entry.key, { ...entry.value, lease });
  }
  const result = await op.commit();
  if (result.ok) {
    return wanted.map(({ user, alerts }) => ({
      user,
      alerts: alerts.map((entry) => ({
        ...entry,
        value: { ...entry.value, lease },
        versionstamp: result.versionstamp,
      })),
    }));
  }
  const claimed: Claimed[] = [];
  for (const { user, alerts } of wanted) {
    const held: Deno.KvEntry<AlertRecord>[] = [];
    for (const entry of alerts) {
      const taken = await claim(kv, entry, { now, leaseMs: LEASE_MS });
      if (taken) held.push(taken);
    }
    if (held.length > 0) claimed.push({ user, alerts: held });
    else counts.skipped++;
  }
  return claimed;
}

/** What one person's digest writes: checked against their claims, it settles them and queues the e-mail (if any). */
interface Plan {
  claimed: Deno.KvEntry<AlertRecord>[];
  write: (op: Deno.AtomicOperation) => void;
  /** How many alerts the e-mail lists (0: no e-mail), and its size in bytes. */
  listed: number;
  bytes: number;
}

/** What a run reuses: the matches of each alert filter and window (people share filters), and the newest listings. */
interface RunState {
  matches: Map<string, Promise<MailItem[]>>;
  /** The creation time (ISO) of the newest open listing of each kind: a window starting after it holds nothing. */
  newest: Record<AlertRecord["kind"], string>;
}

/** The digest of `user` for the alerts `claimed` (see the module docstring). */
async function planDigest(ctx: JobContext, run: RunState, { user, alerts: claimed }: Claimed): Promise<Plan> {
  const now = ctx.now.getTime();
  const until = ctx.now.toISOString();
  const found = await Promise.all(claimed.map((entry) => {
    const since = windowStart(entry.value, now);
    const key = `${entry.value.kind}\0${JSON.stringify(entry.value.query)}\0${since}`;
    let found = run.matches.get(key);
    if (!found) run.matches.set(key, found = matches(ctx, entry.value, since, until));
    return found;
  }));
  const listed = claimed.filter((_, i) => found[i].length > 0);
  const tokens: NewUnsubscribeToken[] = [];
  const link = async (alertIds: string[]) => {
    const token = await newUnsubscribeToken({ userId: user.id, kind: "alerts", alertIds });
    tokens.push(token);
    return `${ctx.config.appUrl}/unsubscribe/${token.token}`;
  };
  const sections: DigestSection[] = [];
  for (const entry of listed) {
    sections.push({
      alert: entry.value,
      items: found[claimed.indexOf(entry)],
      unsubscribeUrl: await link([entry.value.id]),
    });
  }
  const mail = listed.length === 0 ? null : digestMail({
    to: user.email,
    name: user.name,
    appUrl: ctx.config.appUrl,
    sections,
    // One alert: its own link stops everything the e-mail was sent for.
    unsubscribeUrl: listed.length === 1 ? sections[0].unsubscribeUrl : await link(listed.map((e) => e.value.id)),
  });
  return {
    claimed,
    listed: listed.length,
    bytes: mail ? mail.text.length + mail.html.length : 0,
    write(op) {
      for (const entry of claimed) {
        const lastSentAt = listed.includes(entry) ? until : entry.value.lastSentAt;
        op.check(entry).set(entry.key, { ...entry.value, lease: null, lastRunAt: until, lastSentAt });
      }
      for (const token of tokens) token.write(op);
      if (mail) queueMailOps(op, { ...mail, userId: user.id }, now);
    },
  };
}

/** Bytes of e-mail one combined write carries at most (KV takes 800 KiB per write). */
const BYTES_PER_WRITE = 400_000;

/**
 * Commits `plans` in as few writes as fit KV's limits, each checked against every claim it settles; when such a write
 * fails (a claim was lost), each of its plans is settled on its own (`settle`), so only the lost ones are skipped.
 */
async function commitPlans(kv: Deno.Kv, plans: Plan[], counts: DigestCounts): Promise<void> {
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
    const op = kv.atomic();
    for (const plan of group) plan.write(op);
    if ((await op.commit()).ok) {
      group.forEach(done);
      continue;
    }
    for (const plan of group) {
      if (await settle(kv, plan.claimed[0], plan.write)) done(plan);
      else counts.skipped++;
    }
  }
}

/** How long a run works (ms) before it lets the server answer waiting requests (it shares the process with them). */
const SLICE_MS = 4;

/** A pause between two people's digests, taken once the run has worked `SLICE_MS` since the last one. */
function slicer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = performance.now();
  };
}

/** The creation time of the newest open listing of each kind at `ctx.now` (the epoch when there is none). */
async function newestListings(ctx: JobContext): Promise<RunState["newest"]> {
  const [internships, opportunities] = await Promise.all([
    listInternships(ctx.kv, { ...DEFAULT_QUERY, limit: 1 }, null, istToday(ctx.now)),
    openPublishedOpportunities(ctx.kv, istToday(ctx.now)),
  ]);
  const epoch = new Date(0).toISOString();
  return {
    internships: internships.internships[0]?.createdAt ?? epoch,
    opportunities: opportunities.reduce((max, o) => o.createdAt > max ? o.createdAt : max, epoch),
  };
}

/** One run of the digest at `ctx.now` (see the module docstring). */
export async function runAlertsDigest(ctx: JobContext): Promise<DigestCounts> {
  const counts: DigestCounts = { sent: 0, alerts: 0, skipped: 0 };
  const now = ctx.now.getTime();
  const run: RunState = { matches: new Map(), newest: await newestListings(ctx) };
  const pause = slicer();
  const work = async (people: Deno.KvEntry<AlertRecord>[][]) => {
    const plans: Plan[] = [];
    for (const person of await claimDue(ctx.kv, people, now, run, counts)) {
      plans.push(await planDigest(ctx, run, person));
      await pause();
    }
    await commitPlans(ctx.kv, plans, counts);
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
