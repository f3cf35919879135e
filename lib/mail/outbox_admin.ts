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

/** A page of the admin outbox list; `counts` are per status over the whole outbox, `total` counts every match. */
export interface OutboxPage {
  mails: OutboxRow[];
  counts: Record<MailStatus, number>;
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
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
