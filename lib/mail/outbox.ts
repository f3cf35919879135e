/**
 * The e-mail outbox (docs/decisions.md, Background work; docs/api.md, Background work). Every e-mail is first written
 * to KV with its due time, in the same atomic write as the change that causes it (`queueMailOps`) or on its own
 * (`queueMail`); the request then starts one delivery try it does not wait for (`deliverSoon`), and the `outbox` job
 * (every minute) delivers whatever is due. A try claims the mail with a lease (`lib/jobs/lease.ts`), so two processes
 * never send it twice, and records the outcome in one write checked against that claim. A failed try is retried after
 * each wait of `OUTBOX_RETRY_MS`; after the last the mail is kept as `failed`, until an admin retries it. Sent mails
 * expire after 30 days.
 *
 * Once a mail is sent, or has failed for good, its body (text, HTML, link, headers) is dropped in the same write and
 * only its metadata stays, so no token it held (reset, verification, unsubscribe) can be read back from KV. A mail
 * queued `retryable` (it holds no token: a receipt, a refund notice) keeps its body when it fails for good, so an
 * admin can retry it; any other failed mail cannot be sent again (docs/decisions.md, Background work, "Bodies
 * dropped").
 *
 * Keys (owned by this module only):
 * - `["outbox", id]` → `OutboxMail`
 * - `["outbox_due", dueAtMs, id]` → true, while the mail is pending
 * - `["outbox_status", status, createdAtMs, id]` → `{to}`, the admin list by status, newest last
 * - `["outbox_by_user", userId, id]` → true, the mails of a person (export, account deletion)
 */
import { z } from "zod";
import { ConflictError, NotFoundError } from "@/lib/errors.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { claim, type Claimable, isLeased, settle } from "@/lib/jobs/lease.ts";
import { workDue } from "@/lib/jobs/due.ts";
import type { Services } from "@/lib/platform/state.ts";
import type { Mail } from "./mailer.ts";

/** Where a mail stands: `pending` (due at `dueAt`), `sent`, or `failed` after its last try. */
export type MailStatus = "pending" | "sent" | "failed";

/** The statuses, in the order the admin page shows them. */
export const MAIL_STATUSES: readonly MailStatus[] = ["pending", "sent", "failed"];

/**
 * A mail to queue: the mail, and the user it is about (null for none), whose data it is (export, deletion).
 * `retryable` says the mail holds no token (no reset, verification, unsubscribe or claim link), so its body may be
 * kept after its last failed try for an admin's retry; leave it out for any mail that holds one.
 */
export interface MailToQueue extends Mail {
  userId: string | null;
  retryable?: boolean;
}

/** A mail in the outbox. Times are ISO strings; `attempts` counts the delivery tries made. */
export interface OutboxMail extends MailToQueue, Claimable {
  id: string;
  status: MailStatus;
  attempts: number;
  /** The error of the last failed try, or null. */
  lastError: string | null;
  createdAt: string;
  /** When the next try is due; null once sent or failed. */
  dueAt: string | null;
  sentAt: string | null;
  /** True once the body was dropped (sent, or failed for good without `retryable`): text, HTML and link are empty. */
  bodyDropped?: boolean;
}

/** `mail` without its body: what stays of a mail once it is sent or failed for good (see the module docstring). */
function withoutBody(mail: OutboxMail): OutboxMail {
  const { headers: _headers, ...rest } = mail;
  return { ...rest, text: "", html: "", link: "", bodyDropped: true };
}

/** How long sent mails are kept (ms): 30 days. */
export const SENT_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * How long a delivery try holds its mail (ms): far longer than one SMTP exchange may last (`SMTP_OPTIONS`), so a
 * slow try is never taken over while it runs; a process that died holding a mail gives it up after this.
 */
export const DELIVERY_LEASE_MS = 5 * 60 * 1000;

/** How many mails one process sends at once during a run. */
export const DELIVERY_CONCURRENCY = 8;

/** The largest mail (text and HTML, UTF-8 bytes) the outbox takes: a KV value holds at most 64 KiB. */
export const MAX_MAIL_BYTES = 60_000;

const mailKey = (id: string): Deno.KvKey => ["outbox", id];
const dueKey = (dueAtMs: number, id: string): Deno.KvKey => ["outbox_due", dueAtMs, id];
const statusKey = (mail: Pick<OutboxMail, "status" | "createdAt" | "id">): Deno.KvKey => [
  "outbox_status",
  mail.status,
  Date.parse(mail.createdAt),
  mail.id,
];
const userMailKey = (userId: string, id: string): Deno.KvKey => ["outbox_by_user", userId, id];

