/**
 * Sessions in Deno KV (docs/decisions.md, Sessions): a 32-byte random token lives only in the cookie;
 * KV keeps its SHA-256. Sessions last 7 days and slide: a read renews one with less than 6 days left.
 *
 * The cookie value is `<userId>.<token>`: the user id in front lets every request read the
 * session and its user in one `kv.getMany` round trip. It grants nothing by itself: the stored
 * session (keyed by the SHA-256 of the whole value) must exist and name the same user.
 *
 * Keys: `["sessions", tokenHash]` → `Session`, `["sessions_by_user", userId, tokenHash]` → id,
 * both with `expireIn`.
 *
 * Ending every session of a user is one change of the user record (docs/decisions.md, Sessions, "Ending sessions"): a
 * session carries the user's session epoch (`User.sessionEpoch`) of when it was made, and one of an earlier epoch is
 * void; the read that finds it deletes it, and `expireIn` removes the ones nobody reads. A suspended user
 * (`User.suspension`, docs/decisions.md, Admin, "Suspension") gets no session, and every session of theirs is void
 * too, whatever its epoch.
 */
import { deleteListed } from "@/lib/kv/packed_writes.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { endSessionsPatch, updateUserOps, type User, userKey } from "@/lib/users/users.ts";
import { AuthError, ConflictError, NotFoundError } from "@/lib/errors.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/languages.ts";
import {
  dropSessionSubscriptionsOps,
  handOverSessionSubscriptionsOps,
  keepSessionSubscriptionsOps,
} from "@/lib/push/subscriptions.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";

/** Session lifetime in ms. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A session is renewed on read when less than this many ms remain. */
export const SESSION_RENEW_BELOW_MS = 6 * 24 * 60 * 60 * 1000;
/** How recent a sign-in is "fresh" (what asks for one: deleting an account without a password), in ms: 10 minutes. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/** A stored session (the token itself is never stored). */
export interface Session {
  id: string;
  userId: string;
  expiresAt: string;
  createdAt: string;
  /**
   * Whether the cookie outlives the browser session ("Remember me"); false keeps every renewal a browser-session
   * cookie. Absent on sessions made before it was kept: those are persistent.
   */
  persistent?: boolean;
  /** The user's session epoch when the session was made; absent: 0. Void once the user's epoch is past it. */
  epoch?: number;
  /**
   * When the person last logged in at the social provider that made the session, when the provider said so and it was
   * before the session (`ProviderIdentity.authenticatedAt`); absent: the sign-in itself was the login.
   */
  authenticatedAt?: string;
  /**
   * Set when a social provider made the session without saying when the person logged in there (no `auth_time`): the
   * sign-in may have ridden an old login at the provider, so it is never a fresh one (`freshSignIn`).
   */
  loginUnknown?: true;
}

/**
 * A condition a new session depends on: the session is written only while `check` holds (in the
 * same atomic write), else `error` is thrown. Sign-in passes the version of the password hash it
 * verified, so a sign-in that races a password reset cannot outlive the reset.
 */
export interface SessionGuard {
  check: Deno.AtomicCheck;
  error: Error;
}

/** Attempts of `createSession` and `endOtherSessions` while concurrent writes keep changing the user record. */
const ATTEMPTS = 5;

/**
 * What `createSession` may be told besides the user: its guard, its cookie's kind, the provider's login time, the
 * language of the page signed in on.
 */
export interface SessionOptions {
  guard?: SessionGuard;
  persistent?: boolean;
  /** The provider's time of the person's last login there (ISO), kept when it came before the session. */
  authenticatedAt?: string;
  /** Whether a social provider signed the person in without telling the time of their login there (`loginUnknown`). */
  loginUnknown?: boolean;
  /**
   * The language of the page (or request) the sign-in happened on: saved as the person's `language` setting, in the
   * session's write, when they have none yet and it is not English, which having none already means for e-mails
   * (saved, it would also outrank the `lang` cookie on their pages; docs/decisions.md, Languages, "The setting").
   */
  language?: Lang;
  /**
   * The id of the person's session this one replaces (`replaceSession`): its push subscriptions are handed to the new
   * session in the new session's write (`handOverSessionSubscriptionsOps`).
   */
  handOverFrom?: string;
}

