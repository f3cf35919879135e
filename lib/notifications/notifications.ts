/**
 * In-app notifications (docs/decisions.md, Notifications; docs/api.md, Notifications): what happened to a person's
 * own things (an opportunity reviewed, a purchase paid or refunded, a reply to a comment), kept 90 days.
 *
 * Keys (owned by this module only):
 * - `["notifications", userId, id]` → `StoredNotification`; `id` sorts by creation time, so a reverse list is
 *   newest first;
 * - `["notifications_unread", userId, id]` → `true` while the notification is unread (the bell counts these);
 * - `["notification_subjects", subject, userId, id]` → `true` for a notification that names another person's
 *   content (`subject`, e.g. `comment:{id}`), so it can be redacted when that content or its author goes;
 * - `["notification_groups", userId, group]` → the members (`GroupMember`: id and source), oldest first, of the
 *   person's `GROUP_KEPT` kept notifications of a capped group (e.g. the replies to them under one post): a new one
 *   drops the oldest of the source holding the most (`droppedMembers`);
 * - `["notification_group_holders", group, userId]` → true while the person holds `group`, written with every join, so
 *   the deletion of what a group is about finds every holder (`groupHolderIds`);
 * - `["notifications_meta", "group_holders_index"]` → where the `notification-groups-index` job stands.
 * All carry KV's `expireIn` of 90 days, and reads also skip anything older, so an expired one never shows even
 * before KV removes it. A notification is added inside the caller's atomic write (`addNotification`), so it exists
 * exactly when the change it announces does.
 */
import { z } from "zod";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";

import { translatorFor, translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import type { Lang } from "@/lib/i18n/languages.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import {
  dropPushMessageOps,
  dropReadPushMessageOps,
  type PushMessage,
  queuePushOps,
  readPushMessages,
} from "@/lib/push/outbox.ts";
import { BODY_MAX, clip, type NotificationMessage, notificationWords, TITLE_MAX } from "./words.ts";
import { NOTIFICATION_TYPES, type NotificationType } from "./types.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { type Backfill, backfillDone, runBackfill } from "@/lib/kv/backfill.ts";
import type { Job } from "@/lib/jobs/job.ts";

export { NOTIFICATION_TYPES, type NotificationType };
export { BODY_MAX, type MessageRef, type NotificationMessage, notificationWords, TITLE_MAX } from "./words.ts";

/** How long a notification is kept, in ms (90 days). */
export const NOTIFICATION_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/**
 * Notifications read or marked per atomic write: one check and two mutations each, under KV's 100 checks and 1,000
 * mutations per commit.
 */
const BATCH = 50;

/**
 * How many notifications of one capped group a person keeps (docs/decisions.md, Notifications, "Ten replies a post"):
 * adding one more drops one in the same write (`droppedMembers`).
 */
export const GROUP_KEPT = 10;

/**
 * A notification kept in a capped group: its id and its source `from` (for replies, the replier's user id), so one
 * source cannot push everybody else's out.
 */
export interface GroupMember {
  id: string;
  from: string;
  /** Present when it reached the person beyond the bell (not `bellOnly`): its push message may still be pending. */
  told?: true;
  /** Its `subject`, when it has one: the caller finds what else of it to take back when it is dropped. */
  subject?: string;
}

/**
 * A capped group of one person's notifications as read (`readNotificationGroup`), for the write that adds one from
 * `from` to it.
 */
export interface NotificationGroup {
  /**
   * The group's entry: its members, oldest first (null when it holds none); a group stored before members named their
   * source holds bare ids, each read as a member of its own source (`membersOf`).
   */
  entry: Deno.KvEntryMaybe<(GroupMember | string)[]>;
  /** The source of the notification the write adds. */
  from: string;
  /** The members the write drops (`droppedMembers`): nothing of them is delivered after it. */
  dropped: GroupMember[];
  /** The push messages of those of `dropped` that were `told`, as read: the write deletes those still there. */
  pushes: Deno.KvEntryMaybe<PushMessage>[];
}
/**
 * What a caller announces: to whom, what kind, its words, and the same-origin path it links to. The words are either
 * `message` (catalogue keys, written in the reader's language when read) or a `title` and `body` of plain text, kept
 * as they are (what a person wrote, or words already in the recipient's language).
 */
