/**
 * The KV layout of comments and reactions on Ungatekeep posts (docs/decisions.md, Comments and reactions). This
 * module alone owns these keys; `comments.ts` and `reactions.ts` hold the rules and call it.
 *
 * Keys:
 * - `["comment_threads", postId, topCreatedAt, topId]` → a top-level `Comment`, and
 *   `["comment_threads", postId, topCreatedAt, topId, createdAt, id]` → each of its replies: a post's comments in
 *   thread order (oldest thread first, each followed by its replies oldest first), so a page of threads is one range
 *   read, never a scan of every comment;
 * - `["comment_tops", postId, createdAt, id]` → null, the top-level comments alone, to find where page `offset` starts;
 * - `["comment_ids", id]` → the comment's thread key;
 * - `["comment_user", userId, createdAt, id]` → the thread key of each comment a person wrote (export, deletion);
 * - `["comment_times", createdAt, id]` → the thread key of each live comment (not placeholders), so the admin list's
 *   newest page is a reverse range read, and `["comment_stats", "live"]` a `Deno.KvU64` of those comments;
 * - `["comment_replies", topId]` a `Deno.KvU64` of a top-level comment's replies: a reply adds to it (sums never
 *   conflict with each other) and a delete checks it, so a thread cannot gain a reply while its parent is removed;
 * - `["comment_rate", userId]` → the times (ms) of the person's last comments within the rate window;
 * - `["post_counts", postId, "comments" | "threads" | reactionType]` `Deno.KvU64` sum counters: comments and replies
 *   (placeholders not counted), top-level entries (placeholders counted, the pages' total), reactions of each type;
 * - `["reactions", userId, postId]` → the person's reaction types on the post, and `["post_reactors", postId, userId]`
 *   → null, to find them when the post is deleted.
 * - `["comment_reply_mail", replyId]` → the id of the e-mail that quotes the reply (`lib/mail/outbox.ts`), for 30 days.
 * - `["reply_told", recipientId, postId]` → when (ms) a reply under the post last reached the person beyond the bell
 *   (pushed, and e-mailed when they take reply e-mails), for `REPLY_GAP_MS`: within it, further replies to them there
 *   notify in the bell only.
 * Every change is one atomic commit that writes the record, its indexes and the counters together. A reply's
 * notification (`lib/notifications/`, subject `replySubject(id)`) is redacted, and its e-mail and push message still
 * pending are deleted, in the commit that edits or deletes the reply or forgets its author.
 */
import { commitPacked, keyBytes, MAX_KEY_BYTES, WriteUnit } from "@/lib/kv/packed_writes.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { dropPendingMailOps, type OutboxMail } from "@/lib/mail/outbox.ts";
import {
  forgetGroupSource,
  groupHolderIds,
  groupHoldersIndexed,
  groupKeysOf,
  type NotificationMessage,
  notificationWords,
  type Redaction,
  redactNotificationOps,
  type StoredNotification,
} from "@/lib/notifications/notifications.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import {
  type Comment,
  COMMENT_RATE_LIMIT,
  COMMENT_RATE_WINDOW_MS,
  type PostEngagement,
  REACTION_TYPES,
  type ReactionCounts,
  type ReactionType,
} from "./schema.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { reportedAmong, resolveRemoved } from "@/lib/reports/removals.ts";

const ONE = 1n;
/** −1 as KV's wrapping 64-bit sum sees it. */
const MINUS_ONE = 0xffffffffffffffffn;
/** Most mutations one cascade commit holds (KV allows 1,000). */
const BATCH = 800;
/**
 * Most bytes of keys one cascade commit's deletions hold (`keyBytes`): KV's 80 KiB less room for one more comment's
 * keys (under 1 KiB) and the counters' sums, as the commit is sent once past it.
 */
const BATCH_KEY_BYTES = MAX_KEY_BYTES - 4096;
/** Comments of a deleted post whose open reports are read together (`deleteConversation`): 10 `getMany` calls. */
const REPORTS_READ = 100;

type CountName = "comments" | "threads" | ReactionType;

/** The notification subject of reply `id`: what its reply notification quotes (its author's name and content). */
export const replySubject = (id: string): string => `comment:${id}`;
/** The reply a notification subject names (`replySubject`), or null for another subject. */
export const replyOfSubject = (subject: string): string | null =>
  subject.startsWith("comment:") ? subject.slice("comment:".length) : null;
/**
 * The capped notification group of the replies to one person under post `postId` (`GROUP_KEPT` of them are kept, each
 * replier's share; docs/decisions.md, Notifications, "Ten replies a post").
 */
export const replyGroup = (postId: string): string => `replies:${postId}`;

