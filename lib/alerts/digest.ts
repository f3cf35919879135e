/**
 * The `alerts-digest` job (docs/decisions.md, Alerts): daily at 09:00 IST it takes every active daily alert, and every
 * active weekly alert not sent in the last 7 days, and sends each person one e-mail listing, per alert, the open
 * listings created since that alert last ran (first run: the last 24 hours, or 7 days for a weekly alert) that match
 * it, at most 20 per alert. Nothing is sent when nothing matches; people with an unverified e-mail get nothing.
 *
 * It walks `["alerts"]` (kept by user) in batches of `BATCH` entries, a few people at a time. Per person it claims
 * each due alert (`lib/jobs/lease.ts`), finds the matches, and then, in one write checked against the claims, moves
 * every claimed alert's `lastRunAt` (and `lastSentAt` when listed), stores the unsubscribe tokens and queues the
 * e-mail in the outbox. A second run, at once or overlapping, finds the alerts claimed or their window empty: it sends
 * nothing twice.
 */
import { istToday } from "@/lib/dates.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import { claim, isLeased, settle } from "@/lib/jobs/lease.ts";
import { InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { listOpportunities, OpportunityQuerySchema } from "@/lib/opportunities/opportunities.ts";
import { deliverSoon, queueMailOps } from "@/lib/mail/outbox.ts";
import { getUser } from "@/lib/users/users.ts";
import { type AlertRecord, queryParams } from "./alerts.ts";
import { digestMail, type DigestSection, internshipItem, type MailItem, opportunityItem } from "./mails.ts";
import { type NewUnsubscribeToken, newUnsubscribeToken } from "./unsubscribe.ts";

/** 09:00 IST is 03:30 UTC. */
export const DAILY_AT_9_IST = "30 3 * * *";
/** Alert entries read from KV per batch. */
export const BATCH = 200;
/** People whose digest is made at once. */
const CONCURRENCY = 4;
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
async function matches(
  ctx: JobContext,
  { alert, since, until }: { alert: AlertRecord; since: string; until: string },
): Promise<MailItem[]> {
  const { kv, config } = ctx;
  const params = queryParams(alert.query);
  const fresh = (createdAt: string) => createdAt > since && createdAt <= until;
  if (alert.kind === "internships") {
    const query = InternshipQuerySchema.parse({ ...params, limit: String(MAX_PER_ALERT) });
    const page = await listInternships(kv, { query, viewer: null, today: istToday(ctx.now) });
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

/** The digest of one person, whose alert entries are `entries`; adds what it did to `counts`. */
async function digestOf(ctx: JobContext, entries: Deno.KvEntry<AlertRecord>[], counts: DigestCounts): Promise<void> {
  const now = ctx.now.getTime();
  const due = entries.filter((entry) => isDue(entry.value, now));
  if (due.length === 0) return;
  const user = await getUser(ctx.kv, due[0].value.userId);
  if (!user || !user.emailVerified) {
    counts.skipped++;
    return;
  }
  const claimed: Deno.KvEntry<AlertRecord>[] = [];
  for (const entry of due) {
    const held = await claim(ctx.kv, entry, { now, leaseMs: LEASE_MS });
    if (held) claimed.push(held);
  }
  if (claimed.length === 0) {
    counts.skipped++;
    return;
  }
  const until = ctx.now.toISOString();
  const found = await Promise.all(
    claimed.map((entry) => matches(ctx, { alert: entry.value, since: windowStart(entry.value, now), until })),
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
    unsubscribeUrl: await link(listed.map((entry) => entry.value.id)),
  });
  let mailId: string | null = null;
  const committed = await settle(ctx.kv, claimed[0], (op) => {
    for (const entry of claimed.slice(1)) op.check(entry);
    for (const entry of claimed) {
      const lastSentAt = listed.includes(entry) ? until : entry.value.lastSentAt;
      op.set(entry.key, { ...entry.value, lease: null, lastRunAt: until, lastSentAt });
    }
    for (const token of tokens) token.write(op);
    if (mail) mailId = queueMailOps(op, { ...mail, userId: user.id }, now);
  });
  if (!committed) {
    counts.skipped++;
    return;
  }
  if (mailId) {
    counts.sent++;
    counts.alerts += listed.length;
    deliverSoon(ctx, mailId);
  }
}

/** One run of the digest at `ctx.now` (see the module docstring). */
export async function runAlertsDigest(ctx: JobContext): Promise<DigestCounts> {
  const counts: DigestCounts = { sent: 0, alerts: 0, skipped: 0 };
  const running = new Set<Promise<void>>();
  const start = async (group: Deno.KvEntry<AlertRecord>[]) => {
    const work = digestOf(ctx, group, counts).finally(() => running.delete(work));
    running.add(work);
    if (running.size >= CONCURRENCY) await Promise.race(running);
  };
  let group: Deno.KvEntry<AlertRecord>[] = [];
  for await (const entry of ctx.kv.list<AlertRecord>({ prefix: ["alerts"] }, { batchSize: BATCH })) {
    if (group.length > 0 && group[0].value.userId !== entry.value.userId) {
      await start(group);
      group = [];
    }
    group.push(entry);
  }
  if (group.length > 0) await start(group);
  await Promise.all(running);
  return counts;
}

/** The job of the registry. */
export const alertsDigestJob: Job = { name: "alerts-digest", schedule: DAILY_AT_9_IST, run: runAlertsDigest };