export interface NotificationInput {
  userId: string;
  type: NotificationType;
  /** A same-origin path such as `/opportunities/{id}`. */
  url: string;
  /**
   * What the title or body quotes of another person (e.g. `comment:{id}` for a reply), when it does: the
   * notification is redacted when that goes (`redactNotificationOps`).
   */
  subject?: string;
  /** The words as plain text, when there is no `message`. */
  title?: string;
  body?: string;
  /** The words as catalogue messages: `title` and `body` are then made from it. */
  message?: NotificationMessage;
  /**
   * Whether it stays in the bell: nothing is pushed, nor e-mailed by the push outbox (a reply within the hour of another
   * that reached the person; docs/decisions.md, Comments and reactions, "One reply push and e-mail an hour per person
   * and post").
   */
  bellOnly?: boolean;
  /**
   * The capped group it joins, as read (`readNotificationGroup`): the person keeps its newest `GROUP_KEPT`, so a
   * busy discussion cannot fill their notifications without a bound.
   */
  group?: NotificationGroup;
}

/** A notification as answered, its words in the reader's language; `readAt` is null while unread. */
export interface NotificationRecord {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  url: string;
  createdAt: string;
  readAt: string | null;
}

/**
 * A notification as stored: with `message`, its words by key, and `title` and `body` in English for a reader whose
 * language lacks the message; without (older records, words kept as written), `title` and `body` are its words.
 */
export interface StoredNotification extends NotificationRecord {
  message?: NotificationMessage;
}

/** `stored` as a reader in `t`'s language gets it: its words written (`notificationWords`), without `message`. */
export function readableNotification(stored: StoredNotification, t: Translate): NotificationRecord {
  const { message: _message, ...record } = stored;
  return { ...record, ...notificationWords(stored, t) };
}

const recordKey = (userId: string, id: string): Deno.KvKey => ["notifications", userId, id];
const unreadKey = (userId: string, id: string): Deno.KvKey => ["notifications_unread", userId, id];
const subjectKey = (subject: string, userId: string, id: string): Deno.KvKey => [
  "notification_subjects",
  subject,
  userId,
  id,
];
/** The key of `userId`'s capped group `group`. */
export const groupKey = (userId: string, group: string): Deno.KvKey => ["notification_groups", userId, group];
const holderKey = (group: string, userId: string): Deno.KvKey => ["notification_group_holders", group, userId];

/**
 * The keys that go with `userId`'s capped group `group` when what the group is about goes (a post's conversation): the
 * group and its holder entry. Its notifications stay until they expire, and no more can join it.
 */
export const groupKeysOf = (userId: string, group: string): Deno.KvKey[] => [
  groupKey(userId, group),
  holderKey(group, userId),
];

/**
 * The ids of the people holding capped group `group` (e.g. `replies:{postId}`), listed from the holders' index (500
 * keys a round trip). Until the `notification-groups-index` job is done (`groupHoldersIndexed`), a group stored before
 * the index may be missing from it.
 */
export async function groupHolderIds(kv: Deno.Kv, group: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["notification_group_holders", group] }, { batchSize: 500 })) {
    ids.push(key[2] as string);
  }
  return ids;
}

/** Where the `notification-groups-index` backfill stands (`BackfillProgress`): fixed for good. */
const HOLDERS_PROGRESS: Deno.KvKey = ["notifications_meta", "group_holders_index"];

/** Whether every group stored before the holders' index is in it (`groupHolderIds` finds them all). */
export async function groupHoldersIndexed(kv: Deno.Kv): Promise<boolean> {
  return await backfillDone(kv, HOLDERS_PROGRESS);
}

/**
 * The groups stored before the holders' index, indexed (docs/decisions.md, Background work, "Index backfills"): 500
 * a list call, 50 written a commit (one entry each, kept 90 days as its group is).
 */
const HOLDERS_BACKFILL: Backfill<(GroupMember | string)[]> = {
  progressKey: HOLDERS_PROGRESS,
  prefix: ["notification_groups"],
  page: 500,
  perCommit: 50,
  tally: true,
  write: (op, entry) => {
    // The holder entry goes when its group does, so an account deleted after its group expired leaves none behind.
    const left = groupTimeLeft(membersOf(entry));
    if (left > 0) op.set(holderKey(entry.key[2] as string, entry.key[1] as string), true, { expireIn: left });
  },
};