const countKey = (postId: string, name: CountName): Deno.KvKey => ["post_counts", postId, name];
const idKey = (id: string): Deno.KvKey => ["comment_ids", id];
const topsKey = (c: Comment): Deno.KvKey => ["comment_tops", c.postId, c.createdAt, c.id];
const userIndexKey = (userId: string, c: Comment): Deno.KvKey => ["comment_user", userId, c.createdAt, c.id];
const repliesKey = (topId: string): Deno.KvKey => ["comment_replies", topId];
const rateKey = (userId: string): Deno.KvKey => ["comment_rate", userId];
const timeKey = (c: Comment): Deno.KvKey => ["comment_times", c.createdAt, c.id];
const LIVE_KEY: Deno.KvKey = ["comment_stats", "live"];
const reactionsKey = (userId: string, postId: string): Deno.KvKey => ["reactions", userId, postId];
const reactorKey = (postId: string, userId: string): Deno.KvKey => ["post_reactors", postId, userId];
const replyMailKey = (replyId: string): Deno.KvKey => ["comment_reply_mail", replyId];

const replyToldKey = (recipientId: string, postId: string): Deno.KvKey => ["reply_told", recipientId, postId];

/**
 * The least time (ms) between two replies that reach one person about one post beyond the bell (a push, an e-mail): an
 * hour. Replies within it still notify in the bell; the push and the e-mail wait, so a flood of replies is one buzz of
 * the phone and one e-mail, not one each.
 */
export const REPLY_GAP_MS = 60 * 60 * 1000;

/**
 * Whether a reply under `postId` may push to and e-mail `recipientId` at `now` (ms), and the entry to check in its
 * commit.
 */
export interface ReplyGate {
  entry: Deno.KvEntryMaybe<number>;
  open: boolean;
}

/** The reply gate of `recipientId` under `postId` at `now` (ms since the epoch). */
export async function readReplyGate(
  kv: Deno.Kv,
  recipientId: string,
  postId: string,
  now: number,
): Promise<ReplyGate> {
  const entry = await kv.get<number>(replyToldKey(recipientId, postId));
  return { entry, open: entry.value === null || now - entry.value >= REPLY_GAP_MS };
}

/**
 * Adds to `op` (a reply's commit that pushes to or e-mails `recipientId`) the check of `gate` as read and its closing at
 * `now` (ms) for `REPLY_GAP_MS`.
 */
export function closeReplyGateOps(
  op: Deno.AtomicOperation,
  { gate, recipientId, postId, now }: { gate: ReplyGate; recipientId: string; postId: string; now: number },
): void {
  op.check(gate.entry).set(replyToldKey(recipientId, postId), now, { expireIn: REPLY_GAP_MS });
}

/** How long a reply's e-mail id is kept (ms): 30 days, far beyond the outbox's last retry of a mail. */
const REPLY_MAIL_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** Adds to `op` (the reply's own commit) that the e-mail `mailId` quotes reply `replyId`. */
export function replyMailOps(op: Deno.AtomicOperation, replyId: string, mailId: string): void {
  op.set(replyMailKey(replyId), mailId, { expireIn: REPLY_MAIL_KEPT_MS });
}

/**
 * Adds to `op` the deletion of the e-mail that quotes `reply` while it is still pending (`dropReplyMailOfOps`). A mail
 * dropped reopens its recipient's reply gate under the post when the gate is still the one this reply closed (no e-mail
 * went out), checked in the same commit.
 */
async function dropReplyMailOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  reply: Pick<Comment, "id" | "postId" | "createdAt">,
): Promise<void> {
  const dropped = await dropReplyMailOfOps(kv, op, reply.id);
  if (dropped?.userId) {
    const gate = await kv.get<number>(replyToldKey(dropped.userId, reply.postId));
    if (gate.value === Date.parse(reply.createdAt)) op.check(gate).delete(gate.key);
  }
}

/**
 * Adds to `op` the deletion of the e-mail that quotes reply `replyId` while it is still pending (`dropPendingMailOps`),
 * and of the reference to it, checked as read here (two reads, one after the other). Returns the mail dropped, or null.
 */
export async function dropReplyMailOfOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  replyId: string,
): Promise<OutboxMail | null> {
  const entry = await kv.get<string>(replyMailKey(replyId));
  op.check(entry);
  if (!entry.value) return null;
  op.delete(entry.key);
  return await dropPendingMailOps(kv, op, entry.value);
}

/** The thread key of a top-level comment. */
function topKey(c: Comment): Deno.KvKey {
  return ["comment_threads", c.postId, c.createdAt, c.id];
}

/** The thread key of `reply` under the top-level comment whose thread key is `parentKey`. */
function replyKey(parentKey: Deno.KvKey, reply: Comment): Deno.KvKey {
  return [...parentKey, reply.createdAt, reply.id];
}

function countValue(entry: Deno.KvEntryMaybe<Deno.KvU64>): number {
  return Number(entry.value?.value ?? 0n);
}

/** No reactions. */
export function noReactions(): ReactionCounts {
  return { helpful: 0, insightful: 0, celebrate: 0 };
}

/**
 * The comment count and reaction counts of each of `postIds`, and `myReactions` when `userId` is given (a signed-in
 * caller): point reads of the counters, 4 (or 5) keys a post.
 */
