/**
 * A person's push subscriptions (docs/decisions.md, Push, "Subscriptions"; docs/api.md, Push): the phones and browsers
 * that agreed to show their notifications, at most `MAX_SUBSCRIPTIONS` per person. An endpoint belongs to one person:
 * subscribing it again under another account moves it there (the phone changed hands).
 *
 * Keys (owned by this module only):
 * - `["push_subscriptions", userId]` → `PushSubscriptionRecord[]`, the person's subscriptions in one value, so the
 *   limit holds under concurrent requests (one checked write) and a delivery reads them in one get;
 * - `["push_endpoints", sha256(endpoint)]` → `userId`, whose the endpoint is.
 *
 * A subscription carries the session epoch and id of the session that made or last renewed it, and dies with that
 * session (docs/decisions.md, Push, "A subscription dies with its session"): the write that ends one session (a sign-out,
 * a sign-in over its cookie) removes its subscriptions (`dropSessionSubscriptionsOps`); once the person's session epoch
 * moves past it (a password reset, "sign out everywhere else", a takeover; docs/decisions.md, Sessions, "Ending
 * sessions"), or its session expired, it is void, and the sender drops it (`dropEndedSubscriptions`); "sign out
 * everywhere else" moves the caller's own session's subscriptions on with it (`keepSessionSubscriptionsOps`), and a
 * sign-in over the person's own cookie hands them to the new session (`handOverSessionSubscriptionsOps`).
 */
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { endpointAllowed } from "./hosts.ts";
import { fromBase64Url, importP256 } from "./web_push.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** How many subscriptions one person may have. */
export const MAX_SUBSCRIPTIONS = 10;

/** The answer of push routes when the deployment has no VAPID keys. */
export const PUSH_OFF = REFUSALS.pushOff;

/** The answers of refused subscriptions. */
export const TOO_MANY_SUBSCRIPTIONS = REFUSALS.pushTooMany;
export const HOST_REFUSED = REFUSALS.pushHostRefused;
export const BAD_KEYS = REFUSALS.pushBadKeys;

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, "Expected base64url");

/** The body of `POST /api/me/push-subscriptions`: `PushSubscription.toJSON()` of the browser. */
export const PushSubscriptionInputSchema = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64Url.max(100), auth: base64Url.max(50) }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInputSchema>;

/** The body of `DELETE /api/me/push-subscriptions`. */
export const PushSubscriptionDeleteSchema = z.strictObject({ endpoint: z.string().max(2048) });

/** A subscription as stored. Times are ISO strings. */
export interface PushSubscriptionRecord {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  createdAt: string;
  /** The session epoch of the session that made or last renewed it; absent (stored before it was kept): 0. */
  epoch?: number;
  /** The id (`Session.id`) of that session; absent on subscriptions stored before it was kept. */
  sessionId?: string;
}

/** The session a subscription is made in: its id and epoch (`Session` of `lib/auth/sessions.ts`). */
export interface SubscribingSession {
  id: string;
  epoch?: number;
}

/** Whether `sub` was made in a session epoch before `sessionEpoch` (the person's, `User.sessionEpoch`), so it is void. */
export function subscriptionEnded(sub: Pick<PushSubscriptionRecord, "epoch">, sessionEpoch = 0): boolean {
  return (sub.epoch ?? 0) < sessionEpoch;
}

/** A subscription as the API answers it: never its keys. */
export interface PushSubscriptionView {
  endpoint: string;
  createdAt: string;
}

const listKey = (userId: string): Deno.KvKey => ["push_subscriptions", userId];

async function endpointKey(endpoint: string): Promise<Deno.KvKey> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint)));
  return ["push_endpoints", Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")];
}

/** `record` without its keys. */
export function subscriptionView({ endpoint, createdAt }: PushSubscriptionRecord): PushSubscriptionView {
  return { endpoint, createdAt };
}

/** Whether `keys` are a P-256 point and a 16-byte secret, as a browser makes them. */
async function keysValid(keys: PushSubscriptionInput["keys"]): Promise<boolean> {
  try {
    await importP256(fromBase64Url(keys.p256dh), "ECDH");
    return fromBase64Url(keys.auth).length === 16;
  } catch {
    return false;
  }
}

/** `userId`'s subscriptions, oldest first. */
export async function subscriptionsOf(kv: Deno.Kv, userId: string): Promise<PushSubscriptionRecord[]> {
  return (await kv.get<PushSubscriptionRecord[]>(listKey(userId))).value ?? [];
}