/**
 * Creates a session for `userId` in the user's current session epoch, written only while `guard` holds and checked
 * against the user record as read, so no session key is ever written for a user who is gone (an account deletion
 * landing meanwhile; docs/decisions.md, Data rights); `persistent` (default true) is whether its cookie outlives the
 * browser session; `authenticatedAt`, a social provider's login time, is kept when it is earlier than now, so a sign-in
 * through a provider's old session is no fresh sign-in (`freshSignIn`), and `loginUnknown` marks a provider's sign-in
 * that did not tell that time (never fresh); `language`, unless English, becomes the
 * user's `language` setting, in the same write, when they have none; the push subscriptions of session `handOverFrom`
 * move to the new one in that write. Returns the record and the token for the cookie.
 * @throws `guard.error` when the guard's check fails, or (without a guard) NotFoundError when the user is gone;
 *   AuthError 403 `ACCOUNT_SUSPENDED` while the user is suspended (`refuseSuspended`); ConflictError after `ATTEMPTS`
 *   lost races with writes of the user record (and, with `handOverFrom`, of the person's subscriptions).
 */
export async function createSession(
  kv: Deno.Kv,
  userId: string,
  { guard, persistent = true, authenticatedAt, loginUnknown, language, handOverFrom }: SessionOptions = {},
): Promise<{ session: Session; token: string }> {
  const token = `${userId}.${randomToken()}`;
  const hash = await sha256Hex(token);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const user = await kv.get<User>(userKey(userId));
    if (!user.value) throw guard?.error ?? new NotFoundError(REFUSALS.userNotFound);
    refuseSuspended(user.value);
    const now = Date.now();
    const session: Session = {
      id: crypto.randomUUID(),
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
      persistent,
      epoch: user.value.sessionEpoch ?? 0,
      ...(authenticatedAt && Date.parse(authenticatedAt) < now ? { authenticatedAt } : {}),
      ...(loginUnknown ? { loginUnknown: true as const } : {}),
    };
    const op = kv.atomic();
    if (language && language !== DEFAULT_LANG && !user.value.language) {
      updateUserOps(op, user as Deno.KvEntry<User>, { language });
    } else op.check(user);
    op.set(["sessions", hash], session, { expireIn: SESSION_TTL_MS })
      .set(["sessions_by_user", userId, hash], session.id, { expireIn: SESSION_TTL_MS });
    if (guard) op.check(guard.check);
    if (handOverFrom) await handOverSessionSubscriptionsOps(kv, op, { userId, from: handOverFrom, to: session });
    if ((await op.commit()).ok) return { session, token };
    if (guard && (await kv.get(guard.check.key)).versionstamp !== guard.check.versionstamp) throw guard.error;
  }
  throw new ConflictError("Session not stored: the user record kept changing");
}

/**
 * Refuses a suspended user a session (docs/decisions.md, Admin, "Suspension"): every way in (a password, a social
 * provider, a verification link) ends in `createSession`, and a password sign-in asks first.
 * @throws AuthError 403 `ACCOUNT_SUSPENDED` with its refusal sentence while `user` is suspended.
 */
export function refuseSuspended(user: User): void {
  if (user.suspension) throw new AuthError("ACCOUNT_SUSPENDED", REFUSALS.accountSuspended);
}

/** A cookie value: the user id (as `createUser` makes them), a dot, and 32 random bytes in base64url. */
const TOKEN_PATTERN = /^([A-Za-z0-9-]{1,64})\.[A-Za-z0-9_-]{43}$/;

/** Whether `session` belongs to an earlier session epoch than its user's, or its user is suspended, so it is void. */
function ended(session: Session, user: User): boolean {
  return (session.epoch ?? 0) < (user.sessionEpoch ?? 0) || Boolean(user.suspension);
}

