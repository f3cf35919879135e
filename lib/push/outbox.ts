/**
 * The push outbox (docs/decisions.md, Notifications, "Channels"; docs/decisions.md, Push, "Outbox"): every
 * notification is also a message in this outbox, written in the notification's own atomic write (`queuePushOps`), so
 * it exists exactly when the notification does. Delivering one reads the person's settings: with the push channel on
 * (and push configured) the message is posted, encrypted, to each of their subscriptions; with the e-mail channel on
 * for a type without an e-mail of its own, the notification is e-mailed through the e-mail outbox. A try claims the
 * message with a lease (`lib/jobs/lease.ts`) and records its outcome in a write checked against the claim (a drain
 * claims a page of messages in one write, and records ten outcomes a write). A subscription made in a session epoch
 * before the person's, or in a session that is gone or expired (its session was ended; docs/decisions.md, Push, "A
 * subscription dies with its session"), is never posted to and is deleted; one whose push service answers 404 or 410
 * is deleted; one that fails (a network
 * error, 429, a 5xx) is tried again after each wait of `OUTBOX_RETRY_MS`, the others not; after the last wait the
 * message is kept as `failed` for 7 days. Other refusals (400, 403, 413) are not retried. A request that wrote
 * something starts a drain it does not wait for (`startPushDelivery`), and the `push-outbox` job (every minute)
 * delivers whatever is due.
 *
 * Keys (owned by this module only):
 * - `["push_outbox", id]` → `PushMessage` (the notification's id);
 * - `["push_outbox_due", dueAtMs, id]` → true, while the message is pending;
 * - `["push_outbox_by_user", userId, id]` → true, the messages of a person (account deletion).
 */
import pLimit from "p-limit";
import { commitPacked, WriteUnit } from "@/lib/kv/packed_writes.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { claim, type Claimable, claimEach, claimTime, settleEach } from "@/lib/jobs/lease.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { type MailToQueue, queueMailOps } from "@/lib/mail/outbox.ts";
import type { StoredNotification } from "@/lib/notifications/notifications.ts";
import { notificationWords } from "@/lib/notifications/words.ts";
import { channelRule } from "@/lib/notifications/types.ts";
import type { Services } from "@/lib/platform/state.ts";
import { getSettingsOfMany, type Settings } from "@/lib/settings/settings.ts";
import type { User } from "@/lib/users/users.ts";
import { endpointAllowed } from "./hosts.ts";
import { notificationMail } from "./notification_mail.tsx";
import { translatorOfPerson } from "@/lib/i18n/catalogue.ts";
import {
  dropEndedSubscriptions,
  type PushSubscriptionRecord,
  removeSubscriptions,
  subscriptionEnded,
  subscriptionsOfMany,
} from "./subscriptions.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { unexpiredSessionIdsOf } from "@/lib/auth/sessions.ts";

/** A message of the outbox: the notification to deliver, and how its delivery stands. Times are ISO strings. */
export interface PushMessage extends Claimable {
  id: string;
  userId: string;
  notification: Pick<StoredNotification, "type" | "title" | "body" | "url" | "message">;
  status: "pending" | "failed";
  attempts: number;
  dueAt: string | null;
  lastError: string | null;
  /** The endpoints still to post to after a failed try; null before the first (every subscription then). */
  remaining: string[] | null;
}

/** How long a try holds its message (ms): beyond the 15 s a post may take, for every subscription at once. */
export const PUSH_LEASE_MS = 2 * 60 * 1000;
/** How many messages one process claims in one write. */
export const PUSH_BATCH = 50;
/**
 * How many claimed messages one process delivers at a time; each starts only after the requests waiting meanwhile
 * were let in (docs/decisions.md, Push, "Fan-out").
 */
export const PUSH_AT_ONCE = 16;
/**
 * How many tries' outcomes one write records (`settleEach`): with a first try's e-mail each, well within KV's 800 KiB
 * and 1,000 mutations a write.
 */
