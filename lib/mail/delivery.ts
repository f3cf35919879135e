/**
 * Delivery of the e-mail outbox (docs/decisions.md, Background work; the records and the queue: `outbox.ts`): one try
 * started by the request that queued a mail (`deliverSoon`), and the `outbox` job (every minute) for whatever is due.
 * A try claims the mail with a lease (`lib/jobs/lease.ts`), so two processes never send it twice, and records the
 * outcome in one write checked against that claim. A failed try is retried after each wait of `OUTBOX_RETRY_MS`;
 * after the last the mail is kept as `failed`, until an admin retries it (`outbox_admin.ts`). Sent mails expire after
 * 30 days; a mail's body is dropped as it is settled (docs/decisions.md, Background work, "Bodies dropped").
 */
import type { Job } from "@/lib/jobs/job.ts";
import { claim, claimTime, isLeased, settle } from "@/lib/jobs/lease.ts";
import { workDue } from "@/lib/jobs/due.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import type { Services } from "@/lib/platform/state.ts";
import {
  type MailToQueue,
  outboxKeys,
  type OutboxMail,
  queueMailOps,
  readMail,
  SENT_KEPT_MS,
  withoutBody,
} from "./outbox.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

const { mail: mailKey, due: dueKey, status: statusKey, byUser: userMailKey } = outboxKeys;

/**
 * How long a delivery try holds its mail (ms): far longer than one SMTP exchange may last (`SMTP_OPTIONS`), so a
 * slow try is never taken over while it runs; a process that died holding a mail gives it up after this.
 */
export const DELIVERY_LEASE_MS = 5 * 60 * 1000;

/** How many mails one process sends at once during a run. */
export const DELIVERY_CONCURRENCY = 8;

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

/** What a delivery try started by a request works with. */
export type MailServices = Pick<Services, "kv" | "mailer" | "config" | "log" | "background">;

/** Starts one delivery try of mail `id` now, which the caller does not wait for (`BackgroundWork`). */
export function deliverSoon(services: MailServices, id: string): void {
  services.background.start(services.log, "mail delivery try failed", async () => {
    await deliverMail(services, await readMail(services.kv, id), Date.now());
  });
}

/** What one delivery try came to: `skipped` when the mail was not due or someone else holds it. */
export type DeliveryOutcome = "sent" | "retry" | "failed" | "skipped";

/**
 * One delivery try of the mail `entry` as read, at `now` (ms): claims it when it is pending, due and not held (for
 * `DELIVERY_LEASE_MS` from the moment of the claim, `claimTime`), sends it, and records the outcome checked against
 * the claim: `sent` (kept 30 days without its body), `retry` (due again
 * after the next wait of `OUTBOX_RETRY_MS`) or `failed` (that was the last try; the body is kept only when the mail is
 * `retryable`); a mail queued `forgetWhenSettled` is deleted instead of kept once sent or failed.
 */
