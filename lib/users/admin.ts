/**
 * User management in the admin area (docs/api.md, Authentication, "Roles"; docs/decisions.md,
 * Admin lists): the searchable user list and the role change.
 */
import { z } from "zod";
import { ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { fieldProblems, PARSE_WITH_INPUT, type Sentence } from "@/lib/field_messages.ts";
import { apiKeysOf, REVOKE_BATCH, revokeApiKeysOf, revokeApiKeysOps } from "@/lib/api_keys/api_keys.ts";
import { listUsersNewestFirst, type Role, ROLES, updateUserOps, type User, userKey } from "./users.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { appendAdminLogOps } from "@/lib/admin_log/admin_log.ts";

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * Query of `GET /api/admin/users`: `search` (words matched in the name or e-mail, case-insensitive,
 * at most 100 characters), `role`, `limit` (1–100, default 50), `offset` (≥ 0, default 0).
 */
export const adminUserListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});

export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/** A row of the admin user list. */
export type AdminUserRow = Pick<User, "id" | "name" | "email" | "role" | "image" | "createdAt" | "emailVerified">;

/** A page of the admin user list; `total` counts every match. */
export interface AdminUserPage {
  users: AdminUserRow[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

function matches(user: User, words: string[], role: Role | undefined): boolean {
  if (role && user.role !== role) return false;
  const haystack = `${user.name}\n${user.email}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Users matching `query`, newest first, one page of them plus the pagination figures. */
export async function listUsersForAdmin(kv: Deno.Kv, query: AdminUserListQuery): Promise<AdminUserPage> {
  const words = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const users: AdminUserRow[] = [];
  let total = 0;
  for (const user of await listUsersNewestFirst(kv)) {
    if (!matches(user, words, query.role)) continue;
    if (total >= query.offset && users.length < query.limit) {
      const { id, name, email, role, image, createdAt, emailVerified } = user;
      users.push({ id, name, email, role, image, createdAt, emailVerified });
    }
    total++;
  }
  const { limit, offset } = query;
  return { users, pagination: { limit, offset, total, hasMore: offset + users.length < total } };
}

/** The message of a missing or unknown role in a role change (docs/decisions.md, Admin lists). */
export const INVALID_ROLE_MESSAGE = `Role must be one of: ${ROLES.join(", ")}`;

/** Body of `PATCH /api/admin/users/{id}`. */
export const roleChangeSchema = z.object({ role: z.enum(ROLES) });

/** The sentence shown at the role field for a missing or unknown role. */
export const ROLE_SENTENCE = { key: "admin.users.roleProblem" } as const satisfies Sentence;

/**
 * Validates a role-change body.
 * @throws InvalidInputError "Role must be one of: user, member, admin", with `ROLE_SENTENCE` for
 *   the `role` field as `fields` when the body is an object.
 */
export function parseRoleChange(body: unknown): Role {
  const result = roleChangeSchema.safeParse(body, PARSE_WITH_INPUT);
  if (!result.success) {
    throw new InvalidInputError(INVALID_ROLE_MESSAGE, fieldProblems(result.error.issues, { role: ROLE_SENTENCE }));
  }
  return result.data.role;
}

/** Ids are UUIDs; a longer path segment names no user (and would exceed KV's key size). */
const MAX_ID_LENGTH = 100;

/** The user whose role changed, as `PATCH /api/admin/users/{id}` answers it (`{user}`). */
export type RoleChanged = Pick<User, "id" | "name" | "email" | "role">;

/**
 * Sets the role of `targetId` on behalf of admin `actorId`, in one atomic write checked against
 * both user records as read: it commits only while the actor is still an admin, so two admins
 * demoting each other at once cannot both succeed, and because nobody may change their own role
 * the actor, an admin when the write lands, always remains one: the last admin cannot be demoted.
 * Demoting an admin revokes the API keys they created in the same write, checked against their
 * key-creation marker so a key created meanwhile is not missed (any beyond `REVOKE_BATCH` right
 * after it; `userOfApiKey` already refuses them meanwhile). The audit log's entry (`user.role`) is in the same
 * write. The new role
 * applies at the target's next request (the session middleware reads the user on every request).
 * @throws ForbiddenError "You cannot change your own role", or the default 403 when the actor is
 *   no longer an admin; NotFoundError "User not found".
 */
export async function changeUserRole(
  kv: Deno.Kv,
  { actorId, targetId, role }: { actorId: string; targetId: string; role: Role },
): Promise<RoleChanged> {
  if (actorId === targetId) throw new ForbiddenError(REFUSALS.ownRole);
  if (targetId.length > MAX_ID_LENGTH) throw new NotFoundError(REFUSALS.userNotFound);
  for (;;) {
    const [actor, target] = await kv.getMany<[User, User]>([userKey(actorId), userKey(targetId)]);
    if (actor.value?.role !== "admin") throw new ForbiddenError();
    if (!target.value) throw new NotFoundError(REFUSALS.userNotFound);
    const demoted = target.value.role === "admin" && role !== "admin";
    const keys = demoted ? await apiKeysOf(kv, targetId) : null;
    const op = kv.atomic().check(actor);
    const user = updateUserOps(op, target as Deno.KvEntry<User>, { role });
    if (keys) revokeApiKeysOps(op, keys);
    const summary = `${target.value.role} → ${role}`;
    appendAdminLogOps(op, { adminId: actorId, action: "user.role", targetKind: "user", targetId, summary });
    if (!(await op.commit()).ok) continue;
    if (keys && keys.entries.length > REVOKE_BATCH) await revokeApiKeysOf(kv, targetId);
    return { id: user.id, name: user.name, email: user.email, role: user.role };
  }
}