export const PUSH_SETTLE_AT_ONCE = 10;
/** How long a message that failed for good is kept (ms): 7 days. */
export const FAILED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest body pushed, in characters (a phone shows two or three lines). */
const PUSH_BODY_MAX = 500;

const messageKey = (id: string): Deno.KvKey => ["push_outbox", id];
const dueKey = (dueAtMs: number, id: string): Deno.KvKey => ["push_outbox_due", dueAtMs, id];
const userKey = (userId: string, id: string): Deno.KvKey => ["push_outbox_by_user", userId, id];

/**
 * Adds to `op` the delivery of `notification` to `userId`, due at `now` (ms): three mutations. `addNotification`
 * calls it; nothing else needs to.
 */
export function queuePushOps(
  op: Deno.AtomicOperation,
  { userId, notification }: { userId: string; notification: StoredNotification },
  now: number,
): void {
  const { id, type, title, body, url, message: words } = notification;
  const message: PushMessage = {
    id,
    userId,
    notification: { type, title, body, url, ...words ? { message: words } : {} },
    status: "pending",
    attempts: 0,
    dueAt: new Date(now).toISOString(),
    lastError: null,
    remaining: null,
    lease: null,
  };
  op.set(messageKey(id), message).set(dueKey(now, id), true).set(userKey(userId, id), true);
}

/** What one try came to: `skipped` when the message was not due or someone else holds it. */
export type PushOutcome = "delivered" | "retry" | "failed" | "skipped";

type PostResult = "ok" | "gone" | "retry" | "refused";

/** What a push service's `status` means for a subscription. */
function resultOf(status: number): PostResult {
  if (status >= 200 && status < 300) return "ok";
  if (status === 404 || status === 410) return "gone";
  if (status === 429 || status >= 500) return "retry";
  return "refused";
}

/**
 * One try of the message `entry` as read, at `now` (ms): claims it when it is pending, due and not held, sends it as
 * the person's settings allow (see the module docstring), and records the outcome checked against the claim.
 */
export async function deliverPush(
  services: Services,
  entry: Deno.KvEntryMaybe<PushMessage>,
  now: number,
): Promise<PushOutcome> {
  if (!isDue(entry.value, now)) return "skipped";
  const claimed = await claim(services.kv, entry as Deno.KvEntry<PushMessage>, {
    now: claimTime(now),
    leaseMs: PUSH_LEASE_MS,
  });
  return claimed ? (await deliverClaimed(services, [claimed], now))[0] : "skipped";
}

/** Whether `message` is pending and due at `now` (ms). */
function isDue(message: PushMessage | null, now: number): message is PushMessage {
  return message !== null && message.status === "pending" && message.dueAt !== null && Date.parse(message.dueAt) <= now;
}

/**
 * What a delivery reads of a person: their settings, their record (null when gone), their subscriptions, and the ids
 * of their unexpired sessions (read after the subscriptions, so the session of every subscription read was there).
 */
interface Recipient {
  settings: Settings;
  user: User | null;
  subscriptions: PushSubscriptionRecord[];
  sessionIds: Set<string>;
}

/**
 * The recipients `userIds`, read together (a few KV round trips for a page of messages, not three a message); the
 * sessions only of those with a subscription that names its session.
 */
async function readRecipients(kv: Deno.Kv, userIds: string[]): Promise<Map<string, Recipient>> {
  const [people, subscriptions] = await Promise.all([getSettingsOfMany(kv, userIds), subscriptionsOfMany(kv, userIds)]);
  const named = [...subscriptions].filter(([, subs]) => subs.some((sub) => sub.sessionId !== undefined));
  const sessionIds = await unexpiredSessionIdsOf(kv, named.map(([id]) => id));
  return new Map(
    [...people].map(([id, { settings, user }]) => [id, {
      settings,
      user,
      subscriptions: subscriptions.get(id) ?? [],
      sessionIds: sessionIds.get(id) ?? new Set(),
    }]),
  );
}

/** A try's outcome, the mutations that record it (`settle`), and what follows once they are written. */
interface Tried {
  outcome: Exclude<PushOutcome, "skipped">;
  write: (op: Deno.AtomicOperation) => void;
  after: () => Promise<void>;
}