export async function engagementOf(
  kv: Deno.Kv,
  postIds: string[],
  userId?: string,
): Promise<Map<string, PostEngagement>> {
  const names: CountName[] = ["comments", ...REACTION_TYPES];
  const keys = postIds.flatMap((id) => names.map((name) => countKey(id, name)));
  const [counts, mine] = await Promise.all([
    getManyChunked<Deno.KvU64>(kv, keys),
    userId ? getManyChunked<ReactionType[]>(kv, postIds.map((id) => reactionsKey(userId, id))) : Promise.resolve([]),
  ]);
  const result = new Map<string, PostEngagement>();
  postIds.forEach((id, i) => {
    const at = i * names.length;
    const reactions = noReactions();
    REACTION_TYPES.forEach((type, t) => reactions[type] = countValue(counts[at + 1 + t]));
    const engagement: PostEngagement = { commentCount: countValue(counts[at]), reactions };
    if (userId) engagement.myReactions = REACTION_TYPES.filter((type) => mine[i].value?.includes(type));
    result.set(id, engagement);
  });
  return result;
}

/** A top-level comment with replies read of it, oldest first; `more` when others follow them, `next` the first. */
export interface ThreadRead {
  top: Comment;
  replies: Comment[];
  more: boolean;
  next?: Comment;
}

/** One page of a post's threads: top-level comments in order, each with its replies, and how many threads there are. */
export interface ThreadPage {
  threads: ThreadRead[];
  total: number;
}

/**
 * The thread whose top-level comment is stored at `key`, with at most `limit` of its replies: the first ones, or with
 * `from` (a reply's key in this thread) that one and those after it. `next` is the reply after those (`more`).
 * Null when the top-level comment is gone.
 */
async function readThread(
  kv: Deno.Kv,
  { key, from, limit }: { key: Deno.KvKey; from?: Deno.KvKey; limit: number },
): Promise<ThreadRead | null> {
  // Replies are keyed under their top's key by their time (ISO, so before "\uffff"); "" sorts before any of them.
  const replies: Comment[] = [];
  const entries = kv.list<Comment>(
    { start: from ?? [...key, ""], end: [...key, "\uffff"] },
    { limit: limit + 1, batchSize: limit + 1 },
  );
  const [top] = await Promise.all([
    kv.get<Comment>(key),
    (async () => {
      for await (const entry of entries) replies.push(entry.value);
    })(),
  ]);
  if (!top.value) return null;
  return { top: top.value, replies: replies.slice(0, limit), more: replies.length > limit, next: replies[limit] };
}

/**
 * The thread of top-level comment `topId` under `postId` with at most `limit` replies from reply `fromId` on (the
 * first ones without it), or null when there is no such thread or the reply is not in it.
 */
export async function readThreadReplies(
  kv: Deno.Kv,
  { postId, topId, fromId, limit }: { postId: string; topId: string; fromId?: string; limit: number },
): Promise<ThreadRead | null> {
  const [top, from] = await Promise.all([getComment(kv, topId), fromId ? getComment(kv, fromId) : null]);
  if (!top || top.value.postId !== postId || top.value.parentId !== null) return null;
  if (fromId && from?.value.parentId !== topId) return null;
  return await readThread(kv, { key: top.key, from: from?.key, limit });
}

/**
 * Threads `offset` to `offset + limit` of `postId`, oldest first, each with every reply, or with `replies` at most
 * the first that many (`more` tells whether there are others). Every reply: the first page is one range read of the
 * thread keys (stopping after the last reply of the `limit`-th thread); a later page first finds its first thread in
 * the top-level index, then reads the page's range. At most `replies`: the page's top-level comments from the index,
 * then each thread's first replies at once, so a thread's other replies are never read.
 */
export async function readThreadPage(
  kv: Deno.Kv,
  { postId, limit, offset, replies }: { postId: string; limit: number; offset: number; replies?: number },
): Promise<ThreadPage> {
  const prefix: Deno.KvKey = ["comment_threads", postId];
  const totalEntry = kv.get<Deno.KvU64>(countKey(postId, "threads"));
  if (replies !== undefined) {
    const tops: Deno.KvKey[] = [];
    const index = kv.list({ prefix: ["comment_tops", postId] }, {
      limit: offset + limit,
      batchSize: Math.min(1000, offset + limit),
    });
    let seen = 0;
    for await (const entry of index) if (seen++ >= offset) tops.push([...prefix, entry.key[2], entry.key[3]]);
    const threads = await Promise.all(tops.map((key) => readThread(kv, { key, limit: replies })));
    return { threads: threads.flatMap((thread) => thread ?? []), total: countValue(await totalEntry) };
  }
  let selector: Deno.KvListSelector = { prefix };
  if (offset > 0) {
    const tops = kv.list({ prefix: ["comment_tops", postId] }, {
      limit: offset + 1,
      batchSize: Math.min(1000, offset + 1),
    });
    let first: Deno.KvKey | null = null;
    let seen = 0;
    for await (const entry of tops) if (seen++ === offset) first = entry.key;
    if (!first) return { threads: [], total: countValue(await totalEntry) };
    selector = { prefix, start: ["comment_threads", postId, first[2], first[3]] };
  }
  const threads: ThreadPage["threads"] = [];
  const entries = kv.list<Comment>(selector, { batchSize: Math.min(1000, limit * 4) });
  for await (const entry of entries) {
    const comment = entry.value;
    if (comment.parentId === null) {
      if (threads.length === limit) break;
      threads.push({ top: comment, replies: [], more: false });
    } else threads.at(-1)?.replies.push(comment);
  }
  return { threads, total: countValue(await totalEntry) };
}

