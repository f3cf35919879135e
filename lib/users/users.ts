/**
 * User records and their secondary indexes in Deno KV (docs/api.md, Authentication).
 *
 * Keys (owned by this module only):
 * - `["users", id]` → `User`
 * - `["users_by_email", emailLowerCase]` → id (uniqueness guard)
 * - `["user_passwords", id]` → argon2id encoded hash (kept apart so user reads never carry it)
 * - `["users_changed"]` → `Deno.KvU64`, the summaries' change marker: grows by one in every write that changes a user's
 *   name, image or role or removes a user (`usersChanged`)
 * Every write of a user also changes its entries in the admin lists' indexes (`user_index.ts`) in the same operation.
 */
import { countOps, userCounts } from "@/lib/stats/counters.ts";
import { ConflictError, NotFoundError } from "@/lib/errors.ts";
import { TextSchema } from "@/lib/text.ts";

import type { Lang } from "@/lib/i18n/languages.ts";
import { isAdmin, type Role, ROLES } from "./roles.ts";
import { adminIds, userIndexOps, usersIndexed } from "./user_index.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

export { type Role, ROLES };

/** A user record as stored; profile scalars are `null` and arrays `[]` when unset. */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  role: Role;
  createdAt: string;
  updatedAt: string;
  fieldInterests: string[];
  opportunityInterests: string[];
  dateOfBirth: string | null;
  collegeInstitute: string | null;
  contactNumber: string | null;
  currentRole: string | null;
  /**
   * The language pages and e-mails are written in for this person (docs/decisions.md, Languages): the language of the
   * page they signed up on, then their choice. Absent on records older than languages: English.
   */
  language?: Lang;
  /**
   * The user's session epoch (docs/decisions.md, Sessions, "Ending sessions"): a session made in an earlier one is void.
   * A password reset, a takeover of the account and "Sign out everywhere else" move it on. Absent: 0.
   */
  sessionEpoch?: number;
  /**
   * An admin's suspension of the account (docs/decisions.md, Admin, "Suspension"): it gets no session and no key works
   * for it until the suspension is lifted. Absent or null: not suspended.
   */
  suspension?: Suspension | null;
}

/** A suspension: when (ISO), why (the admin's words, which the person reads), by which admin (null once deleted). */
export interface Suspension {
  at: string;
  reason: string;
  by: string | null;
}

/** Fields a caller may change with `updateUser`. */
export type UserPatch = Partial<Omit<User, "id" | "email" | "createdAt" | "updatedAt">>;

/** Longest user name, in characters. */
export const USER_NAME_MAX = 100;

/**
 * A user name as sign-up and the profile accept it: trimmed, 1 to `USER_NAME_MAX` characters,
 * no control characters (a line break in a name could forge lines in the plain-text e-mails
 * that greet the user by name).
 */
export const UserNameSchema = TextSchema.trim().min(1).max(USER_NAME_MAX).regex(/^\P{Cc}*$/u);

/** Canonical form of an e-mail address for lookups and uniqueness: trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The KV key of a user record, for a caller that reads a user together with its own keys in one
 * `kv.getMany` round trip (the session lookup of every request). Only this module writes it.
 */
export function userKey(id: string): Deno.KvKey {
  return ["users", id];
}

/** Reads a user by id, or null. */
export async function getUser(kv: Deno.Kv, id: string): Promise<User | null> {
  return (await kv.get<User>(userKey(id))).value;
}

/** What other records show of their user: id, name, image and role (docs/api.md, Internships, "Who may do what"). */
export interface UserSummary {
  id: string;
  name: string;
  image: string | null;
  role: Role;
}

const USERS_CHANGED_KEY: Deno.KvKey = ["users_changed"];

/**
 * The summaries' change marker (docs/decisions.md, Guest pages): a count that grows with every write that
 * changes what `UserSummary` shows of a user or removes a user, so a cache of summaries reads this one key to know
 * whether it must read its users again. One strong read.
 */
export async function usersChanged(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(USERS_CHANGED_KEY)).value?.value ?? 0n;
}

/** Adds to `op` the marker's move when `after` shows other summary fields than `before` (null: removed). */
function markSummaryChange(op: Deno.AtomicOperation, before: User, after: User | null): void {
  if (after && after.name === before.name && after.image === before.image && after.role === before.role) return;
  op.sum(USERS_CHANGED_KEY, 1n);
}

