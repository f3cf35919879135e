/**
 * The `alerts-digest` job (docs/decisions.md, Alerts): daily at 09:00 IST it takes every active daily alert, and every
 * active weekly alert not sent in the last 7 days, and sends each person one e-mail listing, per alert, the open
 * listings created since that alert last ran (first run: the last 24 hours, or 7 days for a weekly alert) that match
 * it, at most 20 per alert. Nothing is sent when nothing matches; people with an unverified e-mail get nothing.
 *
 * It walks `["alerts"]` (kept by person) in batches of `BATCH` entries. It claims the due alerts of about 80 at a
 * time in one write with the jobs' leases (`lib/jobs/lease.ts`; on a lost race each alert is claimed on its own with
 * `claim`), then makes eight people's digests at once: find the matches, and in one write checked against that
 * person's claims (`settle`) move every claimed alert's `lastRunAt` (and `lastSentAt` when listed), store the
 * unsubscribe tokens and queue the e-mail in the outbox, whose job (every minute) delivers it. A second run, at once or
 * overlapping, finds the alerts claimed or their windows empty: it sends nothing twice.
 */
import { istToday } from "@/lib/dates.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { claim, HOLDER, isLeased, settle } from "@/lib/jobs/lease.ts";
import { InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { listOpportunities, OpportunityQuerySchema } from "@/lib/opportunities/opportunities.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { type User, userKey } from "@/lib/users/users.ts";
import { type AlertRecord, MAX_ALERTS, queryParams } from "./alerts.ts";
import { digestMail, type DigestSection, internshipItem, type MailItem, opportunityItem } from "./mails.ts";
import { type NewUnsubscribeToken, newUnsubscribeToken } from "./unsubscribe.ts";

/** 09:00 IST is 03:30 UTC. */
export const DAILY_AT_9_IST = "30 3 * * *";
/** Alert entries read from KV per batch. */
export const BATCH = 200;
/** People whose digest is made at once. */
const CONCURRENCY = 8;
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
 * Claims the due alerts of `people` (each person's alert entries) at `now`: people without due alerts, or unknown or
 * unverified, are left out (counted as skipped when they had due alerts). The claims of up to `CLAIMS_PER_WRITE`
 * alerts go in one write checked against each alert as read (the leases `claim` puts); when that write loses a race,
 * each alert is claimed on its own with `claim`, so only the ones taken meanwhile are left out.
 */
async function claimDue(
  kv: Deno.Kv,
  people: Deno.KvEntry<AlertRecord>[][],
  now: number,
  counts: DigestCounts,
): Promise<Claimed[]> {
  const due = people.map((entries) => entries.filter((entry) => isDue(entry.value, now))).filter((d) => d.length > 0);
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

/** The digest of `user` for the alerts `claimed` (see the module docstring); adds what it did to `counts`. */
async function digestOf(ctx: JobContext, { user, alerts: claimed }: Claimed, counts: DigestCounts): Promise<void> {
  const now = ctx.now.getTime();
  const until = ctx.now.toISOString();
  const found = await Promise.all(
    claimed.map((entry) => matches(ctx, entry.value, windowStart(entry.value, now), until)),
  );
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
  const committed = await settle(ctx.kv, claimed[0], (op) => {
    for (const entry of claimed.slice(1)) op.check(entry);
    for (const entry of claimed) {
      const lastSentAt = listed.includes(entry) ? until : entry.value.lastSentAt;
      op.set(entry.key, { ...entry.value, lease: null, lastRunAt: until, lastSentAt });
    }
    for (const token of tokens) token.write(op);
    if (mail) queueMailOps(op, { ...mail, userId: user.id }, now);
  });
  if (!committed) counts.skipped++;
  else if (mail) {
    counts.sent++;
    counts.alerts += listed.length;
  }
}

/** One run of the digest at `ctx.now` (see the module docstring). */
export async function runAlertsDigest(ctx: JobContext): Promise<DigestCounts> {
  const counts: DigestCounts = { sent: 0, alerts: 0, skipped: 0 };
  const now = ctx.now.getTime();
  const running = new Set<Promise<void>>();
  const work = async (people: Deno.KvEntry<AlertRecord>[][]) => {
    for (const person of await claimDue(ctx.kv, people, now, counts)) {
      const task = digestOf(ctx, person, counts).finally(() => running.delete(task));
      running.add(task);
      if (running.size >= CONCURRENCY) await Promise.race(running);
    }
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
  await Promise.all(running);
  return counts;
}

/** The job of the registry. */
export const alertsDigestJob: Job = { name: "alerts-digest", schedule: DAILY_AT_9_IST, run: runAlertsDigest };