/**
 * Adds a pending mail, due at `now` (ms), to `op`: the record, its due-time entry, its status entry and its user
 * entry. Returns the mail's id; after `op` commits, `deliverSoon(services, id)` starts its first try (else the
 * `outbox` job sends it within a minute).
 * @throws Error when the mail is larger than `MAX_MAIL_BYTES`.
 */
export function queueMailOps(op: Deno.AtomicOperation, mail: MailToQueue, now = Date.now()): string {
  const bytes = new TextEncoder().encode(mail.text + mail.html).length;
  if (bytes > MAX_MAIL_BYTES) throw new Error(`mail of ${bytes} bytes is over the outbox's ${MAX_MAIL_BYTES}`);
  const id = crypto.randomUUID();
  const record: OutboxMail = {
    ...mail,
    id,
    status: "pending",
    attempts: 0,
    lastError: null,
    createdAt: new Date(now).toISOString(),
    dueAt: new Date(now).toISOString(),
    sentAt: null,
    lease: null,
  };
  op.set(mailKey(id), record)
    .set(dueKey(now, id), true)
    .set(statusKey(record), { to: record.to });
  if (mail.userId) op.set(userMailKey(mail.userId, id), true);
  return id;
}

/**
 * Queues `mail` in its own atomic write and starts its first delivery try without the caller waiting for it.
 * Returns the mail's id.
 */
export async function queueMail(services: Services, mail: MailToQueue): Promise<string> {
  const op = services.kv.atomic();
  const id = queueMailOps(op, mail);
  await op.commit();
  deliverSoon(services, id);
  return id;
}

