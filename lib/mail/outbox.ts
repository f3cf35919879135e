/**
 * The e-mail outbox (docs/decisions.md, Background work; docs/api.md, Background work), its records and its queue.
 * Every e-mail is first written to KV with its due time, in the same atomic write as the change that causes it
 * (`queueMailOps`) or on its own (`queueMail`); the request then starts one delivery try it does not wait for
 * (`deliverSoon`), and the `outbox` job (every minute) delivers whatever is due (both in `delivery.ts`). A try claims the mail with a lease (`lib/jobs/lease.ts`), so two processes
 * never send it twice, and records the outcome in one write checked against that claim. A failed try is retried after
 * each wait of `OUTBOX_RETRY_MS`; after the last the mail is kept as `failed`, until an admin retries it. Sent mails
 * expire after 30 days.
 *
 * Once a mail is sent, or has failed for good, its body (text, HTML, link, headers) is dropped in the same write and
 * only its metadata stays, so no token it held (reset, verification, unsubscribe) can be read back from KV. A mail
 * queued `retryable` (it holds no token: a receipt, a refund notice) keeps its body when it fails for good, so an
 * admin can retry it; any other failed mail cannot be sent again (docs/decisions.md, Background work, "Bodies
 * dropped"). A mail queued `forgetWhenSettled` leaves no record at all once settled.
 *
 * The outbox is three modules: this one (the records, queueing, a person's mails), `delivery.ts` (delivery tries and
 * the job) and `outbox_admin.ts` (the admin list and retry). Keys (owned by the three together; `outboxKeys`):
 * - `["outbox", id]` → `OutboxMail`
 * - `["outbox_due", dueAtMs, id]` → true, while the mail is pending
 * - `["outbox_status", status, createdAtMs, id]` → `{to}`, the admin list by status, newest last
 * - `["outbox_by_user", userId, id]` → true, the mails of a person (export, account deletion)
 */

import type { Claimable } from "@/lib/jobs/lease.ts";
import type { Mail } from "./mailer.ts";
import { valueBytes } from "@/lib/kv/value_size.ts";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** Where a mail stands: `pending` (due at `dueAt`), `sent`, or `failed` after its last try. */
export type MailStatus = "pending" | "sent" | "failed";

/** The statuses, in the order the admin page shows them. */
export const MAIL_STATUSES: readonly MailStatus[] = ["pending", "sent", "failed"];

/**
 * A mail to queue: the mail, and the user it is about (null for none), whose data it is (export, deletion).
 * `retryable` says the mail holds no token (no reset, verification, unsubscribe or claim link), so its body may be
 * kept after its last failed try for an admin's retry; leave it out for any mail that holds one. `forgetWhenSettled`
 * deletes the whole record, address included, once the mail is sent or has failed for good: the notice of a deleted
 * account, whose address is kept only as long as it takes to send it (docs/decisions.md, Data rights, "Deletion").
 */
