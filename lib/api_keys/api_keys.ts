/**
 * Admin-issued API keys for ingesting internships (docs/decisions.md, Auth, "Ingest user"): a key is
 * shown once at creation, only its SHA-256 is stored, and revoking deletes it (so it fails at once).
 * Internships created with a key are owned by the admin who created it. An admin who is demoted loses
 * their keys in the same write (docs/decisions.md, Admin), so promoting them again does not bring the
 * keys back.
 *
 * Keys (owned by this module only):
 * - `["api_keys", id]` → `StoredApiKey`
 * - `["api_keys_by_hash", sha256Hex(key)]` → id
 * - `["api_key_creators", userId]` → id of the user's latest key: every creation changes it, so
 *   a demotion that checks it cannot miss a key created meanwhile
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { getUser, type User, userKey } from "@/lib/users/users.ts";
import { canPost } from "@/lib/internships/policy.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** An API key as listed: never the key itself. */
export interface ApiKey {
  id: string;
  name: string;
  createdAt: string;
}

/** A key as stored: its creator and the SHA-256 of the key. */
export interface StoredApiKey extends ApiKey {
  userId: string;
  keyHash: string;
}

/** Body of `POST /api/admin/api-keys`. */
export const ApiKeyCreateSchema = z.object({ name: TextSchema.trim().min(1).max(100) });

/** Keys revoked per atomic write: one check and two deletes each, well within KV's limits. */
export const REVOKE_BATCH = 30;

const creatorKey = (userId: string): Deno.KvKey => ["api_key_creators", userId];

const publicOf = ({ id, name, createdAt }: StoredApiKey): ApiKey => ({ id, name, createdAt });

/**
 * Creates a key named `name` for `admin`, with `audit`'s entry in the same write; returns the record and the key (`ck_` + 43 characters), shown once.
 * The write is checked against the creator's user record: it commits only while they are an
 * admin, so a key cannot be created past their demotion.
 * @throws ForbiddenError when the creator is no longer an admin.
 */
export async function createApiKey(
  kv: Deno.Kv,
  admin: User,
  { name, audit }: { name: string; audit?: AuditHook },
): Promise<{ apiKey: ApiKey; key: string }> {
  const key = `ck_${randomToken()}`;
  const stored: StoredApiKey = {
    id: crypto.randomUUID(),
    name,
    createdAt: new Date().toISOString(),
    userId: admin.id,
    keyHash: await sha256Hex(key),
  };
  for (;;) {
    const creator = await kv.get<User>(userKey(admin.id));
    if (!isAdmin(creator.value)) throw new ForbiddenError();
    const op = kv.atomic()
      .check(creator)
      .set(["api_keys", stored.id], stored)
      .set(["api_keys_by_hash", stored.keyHash], stored.id)
      .set(creatorKey(admin.id), stored.id);
    audit?.(op, stored.id, name);
    if ((await op.commit()).ok) return { apiKey: publicOf(stored), key };
  }
}

/** Every live key, oldest first. */
export async function listApiKeys(kv: Deno.Kv): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  for await (const entry of kv.list<StoredApiKey>({ prefix: ["api_keys"] })) keys.push(publicOf(entry.value));
  return keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Revokes (deletes) a key, with `audit`'s entry in the same write. @throws NotFoundError "API key not found". */
export async function revokeApiKey(kv: Deno.Kv, id: string, audit?: AuditHook): Promise<void> {
  const entry = await kv.get<StoredApiKey>(["api_keys", id]);
  if (!entry.value) throw new NotFoundError("API key not found");
  const op = kv.atomic().check(entry).delete(["api_keys", id]).delete(["api_keys_by_hash", entry.value.keyHash]);
  audit?.(op, id, entry.value.name);
  await op.commit();
}

/** The keys a user created, and the marker every creation changes, read for an atomic check. */
export interface KeysOfUser {
  marker: Deno.KvEntryMaybe<string>;
  entries: Deno.KvEntry<StoredApiKey>[];
}