/** The mail `id` as stored (value null when there is none), to hand to `deliverMail`. */
export async function readMail(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<OutboxMail>> {
  return await kv.get<OutboxMail>(mailKey(id));
}

/** Starts one delivery try of mail `id` now, which the caller does not wait for (`BackgroundWork`). */
export function deliverSoon(services: Services, id: string): void {
  services.background.start(services.log, "mail delivery try failed", async () => {
    await deliverMail(services, await readMail(services.kv, id), Date.now());
  });
}

/** What one delivery try came to: `skipped` when the mail was not due or someone else holds it. */
export type DeliveryOutcome = "sent" | "retry" | "failed" | "skipped";

/**
 * One delivery try of the mail `entry` as read, at `now` (ms): claims it when it is pending, due and not held, sends
 * it, and records the outcome checked against the claim: `sent` (kept 30 days without its body), `retry` (due again
 * after the next wait of `OUTBOX_RETRY_MS`) or `failed` (that was the last try; the body is kept only when the mail is
 * `retryable`).
 */
export async function deliverMail(
  services: Pick<Services, "kv" | "mailer" | "config" | "log">,
  entry: Deno.KvEntryMaybe<OutboxMail>,
  now: number,
): Promise<DeliveryOutcome> {
  const { kv, mailer, config, log } = services;
  const mail = entry.value;
  if (!mail || mail.status !== "pending" || mail.dueAt === null || Date.parse(mail.dueAt) > now) return "skipped";
  const claimed = await claim(kv, entry as Deno.KvEntry<OutboxMail>, { now, leaseMs: DELIVERY_LEASE_MS });
  if (!claimed) return "skipped";
  let error: string | null = null;
  try {
    await mailer.send({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      link: mail.link,
      headers: mail.headers,
    });
  } catch (cause) {
    error = String(cause instanceof Error ? cause.message : cause).slice(0, 500);
  }
  // The outcome is timed no earlier than `now`, so a retry is never due within the run that made it.
  const at = Math.max(now, Date.now());
  const attempts = mail.attempts + 1;
  const wait = config.outboxRetryMs[attempts - 1];
  const outcome: DeliveryOutcome = error === null ? "sent" : wait === undefined ? "failed" : "retry";
  const keepsBody = outcome === "retry" || (outcome === "failed" && mail.retryable === true);
  const next: OutboxMail = {
    ...keepsBody ? mail : withoutBody(mail),
    attempts,
    lease: null,
    lastError: error ?? mail.lastError,
    status: outcome === "sent" ? "sent" : outcome === "failed" ? "failed" : "pending",
    dueAt: outcome === "retry" ? new Date(at + wait!).toISOString() : null,
    sentAt: outcome === "sent" ? new Date(at).toISOString() : null,
  };
  const recorded = await settle(kv, claimed, (op) => {
    op.delete(dueKey(Date.parse(mail.dueAt!), mail.id));
    if (outcome === "retry") {
      op.set(mailKey(mail.id), next).set(dueKey(Date.parse(next.dueAt!), mail.id), true);
      return;
    }
    const expiry = outcome === "sent" ? { expireIn: SENT_KEPT_MS } : undefined;
    op.delete(statusKey(mail))
      .set(mailKey(mail.id), next, expiry)
      .set(statusKey(next), { to: next.to }, expiry);
    if (next.userId) op.set(userMailKey(next.userId, next.id), true, expiry);
  });
  if (!recorded) {
    log.warn("mail delivery outcome not recorded: the claim was taken over", { id: mail.id, outcome });
    return "skipped";
  }
  if (outcome !== "sent") log.warn("mail not delivered", { id: mail.id, attempts, outcome, error });
  return outcome;
}

/**
 * Delivers every mail due at `now` (ms), `DELIVERY_CONCURRENCY` at a time, walking the due-time index in pages.
 * Returns how many were sent, put back for a retry, failed for good, and skipped (held by another process).
 */
export async function deliverDue(
  services: Pick<Services, "kv" | "mailer" | "config" | "log">,
  now: number,
): Promise<{ sent: number; retried: number; failed: number; skipped: number }> {
  const { kv } = services;
  const outcomes = await workDue(kv, { prefix: "outbox_due", now, concurrency: DELIVERY_CONCURRENCY }, async (id) => {
    const entry = await kv.get<OutboxMail>(mailKey(id));
    return entry.value && isLeased(entry.value, now) ? "skipped" : await deliverMail(services, entry, now);
  });
  return {
    sent: outcomes.get("sent") ?? 0,
    retried: outcomes.get("retry") ?? 0,
    failed: outcomes.get("failed") ?? 0,
    skipped: outcomes.get("skipped") ?? 0,
  };
}

/** The marker that `dropKeptBodies` has run. */
const BODIES_DROPPED_KEY: Deno.KvKey = ["outbox_kept_bodies_dropped"];

/**
 * Drops, once, the bodies of mails sent or failed for good before the outbox dropped them as it settled them (records
 * of an earlier version; see the module docstring): each in a write checked against the mail as read, a sent one
 * keeping what is left of its 30 days. A marker records that it ran, so later calls read one key. Returns how many
 * bodies it dropped.
 */
export async function dropKeptBodies(kv: Deno.Kv, now = Date.now()): Promise<number> {
  if ((await kv.get(BODIES_DROPPED_KEY)).value !== null) return 0;
  let dropped = 0;
  for (const status of ["sent", "failed"] as const) {
    for await (const { key } of kv.list({ prefix: ["outbox_status", status] })) {
      const entry = await kv.get<OutboxMail>(mailKey(key[3] as string));
      const mail = entry.value;
      if (!mail || mail.bodyDropped || mail.status !== status || (status === "failed" && mail.retryable)) continue;
      const left = Date.parse(mail.sentAt ?? mail.createdAt) + SENT_KEPT_MS - now;
      const expiry = status === "sent" ? { expireIn: Math.max(1, left) } : undefined;
      const op = kv.atomic().check(entry).set(entry.key, withoutBody(mail), expiry);
      if ((await op.commit()).ok) dropped++;
    }
  }
  await kv.set(BODIES_DROPPED_KEY, new Date(now).toISOString());
  return dropped;
}

/**
 * The `outbox` job: every minute, delivers the mails that are due (the first run after an upgrade first drops the
 * bodies earlier versions kept, `dropKeptBodies`).
 */
export const outboxJob: Job = {
  name: "outbox",
  schedule: "* * * * *",
  run: async (ctx) => {
    await dropKeptBodies(ctx.kv, ctx.now.getTime());
    return await deliverDue(ctx, ctx.now.getTime());
  },
};

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * Query of `GET /api/admin/outbox`: `status` (every status when absent), `search` (part of the recipient's address,
 * case-insensitive, at most 100 characters), `limit` (1–100, default 50), `offset` (≥ 0, default 0).
 */
export const outboxQuerySchema = z.object({
  status: z.enum(["pending", "sent", "failed"]).optional(),
  search: z.string().trim().max(100).optional(),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});

/** A parsed `outboxQuerySchema`. */
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;

/**
 * A mail as the admin API shows it: never its bodies, link or headers (they carry single-use tokens). `canRetry` is
 * true for a failed mail whose body was kept (see the module docstring).
 */
export type OutboxRow =
  & Pick<OutboxMail, "id" | "to" | "subject" | "status" | "attempts" | "lastError" | "createdAt" | "dueAt" | "sentAt">
  & { canRetry: boolean };

/** A page of the admin outbox list; `counts` are per status over the whole outbox, `total` counts every match. */
export interface OutboxPage {
  mails: OutboxRow[];
  counts: Record<MailStatus, number>;
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

/** `mail` without what the API never shows. */
export function outboxRow(mail: OutboxMail): OutboxRow {
  const { id, to, subject, status, attempts, lastError, createdAt, dueAt, sentAt } = mail;
  const canRetry = status === "failed" && !mail.bodyDropped;
  return { id, to, subject, status, attempts, lastError, createdAt, dueAt, sentAt, canRetry };
}

/** The records of `ids`, in order, read 10 at a time (KV's getMany limit); missing ones left out. */
async function mailsByIds(kv: Deno.Kv, ids: string[]): Promise<OutboxMail[]> {
  const mails: OutboxMail[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const entries = await kv.getMany<OutboxMail[]>(ids.slice(i, i + 10).map(mailKey));
    for (const entry of entries) if (entry.value) mails.push(entry.value);
  }
  return mails;
}

/** The outbox for the admin list (docs/api.md, Background work): newest first, filtered by `query`, one page. */
export async function listOutbox(kv: Deno.Kv, query: OutboxQuery): Promise<OutboxPage> {
  const search = (query.search ?? "").toLowerCase();
  // The status indexes are read one after another while deliveries move mails between them. Reading pending first
  // (the order mails move in) and keeping a mail's first sighting means a mail delivered meanwhile is listed once,
  // as pending, instead of being missed.
  const seen = new Map<string, { status: MailStatus; createdMs: number; to: string }>();
  for (const status of MAIL_STATUSES) {
    for await (const { key, value } of kv.list<{ to: string }>({ prefix: ["outbox_status", status] })) {
      const id = key[3] as string;
      if (!seen.has(id)) seen.set(id, { status, createdMs: key[2] as number, to: value.to });
    }
  }
  const counts: Record<MailStatus, number> = { pending: 0, sent: 0, failed: 0 };
  const matches: { createdMs: number; id: string }[] = [];
  for (const [id, { status, createdMs, to }] of seen) {
    counts[status]++;
    if (query.status && query.status !== status) continue;
    if (search && !to.toLowerCase().includes(search)) continue;
    matches.push({ createdMs, id });
  }
  matches.sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? -1 : 1));
  const { limit, offset } = query;
  const page = await mailsByIds(kv, matches.slice(offset, offset + limit).map((m) => m.id));
  const total = matches.length;
  return {
    mails: page.map(outboxRow),
    counts,
    pagination: { limit, offset, total, hasMore: offset + page.length < total },
  };
}