/**
 * The `notification-groups-index` job: every 5 minutes until done, it indexes the holders of the capped groups stored
 * before the holders' index (`runBackfill`), which a post's deletion reads to delete its groups; answers how many
 * groups a run walked (then one read a run).
 */
export const notificationGroupsIndexJob: Job = {
  name: "notification-groups-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ indexed: (await runBackfill(ctx.kv, HOLDERS_BACKFILL, ctx.requests)).read }),
};

/**
 * `userId`'s capped group `group` (e.g. `replies:{postId}`) as it stands, for adding a notification from `from` (e.g.
 * the replier's id), with the members adding it drops and their push messages: one key read, and when one of those
 * dropped reached the person beyond the bell (`told`), one more for the push messages.
 */
export async function readNotificationGroup(
  kv: Deno.Kv,
  { userId, group, from }: { userId: string; group: string; from: string },
): Promise<NotificationGroup> {
  const entry = await kv.get<(GroupMember | string)[]>(groupKey(userId, group));
  const dropped = droppedMembers(membersOf(entry), from);
  const told = dropped.filter((member) => member.told).map((member) => member.id);
  return { entry, from, dropped, pushes: told.length > 0 ? await readPushMessages(kv, told) : [] };
}

/**
 * The members of the group `entry` as read, oldest first; a bare id of an older group is its own source, and taken to
 * have been told (its push message is looked for).
 */
function membersOf(entry: NotificationGroup["entry"]): GroupMember[] {
  return (entry.value ?? []).map((member) =>
    typeof member === "string" ? { id: member, from: member, told: true } : member
  );
}

/**
 * The members `members` (oldest first) lose when one from `from` joins, so that `GROUP_KEPT` stay: each time the
 * oldest of the source that holds the most, the newcomer counted (of sources holding as many, the oldest member goes).
 * So one source flooding a full group pushes out its own older notifications once it holds as many as any other,
 * never everybody else's (docs/decisions.md, Notifications, "Ten replies a post"). Returns the dropped members.
 */
export function droppedMembers(members: readonly GroupMember[], from: string): GroupMember[] {
  const kept = [...members];
  const held = new Map<string, number>([[from, 1]]);
  for (const member of kept) held.set(member.from, (held.get(member.from) ?? 0) + 1);
  const dropped: GroupMember[] = [];
  while (kept.length >= GROUP_KEPT) {
    const most = Math.max(...held.values());
    const at = kept.findIndex((member) => held.get(member.from) === most);
    const [member] = kept.splice(at, 1);
    held.set(member.from, most - 1);
    dropped.push(member);
  }
  return dropped;
}

/**
 * Adds to `op` the member `joining` of `userId`'s `group` (checked as read, so two writes at once cannot both take its
 * last place), and the deletion of those it drops when it holds `GROUP_KEPT` already (`group.dropped`): the record and
 * its unread key (two mutations each, two more for the group and its holder entry), and its push message when still
 * pending (checked as read, three mutations), so a dropped notification reaches no phone afterwards. A dropped
 * notification's subject entry stays until it expires: a redaction of its subject then finds no record.
 */
function joinGroupOps(op: Deno.AtomicOperation, userId: string, group: NotificationGroup, joining: GroupMember): void {
  const gone = new Set(group.dropped.map((member) => member.id));
  for (const id of gone) op.delete(recordKey(userId, id)).delete(unreadKey(userId, id));
  for (const push of group.pushes) dropReadPushMessageOps(op, push);
  const kept = [...membersOf(group.entry).filter((member) => !gone.has(member.id)), joining];
  const [, , name] = group.entry.key as [string, string, string];
  op.check(group.entry).set(group.entry.key, kept, { expireIn: NOTIFICATION_TTL_MS })
    .set(holderKey(name, userId), true, { expireIn: NOTIFICATION_TTL_MS });
}

/**
 * Takes source `from` (a deleted account) out of the capped group `group` of every person notified of `subject` (its
 * index entries: one list): each member from it becomes its own source, as a bare id of an older group reads
 * (`membersOf`), so no group keeps the id of a deleted account (docs/decisions.md, Notifications, "Each replier's
 * share"). One checked write a group that names `from`, which still expires when it would, read again after a lost
 * race.
 * @throws BusyError after 30 s of races lost to other writers (groups written before stay so).
 */
