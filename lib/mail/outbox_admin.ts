/**
 * The admin's view of the e-mail outbox (docs/api.md, Background work; the records: `outbox.ts`): the list by status
 * and recipient, and the retry of a failed mail whose body was kept.
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { z } from "zod";
import { ConflictError, NotFoundError } from "@/lib/errors.ts";
import {
  MAIL_STATUSES,
  mailsByIds,
  type MailStatus,
  outboxKeys,
  type OutboxMail,
  type OutboxRow,
  outboxRow,
} from "./outbox.ts";
import { REFUSALS } from "@/lib/refusals.ts";

const { mail: mailKey, due: dueKey, status: statusKey } = outboxKeys;

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * How many of each status's newest mails the admin list reads: it lists, counts, pages and searches those only, so a
 * load reads at most this many index entries a status (a few round trips) however many mails the 30 days hold.
 */
export const OUTBOX_WINDOW = 1000;

/** Index entries of a status read per round trip (KV's largest batch). */
const LIST_BATCH = 500;

/**
 * Query of `GET /api/admin/outbox`: `status` (every status when absent), `search` (part of the recipient's address,
 * case-insensitive, at most 100 characters; over the newest `OUTBOX_WINDOW` mails of each status), `limit` (1–100,
 * default 50), `offset` (≥ 0, default 0).
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
 * A page of the admin outbox list. `counts` are per status over the newest `OUTBOX_WINDOW` mails of each (at most that
 * many); `more` is true for a status that holds older mails beyond them (the page shows "1,000+"). `total` counts every
 * match among the mails read.
 */
export interface OutboxPage {
  mails: OutboxRow[];
  counts: Record<MailStatus, number>;
  more: Record<MailStatus, boolean>;
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

/** A status index entry: the mail's id, creation time (ms) and recipient. */
interface StatusEntry {
  id: string;
  createdMs: number;
  to: string;
}

/** The newest `OUTBOX_WINDOW` entries of `status`'s index, newest first, and whether older ones remain. */
async function newestOf(kv: Deno.Kv, status: MailStatus): Promise<{ entries: StatusEntry[]; more: boolean }> {
  const entries: StatusEntry[] = [];
  const selector = { prefix: ["outbox_status", status] };
  const options = { reverse: true, limit: OUTBOX_WINDOW + 1, batchSize: LIST_BATCH };
  for await (const { key, value } of kv.list<{ to: string }>(selector, options)) {
    entries.push({ id: key[3] as string, createdMs: key[2] as number, to: value.to });
  }
  return { entries: entries.slice(0, OUTBOX_WINDOW), more: entries.length > OUTBOX_WINDOW };
}

/**
 * The outbox for the admin list (docs/decisions.md, Background work, "Admin"): newest first, filtered by `query`, one
 * page, over the newest `OUTBOX_WINDOW` mails of each status.
 */
export async function listOutbox(kv: Deno.Kv, query: OutboxQuery): Promise<OutboxPage> {
  const search = (query.search ?? "").toLowerCase();
  // Deliveries move mails from pending to sent or failed while the indexes are read. Reading pending first, then the
  // others together, and keeping a mail's first sighting means a mail delivered meanwhile is listed once, as pending,
  // instead of being missed.
  const pending = await newestOf(kv, "pending");
  const [sent, failed] = await Promise.all([newestOf(kv, "sent"), newestOf(kv, "failed")]);
  const read: Record<MailStatus, { entries: StatusEntry[]; more: boolean }> = { pending, sent, failed };
  const seen = new Map<string, StatusEntry & { status: MailStatus }>();
  for (const status of MAIL_STATUSES) {
    for (const entry of read[status].entries) if (!seen.has(entry.id)) seen.set(entry.id, { ...entry, status });
  }
  const counts: Record<MailStatus, number> = { pending: 0, sent: 0, failed: 0 };
  const matches: StatusEntry[] = [];
  for (const entry of seen.values()) {
    counts[entry.status]++;
    if (query.status && query.status !== entry.status) continue;
    if (search && !entry.to.toLowerCase().includes(search)) continue;
    matches.push(entry);
  }
  matches.sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? -1 : 1));
  const { limit, offset } = query;
  const page = await mailsByIds(kv, matches.slice(offset, offset + limit).map((m) => m.id));
  const total = matches.length;
  return {
    mails: page.map(outboxRow),
    counts,
    more: { pending: pending.more, sent: sent.more, failed: failed.more },
    pagination: { limit, offset, total, hasMore: offset + page.length < total },
  };
}

/** The message of a retry of a mail that has not failed. */
export const NOT_FAILED = REFUSALS.mailNotFailed;
/** The message of a retry of a failed mail whose body was dropped. */
export const BODY_DROPPED = REFUSALS.mailBodyDropped;

/**
 * An admin's retry of a failed mail: pending again and due now (one more try, then failed again if it fails), in a
 * write checked against the mail as read, which holds `audit`'s entry; the caller then starts the try (`deliverSoon`).
 * `now` is in ms since the epoch.
 * @throws NotFoundError "Mail not found"; ConflictError `NOT_FAILED` for a mail pending or sent, `BODY_DROPPED` for a
 *   failed mail whose body is gone.
 */
export async function retryMail(
  kv: Deno.Kv,
  { id, audit, now = Date.now() }: { id: string; audit?: AuditHook; now?: number },
): Promise<OutboxMail> {
  for (;;) {
    const entry = id.length <= 100 ? await kv.get<OutboxMail>(mailKey(id)) : { value: null };
    if (!entry.value) throw new NotFoundError(REFUSALS.mailNotFound);
    const mail = entry.value;
    if (mail.status !== "failed") throw new ConflictError(NOT_FAILED);
    if (mail.bodyDropped) throw new ConflictError(BODY_DROPPED);
    const next: OutboxMail = { ...mail, status: "pending", dueAt: new Date(now).toISOString(), lease: null };
    const op = kv.atomic()
      .check(entry as Deno.KvEntry<OutboxMail>)
      .set(mailKey(id), next)
      .set(dueKey(now, id), true)
      .delete(statusKey(mail))
      .set(statusKey(next), { to: next.to });
    audit?.(op, id);
    if ((await op.commit()).ok) return next;
  }
}