/** The message of a retry of a mail that has not failed. */
export const NOT_FAILED = "Only a failed mail can be retried";
/** The message of a retry of a failed mail whose body was dropped. */
export const BODY_DROPPED = "This e-mail held a single-use link, so its content was not kept after its last try " +
  "and it cannot be sent again; the person can ask for a new one";

/**
 * An admin's retry of a failed mail: pending again and due now (one more try, then failed again if it fails), in a
 * write checked against the mail as read; the caller then starts the try (`deliverSoon`).
 * @throws NotFoundError "Mail not found"; ConflictError `NOT_FAILED` for a mail pending or sent, `BODY_DROPPED` for a
 *   failed mail whose body is gone.
 */
export async function retryMail(kv: Deno.Kv, id: string, now = Date.now()): Promise<OutboxMail> {
  for (;;) {
    const entry = id.length <= 100 ? await kv.get<OutboxMail>(mailKey(id)) : { value: null };
    if (!entry.value) throw new NotFoundError("Mail not found");
    const mail = entry.value;
    if (mail.status !== "failed") throw new ConflictError(NOT_FAILED);
    if (mail.bodyDropped) throw new ConflictError(BODY_DROPPED);
    const next: OutboxMail = { ...mail, status: "pending", dueAt: new Date(now).toISOString(), lease: null };
    const result = await kv.atomic()
      .check(entry as Deno.KvEntry<OutboxMail>)
      .set(mailKey(id), next)
      .set(dueKey(now, id), true)
      .delete(statusKey(mail))
      .set(statusKey(next), { to: next.to })
      .commit();
    if (result.ok) return next;
  }
}

/** A person's mails for their data export (docs/decisions.md, Data rights): without bodies and links. */
export async function mailsOfUser(kv: Deno.Kv, userId: string): Promise<Omit<OutboxRow, "canRetry">[]> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["outbox_by_user", userId] })) ids.push(key[2] as string);
  return (await mailsByIds(kv, ids))
    .map((mail) => {
      const { canRetry: _, ...row } = outboxRow(mail);
      return row;
    })
    .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Deletes every mail of a person, in any status, with its index entries (account deletion), 100 mails a write. */
export async function deleteMailsOf(kv: Deno.Kv, userId: string): Promise<void> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["outbox_by_user", userId] })) ids.push(key[2] as string);
  for (let i = 0; i < ids.length; i += 100) {
    const op = kv.atomic();
    for (const id of ids.slice(i, i + 100)) {
      const mail = (await kv.get<OutboxMail>(mailKey(id))).value;
      op.delete(userMailKey(userId, id)).delete(mailKey(id));
      if (!mail) continue;
      op.delete(statusKey(mail));
      if (mail.dueAt) op.delete(dueKey(Date.parse(mail.dueAt), id));
    }
    await op.commit();
  }
}