/**
 * Live comments `offset` to `offset + limit` of all posts, newest first, and how many there are: a reverse range read
 * of the time index and point reads of the comments (the admin list without search).
 */
export async function readRecentComments(
  kv: Deno.Kv,
  limit: number,
  offset: number,
): Promise<{ comments: Comment[]; total: number }> {
  const keys: Deno.KvKey[] = [];
  const entries = kv.list<Deno.KvKey>({ prefix: ["comment_times"] }, {
    reverse: true,
    limit: offset + limit,
    batchSize: Math.min(1000, offset + limit),
  });
  let seen = 0;
  for await (const entry of entries) if (seen++ >= offset) keys.push(entry.value);
  const [records, total] = await Promise.all([getManyChunked<Comment>(kv, keys), kv.get<Deno.KvU64>(LIVE_KEY)]);
  return { comments: records.flatMap((e) => e.value ? [e.value] : []), total: countValue(total) };
}

/** Every live comment (placeholders left out), of one post or of all, for the admin list. */
export async function scanComments(kv: Deno.Kv, postId?: string): Promise<Comment[]> {
  const comments: Comment[] = [];
  const prefix = postId ? ["comment_threads", postId] : ["comment_threads"];
  for await (const entry of kv.list<Comment>({ prefix }, { batchSize: 1000 })) {
    if (!entry.value.isDeleted) comments.push(entry.value);
  }
  return comments;
}

/** A comment read by id with its thread key, or null. */
export async function getComment(kv: Deno.Kv, id: string): Promise<Deno.KvEntry<Comment> | null> {
  const location = await kv.get<Deno.KvKey>(idKey(id));
  if (!location.value) return null;
  const entry = await kv.get<Comment>(location.value);
  return entry.value ? entry as Deno.KvEntry<Comment> : null;
}

/** The state a new comment is written over: the person's recent comment times, and when to retry if they are full. */
export interface RateState {
  entry: Deno.KvEntryMaybe<number[]>;
  /** The times (ms) still within the window. */
  recent: number[];
  /** Seconds until another comment is allowed; 0 when one is allowed now. */
  retryAfterSeconds: number;
}

/** The rate state of `userId` at `now` (ms): at most `COMMENT_RATE_LIMIT` comments within the sliding window. */
export async function readRate(kv: Deno.Kv, userId: string, now: number): Promise<RateState> {
  const entry = await kv.get<number[]>(rateKey(userId));
  const recent = (entry.value ?? []).filter((at) => at > now - COMMENT_RATE_WINDOW_MS);
  const retryAfterSeconds = recent.length < COMMENT_RATE_LIMIT
    ? 0
    : (recent[recent.length - COMMENT_RATE_LIMIT] + COMMENT_RATE_WINDOW_MS - now) / 1000;
  return { entry, recent, retryAfterSeconds };
}

/** What a new comment's commit is checked against. */
export interface NewCommentChecks {
  /** The post's record as read (it must not change meanwhile: a deleted post takes no comments). */
  post: Deno.KvEntryMaybe<unknown>;
  rate: RateState;
  /** A reply's top-level comment as read. */
  parent: Deno.KvEntry<Comment> | null;
}

/**
 * Adds the writes of a new comment (`comment.userId` its author) to `op`: the record in its thread, its indexes, the
 * counters and the author's rate window (`now` in ms since the epoch), checked against `checks`. The caller may add
 * more (a notification) and commits.
 */
export function newCommentOps(
  op: Deno.AtomicOperation,
  { comment, checks, now }: { comment: Comment; checks: NewCommentChecks; now: number },
) {
  const key = checks.parent ? replyKey(checks.parent.key, comment) : topKey(comment);
  op.check(checks.post, checks.rate.entry).set(key, comment).set(idKey(comment.id), key)
    .sum(countKey(comment.postId, "comments"), ONE)
    .sum(LIVE_KEY, ONE)
    .set(timeKey(comment), key)
    .set(rateKey(comment.userId!), [...checks.rate.recent, now].slice(-COMMENT_RATE_LIMIT), {
      expireIn: COMMENT_RATE_WINDOW_MS,
    });
  if (comment.userId) op.set(userIndexKey(comment.userId, comment), key);
  if (checks.parent) op.check(checks.parent).sum(repliesKey(checks.parent.value.id), ONE);
  else op.set(topsKey(comment), null).sum(countKey(comment.postId, "threads"), ONE);
}