/** The users of those of `ids` that exist, by id, each read once (`getManyChunked`). */
export async function getUsers(kv: Deno.Kv, ids: Iterable<string>): Promise<Map<string, User>> {
  const entries = await getManyChunked<User>(kv, [...new Set(ids)].map(userKey));
  return new Map(entries.flatMap(({ value }) => value ? [[value.id, value]] : []));
}

/** The summaries of those of `ids` that exist, by id (`getUsers`). */
export async function getUserSummaries(kv: Deno.Kv, ids: Iterable<string>): Promise<Map<string, UserSummary>> {
  const users = await getUsers(kv, ids);
  return new Map([...users].map(([id, { name, image, role }]) => [id, { id, name, image, role }]));
}

/** Reads a user by e-mail (any case), or null. */
export async function getUserByEmail(kv: Deno.Kv, email: string): Promise<User | null> {
  const id = (await kv.get<string>(["users_by_email", normalizeEmail(email)])).value;
  return id ? await getUser(kv, id) : null;
}

/** The id of the user whose e-mail is `email` (any case), or null: one read of the e-mail index. */
export async function userIdByEmail(kv: Deno.Kv, email: string): Promise<string | null> {
  return (await kv.get<string>(["users_by_email", normalizeEmail(email)])).value;
}

/** Input of `createUser`. `passwordHash` is absent for social sign-in users. */
export interface NewUser {
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  role: Role;
  passwordHash?: string;
  /** When the account was made (ISO); default now. Only the demo's history (`lib/demo/history.ts`) sets it. */
  createdAt?: string;
  /** The language of the page the person signed up on; absent: English. */
  language?: Lang;
}

/**
 * More work joined to a user write in its one atomic operation: another module's keys and
 * checks (e.g. a social account link, docs/decisions.md, Auth), given the user as it will be stored.
 */
export type AtomicExtension = (op: Deno.AtomicOperation, user: User) => void;

/**
 * Creates a user; the e-mail uniqueness check, every key and `extend`'s writes are one atomic
 * write. `createdAt` equals `updatedAt` (the new-user mark of docs/api.md, Profile and onboarding, "Onboarding").
 * @throws ConflictError "User already exists" when the e-mail is taken (in any case) or a
 *   check of `extend` fails.
 */
export async function createUser(kv: Deno.Kv, input: NewUser, extend?: AtomicExtension): Promise<User> {
  const now = input.createdAt ?? new Date().toISOString();
  const email = normalizeEmail(input.email);
  const user: User = {
    id: crypto.randomUUID(),
    name: input.name,
    email,
    emailVerified: input.emailVerified,
    image: input.image ?? null,
    role: input.role,
    createdAt: now,
    updatedAt: now,
    fieldInterests: [],
    opportunityInterests: [],
    dateOfBirth: null,
    collegeInstitute: null,
    contactNumber: null,
    currentRole: null,
    ...(input.language ? { language: input.language } : {}),
  };
  const op = kv.atomic()
    .check({ key: ["users_by_email", email], versionstamp: null })
    .set(["users", user.id], user)
    .set(["users_by_email", email], user.id);
  if (input.passwordHash) op.set(["user_passwords", user.id], input.passwordHash);
  countOps(op, [], userCounts(user));
  userIndexOps(op, null, user);
  extend?.(op, user);
  const result = await op.commit();
  if (!result.ok) throw new ConflictError(REFUSALS.userExists);
  return user;
}

/**
 * Applies `patch` to a user and sets `updatedAt`, retrying on a concurrent write.
 * @throws NotFoundError "User not found".
 */
export async function updateUser(kv: Deno.Kv, id: string, patch: UserPatch): Promise<User> {
  for (;;) {
    const entry = await kv.get<User>(["users", id]);
    if (!entry.value) throw new NotFoundError(REFUSALS.userNotFound);
    const op = kv.atomic();
    const user = updateUserOps(op, entry as Deno.KvEntry<User>, patch);
    if ((await op.commit()).ok) return user;
  }
}

/**
 * Adds to `op` the write of `entry`'s user with `patch` applied and `updatedAt` set, checked
 * against the entry as read, for a caller that joins it to other checks and writes. Returns the
 * user as it will be stored.
 */
export function updateUserOps(op: Deno.AtomicOperation, entry: Deno.KvEntry<User>, patch: UserPatch): User {
  const user: User = { ...entry.value, ...patch, updatedAt: new Date().toISOString() };
  op.check(entry).set(userKey(user.id), user);
  countOps(op, userCounts(entry.value), userCounts(user));
  markSummaryChange(op, entry.value, user);
  userIndexOps(op, entry.value, user);
  return user;
}