/**
 * The tries of messages this process claimed (`claimed`, as claimed), at `now` (ms); see `deliverPush`. The recipients
 * are read together, `PUSH_AT_ONCE` messages are sent at a time, each after the requests waiting meanwhile were let in,
 * and the outcomes are recorded `PUSH_SETTLE_AT_ONCE` a write (`settleEach`). Returns each message's outcome, in order.
 */
async function deliverClaimed(
  services: Services,
  claimed: Deno.KvEntry<PushMessage>[],
  now: number,
): Promise<PushOutcome[]> {
  const recipients = await readRecipients(services.kv, claimed.map((entry) => entry.value.userId));
  const turn = pLimit(PUSH_AT_ONCE);
  const tries = await Promise.all(claimed.map((entry) =>
    turn(async () => {
      await letRequestsIn();
      return await tryMessage(services, entry.value, recipients.get(entry.value.userId)!, now);
    })
  ));
  const recorded: boolean[] = [];
  for (let i = 0; i < claimed.length; i += PUSH_SETTLE_AT_ONCE) {
    const settlements = claimed.slice(i, i + PUSH_SETTLE_AT_ONCE).map((entry, j) => ({
      claimed: entry,
      write: tries[i + j].write,
    }));
    recorded.push(...await settleEach(services.kv, settlements));
  }
  return await Promise.all(claimed.map(async (entry, i): Promise<PushOutcome> => {
    if (!recorded[i]) {
      services.log.warn("push outcome not recorded: the claim was taken over", {
        id: entry.value.id,
        outcome: tries[i].outcome,
      });
      return "skipped";
    }
    await tries[i].after();
    return tries[i].outcome;
  }));
}

/** Sends `message` to `recipient` as their settings allow, at `now` (ms); see `deliverClaimed`. */
async function tryMessage(services: Services, message: PushMessage, recipient: Recipient, now: number): Promise<Tried> {
  const { kv, config, log, push } = services;
  const { settings, user, subscriptions, sessionIds } = recipient;
  const { type, url } = message.notification;
  const { title, body } = notificationWords(message.notification, translatorOfPerson(user ?? {}));
  const channel = settings.channels[type as keyof typeof settings.channels] ?? { email: false, push: true };
  const sessionEpoch = user?.sessionEpoch ?? 0;
  const endedSessionIds = new Set(
    subscriptions.flatMap((sub) =>
      sub.sessionId !== undefined && !sessionIds.has(sub.sessionId) ? [sub.sessionId] : []
    ),
  );
  const live = (sub: PushSubscriptionRecord) =>
    !subscriptionEnded(sub, sessionEpoch) && !(sub.sessionId !== undefined && endedSessionIds.has(sub.sessionId));
  const ended = !subscriptions.every(live);
  const targets = !push || !channel.push ? [] : subscriptions.filter((sub) =>
    live(sub) &&
    (message.remaining === null || message.remaining.includes(sub.endpoint)) &&
    endpointAllowed(sub.endpoint, config.push.hosts)
  );
  const payload = {
    title,
    body: body.length > PUSH_BODY_MAX ? `${body.slice(0, PUSH_BODY_MAX - 1)}…` : body,
    url,
    tag: message.id,
  };
  const errors: string[] = [];
  const results = await Promise.all(targets.map(async (sub): Promise<PostResult> => {
    try {
      const res = await push!.send(sub, payload);
      const result = resultOf(res.status);
      if (result === "retry" || result === "refused") errors.push(`${res.status} ${res.body}`.trim());
      return result;
    } catch (error) {
      errors.push(String(error instanceof Error ? error.message : error));
      return "retry";
    }
  }));
  const gone = targets.filter((_, i) => results[i] === "gone").map((sub) => sub.endpoint);
  const again = targets.filter((_, i) => results[i] === "retry").map((sub) => sub.endpoint);
  const at = Math.max(now, Date.now());
  const attempts = message.attempts + 1;
  const wait = config.outboxRetryMs[attempts - 1];
  const outcome = again.length === 0 ? "delivered" : wait === undefined ? "failed" : "retry";
  const mail = message.attempts === 0 && channelRule(type).email === "generic" && channel.email && user
    ? genericMail(services, message, user)
    : null;
  let mailId: string | null = null;
  const write = (op: Deno.AtomicOperation) => {
    op.delete(dueKey(Date.parse(message.dueAt!), message.id));
    if (mail) mailId = queueMailOps(op, mail);
    if (outcome === "delivered") {
      op.delete(messageKey(message.id)).delete(userKey(message.userId, message.id));
      return;
    }
    const next: PushMessage = {
      ...message,
      attempts,
      lease: null,
      lastError: errors.join("; ").slice(0, 500),
      remaining: again,
      status: outcome === "retry" ? "pending" : "failed",
      dueAt: outcome === "retry" ? new Date(at + wait!).toISOString() : null,
    };
    if (outcome === "retry") {
      op.set(messageKey(message.id), next).set(dueKey(at + wait!, message.id), true);
      return;
    }
    op.set(messageKey(message.id), next, { expireIn: FAILED_KEPT_MS })
      .set(userKey(message.userId, message.id), true, { expireIn: FAILED_KEPT_MS });
  };
  const after = async () => {
    if (mailId) deliverSoon(services, mailId);
    if (gone.length > 0) await removeSubscriptions(kv, message.userId, gone);
    if (ended) await dropEndedSubscriptions(kv, message.userId, { sessionEpoch, endedSessionIds });
    if (outcome !== "delivered") log.warn("push not delivered", { id: message.id, attempts, outcome, errors });
  };
  return { outcome, write, after };
}