export interface MailToQueue extends Mail {
  userId: string | null;
  retryable?: boolean;
  forgetWhenSettled?: boolean;
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
export function withoutBody(mail: OutboxMail): OutboxMail {
  const { headers: _headers, ...rest } = mail;
  return { ...rest, text: "", html: "", link: "", bodyDropped: true };
}

/** How long sent mails are kept (ms): 30 days. */
export const SENT_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** The largest mail (text and HTML, in `mailBytes`) the outbox takes: a KV value holds at most 64 KiB. */
export const MAX_MAIL_BYTES = 60_000;

/** The bytes `mail`'s text and HTML take in its outbox record (`valueBytes`: two bytes a character at most). */
export function mailBytes(mail: Pick<MailToQueue, "text" | "html">): number {
  return valueBytes(mail.text) + valueBytes(mail.html);
}

/** The outbox's keys (see the module docstring), for `delivery.ts` and `outbox_admin.ts`. */
export const outboxKeys = {
  mail: (id: string): Deno.KvKey => ["outbox", id],
  due: (dueAtMs: number, id: string): Deno.KvKey => ["outbox_due", dueAtMs, id],
  status: (mail: Pick<OutboxMail, "status" | "createdAt" | "id">): Deno.KvKey => [
    "outbox_status",
    mail.status,
    Date.parse(mail.createdAt),
    mail.id,
  ],
  byUser: (userId: string, id: string): Deno.KvKey => ["outbox_by_user", userId, id],
};
const { mail: mailKey, due: dueKey, status: statusKey, byUser: userMailKey } = outboxKeys;

/**
 * Adds a pending mail, due at `now` (ms), to `op`: the record, its due-time entry, its status entry and its user
 * entry. Returns the mail's id; after `op` commits, `deliverSoon(services, id)` starts its first try (else the
 * `outbox` job sends it within a minute).
 * @throws Error when the mail is larger than `MAX_MAIL_BYTES`.
 */
export function queueMailOps(op: Deno.AtomicOperation, mail: MailToQueue, now = Date.now()): string {
  const bytes = mailBytes(mail);
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
 * Adds to `op` the deletion of mail `id` while it is pending, with its index entries, checked as read here, so what was
 * taken back never reaches an inbox (docs/decisions.md, Comments and reactions, "Reply notifications"); nothing for a
 * mail sent, failed for good (its body is dropped already) or gone. A try already sending it is not stopped: its
 * outcome's write then fails. Returns the mail dropped, or null when it was not pending.
 */
export async function dropPendingMailOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  id: string,
): Promise<OutboxMail | null> {
  const entry = await kv.get<OutboxMail>(mailKey(id));
  op.check(entry);
  const mail = entry.value;
  if (mail?.status !== "pending") return null;
  op.delete(entry.key).delete(statusKey(mail));
  if (mail.dueAt) op.delete(dueKey(Date.parse(mail.dueAt), id));
  if (mail.userId) op.delete(userMailKey(mail.userId, id));
  return mail;
}

/** The mail `id` as stored (value null when there is none), to hand to `deliverMail`. */
export async function readMail(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<OutboxMail>> {
  return await kv.get<OutboxMail>(mailKey(id));
}

/**
 * A mail as the admin API shows it: never its bodies, link or headers (they carry single-use tokens). `canRetry` is
 * true for a failed mail whose body was kept (see the module docstring).
 */
export type OutboxRow =
  & Pick<OutboxMail, "id" | "to" | "subject" | "status" | "attempts" | "lastError" | "createdAt" | "dueAt" | "sentAt">
  & { canRetry: boolean };

/** `mail` without what the API never shows. */
export function outboxRow(mail: OutboxMail): OutboxRow {
  const { id, to, subject, status, attempts, lastError, createdAt, dueAt, sentAt } = mail;
  const canRetry = status === "failed" && !mail.bodyDropped;
  return { id, to, subject, status, attempts, lastError, createdAt, dueAt, sentAt, canRetry };
}

/** The records of `ids`, in order (`getManyChunked`); missing ones left out. */
export async function mailsByIds(kv: Deno.Kv, ids: string[]): Promise<OutboxMail[]> {
  return (await getManyChunked<OutboxMail>(kv, ids.map(mailKey))).flatMap((entry) => entry.value ? [entry.value] : []);
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

/** Mails taken per round of `deleteMailsOf`. */
const DELETE_BATCH = 100;

/**
 * Deletes every mail of a person, in any status, with its index entries (account deletion): `DELETE_BATCH` mails a
 * round, their records read at once (`getManyChunked`), each mail's deletion checked against its record as read and the
 * deletions packed into few commits (`commitPacked`); a mail changed meanwhile (a delivery try) is read again in the
 * next round. After each round it calls `renew` (the deletion's lease), whose throw stops it.
 * @throws what `renew` throws.
 */
export async function deleteMailsOf(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  for (;;) {
    const ids: string[] = [];
    const selector = { prefix: ["outbox_by_user", userId] };
    for await (const { key } of kv.list(selector, { limit: DELETE_BATCH, batchSize: DELETE_BATCH })) {
      ids.push(key[2] as string);
    }
    if (ids.length === 0) return;
    const units = (await getManyChunked<OutboxMail>(kv, ids.map(mailKey))).map((entry, i) => {
      const unit = new WriteUnit().check(entry).delete(userMailKey(userId, ids[i])).delete(mailKey(ids[i]));
      const mail = entry.value;
      if (mail) unit.delete(statusKey(mail));
      if (mail?.dueAt) unit.delete(dueKey(Date.parse(mail.dueAt), ids[i]));
      return unit;
    });
    await commitPacked(kv, units);
    await renew?.();
  }
}