/**
 * The patch that voids every session of `user` made so far: the next session epoch (docs/decisions.md, Sessions,
 * "Ending sessions").
 */
export function endSessionsPatch(user: User): Required<Pick<UserPatch, "sessionEpoch">> {
  return { sessionEpoch: (user.sessionEpoch ?? 0) + 1 };
}

/**
 * Takes over a user whose e-mail is still unverified for the proven owner of the address
 * (docs/decisions.md, Social sign-in): in one atomic write, while the record is as read and still
 * unverified, marks the e-mail verified, applies `patch` (the provider's name and picture, a role), removes
 * the password (whoever set it never proved the address), ends every session of the user (`endSessionsPatch`) and
 * runs `extend`. The caller may delete the void sessions afterwards.
 * @returns the updated user, or null when the record changed meanwhile or is already verified.
 */
export async function takeOverUnverifiedUser(
  kv: Deno.Kv,
  { id, patch, extend }: { id: string; patch: Pick<UserPatch, "name" | "image" | "role">; extend: AtomicExtension },
): Promise<User | null> {
  const entry = await kv.get<User>(["users", id]);
  if (!entry.value || entry.value.emailVerified) return null;
  const user: User = {
    ...entry.value,
    ...patch,
    ...endSessionsPatch(entry.value),
    emailVerified: true,
    updatedAt: new Date().toISOString(),
  };
  const op = kv.atomic().check(entry).set(["users", id], user).delete(["user_passwords", id]);
  countOps(op, userCounts(entry.value), userCounts(user));
  markSummaryChange(op, entry.value, user);
  userIndexOps(op, entry.value, user);
  extend(op, user);
  return (await op.commit()).ok ? user : null;
}

/** The stored password hash of a user, or null (social-only users have none). */
export async function getPasswordHash(kv: Deno.Kv, userId: string): Promise<string | null> {
  return (await getPasswordEntry(kv, userId)).value;
}

/** The password hash entry of a user: its value, and its versionstamp for an atomic check. */
export async function getPasswordEntry(kv: Deno.Kv, userId: string): Promise<Deno.KvEntryMaybe<string>> {
  return await kv.get<string>(["user_passwords", userId]);
}

/** Adds to `op` the replacement of a user's password hash (an argon2id encoded hash), for a caller's atomic write. */
export function setPasswordHashOps(op: Deno.AtomicOperation, userId: string, hash: string): void {
  op.set(["user_passwords", userId], hash);
}

/**
 * Adds to `op` the deletion of the user of `entry` (read by the caller) with their e-mail index and password hash,
 * checked against the entry: once it commits the person has no account (their sessions stop at once, as a session
 * needs its user) and the e-mail may sign up again.
 */
export function deleteUserOps(op: Deno.AtomicOperation, entry: Deno.KvEntry<User>): void {
  op.check(entry)
    .delete(userKey(entry.value.id))
    .delete(["users_by_email", normalizeEmail(entry.value.email)])
    .delete(["user_passwords", entry.value.id]);
  countOps(op, userCounts(entry.value), []);
  markSummaryChange(op, entry.value, null);
  userIndexOps(op, entry.value, null);
}

/**
 * An admin with the role's powers (`isAdmin`) other than `exceptId`, as read (for a checked write), or null when there
 * is none: the admins' role index (`adminIds`), then their records (`getManyChunked`), the first an admin with a
 * verified address who is not suspended (one who cannot sign in is no admin to hand over to). Only when none is and the `users-index` job has not indexed every older user yet are the users
 * scanned (docs/decisions.md, Admin lists, "User indexes").
 */
export async function otherAdmin(kv: Deno.Kv, exceptId: string): Promise<Deno.KvEntry<User> | null> {
  const ids = (await adminIds(kv)).filter((id) => id !== exceptId);
  const usable = (user: User | null) => isAdmin(user) && !user!.suspension;
  const admin = (await getManyChunked<User>(kv, ids.map(userKey))).find((entry) => usable(entry.value));
  if (admin) return admin as Deno.KvEntry<User>;
  if (await usersIndexed(kv)) return null;
  for await (const entry of kv.list<User>({ prefix: ["users"] }, { batchSize: 500 })) {
    if (usable(entry.value) && entry.value.id !== exceptId) return entry;
  }
  return null;
}