/** The e-mail of `message` for its person `user`, or null when they have no verified address. */
function genericMail(services: Services, message: PushMessage, user: User): MailToQueue | null {
  if (!user.emailVerified) return null;
  const { appUrl } = services.config;
  const t = translatorOfPerson(user);
  const mail = notificationMail({
    to: user.email,
    name: user.name,
    ...notificationWords(message.notification, t),
    url: `${appUrl}${message.notification.url}`,
    settingsUrl: `${appUrl}/me/settings`,
    t,
  });
  return { ...mail, userId: user.id };
}

/**
 * Delivers every message due at `now` (ms), walking the due-time index in pages of `PUSH_BATCH`: each page's messages
 * are claimed in one write (`claimEach`, for `PUSH_LEASE_MS` from the moment of the claim, `claimTime`, so the
 * `push-outbox` job and a drain of the same messages never both send one) and tried at once. Returns how many were
 * delivered, put back for a retry, failed for good, and skipped (not due, or held by another process).
 */
export async function deliverDuePush(
  services: Services,
  now: number,
): Promise<{ delivered: number; retried: number; failed: number; skipped: number }> {
  const { kv } = services;
  const counts = { delivered: 0, retried: 0, failed: 0, skipped: 0 };
  const tally = (outcome: PushOutcome) => {
    if (outcome === "delivered") counts.delivered++;
    else if (outcome === "retry") counts.retried++;
    else if (outcome === "failed") counts.failed++;
    else counts.skipped++;
  };
  let page: string[] = [];
  const work = async () => {
    const entries = await getManyChunked<PushMessage>(kv, page.map(messageKey));
    page = [];
    const due = entries.filter((entry): entry is Deno.KvEntry<PushMessage> => isDue(entry.value, now));
    counts.skipped += entries.length - due.length;
    const claimed = await claimEach(kv, due, { now: claimTime(now), leaseMs: PUSH_LEASE_MS });
    const held = claimed.filter((entry) => entry !== null);
    counts.skipped += claimed.length - held.length;
    for (const outcome of await deliverClaimed(services, held, now)) tally(outcome);
  };
  const index = kv.list<true>({ prefix: ["push_outbox_due"], end: ["push_outbox_due", now + 1] }, {
    batchSize: PUSH_BATCH,
  });
  for await (const { key } of index) {
    page.push(key[2] as string);
    if (page.length === PUSH_BATCH) await work();
  }
  if (page.length > 0) await work();
  return counts;
}

