/**
 * In-app notifications (docs/decisions.md, Notifications; docs/api.md, Notifications): what happened to a person's
 * own things (an opportunity reviewed, a purchase paid or refunded, a reply to a comment), kept 90 days.
 *
 * Keys (owned by this module only):
 * - `["notifications", userId, id]` → `NotificationRecord`; `id` sorts by creation time, so a reverse list is
 *   newest first;
 * - `["notifications_unread", userId, id]` → `true` while the notification is unread (the bell counts these);
 * - `["notification_subjects", subject, userId, id]` → `true` for a notification that names another person's
 *   content (`subject`, e.g. `comment:{id}`), so it can be redacted when that content or its author goes.
 * All carry KV's `expireIn` of 90 days, and reads also skip anything older, so an expired one never shows even
 * before KV removes it. A notification is added inside the caller's atomic write (`addNotification`), so it exists
 * exactly when the change it announces does.
 */
import { z } from "zod";

import { queuePushOps } from "@/lib/push/outbox.ts";
import { NOTIFICATION_TYPES, type NotificationType } from "./types.ts";

export { NOTIFICATION_TYPES, type NotificationType };

/** How long a notification is kept, in ms (90 days). */
export const NOTIFICATION_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** Longest title and body kept, in characters (longer ones are cut with an ellipsis). */
export const TITLE_MAX = 200;
export const BODY_MAX = 1000;
/** Notifications read or marked per atomic write (two mutations each, well under KV's 1,000). */
const BATCH = 200;

/** What a caller announces: to whom, what kind, a title and body of plain text, and the same-origin path it links to. */
export interface NotificationInput {
  userId: string;
  type: NotificationType;
  title: string;
  body: string;
  /** A same-origin path such as `/opportunities/{id}`. */
  url: string;
  /**
   * What the title or body quotes of another person (e.g. `comment:{id}` for a reply), when it does: the
   * notification is redacted when that goes (`redactNotificationOps`).
   */
  subject?: string;
}

/** A notification as stored and answered; `readAt` is null while unread. */
export interface NotificationRecord {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  url: string;
  createdAt: string;
  readAt: string | null;
}

const recordKey = (userId: string, id: string): Deno.KvKey => ["notifications", userId, id];
const unreadKey = (userId: string, id: string): Deno.KvKey => ["notifications_unread", userId, id];
const subjectKey = (subject: string, userId: string, id: string): Deno.KvKey => [
  "notification_subjects",
  subject,
  userId,
  id,
];