/** The subscriptions of each of `userIds` (`getManyChunked`: ten people a `getMany`). */
export async function subscriptionsOfMany(
  kv: Deno.Kv,
  userIds: string[],
): Promise<Map<string, PushSubscriptionRecord[]>> {
  const ids = [...new Set(userIds)];
  const entries = await getManyChunked<PushSubscriptionRecord[]>(kv, ids.map(listKey));
  return new Map(ids.map((id, i) => [id, entries[i].value ?? []]));
}

/**
 * Adds (or renews the keys of) the subscription `input` for `userId`, made in `session`, at `now`, when its endpoint is
 * allowed by `hosts` (`PUSH_HOSTS`); an endpoint another person had is moved from them. The record is stamped with the
 * session's epoch and id (a renewal stamps it anew). The person's subscriptions of ended sessions (an epoch before this
 * live session's) are dropped in the same write, before `MAX_SUBSCRIPTIONS` is counted. One write checked against both
 * people's lists and the endpoints' owners.
 * @throws InvalidInputError `HOST_REFUSED`, `BAD_KEYS`, or `TOO_MANY_SUBSCRIPTIONS` past `MAX_SUBSCRIPTIONS`; BusyError when races
 *   lost to other writers of these keys went on for `RETRY_BUDGET_MS` (a lost race reads again and tries again).
 */
export async function addSubscription(
  kv: Deno.Kv,
  { userId, session, input, hosts, now = new Date() }: {
    userId: string;
    session: SubscribingSession;
    input: PushSubscriptionInput;
    hosts: readonly string[];
    now?: Date;
  },
): Promise<PushSubscriptionRecord> {
  if (!endpointAllowed(input.endpoint, hosts)) {
    throw new InvalidInputError(HOST_REFUSED);
  }
  if (!(await keysValid(input.keys))) throw new InvalidInputError(BAD_KEYS);
  const ownerKey = await endpointKey(input.endpoint);
  let saved: PushSubscriptionRecord | undefined;
  await retrying(
    async () => {
      const [mine, owner] = await kv.getMany<[PushSubscriptionRecord[], string]>([listKey(userId), ownerKey]);
      // A live session's epoch is the person's: the subscriptions of ended sessions go before the limit is counted.
      const ended = (mine.value ?? []).filter((sub) =>
        sub.endpoint !== input.endpoint && subscriptionEnded(sub, session.epoch ?? 0)
      );
      const list = (mine.value ?? []).filter((sub) => !ended.includes(sub));
      const existing = list.find((sub) => sub.endpoint === input.endpoint);
      const record: PushSubscriptionRecord = {
        endpoint: input.endpoint,
        keys: input.keys,
        createdAt: existing?.createdAt ?? now.toISOString(),
        epoch: session.epoch ?? 0,
        sessionId: session.id,
      };
      if (!existing && list.length >= MAX_SUBSCRIPTIONS) throw new InvalidInputError(TOO_MANY_SUBSCRIPTIONS);
      const next = existing ? list.map((sub) => sub === existing ? record : sub) : [...list, record];
      const op = kv.atomic().check(mine, owner).set(listKey(userId), next).set(ownerKey, userId);
      for (const sub of ended) {
        const endedOwner = await kv.get<string>(await endpointKey(sub.endpoint));
        if (endedOwner.value === userId) op.check(endedOwner).delete(endedOwner.key);
      }
      if (owner.value && owner.value !== userId) {
        const theirs = await kv.get<PushSubscriptionRecord[]>(listKey(owner.value));
        const left = (theirs.value ?? []).filter((sub) => sub.endpoint !== input.endpoint);
        op.check(theirs);
        if (left.length > 0) op.set(theirs.key, left);
        else op.delete(theirs.key);
      }
      if (!(await op.commit()).ok) return false;
      saved = record;
      return true;
    },
    RETRY_BUDGET_MS,
  );
  return saved!;
}

/**
 * Removes `userId`'s subscriptions of `endpoints` (the person unsubscribed, or the push service said they are gone);
 * an endpoint they do not have is skipped. Returns how many were removed.
 * @throws BusyError when races lost to other writers of these keys went on for `RETRY_BUDGET_MS` (a lost race reads
 *   again and tries again).
 */
export async function removeSubscriptions(kv: Deno.Kv, userId: string, endpoints: string[]): Promise<number> {
  const gone = new Set(endpoints);
  return await removeWhere(kv, userId, (sub) => gone.has(sub.endpoint));
}

/**
 * Removes `userId`'s subscriptions made in a session epoch before `sessionEpoch` (theirs as the sender read it), or in
 * one of the sessions `endedSessionIds` (sessions the sender found gone or expired; an ended session never lives
 * again): the sessions that made them were ended (docs/decisions.md, Push, "A subscription dies with its session").
 * Checked against the list as read here, so a subscription renewed meanwhile from a live session stays. Returns how
 * many were removed.
 * @throws BusyError as `removeSubscriptions`.
 */