/** Resolves after a macrotask, so that requests that arrived meanwhile are handled before the next delivery. */
function letRequestsIn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Per process (its services): whether a drain runs, and whether another was asked for meanwhile. */
const draining = new WeakMap<Services, { again: boolean }>();

/**
 * Starts delivering what is due, without the caller waiting (`BackgroundWork`); while a drain of this process runs,
 * asking again makes it go round once more instead of starting a second.
 */
export function startPushDelivery(services: Services): void {
  const running = draining.get(services);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  draining.set(services, state);
  services.background.start(services.log, "push delivery failed", async () => {
    try {
      do {
        state.again = false;
        await deliverDuePush(services, Date.now());
      } while (state.again);
    } finally {
      draining.delete(services);
    }
  });
}

/** The `push-outbox` job: every minute, delivers the messages that are due. */
export const pushOutboxJob: Job = {
  name: "push-outbox",
  schedule: "* * * * *",
  run: (ctx) => deliverDuePush(ctx, ctx.now.getTime()),
};

/**
 * Adds to `op` the deletion of message `id` (the notification's id) with its index entries, checked as read here, so
 * words that were taken back are never pushed (docs/decisions.md, Notifications, "Redaction"); nothing when there is
 * none. A try already posting it is not stopped: its outcome's write then fails.
 */
export async function dropPushMessageOps(kv: Deno.Kv, op: Deno.AtomicOperation, id: string): Promise<void> {
  dropReadPushMessageOps(op, await kv.get<PushMessage>(messageKey(id)));
}

/** The push messages of notifications `ids`, as read (value null for none), for `dropReadPushMessageOps`. */
export async function readPushMessages(kv: Deno.Kv, ids: readonly string[]): Promise<Deno.KvEntryMaybe<PushMessage>[]> {
  return await getManyChunked<PushMessage>(kv, ids.map(messageKey));
}

/**
 * Adds to `op` the deletion of the message `entry` (`readPushMessages`) with its index entries, checked as read, as
 * `dropPushMessageOps` does: for a write that read it before (a notification dropped from its group,
 * `lib/notifications/notifications.ts`).
 */
export function dropReadPushMessageOps(op: Deno.AtomicOperation, entry: Deno.KvEntryMaybe<PushMessage>): void {
  op.check(entry);
  if (!entry.value) return;
  const { id, userId, dueAt } = entry.value;
  op.delete(entry.key).delete(userKey(userId, id));
  if (dueAt) op.delete(dueKey(Date.parse(dueAt), id));
}

/** The message `id` as stored (tests and the admin's look). */
export async function readPushMessage(kv: Deno.Kv, id: string): Promise<PushMessage | null> {
  return (await kv.get<PushMessage>(messageKey(id))).value;
}

/** Messages taken per round of `deletePushMessagesOf`. */
const DELETE_BATCH = 100;

/**
 * Deletes every push message of a person, in any status, with its index entries (account deletion): `DELETE_BATCH`
 * messages a round, their records read at once (`getManyChunked`), each deletion checked against its record as read and
 * the deletions packed into few commits (`commitPacked`); a message changed meanwhile (a sending try) is read again
 * in the next round. After each round it calls `renew` (the deletion's lease), whose throw stops it.
 * @throws what `renew` throws.
 */
export async function deletePushMessagesOf(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  for (;;) {
    const ids: string[] = [];
    const selector = { prefix: ["push_outbox_by_user", userId] };
    for await (const { key } of kv.list(selector, { limit: DELETE_BATCH, batchSize: DELETE_BATCH })) {
      ids.push(key[2] as string);
    }
    if (ids.length === 0) return;
    const units = (await getManyChunked<PushMessage>(kv, ids.map(messageKey))).map((entry, i) => {
      const unit = new WriteUnit().check(entry).delete(userKey(userId, ids[i])).delete(messageKey(ids[i]));
      if (entry.value?.dueAt) unit.delete(dueKey(Date.parse(entry.value.dueAt), ids[i]));
      return unit;
    });
    await commitPacked(kv, units);
    await renew?.();
  }
}