/**
 * What a reply's notification becomes when the reply is edited or deleted (`key`): no body, no replier's name, and the
 * title of the post it named, when it named one (a notification stored before names none), so two of them still tell
 * apart (docs/decisions.md, Notifications, "Redaction").
 */
function replyRedaction(key: "replyEdited" | "replyDeleted"): (before: StoredNotification) => Redaction {
  return (before) => {
    const post = postOf(before);
    const message: NotificationMessage = {
      title: post
        ? { key: `notifications.text.redacted.${key}On`, values: post }
        : { key: `notifications.text.redacted.${key}` },
    };
    return { ...notificationWords({ title: "", body: "", message }, translatorFor("en")), message };
  };
}

/** The title of the post a reply's notification named, as message values; undefined when it named none. */
function postOf(before: StoredNotification): { post: string } | undefined {
  const post = before.message?.title.values?.post;
  return typeof post === "string" ? { post } : undefined;
}

/**
 * Writes `after` over the comment read as `entry` (content edits); false on a lost race. For a reply, the same commit
 * rewrites its notification to "A reply to your comment on “{post}” was edited" with no body, and deletes its e-mail
 * and push message still pending, so the words taken back reach no bell or inbox later (docs/decisions.md, Notifications,
 * "Redaction").
 */
export async function replaceComment(kv: Deno.Kv, entry: Deno.KvEntry<Comment>, after: Comment): Promise<boolean> {
  const op = kv.atomic().check(entry).set(entry.key, after);
  if (entry.value.parentId !== null) {
    await dropReplyMailOps(kv, op, entry.value);
    await redactNotificationOps(kv, op, {
      subject: replySubject(entry.value.id),
      redacted: replyRedaction("replyEdited"),
      subjectStays: true,
    });
  }
  return (await op.commit()).ok;
}

/** Adds the removal of the comment `entry` (record, id and index keys) to `op`; not its check nor the counters. */
function removeOps(op: Deno.AtomicOperation, entry: Deno.KvEntry<Comment>): void {
  const c = entry.value;
  op.delete(entry.key).delete(idKey(c.id)).delete(timeKey(c));
  if (c.userId) op.delete(userIndexKey(c.userId, c));
  if (c.parentId === null) op.delete(topsKey(c)).delete(repliesKey(c.id));
}

/**
 * Deletes the comment `entry` (docs/decisions.md, Comments and reactions): a top-level comment with replies becomes
 * a placeholder (`isDeleted`, empty content, no author); anything else is removed, and a placeholder whose last reply
 * this was goes with it. A reply's notification loses its content in the same commit, and its e-mail and push message
 * still pending are deleted; `also` adds the caller's mutations to the commit. False on a lost race (read again and
 * retry). `now` is ISO 8601.
 */
export async function deleteComment(
  kv: Deno.Kv,
  entry: Deno.KvEntry<Comment>,
  { now, also }: { now: string; also?: (op: Deno.AtomicOperation) => void },
): Promise<boolean> {
  const c = entry.value;
  const op = kv.atomic().sum(countKey(c.postId, "comments"), MINUS_ONE).sum(LIVE_KEY, MINUS_ONE);
  if (c.parentId === null) {
    const replies = await kv.get<Deno.KvU64>(repliesKey(c.id));
    op.check(replies);
    if (countValue(replies) > 0) {
      op.check(entry).set(entry.key, { ...c, content: "", userId: null, isDeleted: true, updatedAt: now });
      op.delete(timeKey(c));
      if (c.userId) op.delete(userIndexKey(c.userId, c));
    } else {
      op.check(entry);
      removeOps(op, entry);
      op.sum(countKey(c.postId, "threads"), MINUS_ONE);
    }
    also?.(op);
    return (await op.commit()).ok;
  }
  const parentKey = entry.key.slice(0, 4);
  // The thread's keys, the reply's pending e-mail and its notification are read side by side: a far KV's round trips.
  const [[parent, replies]] = await Promise.all([
    kv.getMany<[Comment, Deno.KvU64]>([parentKey, repliesKey(c.parentId)]),
    dropReplyMailOps(kv, op, c),
    redactNotificationOps(kv, op, {
      subject: replySubject(c.id),
      redacted: replyRedaction("replyDeleted"),
      group: replyGroup(c.postId),
    }),
  ]);
  removeOps(op, entry);
  op.check(entry, parent, replies).sum(repliesKey(c.parentId), MINUS_ONE);
  if (parent.value?.isDeleted && countValue(replies) <= 1) {
    removeOps(op, parent as Deno.KvEntry<Comment>);
    op.sum(countKey(c.postId, "threads"), MINUS_ONE);
  }
  also?.(op);
  return (await op.commit()).ok;
}