export async function deliverMail(
  services: Pick<Services, "kv" | "mailer" | "config" | "log">,
  entry: Deno.KvEntryMaybe<OutboxMail>,
  now: number,
): Promise<DeliveryOutcome> {
  const { kv, mailer, config, log } = services;
  const mail = entry.value;
  if (!mail || mail.status !== "pending" || mail.dueAt === null || Date.parse(mail.dueAt) > now) return "skipped";
  const claimed = await claim(kv, entry as Deno.KvEntry<OutboxMail>, {
    now: claimTime(now),
    leaseMs: DELIVERY_LEASE_MS,
  });
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
    op.delete(statusKey(mail));
    if (mail.forgetWhenSettled) {
      op.delete(mailKey(mail.id));
      return;
    }
    const expiry = outcome === "sent" ? { expireIn: SENT_KEPT_MS } : undefined;
    op
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
 * Delivers every mail due at `now` (ms), `DELIVERY_CONCURRENCY` at a time, walking the due-time index in pages; each
 * claim counts from the moment it is taken (`claimTime`), not from `now`.
 * Returns how many were sent, put back for a retry, failed for good, and skipped (held by another process).
 */
export async function deliverDue(
  services: Pick<Services, "kv" | "mailer" | "config" | "log">,
  now: number,
): Promise<{ sent: number; retried: number; failed: number; skipped: number }> {
  const { kv } = services;
  const outcomes = await workDue(kv, { prefix: "outbox_due", now, concurrency: DELIVERY_CONCURRENCY }, async (id) => {
    const entry = await kv.get<OutboxMail>(mailKey(id));
    return entry.value && isLeased(entry.value, claimTime(now)) ? "skipped" : await deliverMail(services, entry, now);
  });
  return {
    sent: outcomes.get("sent") ?? 0,
    retried: outcomes.get("retry") ?? 0,
    failed: outcomes.get("failed") ?? 0,
    skipped: outcomes.get("skipped") ?? 0,
  };
}

/** The marker that `dropKeptBodies` has run to its end. */
const BODIES_DROPPED_KEY: Deno.KvKey = ["outbox_kept_bodies_dropped"];
/** Where `dropKeptBodies` goes on from: the status index it walks and the list cursor past the last batch it did. */
const BODIES_CURSOR_KEY: Deno.KvKey = ["outbox_kept_bodies_cursor"];
/** The status indexes `dropKeptBodies` walks, in order. */
const KEPT_STATUSES = ["sent", "failed"] as const;
/** How long (ms) one run of `dropKeptBodies` goes on before it leaves the rest to the next run. */
export const DROP_BUDGET_MS = 20_000;
/** Status index entries `dropKeptBodies` reads, and mails it drops, per batch. */
const DROP_BATCH = 100;

type DropPosition = { status: (typeof KEPT_STATUSES)[number]; cursor: string | null };

/**
 * Drops, once, the bodies of mails sent or failed for good before the outbox dropped them as it settled them (records
 * of an earlier version; see the module docstring), a sent one keeping what is left of its 30 days. It walks the
 * status index in batches of `DROP_BATCH`: the mails read at once (`getManyChunked`), their writes (each checked
 * against its mail as read) packed into few commits (`commitPacked`), then the position saved (`BODIES_CURSOR_KEY`).
 * A run stops after the first batch that ends past `until` (ms, the clock; `DROP_BUDGET_MS` from now by default), and
 * the next goes on from there; the last batch writes the marker, after which a call is one read. `now` (ms) is the time
 * the expiries count from. Returns how many bodies this run dropped.
 */
export async function dropKeptBodies(
  kv: Deno.Kv,
  { now = Date.now(), until = Date.now() + DROP_BUDGET_MS }: { now?: number; until?: number } = {},
): Promise<number> {
  const [done, saved] = await kv.getMany<[string, DropPosition]>([BODIES_DROPPED_KEY, BODIES_CURSOR_KEY]);
  if (done.value !== null) return 0;
  let position: DropPosition | null = saved.value ?? { status: KEPT_STATUSES[0], cursor: null };
  let dropped = 0;
  while (position) {
    const status: DropPosition["status"] = position.status;
    const list: Deno.KvListIterator<unknown> = kv.list({ prefix: ["outbox_status", status] }, {
      limit: DROP_BATCH,
      batchSize: DROP_BATCH,
      cursor: position.cursor ?? undefined,
    });
    const ids: string[] = [];
    for await (const { key } of list) ids.push(key[3] as string);
    const units = (await getManyChunked<OutboxMail>(kv, ids.map(mailKey))).flatMap((entry) => {
      const mail = entry.value;
      if (!mail || mail.bodyDropped || mail.status !== status || (status === "failed" && mail.retryable)) return [];
      const left = Date.parse(mail.sentAt ?? mail.createdAt) + SENT_KEPT_MS - now;
      const expiry = status === "sent" ? { expireIn: Math.max(1, left) } : undefined;
      return [new WriteUnit().check(entry).set(entry.key, withoutBody(mail), expiry)];
    });
    dropped += (await commitPacked(kv, units)).filter(Boolean).length;
    const next = KEPT_STATUSES[KEPT_STATUSES.indexOf(status) + 1];
    position = ids.length === DROP_BATCH
      ? { status, cursor: list.cursor }
      : next
      ? { status: next, cursor: null }
      : null;
    if (position) await kv.set(BODIES_CURSOR_KEY, position);
    else await kv.atomic().set(BODIES_DROPPED_KEY, new Date(now).toISOString()).delete(BODIES_CURSOR_KEY).commit();
    if (Date.now() >= until) break;
  }
  return dropped;
}

/**
 * The `outbox` job: every minute, delivers the mails that are due; after an upgrade its runs then drop the bodies
 * earlier versions kept (`dropKeptBodies`, `DROP_BUDGET_MS` a run), whose failure is logged and never holds up
 * delivery.
 */
export const outboxJob: Job = {
  name: "outbox",
  schedule: "* * * * *",
  // A backlog's run lasts minutes (SMTP-bound): a cron of its own, so the minute's other jobs do not wait for it.
  alone: true,
  run: async (ctx) => {
    const counts = await deliverDue(ctx, ctx.now.getTime());
    try {
      await dropKeptBodies(ctx.kv, { now: ctx.now.getTime() });
    } catch (error) {
      ctx.log.error("kept mail bodies not dropped; the next run goes on", { error: String(error) });
    }
    return counts;
  },
};