/**
 * Whether `session`, stored under `hash` (the SHA-256 of its cookie token, as `readSession` answers it), still holds at
 * `now` (ms): it is still stored (not signed out of, nor replaced by a sign-in over its cookie) and unexpired, its user
 * exists, and it is not void (`ended`: a later session epoch, a suspension). One KV round trip (`getMany` of the
 * session and its user); for a write whose body arrived after the session was read (docs/decisions.md, Data rights,
 * "Writes in flight during a deletion").
 */
export async function sessionHolds(kv: Deno.Kv, session: Session, hash: string, now = Date.now()): Promise<boolean> {
  const [entry, userEntry] = await kv.getMany<[Session, User]>([["sessions", hash], userKey(session.userId)]);
  const stored = entry.value;
  const user = userEntry.value;
  return stored !== null && user !== null && stored.id === session.id && stored.userId === session.userId &&
    Date.parse(stored.expiresAt) > now && !ended(stored, user);
}

/**
 * A cookie token's stored session entry and its user, read in one KV round trip; null as `peekSession` says, except
 * that a session of an earlier epoch is returned with `ended` true, for the caller to delete.
 */
async function findSession(
  kv: Deno.Kv,
  token: string,
): Promise<{ entry: Deno.KvEntry<Session>; user: Deno.KvEntry<User>; hash: string; ended: boolean } | null> {
  const userId = TOKEN_PATTERN.exec(token)?.[1];
  if (!userId) return null;
  const hash = await sha256Hex(token);
  const [entry, userEntry] = await kv.getMany<[Session, User]>([["sessions", hash], userKey(userId)]);
  const session = entry.value;
  const user = userEntry.value;
  if (!session || !user || session.userId !== userId || Date.parse(session.expiresAt) <= Date.now()) return null;
  return {
    entry: entry as Deno.KvEntry<Session>,
    user: userEntry as Deno.KvEntry<User>,
    hash,
    ended: ended(session, user),
  };
}

/** What a request learns of the person of a session void because they are suspended: their language, nothing else. */
export type SuspendedPerson = Pick<User, "language">;

/**
 * The live session of a cookie token with its user, read in one KV round trip and never renewed (nothing is written);
 * null when the token is malformed, unknown or expired, its user is gone, or it was ended with the others of its user
 * (an earlier session epoch). For answers that must not extend a session, such as the refusal of a write from another
 * site.
 */
export async function peekSession(kv: Deno.Kv, token: string): Promise<{ session: Session; user: User } | null> {
  const found = await findSession(kv, token);
  return found && !found.ended ? { session: found.entry.value, user: found.user.value } : null;
}

/**
 * The live session of a cookie token with its user, read in one KV round trip and renewed when it is past its first
 * day; null as `peekSession` says (a session of an earlier epoch is deleted then), or `suspended` (the person's
 * language only) for a session void because its person is suspended (docs/decisions.md, Admin, "Suspension"), so that
 * the pages its cookie brings say why rather than only asking to sign in. That one is not deleted while its epoch is
 * behind (it never holds again, even once the suspension is lifted) and goes when it expires; one of the current epoch
 * (a suspension that did not move it) is deleted, lest a lift revive it.
 * `renewed` tells the caller to send the cookie again; `hash` is the token's SHA-256, the session's key (`sessionHolds`).
 */