export async function forgetGroupSource(
  kv: Deno.Kv,
  { subject, group, from }: { subject: string; group: string; from: string },
): Promise<void> {
  const holders = new Set<string>();
  for await (const { key } of kv.list({ prefix: ["notification_subjects", subject] })) holders.add(key[2] as string);
  for (const userId of holders) {
    await retrying(async () => {
      const entry = await kv.get<(GroupMember | string)[]>(groupKey(userId, group));
      const members = membersOf(entry);
      if (!members.some((member) => member.from === from)) return true;
      const left = groupTimeLeft(members);
      if (!(left > 0)) return true;
      const kept = members.map((member) => member.from === from ? { ...member, from: member.id } : member);
      return (await kv.atomic().check(entry).set(entry.key, kept, { expireIn: left }).commit()).ok;
    }, RETRY_BUDGET_MS);
  }
}

/**
 * How long (ms) until KV removes a group whose members are `members`: it was last written when its newest member
 * joined, with 90 days to live. NaN or less than 1 for a group already past it (or empty).
 */
function groupTimeLeft(members: readonly GroupMember[]): number {
  const newest = members.at(-1);
  return newest ? Number(newest.id.slice(0, 13)) + NOTIFICATION_TTL_MS - Date.now() : NaN;
}

/** A new notification id: creation time in ms (13 digits, zero padded) and a random tail, so ids sort by time. */
function notificationId(now: Date): string {
  return `${String(now.getTime()).padStart(13, "0")}-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Adds the notification `input` to `op` (the caller's atomic write) as unread, created at `now`, with its delivery to
 * the person's phones and e-mail (`queuePushOps`, docs/decisions.md, Notifications, "Channels") unless it is
 * `bellOnly`; it is stored only if `op` commits. Five mutations (two without the delivery), one more with a `subject`,
 * and with a `group` two more, and two for each it drops and three for its pending push message (`joinGroupOps`).
 * Returns the record as it will be stored.
 */
export function addNotification(
  op: Deno.AtomicOperation,
  input: NotificationInput,
  now = new Date(),
): NotificationRecord {
  const words = input.message
    ? notificationWords({ title: "", body: "", message: input.message }, translatorFor("en"))
    : { title: input.title ?? "", body: input.body ?? "" };
  const record: StoredNotification = {
    id: notificationId(now),
    type: input.type,
    title: clip(words.title, TITLE_MAX),
    body: clip(words.body, BODY_MAX),
    url: input.url,
    createdAt: now.toISOString(),
    readAt: null,
    ...input.message ? { message: input.message } : {},
  };
  op.set(recordKey(input.userId, record.id), record, { expireIn: NOTIFICATION_TTL_MS })
    .set(unreadKey(input.userId, record.id), true, { expireIn: NOTIFICATION_TTL_MS });
  if (input.subject) {
    op.set(subjectKey(input.subject, input.userId, record.id), true, { expireIn: NOTIFICATION_TTL_MS });
  }
  if (input.group) {
    joinGroupOps(op, input.userId, input.group, {
      id: record.id,
      from: input.group.from,
      ...input.bellOnly ? {} : { told: true },
      ...input.subject ? { subject: input.subject } : {},
    });
  }
  if (!input.bellOnly) queuePushOps(op, { userId: input.userId, notification: record }, now.getTime());
  return record;
}

/** A redacted notification's words: plain `title` and `body` (English), its `message`, a new link when `url`. */
export interface Redaction {
  title: string;
  body: string;
  url?: string;
  message?: NotificationMessage;
}

/**
 * Adds to `op` (the caller's atomic write, which changes or removes `subject`) the redaction of every kept notification
 * that names `subject`: its title and body become `redacted`'s (or what `redacted` makes of the notification), written
 * in the reader's language from its `message` (and its link too when `redacted` has a `url`, for a subject whose page
 * is gone), each checked as read here, and its push message not delivered yet goes (`dropPushMessageOps`). The
 * subject's index entries go with a subject removed; with `subjectStays` (a reply edited, or its author forgotten: the
 * reply is still there) they stay, so the reply's later deletion redacts the notification again (docs/decisions.md,
 * Notifications, "Redaction"). With `group` (a reply deleted), each such notification in that capped group of its
 * reader becomes its own source, checked as read: once the subject's entries are gone, its author's account deletion
 * (`forgetGroupSource`) cannot find it (docs/decisions.md, Notifications, "Each replier's share"). A subject is named
 * by one notification or a few, so this adds a handful of mutations.
 */
export async function redactNotificationOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { subject, redacted, subjectStays = false, group }: {
    subject: string;
    redacted: Redaction | ((before: StoredNotification) => Redaction);
    subjectStays?: boolean;
    group?: string;
  },
): Promise<void> {
  const groups = new Map<string, { entry: NotificationGroup["entry"]; members: GroupMember[]; changed: boolean }>();
  for await (const index of kv.list({ prefix: ["notification_subjects", subject] })) {
    const [, , userId, id] = index.key as [string, string, string, string];
    const [entry] = await Promise.all([
      kv.get<StoredNotification>(recordKey(userId, id)),
      dropPushMessageOps(kv, op, id),
    ]);
    op.check(index);
    if (!subjectStays) op.delete(index.key);
    if (group !== undefined) {
      if (!groups.has(userId)) {
        const read = await kv.get<(GroupMember | string)[]>(groupKey(userId, group));
        groups.set(userId, { entry: read, members: membersOf(read), changed: false });
      }
      const held = groups.get(userId)!;
      held.changed ||= held.members.some((member) => member.id === id && member.from !== id);
      held.members = held.members.map((member) => member.id === id ? { ...member, from: member.id } : member);
    }
    if (!entry.value) continue;
    const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - Date.now();
    if (left <= 0) continue;
    const { message: _message, ...kept } = entry.value as StoredNotification;
    const words = typeof redacted === "function" ? redacted(entry.value) : redacted;
    op.check(entry).set(entry.key, { ...kept, ...words }, { expireIn: left });
  }
  for (const { entry, members, changed } of groups.values()) {
    const left = groupTimeLeft(members);
    if (changed && left > 0) op.check(entry).set(entry.key, members, { expireIn: left });
  }
}

/**
 * Replaces the words of `userId`'s notification `id` (a running count, e.g. "3 new applicants today") with `message`
 * (catalogue keys, as `NotificationInput` has them) or a plain `title` and `body`, and marks it unread again, checked
 * against the notification as read and retried on a lost race; nothing when it is gone or expired. Nothing is pushed
 * again: the push went with the notification's first version.
 * @throws BusyError after 30 s of races lost to other writers (`lib/kv/retry.ts`; nothing is changed).
 */
export async function reviseNotification(
  kv: Deno.Kv,
  { userId, id, title, body, message, now = new Date() }: {
    userId: string;
    id: string;
    title?: string;
    body?: string;
    message?: NotificationMessage;
    now?: Date;
  },
): Promise<void> {
  const words = message
    ? notificationWords({ title: "", body: "", message }, translatorFor("en"))
    : { title: title ?? "", body: body ?? "" };
  await retrying(
    async () => {
      const entry = await kv.get<StoredNotification>(recordKey(userId, id));
      if (!entry.value) return true;
      const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - now.getTime();
      if (left <= 0) return true;
      const { message: _message, ...kept } = entry.value as StoredNotification;
      const next: StoredNotification = {
        ...kept,
        title: clip(words.title, TITLE_MAX),
        body: clip(words.body, BODY_MAX),
        readAt: null,
        ...message ? { message } : {},
      };
      const op = kv.atomic().check(entry).set(entry.key, next, { expireIn: left })
        .set(unreadKey(userId, id), true, { expireIn: left });
      return (await op.commit()).ok;
    },
    RETRY_BUDGET_MS,
  );
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

/**
 * Where the unread count stops: the bell shows more than 99 as "99+", so counting past 100 reads keys for nothing
 * (docs/decisions.md, Notifications, "The bell").
 */
export const UNREAD_COUNT_MAX = 100;

/** How many of `userId`'s notifications are unread at `now`, up to `UNREAD_COUNT_MAX` (one list round trip). */
export async function unreadCount(kv: Deno.Kv, userId: string, now = new Date()): Promise<number> {
  let count = 0;
  const start = ["notifications_unread", userId, oldestKept(now)];
  const end = ["notifications_unread", userId, "\uffff"];
  for await (const _ of kv.list({ start, end }, { limit: UNREAD_COUNT_MAX, batchSize: UNREAD_COUNT_MAX })) count++;
  return count;
}

/** A page of notifications and the unread count, as `GET /api/me/notifications` answers. */
export interface NotificationPage {
  notifications: NotificationRecord[];
  /** Up to `UNREAD_COUNT_MAX`: 100 means 100 or more. */
  unreadCount: number;
}

/**
 * A page of `userId`'s notifications newest first (unread ones only with `query.unread`), their words in `t`'s
 * language (English unless given; `readableNotification`), and the unread count (`unreadCount`, read beside the page).
 */
export async function listNotifications(
  kv: Deno.Kv,
  { userId, query, now = new Date(), t = translatorFor("en") }: {
    userId: string;
    query: NotificationQuery;
    now?: Date;
    t?: Translate;
  },
): Promise<NotificationPage> {
  const [notifications, count] = await Promise.all([
    pageOf(kv, { userId, query, oldest: oldestKept(now), t }),
    unreadCount(kv, userId, now),
  ]);
  return { notifications, unreadCount: count };
}

/** The page `query` asks for of `userId`'s notifications kept since id `oldest`, in `t`'s language. */
async function pageOf(
  kv: Deno.Kv,
  { userId, query, oldest, t }: { userId: string; query: NotificationQuery; oldest: string; t: Translate },
): Promise<NotificationRecord[]> {
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
    for (const entry of await getManyChunked<StoredNotification>(kv, page.map((id) => recordKey(userId, id)))) {
      if (entry.value) notifications.push(readableNotification(entry.value, t));
    }
  } else {
    const iter = kv.list<StoredNotification>(
      { start: ["notifications", userId, oldest], end: ["notifications", userId, "\uffff"] },
      { reverse: true, limit: query.offset + query.limit },
    );
    let skipped = 0;
    for await (const entry of iter) {
      if (skipped++ < query.offset) continue;
      notifications.push(readableNotification(entry.value, t));
    }
  }
  return notifications;
}

/**
 * Marks `userId`'s notifications `ids` read (all unread ones when `ids` is absent) at `now`; ids that are unknown,
 * another person's or read already are skipped; a lost race reads again and tries again (`lib/kv/retry.ts`). Returns the
 * unread count afterwards (`unreadCount`: up to 100).
 * @throws BusyError after 30 s of races lost to other writers (batches written before stay read).
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
    await retrying(
      async () => {
        const entries = await getManyChunked<NotificationRecord>(kv, batch.map((id) => recordKey(userId, id)));
        const op = kv.atomic();
        for (const entry of entries) {
          if (!entry.value || entry.value.readAt !== null) continue;
          const left = Date.parse(entry.value.createdAt) + NOTIFICATION_TTL_MS - now.getTime();
          if (left <= 0) continue;
          op.check(entry).set(entry.key, { ...entry.value, readAt }, { expireIn: left })
            .delete(unreadKey(userId, entry.value.id));
        }
        return (await op.commit()).ok;
      },
      RETRY_BUDGET_MS,
    );
  }
  return await unreadCount(kv, userId, now);
}

/** Every notification of `userId` still kept, newest first, its words in the person's language (the account export). */
export async function notificationsOf(
  kv: Deno.Kv,
  user: { id: string; language?: Lang },
  now = new Date(),
): Promise<NotificationRecord[]> {
  const all: NotificationRecord[] = [];
  const oldest = oldestKept(now);
  const t = translatorOfPerson(user);
  for await (const entry of kv.list<StoredNotification>({ prefix: ["notifications", user.id] }, { reverse: true })) {
    if (entry.value.id >= oldest) all.push(readableNotification(entry.value, t));
  }
  return all;
}

/**
 * How many notifications of `userId` are still kept at `now` (what `notificationsOf` gives), for "Your data"
 * (docs/decisions.md, Data rights, "Read by person"): lists only the kept range, words not written. Notifications
 * last 90 days, and replies are kept 10 a post (`GROUP_KEPT`), so this grows with one person's last 90 days, not with
 * everyone's.
 */
export async function notificationCountOf(kv: Deno.Kv, userId: string, now = new Date()): Promise<number> {
  let count = 0;
  const selector = { start: ["notifications", userId, oldestKept(now)], end: ["notifications", userId, "\uffff"] };
  for await (const _ of kv.list(selector, { batchSize: 500 })) count++;
  return count;
}

/** Deletes every notification of `userId`, their groups with their holder entries (account deletion); idempotent. */
export async function deleteNotificationsOf(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed(kv, ["notifications", userId]);
  await deleteListed(kv, ["notifications_unread", userId]);
  await deleteListed(kv, ["notification_groups", userId], ({ key }) => [holderKey(key[2] as string, userId)]);
}
