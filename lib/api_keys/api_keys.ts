/**
 * Admin-issued API keys for ingesting internships (CONTRACT.md §2 "Ingest user"): a key is
 * shown once at creation, only its SHA-256 is stored, and revoking deletes it (so it fails at
 * once). Internships created with a key are owned by the admin who created it. An admin who
 * is demoted loses their keys in the same write (docs/decisions.md, Admin), so promoting them
 * again does not bring the keys back.
 *
 * Keys (owned by this module only):
 * - `["api_keys", id]` → `StoredApiKey`
 * - `["api_keys_by_hash", sha256Hex(key)]` → id
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { getUser, type User } from "@/lib/users/users.ts";
import { canPost } from "@/lib/internships/policy.ts";

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

const publicOf = ({ id, name, createdAt }: StoredApiKey): ApiKey => ({ id, name, createdAt });

/** Creates a key for `admin`; returns the record and the key (`ck_` + 43 characters), shown once. */
export async function createApiKey(kv: Deno.Kv, admin: User, name: string): Promise<{ apiKey: ApiKey; key: string }> {
  const key = `ck_${randomToken()}`;
  const stored: StoredApiKey = {
    id: crypto.randomUUID(),
    name,
    createdAt: new Date().toISOString(),
    userId: admin.id,
    keyHash: await sha256Hex(key),
  };
  await kv.atomic()
    .set(["api_keys", stored.id], stored)
    .set(["api_keys_by_hash", stored.keyHash], stored.id)
    .commit();
  return { apiKey: publicOf(stored), key };
}

/** Every live key, oldest first. */
export async function listApiKeys(kv: Deno.Kv): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  for await (const entry of kv.list<StoredApiKey>({ prefix: ["api_keys"] })) keys.push(publicOf(entry.value));
  return keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Revokes (deletes) a key. @throws NotFoundError "API key not found". */
export async function revokeApiKey(kv: Deno.Kv, id: string): Promise<void> {
  const entry = await kv.get<StoredApiKey>(["api_keys", id]);
  if (!entry.value) throw new NotFoundError("API key not found");
  await kv.atomic().check(entry).delete(["api_keys", id]).delete(["api_keys_by_hash", entry.value.keyHash]).commit();
}

/** The stored keys `userId` created, with their entries for an atomic check. */
export async function apiKeyEntriesOf(kv: Deno.Kv, userId: string): Promise<Deno.KvEntry<StoredApiKey>[]> {
  const entries: Deno.KvEntry<StoredApiKey>[] = [];
  for await (const entry of kv.list<StoredApiKey>({ prefix: ["api_keys"] })) {
    if (entry.value.userId === userId) entries.push(entry);
  }
  return entries;
}

/** Adds to `op` the revocation of `entries` (from `apiKeyEntriesOf`), checked against what was read. */
export function revokeApiKeysOps(op: Deno.AtomicOperation, entries: Deno.KvEntry<StoredApiKey>[]): void {
  for (const entry of entries) {
    op.check(entry).delete(entry.key).delete(["api_keys_by_hash", entry.value.keyHash]);
  }
}

/** Revokes every key `userId` created, in batches that fit one atomic write each. */
export async function revokeApiKeysOf(kv: Deno.Kv, userId: string): Promise<void> {
  for (;;) {
    const entries = (await apiKeyEntriesOf(kv, userId)).slice(0, REVOKE_BATCH);
    if (entries.length === 0) return;
    const op = kv.atomic();
    revokeApiKeysOps(op, entries);
    await op.commit();
  }
}

/**
 * The user a `Bearer` key acts as: the admin who created it.
 * @throws UnauthenticatedError for an unknown or revoked key, or when its creator is no longer an admin.
 */
export async function userOfApiKey(kv: Deno.Kv, key: string): Promise<User> {
  const id = (await kv.get<string>(["api_keys_by_hash", await sha256Hex(key)])).value;
  const stored = id ? (await kv.get<StoredApiKey>(["api_keys", id])).value : null;
  const user = stored ? await getUser(kv, stored.userId) : null;
  if (!user || user.role !== "admin") throw new UnauthenticatedError("Invalid API key");
  return user;
}

/**
 * The ingest user of `POST /api/internships`: with an `Authorization: Bearer` header, the key's
 * owner (the header wins over a session); else the signed-in `member` or `admin`.
 * @throws UnauthenticatedError with neither a session nor a valid key; ForbiddenError for role `user`.
 */
export async function ingestUser(kv: Deno.Kv, authorization: string | null, sessionUser?: User): Promise<User> {
  if (authorization !== null) {
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!key) throw new UnauthenticatedError("Invalid API key");
    return await userOfApiKey(kv, key);
  }
  if (!sessionUser) throw new UnauthenticatedError();
  if (!canPost(sessionUser)) throw new ForbiddenError("Only members and admins can post internships");
  return sessionUser;
}