export async function readSession(
  kv: Deno.Kv,
  token: string,
): Promise<{ session: Session; user: User; renewed: boolean; hash: string } | { suspended: SuspendedPerson } | null> {
  const found = await findSession(kv, token);
  if (!found) return null;
  const { entry, hash } = found;
  const session = entry.value;
  const user = found.user.value;
  if (found.ended) {
    const behind = (session.epoch ?? 0) < (user.sessionEpoch ?? 0);
    if (!user.suspension || !behind) {
      await kv.atomic().check(entry).delete(entry.key).delete(["sessions_by_user", session.userId, hash]).commit();
    }
    return user.suspension ? { suspended: { language: user.language } } : null;
  }
  const now = Date.now();
  if (Date.parse(session.expiresAt) - now >= SESSION_RENEW_BELOW_MS) return { session, user, renewed: false, hash };
  const renewed: Session = { ...session, expiresAt: new Date(now + SESSION_TTL_MS).toISOString() };
  await kv.atomic()
    .check(entry)
    .set(["sessions", hash], renewed, { expireIn: SESSION_TTL_MS })
    .set(["sessions_by_user", session.userId, hash], session.id, { expireIn: SESSION_TTL_MS })
    .commit();
  return { session: renewed, user, renewed: true, hash };
}

/**
 * Signs a browser in as `userId`: creates a session (with `options` as `createSession` takes them) and ends the one of
 * `previousToken` (the cookie the browser sent, if any), so a sign-in never leaves the old session behind. The ended
 * session's push subscriptions go with it (`deleteSession`), unless it was a live session of the same person: then the
 * new session's write takes them over, and the phone keeps its notifications (docs/decisions.md, Push, "A subscription
 * dies with its session").
 * @throws what `createSession` throws; BusyError as `deleteSession`.
 */
export async function replaceSession(
  kv: Deno.Kv,
  { userId, previousToken, ...options }: SessionOptions & { userId: string; previousToken: string | undefined },
): Promise<{ session: Session; token: string }> {
  const previous = previousToken ? await findSession(kv, previousToken) : null;
  if (previous && !previous.ended && previous.entry.value.userId === userId) {
    const made = await createSession(kv, userId, { ...options, handOverFrom: previous.entry.value.id });
    await deleteSession(kv, previousToken!);
    return made;
  }
  if (previousToken) await deleteSession(kv, previousToken);
  return await createSession(kv, userId, options);
}

/**
 * Ends the session of a cookie token (no error when it does not exist) and, in the same write, the push subscriptions
 * made in it (`dropSessionSubscriptionsOps`): a phone signed out of, or signed into by someone else, gets no more of
 * the person's notifications (docs/decisions.md, Push, "A subscription dies with its session").
 * @throws BusyError when races lost to writers of the session or the person's subscriptions went on for
 *   `RETRY_BUDGET_MS` (a lost race reads again and tries again).
 */
export async function deleteSession(kv: Deno.Kv, token: string): Promise<void> {
  const hash = await sha256Hex(token);
  await retrying(async () => {
    const entry = await kv.get<Session>(["sessions", hash]);
    if (!entry.value) return true;
    const { userId, id } = entry.value;
    const op = kv.atomic().check(entry).delete(entry.key).delete(["sessions_by_user", userId, hash]);
    await dropSessionSubscriptionsOps(kv, op, { userId, sessionId: id });
    return (await op.commit()).ok;
  }, RETRY_BUDGET_MS);
}

/**
 * Whether the sign-in that made `session` (its `createdAt`, which renewals keep) was less than `FRESH_SIGN_IN_MS` ago,
 * and so was the person's login at the provider when the provider told its time (`authenticatedAt`); a provider's
 * sign-in that did not tell it (`loginUnknown`) is never fresh (docs/decisions.md, Social sign-in, "A fresh sign-in is
 * a new login at the provider").
 */
export function freshSignIn(
  session: Pick<Session, "createdAt" | "authenticatedAt" | "loginUnknown">,
  now = Date.now(),
): boolean {
  if (session.loginUnknown) return false;
  const at = Math.min(Date.parse(session.createdAt), Date.parse(session.authenticatedAt ?? session.createdAt));
  return now - at < FRESH_SIGN_IN_MS;
}

/**
 * Ends every other session of the user of `token` and keeps that one ("Sign out everywhere else"; docs/decisions.md,
 * Sessions, "Ending sessions"): one atomic write, checked against the user and the session as read, moves the user to
 * the next session epoch and the session with it (its times unchanged), and the push subscriptions that session made
 * too (checked against their list): the others' sessions and subscriptions are void at once.
 * @returns false when the token has no live session (it ended or expired meanwhile: nothing was done).
 * @throws ConflictError after `ATTEMPTS` lost races with writes of the user or the session.
 */