/**
 * Deletes every comment, reaction and counter of a deleted post (the post record is gone first, so no comment or
 * reaction can be added meanwhile) in commits of at most `BATCH` mutations and KV's 80 KiB of keys (`BATCH_KEY_BYTES`:
 * a busy post's replies have long keys, and each recipient's reply gate and notification group go too). Each commit
 * moves the counters (the post's and the live comment total) by what it deletes, and before it the notifications of the
 * replies it deletes are redacted and their pending e-mails and push messages deleted, one checked write each (read
 * again after a lost race, for up to 30 s: `retrying`): they keep no words of a deleted reply and link to the feed
 * instead of the post (docs/decisions.md, Notifications, "Redaction"). So a run stopped midway leaves counters that
 * count what is left and no notification quoting a reply that is gone, and running it again finishes the work.
 * Before a comment with open reports goes (its entry in the open view, read by key for `REPORTS_READ` comments at a
 * time: `reportedAmong`), its reports are resolved as removed with the post (`resolveRemoved`; docs/decisions.md,
 * Trust, "Reports of what is removed"): none can be filed once the post is gone.
 * @throws BusyError when a reply's notifications kept changing for 30 s, or a comment's reports' writes kept losing
 *   races (the run stops; running it again goes on).
 */
export async function deleteConversation(kv: Deno.Kv, postId: string): Promise<void> {
  let op = kv.atomic();
  let size = 0;
  let bytes = 0;
  let live = 0n;
  const moved = new Map<CountName, bigint>();
  let replies: Comment[] = [];
  const minus = (n: bigint) => (1n << 64n) - n;
  const commit = async () => {
    for (const reply of replies) {
      await retrying(async () => {
        const redaction = kv.atomic();
        await dropReplyMailOps(kv, redaction, reply);
        await redactNotificationOps(kv, redaction, { subject: replySubject(reply.id), redacted: POST_GONE });
        return (await redaction.commit()).ok;
      }, RETRY_BUDGET_MS);
    }
    for (const [name, n] of moved) op.sum(countKey(postId, name), minus(n));
    if (live > 0n) op.sum(LIVE_KEY, minus(live));
    await op.commit();
    op = kv.atomic();
    size = 0;
    bytes = 0;
    live = 0n;
    moved.clear();
    replies = [];
  };
  const add = async (keys: Deno.KvKey[], counted: CountName[]) => {
    for (const key of keys) {
      op.delete(key);
      bytes += keyBytes(key);
    }
    for (const name of counted) moved.set(name, (moved.get(name) ?? 0n) + ONE);
    size += keys.length;
    if (size >= BATCH || bytes >= BATCH_KEY_BYTES) await commit();
  };
  // Every recipient of a reply under the post holds its notification group (`groupHolderIds`), and their reply gates
  // go with it, also of those whose comments there are gone or placeholders (no author). Until the groups stored
  // before the holders' index are in it, the authors of the post's comments are taken as holders too, as before.
  const group = replyGroup(postId);
  const [holders, indexed] = await Promise.all([groupHolderIds(kv, group), groupHoldersIndexed(kv)]);
  const gated = new Set<string>();
  const recipientKeys = (userId: string): Deno.KvKey[] => {
    gated.add(userId);
    return [replyToldKey(userId, postId), ...groupKeysOf(userId, group)];
  };
  const remove = async (entry: Deno.KvEntry<Comment>, reported: ReadonlySet<string>) => {
    const c = entry.value;
    if (reported.has(c.id)) await resolveRemoved(kv, { kind: "comment", targetId: c.id, by: "post" });
    const counted: CountName[] = [];
    if (!c.isDeleted) {
      live++;
      counted.push("comments");
    }
    if (c.parentId !== null) replies.push(c);
    const keys = [entry.key, idKey(c.id), timeKey(c)];
    if (c.userId) keys.push(userIndexKey(c.userId, c));
    if (c.userId && !indexed && !gated.has(c.userId)) keys.push(...recipientKeys(c.userId));
    if (c.parentId === null) {
      keys.push(topsKey(c), repliesKey(c.id));
      counted.push("threads");
    }
    await add(keys, counted);
  };
  // The comments are taken `REPORTS_READ` at a time, with which of them have open reports read by key.
  let page: Deno.KvEntry<Comment>[] = [];
  const removePage = async () => {
    const reported = await reportedAmong(kv, "comment", page.map((entry) => entry.value.id));
    for (const entry of page) await remove(entry, reported);
    page = [];
  };
  for await (const entry of kv.list<Comment>({ prefix: ["comment_threads", postId] }, { batchSize: 500 })) {
    page.push(entry);
    if (page.length === REPORTS_READ) await removePage();
  }
  await removePage();
  for (const userId of holders) if (!gated.has(userId)) await add(recipientKeys(userId), []);
  for await (const entry of kv.list({ prefix: ["post_reactors", postId] }, { batchSize: 500 })) {
    const userId = entry.key[2] as string;
    const types = (await kv.get<ReactionType[]>(reactionsKey(userId, postId))).value ?? [];
    await add([entry.key, reactionsKey(userId, postId)], types);
  }
  await commit();
  // The counters, at 0 now, go.
  const counters = kv.atomic();
  for (const name of ["comments", "threads", ...REACTION_TYPES] as CountName[]) counters.delete(countKey(postId, name));
  await counters.commit();
}