/** `text` of at most `max` characters, cut with an ellipsis. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A new notification id: creation time in ms (13 digits, zero padded) and a random tail, so ids sort by time. */
function notificationId(now: Date): string {
  return `${String(now.getTime()).padStart(13, "0")}-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Adds the notification `input` to `op` (the caller's atomic write) as unread, created at `now`, with its delivery to
 * the person's phones and e-mail (`queuePushOps`, docs/decisions.md, Notifications, "Channels"); it is stored only if
 * `op` commits. Five mutations, six with a `subject`. Returns the record as it will be stored.
 */
export function addNotification(
  op: Deno.AtomicOperation,
  input: NotificationInput,
  now = new Date(),
): NotificationRecord {
  const record: NotificationRecord = {
    id: notificationId(now),
    type: input.type,
    title: clip(input.title, TITLE_MAX),
    body: clip(input.body, BODY_MAX),
    url: input.url,
    createdAt: now.toISOString(),
    readAt: null,
  };
  op.set(recordKey(input.userId, record.id), record, { expireIn: NOTIFICATION_TTL_MS })
    .set(unreadKey(input.userId, record.id), true, { expireIn: NOTIFICATION_TTL_MS });
  if (input.subject) {
    op.set(subjectKey(input.subject, input.userId, record.id), true, { expireIn: NOTIFICATION_TTL_MS });
  }
  queuePushOps(op, { userId: input.userId, notification: record }, now.getTime());
  return record;
}

/**
 * Adds to `op` (the caller's atomic write, which removes `subject`) the redaction of every kept notification that
 * names `subject`: its title and body become `redacted`'s (and its link too when `redacted` has a `url`, for a
 * subject whose page is gone), each checked as read here, and the subject's index
 * entries go (docs/decisions.md, Notifications, "Redaction"). A subject is named by one notification or a few, so
 * this adds a handful of mutations.
 */
export async function redactNotificationOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { subject, redacted }: { subject: string; redacted: { title: string; body: string; url?: string } },
): Promise<void> {
  for await (const index of kv.list({ prefix: ["notification_subjects", subject] })) {
    const [, , userId, id] = index.key as [string, string, string, string];
    const entry = await kv.get<NotificationRecord>(recordKey(userId, id));
    op.check(index).delete(index.key);
    if (!entry.value) continue;
    const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - Date.now();
    if (left <= 0) continue;
    op.check(entry).set(entry.key, { ...entry.value, ...redacted }, { expireIn: left });
  }
}

/**
 * Replaces the title and body of `userId`'s notification `id` (a running count, e.g. "3 new applicants today") and
 * marks it unread again, checked against the notification as read and retried on a lost race; nothing when it is gone
 * or expired. Nothing is pushed again: the push went with the notification's first version.
 */
export async function reviseNotification(
  kv: Deno.Kv,
  { userId, id, title, body, now = new Date() }: {
    userId: string;
    id: string;
    title: string;
    body: string;
    now?: Date;
  },
): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv.get<NotificationRecord>(recordKey(userId, id));
    if (!entry.value) return;
    const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - now.getTime();
    if (left <= 0) return;
    const next = { ...entry.value, title: clip(title, TITLE_MAX), body: clip(body, BODY_MAX), readAt: null };
    const op = kv.atomic().check(entry).set(entry.key, next, { expireIn: left })
      .set(unreadKey(userId, id), true, { expireIn: left });
    if ((await op.commit()).ok) return;
  }
}

/** The smallest id still kept at `now`: anything created before `now - 90 days` is past its time. */
function oldestKept(now: Date): string {
  return String(now.getTime() - NOTIFICATION_TTL_MS).padStart(13, "0");
}

/** The query of `GET /api/me/notifications`: `unread=true` for unread ones only; `limit` 1–100 (default 20). */
export const NotificationQuerySchema = z.object({
  unread: z.enum(["true", "false"]).optional().transform((value) => value === "true"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type NotificationQuery = z.infer<typeof NotificationQuerySchema>;

/** The body of `POST /api/me/notifications/read`: the ids to mark read (at most 100), or all when absent. */
export const MarkReadSchema = z.strictObject({ ids: z.array(z.string().max(100)).max(100).optional() });

/** How many of `userId`'s notifications are unread at `now`. */
export async function unreadCount(kv: Deno.Kv, userId: string, now = new Date()): Promise<number> {
  let count = 0;
  const start = ["notifications_unread", userId, oldestKept(now)];
  for await (const _ of kv.list({ start, end: ["notifications_unread", userId, "\uffff"] })) count++;
  return count;
}

/** A page of notifications and the unread count, as `GET /api/me/notifications` answers. */
export interface NotificationPage {
  notifications: NotificationRecord[];
  unreadCount: number;
}

/**
 * A page of `userId`'s notifications newest first (unread ones only with `query.unread`), and the unread count.
 */
export async function listNotifications(
  kv: Deno.Kv,
  { userId, query, now = new Date() }: { userId: string; query: NotificationQuery; now?: Date },
): Promise<NotificationPage> {
  const oldest = oldestKept(now);
  const notifications: NotificationRecord[] = [];
  if (query.unread) {
    const ids: string[] = [];
    const iter = kv.list({
      start: ["notifications_unread", userId, oldest],
      end: ["notifications_unread", userId, "\uffff"],
    }, {
      reverse: true,
      limit: query.offset + query.limit,
    });
    for await (const entry of iter) ids.push(entry.key[2] as string);
    const page = ids.slice(query.offset);
    for (let i = 0; i < page.length; i += 10) {
      const entries = await kv.getMany<NotificationRecord[]>(page.slice(i, i + 10).map((id) => recordKey(userId, id)));
      for (const entry of entries) if (entry.value) notifications.push(entry.value);
    }
  } else {
    const iter = kv.list<NotificationRecord>(
      { start: ["notifications", userId, oldest], end: ["notifications", userId, "\uffff"] },
      { reverse: true, limit: query.offset + query.limit },
    );
    let skipped = 0;
    for await (const entry of iter) {
      if (skipped++ < query.offset) continue;
      notifications.push(entry.value);
    }
  }
  return { notifications, unreadCount: await unreadCount(kv, userId, now) };
}

/**
 * Marks `userId`'s notifications `ids` read (all unread ones when `ids` is absent) at `now`; ids that are unknown,
 * another person's or read already are skipped. Returns the unread count afterwards.
 */
export async function markRead(
  kv: Deno.Kv,
  { userId, ids, now = new Date() }: { userId: string; ids: string[] | undefined; now?: Date },
): Promise<number> {
  let targets: string[];
  if (ids) targets = [...new Set(ids)];
  else {
    targets = [];
    for await (const entry of kv.list({ prefix: ["notifications_unread", userId] })) {
      targets.push(entry.key[2] as string);
    }
  }
  const readAt = now.toISOString();
  for (let i = 0; i < targets.length; i += BATCH) {
    const batch = targets.slice(i, i + BATCH);
    for (let attempt = 0; attempt < 10; attempt++) {
      const entries: Deno.KvEntryMaybe<NotificationRecord>[] = [];
      for (let j = 0; j < batch.length; j += 10) {
        entries.push(
          ...await kv.getMany<NotificationRecord[]>(batch.slice(j, j + 10).map((id) => recordKey(userId, id))),
        );
      }
      const op = kv.atomic();
      for (const entry of entries) {
        if (!entry.value || entry.value.readAt !== null) continue;
        const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - now.getTime();
        if (left <= 0) continue;
        op.check(entry).set(entry.key, { ...entry.value, readAt }, { expireIn: left })
          .delete(unreadKey(userId, entry.value.id));
      }
      if ((await op.commit()).ok) break;
    }
  }
  return await unreadCount(kv, userId, now);
}

/** Every notification of `userId` still kept, newest first (the account export). */
export async function notificationsOf(kv: Deno.Kv, userId: string, now = new Date()): Promise<NotificationRecord[]> {
  const all: NotificationRecord[] = [];
  const oldest = oldestKept(now);
  for await (const entry of kv.list<NotificationRecord>({ prefix: ["notifications", userId] }, { reverse: true })) {
    if (entry.value.id >= oldest) all.push(entry.value);
  }
  return all;
}

/** Deletes every notification of `userId` (account deletion), in bounded writes; idempotent. */
export async function deleteNotificationsOf(kv: Deno.Kv, userId: string): Promise<void> {
  for (const prefix of [["notifications", userId], ["notifications_unread", userId]]) {
    let keys: Deno.KvKey[] = [];
    for await (const entry of kv.list({ prefix })) {
      keys.push(entry.key);
      if (keys.length === 500) {
        await keys.reduce((op, key) => op.delete(key), kv.atomic()).commit();
        keys = [];
      }
    }
    if (keys.length > 0) await keys.reduce((op, key) => op.delete(key), kv.atomic()).commit();
  }
}