/** The stored keys `userId` created, with their entries and the creation marker for an atomic check. */
export async function apiKeysOf(kv: Deno.Kv, userId: string): Promise<KeysOfUser> {
  const marker = await kv.get<string>(creatorKey(userId));
  const entries: Deno.KvEntry<StoredApiKey>[] = [];
  for await (const entry of kv.list<StoredApiKey>({ prefix: ["api_keys"] })) {
    if (entry.value.userId === userId) entries.push(entry);
  }
  return { marker, entries };
}

/**
 * Adds to `op` the revocation of the first `REVOKE_BATCH` of `keys` (from `apiKeysOf`), checked
 * against what was read, the creation marker included (no key was created since).
 */
export function revokeApiKeysOps(op: Deno.AtomicOperation, keys: KeysOfUser): void {
  op.check(keys.marker);
  for (const entry of keys.entries.slice(0, REVOKE_BATCH)) {
    op.check(entry).delete(entry.key).delete(["api_keys_by_hash", entry.value.keyHash]);
  }
}

/** Revokes every key `userId` created, in batches that fit one atomic write each. */
export async function revokeApiKeysOf(kv: Deno.Kv, userId: string): Promise<void> {
  for (;;) {
    const keys = await apiKeysOf(kv, userId);
    if (keys.entries.length === 0) return;
    const op = kv.atomic();
    revokeApiKeysOps(op, keys);
    await op.commit();
  }
}

/** The keys `userId` created, as listed (never the keys), for the person's data export. */
export async function apiKeysCreatedBy(kv: Deno.Kv, userId: string): Promise<ApiKey[]> {
  return (await apiKeysOf(kv, userId)).entries.map((entry) => publicOf(entry.value));
}

/** Revokes every key `userId` created and forgets their creation marker (account deletion). */
export async function deleteApiKeysOf(kv: Deno.Kv, userId: string): Promise<void> {
  await revokeApiKeysOf(kv, userId);
  await kv.delete(creatorKey(userId));
}

/**
 * The user a `Bearer` key acts as: the admin who created it.
 * @throws UnauthenticatedError for an unknown or revoked key, or when its creator is no longer an admin or is an admin
 *   whose address is not verified (docs/decisions.md, Auth, "`ADMIN_EMAILS` counts once the address is verified"), or
 *   is suspended (docs/decisions.md, Admin, "Suspension").
 */
export async function userOfApiKey(kv: Deno.Kv, key: string): Promise<User> {
  const id = (await kv.get<string>(["api_keys_by_hash", await sha256Hex(key)])).value;
  const stored = id ? (await kv.get<StoredApiKey>(["api_keys", id])).value : null;
  const user = stored ? await getUser(kv, stored.userId) : null;
  if (!user || !isAdmin(user) || user.suspension) throw new UnauthenticatedError("Invalid API key");
  return user;
}

/**
 * The user an `Authorization` header's value acts as: `Bearer <key>`'s owner (`userOfApiKey`). Asked again once a
 * write's body has arrived (`bodyLimits`), so a key revoked, or an owner deleted, demoted or suspended, while the body
 * was arriving refuses the write (docs/decisions.md, Auth, "Ingest user").
 * @throws UnauthenticatedError "Invalid API key" for a value of another form, or as `userOfApiKey` does.
 */
export async function userOfAuthorization(kv: Deno.Kv, authorization: string): Promise<User> {
  const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (!key) throw new UnauthenticatedError("Invalid API key");
  return await userOfApiKey(kv, key);
}

/**
 * The ingest user of `POST /api/internships`: with an `Authorization` header, the key's owner
 * (`userOfAuthorization`; the header wins over a session); else the signed-in `member` or `admin`.
 * @throws UnauthenticatedError with neither a session nor a valid key; ForbiddenError for role `user`.
 */
export async function ingestUser(kv: Deno.Kv, authorization: string | null, sessionUser?: User): Promise<User> {
  if (authorization !== null) return await userOfAuthorization(kv, authorization);
  if (!sessionUser) throw new UnauthenticatedError();
  if (!canPost(sessionUser)) throw new ForbiddenError(REFUSALS.postingNeedsMember);
  return sessionUser;
}