/** What a reply's notification says once the post it was on is deleted. */
const POST_GONE = {
  title: "A post you commented on was deleted",
  body: "",
  url: "/ungatekeep",
  message: { title: { key: "notifications.text.redacted.postDeleted" } },
};

/** Every comment `userId` wrote that is still theirs, oldest first. */
export async function commentsOf(kv: Deno.Kv, userId: string): Promise<Comment[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list<Deno.KvKey>({ prefix: ["comment_user", userId] })) keys.push(entry.value);
  return (await getManyChunked<Comment>(kv, keys)).flatMap((entry) => entry.value ? [entry.value] : []);
}

/** One entry of a person's comment index as read: its key, and the comment it names as read (`value` null once gone). */
export interface AuthoredComment {
  indexKey: Deno.KvKey;
  entry: Deno.KvEntryMaybe<Comment>;
}

/**
 * Up to `limit` of the comments `userId` wrote that are still theirs, oldest first, after the index entry `after` (the
 * `indexKey` of a previous page's last; from the first without it): their index entries, then the comments at once.
 */
export async function commentPageOf(
  kv: Deno.Kv,
  userId: string,
  { after, limit }: { after: Deno.KvKey | null; limit: number },
): Promise<AuthoredComment[]> {
  const prefix: Deno.KvKey = ["comment_user", userId];
  // A key one part longer than the last entry sorts right after it.
  const selector = after ? { prefix, start: [...after, ""] } : { prefix };
  const indexes = await Array.fromAsync(kv.list<Deno.KvKey>(selector, { limit, batchSize: limit }));
  const entries = await getManyChunked<Comment>(kv, indexes.map((index) => index.value));
  return indexes.map((index, i) => ({ indexKey: index.key, entry: entries[i] }));
}

/**
 * How many comments `userId` wrote that are still theirs, from their index entries without reading the comments ("Your
 * data", docs/decisions.md, Data rights, "Read by person").
 */
export async function commentCountOf(kv: Deno.Kv, userId: string): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["comment_user", userId] }, { batchSize: 500 })) count++;
  return count;
}

/** Comments (or reactions) of a person that account deletion reads at once, between two renewals of its lease. */
const FORGET_BATCH = 50;

/** The deletion's lease renewal: called after each batch; it throws when another process took the deletion over. */
type Renew = () => Promise<void>;

/**
 * Adds to `op` the forgetting of `userId` as the author of the comment `entry` (as read, checked) that their index entry
 * `indexKey` names: the index entry goes, the comment stays with `userId` null, and for a reply its notifications are
 * redacted and its pending e-mail and push messages deleted (each read here and checked).
 */
async function forgetAuthorOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, indexKey, entry }: { userId: string; indexKey: Deno.KvKey; entry: Deno.KvEntryMaybe<Comment> },
): Promise<void> {
  op.check(entry).delete(indexKey);
  if (entry.value?.userId === userId) op.set(entry.key, { ...entry.value, userId: null });
  if (entry.value?.parentId) {
    const { content } = entry.value;
    await dropReplyMailOps(kv, op, entry.value);
    await redactNotificationOps(kv, op, {
      subject: replySubject(entry.value.id),
      // The post's title is kept for the reply's later deletion ("A reply to your comment on … was deleted").
      redacted: (before) => ({
        title: "A deleted user replied to your comment",
        body: content,
        message: {
          title: { key: "notifications.text.redacted.authorDeleted", values: postOf(before) },
          body: content,
        },
      }),
      subjectStays: true,
    });
  }
}

/**
 * Keeps the comments `userId` wrote without their author (`userId` null, shown as a deleted user), takes their name
 * out of the notifications of their replies (and deletes those replies' e-mails and push messages still pending, which
 * name them) and their id out of the recipients' reply groups (`forgetGroupSource`), and drops their rate window and
 * reply gates: account deletion. It works `FORGET_BATCH` comments
 * at a time: their reads at once, each comment's write checked against what it read, the writes packed into few
 * commits (`commitPacked`); a comment changed meanwhile is read again and written alone (`retrying`). After each batch
 * it calls `renew` (the deletion's lease), whose throw stops it; run again, it goes on with what is left.
 * @throws BusyError when one comment, or a reply group, kept changing for 30 s; what `renew` throws.
 */