export async function endOtherSessions(kv: Deno.Kv, token: string): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const op = kv.atomic();
    if (!await endOtherSessionsOps(kv, op, token)) return false;
    if ((await op.commit()).ok) return true;
  }
  throw new ConflictError("Sessions not ended: the user record kept changing");
}

/**
 * Adds to `op` what `endOtherSessions` writes for the session of `token`, checked against the user, the session and
 * its push subscriptions as read now, for a write that ends the other sessions together with something else (removing
 * a provider). @returns false when the token has no live session (nothing was added).
 */
export async function endOtherSessionsOps(kv: Deno.Kv, op: Deno.AtomicOperation, token: string): Promise<boolean> {
  const found = await findSession(kv, token);
  if (!found || found.ended) return false;
  const { entry, user, hash } = found;
  const { sessionEpoch } = endSessionsPatch(user.value);
  updateUserOps(op, user, { sessionEpoch });
  const expireIn = Math.max(1, Date.parse(entry.value.expiresAt) - Date.now());
  op.check(entry)
    .set(entry.key, { ...entry.value, epoch: sessionEpoch }, { expireIn })
    .set(["sessions_by_user", user.value.id, hash], entry.value.id, { expireIn });
  await keepSessionSubscriptionsOps(kv, op, { userId: user.value.id, sessionId: entry.value.id, epoch: sessionEpoch });
  return true;
}

/** When a session of a user began and ends, as the person's data export lists them (never the token). */
export interface SessionTimes {
  createdAt: string;
  expiresAt: string;
}

/**
 * The live sessions of a user (of the user's current epoch), oldest first; their records are read together
 * (`getManyChunked`, docs/decisions.md, Background work, "Batched reads").
 */
export async function sessionsOf(kv: Deno.Kv, userId: string): Promise<SessionTimes[]> {
  const user = (await kv.get<User>(userKey(userId))).value;
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: ["sessions_by_user", userId] })) keys.push(["sessions", entry.key[2]]);
  const sessions: SessionTimes[] = [];
  for (const { value } of await getManyChunked<Session>(kv, keys)) {
    if (value && !(user && ended(value, user))) {
      sessions.push({ createdAt: value.createdAt, expiresAt: value.expiresAt });
    }
  }
  return sessions.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The ids of the unexpired sessions (at `now`, ms) of each of `userIds`, for the push outbox, which leaves out and drops
 * a subscription whose session is gone (docs/decisions.md, Push, "A subscription dies with its session"; the session
 * epoch is the subscription's own rule): each person's `sessions_by_user` listed at once, then every record they name
 * read together (`getManyChunked`, docs/decisions.md, Background work, "Batched reads"). Every id of `userIds` is in
 * the map.
 */
export async function unexpiredSessionIdsOf(
  kv: Deno.Kv,
  userIds: string[],
  now = Date.now(),
): Promise<Map<string, Set<string>>> {
  const keys: Deno.KvKey[] = [];
  await Promise.all(userIds.map(async (userId) => {
    for await (const entry of kv.list({ prefix: ["sessions_by_user", userId] })) keys.push(["sessions", entry.key[2]]);
  }));
  const ids = new Map(userIds.map((userId) => [userId, new Set<string>()]));
  for (const { value } of await getManyChunked<Session>(kv, keys)) {
    if (value && Date.parse(value.expiresAt) > now) ids.get(value.userId)?.add(value.id);
  }
  return ids;
}

/**
 * Deletes every session of a user (account deletion; after a takeover, the sessions its write made void).
 */
export async function deleteUserSessions(kv: Deno.Kv, userId: string): Promise<void> {
  await deleteListed(kv, ["sessions_by_user", userId], ({ key }) => [["sessions", key[2]]]);
}