export async function dropEndedSubscriptions(
  kv: Deno.Kv,
  userId: string,
  { sessionEpoch, endedSessionIds = new Set() }: { sessionEpoch: number; endedSessionIds?: ReadonlySet<string> },
): Promise<number> {
  return await removeWhere(
    kv,
    userId,
    (sub) =>
      subscriptionEnded(sub, sessionEpoch) || (sub.sessionId !== undefined && endedSessionIds.has(sub.sessionId)),
  );
}

/**
 * Removes `userId`'s subscriptions for which `gone` holds, in one write checked against their list and their
 * endpoints' owners as read (read at once; a lost race reads again and tries again). Returns how many were removed.
 */
async function removeWhere(
  kv: Deno.Kv,
  userId: string,
  gone: (sub: PushSubscriptionRecord) => boolean,
): Promise<number> {
  let removed = 0;
  await retrying(
    async () => {
      const entry = await kv.get<PushSubscriptionRecord[]>(listKey(userId));
      const list = entry.value ?? [];
      const left = list.filter((sub) => !gone(sub));
      removed = list.length - left.length;
      if (removed === 0) return true;
      const op = kv.atomic().check(entry);
      if (left.length > 0) op.set(entry.key, left);
      else op.delete(entry.key);
      const keys = await Promise.all(list.filter(gone).map((sub) => endpointKey(sub.endpoint)));
      for (const owner of await getManyChunked<string>(kv, keys)) {
        if (owner.value === userId) op.check(owner).delete(owner.key);
      }
      return (await op.commit()).ok;
    },
    RETRY_BUDGET_MS,
  );
  return removed;
}

/**
 * Adds to `op` the move of `userId`'s subscriptions made in session `sessionId` to session epoch `epoch`, checked
 * against their list as read here ("sign out everywhere else" keeps the caller's session, and so its phone's
 * subscription; docs/decisions.md, Sessions, "Sign out everywhere else"). Nothing but the check when there are none.
 */
export async function keepSessionSubscriptionsOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, sessionId, epoch }: { userId: string; sessionId: string; epoch: number },
): Promise<void> {
  const entry = await kv.get<PushSubscriptionRecord[]>(listKey(userId));
  op.check(entry);
  const list = entry.value ?? [];
  if (!list.some((sub) => sub.sessionId === sessionId)) return;
  op.set(entry.key, list.map((sub) => sub.sessionId === sessionId ? { ...sub, epoch } : sub));
}

/**
 * Adds to `op` the removal of `userId`'s subscriptions made in session `sessionId` with their endpoints' owner keys,
 * checked against the list and those keys as read here: the write that ends the session (a sign-out, a sign-in over
 * its cookie) ends its phone's notifications with it (docs/decisions.md, Push, "A subscription dies with its
 * session"). Nothing but the list's check when there are none.
 */
export async function dropSessionSubscriptionsOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, sessionId }: { userId: string; sessionId: string },
): Promise<void> {
  const entry = await kv.get<PushSubscriptionRecord[]>(listKey(userId));
  op.check(entry);
  const list = entry.value ?? [];
  const gone = list.filter((sub) => sub.sessionId === sessionId);
  if (gone.length === 0) return;
  const left = list.filter((sub) => !gone.includes(sub));
  if (left.length > 0) op.set(entry.key, left);
  else op.delete(entry.key);
  const keys = await Promise.all(gone.map((sub) => endpointKey(sub.endpoint)));
  for (const owner of await getManyChunked<string>(kv, keys)) {
    if (owner.value === userId) op.check(owner).delete(owner.key);
  }
}

/**
 * Adds to `op` the move of `userId`'s subscriptions made in session `from` to session `to` (its id and epoch), checked
 * against their list as read here: a sign-in over the person's own cookie ends that session and makes another, and the
 * phone keeps its notifications. Nothing but the check when there are none.
 */
export async function handOverSessionSubscriptionsOps(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { userId, from, to }: { userId: string; from: string; to: SubscribingSession },
): Promise<void> {
  const entry = await kv.get<PushSubscriptionRecord[]>(listKey(userId));
  op.check(entry);
  const list = entry.value ?? [];
  if (!list.some((sub) => sub.sessionId === from)) return;
  op.set(
    entry.key,
    list.map((sub) => sub.sessionId === from ? { ...sub, sessionId: to.id, epoch: to.epoch ?? 0 } : sub),
  );
}

/** Deletes every subscription of `userId` (account deletion); idempotent. */
export async function deleteSubscriptionsOf(kv: Deno.Kv, userId: string): Promise<void> {
  const list = await subscriptionsOf(kv, userId);
  await removeSubscriptions(kv, userId, list.map((sub) => sub.endpoint));
}