export async function forgetCommentAuthor(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: Renew } = {},
): Promise<void> {
  for (;;) {
    const indexes = await Array.fromAsync(
      kv.list<Deno.KvKey>({ prefix: ["comment_user", userId] }, { limit: FORGET_BATCH, batchSize: FORGET_BATCH }),
    );
    if (indexes.length === 0) break;
    const entries = await getManyChunked<Comment>(kv, indexes.map((index) => index.value));
    // Before the commit that takes the replies out of the person's index, so a run stopped between finds them again.
    for (const { value: reply } of entries) {
      if (reply?.parentId) {
        await forgetGroupSource(kv, { subject: replySubject(reply.id), group: replyGroup(reply.postId), from: userId });
      }
    }
    const units = await Promise.all(indexes.map(async (index, i) => {
      const unit = new WriteUnit();
      await forgetAuthorOps(kv, unit.op, { userId, indexKey: index.key, entry: entries[i] });
      return unit;
    }));
    const written = await commitPacked(kv, units);
    for (const [i, index] of indexes.entries()) {
      if (written[i]) continue;
      await retrying(async () => {
        const op = kv.atomic();
        const entry = await kv.get<Comment>(index.value);
        await forgetAuthorOps(kv, op, { userId, indexKey: index.key, entry });
        return (await op.commit()).ok;
      }, RETRY_BUDGET_MS);
    }
    await renew?.();
  }
  // The rate window, and the reply gates of the person as a recipient (at most one a post, each gone within
  // the hour anyway).
  const gates = await Array.fromAsync(kv.list({ prefix: ["reply_told", userId] }));
  await commitPacked(kv, [rateKey(userId), ...gates.map((gate) => gate.key)].map((key) => new WriteUnit().delete(key)));
}

/** The reaction types `userId` gave each post: `{postId, types}` per post. */
export async function reactionsOf(kv: Deno.Kv, userId: string): Promise<{ postId: string; types: ReactionType[] }[]> {
  const result: { postId: string; types: ReactionType[] }[] = [];
  for await (const entry of kv.list<ReactionType[]>({ prefix: ["reactions", userId] })) {
    result.push({ postId: entry.key[2] as string, types: entry.value });
  }
  return result;
}

/** The reaction types of `userId` on `postId` as read, for `setReactions`. */
export async function readReactions(kv: Deno.Kv, userId: string, postId: string) {
  return await kv.get<ReactionType[]>(reactionsKey(userId, postId));
}

/**
 * Adds to `op` the write of `types` as the reactions of `userId` on `postId` over `before` (as read, checked), moving
 * each type's counter by the difference.
 */
function reactionsOps(
  op: Deno.AtomicOperation,
  { userId, postId, before, types }: {
    userId: string;
    postId: string;
    before: Deno.KvEntryMaybe<ReactionType[]>;
    types: ReactionType[];
  },
): void {
  const had = before.value ?? [];
  op.check(before);
  for (const type of REACTION_TYPES) {
    if (had.includes(type) && !types.includes(type)) op.sum(countKey(postId, type), MINUS_ONE);
    if (!had.includes(type) && types.includes(type)) op.sum(countKey(postId, type), ONE);
  }
  if (types.length > 0) op.set(reactionsKey(userId, postId), types).set(reactorKey(postId, userId), null);
  else op.delete(reactionsKey(userId, postId)).delete(reactorKey(postId, userId));
}

/**
 * Writes `types` as the reactions of `userId` on `postId` over `before` (as read), moving each type's counter by the
 * difference; `post` (as read, when given) must be unchanged. False on a lost race.
 */
export async function setReactions(
  kv: Deno.Kv,
  { post, userId, postId, before, types }: {
    post: Deno.KvEntryMaybe<unknown> | null;
    userId: string;
    postId: string;
    before: Deno.KvEntryMaybe<ReactionType[]>;
    types: ReactionType[];
  },
): Promise<boolean> {
  const op = kv.atomic();
  if (post) op.check(post);
  reactionsOps(op, { userId, postId, before, types });
  return (await op.commit()).ok;
}

/**
 * Deletes every reaction of `userId` (account deletion), each post's counters moved down in the same write:
 * `FORGET_BATCH` posts a batch, the writes packed into few commits (`commitPacked`), one changed meanwhile read again
 * and written alone (`retrying`); after each batch it calls `renew` (the deletion's lease), whose throw stops it.
 * @throws BusyError when one post's reactions kept changing for 30 s; what `renew` throws.
 */
export async function deleteReactionsOf(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: Renew } = {},
): Promise<void> {
  for (;;) {
    const entries = await Array.fromAsync(
      kv.list<ReactionType[]>({ prefix: ["reactions", userId] }, { limit: FORGET_BATCH, batchSize: FORGET_BATCH }),
    );
    if (entries.length === 0) return;
    const units = entries.map((before) => {
      const unit = new WriteUnit();
      reactionsOps(unit.op, { userId, postId: before.key[2] as string, before, types: [] });
      return unit;
    });
    const written = await commitPacked(kv, units);
    for (const [i, { key }] of entries.entries()) {
      if (written[i]) continue;
      const postId = key[2] as string;
      await retrying(async () => {
        const before = await readReactions(kv, userId, postId);
        return !before.value || await setReactions(kv, { post: null, userId, postId, before, types: [] });
      }, RETRY_BUDGET_MS);
    }
    await renew?.();
  }
}
