/**
 * User management in the admin area (docs/api.md, Authentication, "Roles"; docs/decisions.md,
 * Admin lists): the searchable user list and the role change.
 */
import { z } from "zod";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { fieldProblems, PARSE_WITH_INPUT, type Sentence } from "@/lib/field_messages.ts";
import { apiKeysOf, REVOKE_BATCH, revokeApiKeysOf, revokeApiKeysOps } from "@/lib/api_keys/api_keys.ts";
import { getUsers, type Role, ROLES, type Suspension, updateUserOps, type User, userKey } from "./users.ts";
import {
  type IndexedUser,
  newestFirst,
  newestOfRole,
  newestUsers,
  USER_COUNT_LIMIT,
  usersWithWord,
  wordsOf,
} from "./user_index.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { type CommentRemoval, commentRemovalsOf } from "@/lib/moderation/comment_purges.ts";
import { suspendedUsers } from "./suspension.ts";
import { appendAdminLogOps } from "@/lib/admin_log/admin_log.ts";
import { isAdmin } from "@/lib/users/roles.ts";
import { cancelDemotionCloseOps, demotionCloseOps } from "@/lib/internships/demotion_closes.ts";

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, "Expected a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * Query of `GET /api/admin/users`: `search` (words each starting a word of the name or of the e-mail address, its part
 * before the `@` or its domain; case-insensitive, at most 100 characters), `role`, `suspended` (`true`: suspended
 * accounts only), `limit` (1–100, default 50), `offset` (≥ 0, default 0).
 */
export const adminUserListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
  suspended: z.enum(["true", "false"]).transform((value) => value === "true").optional()
    .describe("`true`: suspended accounts only"),
  limit: integer(1, 100).default(50),
  offset: integer(0, Number.MAX_SAFE_INTEGER).default(0),
});

export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/**
 * A row of the admin user list; `suspension` null when the account is not suspended, `commentRemoval` the progress of
 * the removal of their comments asked with it (null without one).
 */
export type AdminUserRow = Pick<User, "id" | "name" | "email" | "role" | "image" | "createdAt" | "emailVerified"> & {
  suspension: Suspension | null;
  commentRemoval: CommentRemoval | null;
};

/**
 * A page of the admin user list. `total` counts every match up to `USER_COUNT_LIMIT`; `more` is true when more users
 * match than were counted (the page says so).
 */
export interface AdminUserPage {
  users: AdminUserRow[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
  more: boolean;
}

/** Records read at a time by the newest-first walk of a search whose every word is common. */
const WALK_BATCH = 100;

/**
 * The newest `USER_COUNT_LIMIT` users (and whether more match) of `roles` of whom every word of `words` starts a word:
 * the users walked newest first (`newestUsers`) and their records tested, `WALK_BATCH` at a time.
 */
async function newestMatching(
  kv: Deno.Kv,
  words: string[],
  roles: readonly Role[],
): Promise<{ matches: IndexedUser[]; more: boolean }> {
  const matches: IndexedUser[] = [];
  let batch: IndexedUser[] = [];
  const test = async () => {
    const records = await getUsers(kv, batch.map((user) => user.id));
    for (const user of batch) {
      const record = records.get(user.id);
      const own = record ? wordsOf(record) : [];
      if (words.every((word) => own.some((w) => w.startsWith(word)))) matches.push(user);
    }
    batch = [];
  };
  for await (const user of newestUsers(kv, roles)) {
    batch.push(user);
    if (batch.length < WALK_BATCH) continue;
    await test();
    if (matches.length > USER_COUNT_LIMIT) break;
  }
  if (batch.length > 0) await test();
  return { matches: matches.slice(0, USER_COUNT_LIMIT), more: matches.length > USER_COUNT_LIMIT };
}

/**
 * The users of whom every word of `words` starts a word (`wordsOf`), of `role` when given, through the word index:
 * the users of the words whose range held at most `USER_COUNT_LIMIT` entries are intersected, and a word with more is
 * checked against the remaining users' records. When every word has more, the users are walked newest first and
 * tested until `USER_COUNT_LIMIT` match (`newestMatching`), so the newest matches are the ones listed.
 */
async function searchUsers(
  kv: Deno.Kv,
  words: string[],
  role: Role | undefined,
): Promise<{ matches: IndexedUser[]; more: boolean }> {
  const read = await Promise.all(words.map((word) => usersWithWord(kv, word)));
  const complete = read.filter((r) => !r.more).sort((a, b) => a.users.size - b.users.size);
  if (complete.length === 0) return await newestMatching(kv, words, role ? [role] : ROLES);
  let matches = [...complete[0].users.values()].filter((user) =>
    (!role || user.role === role) && complete.every((set) => set.users.has(user.id))
  );
  const unchecked = words.filter((_, i) => read[i].more);
  if (unchecked.length > 0) {
    const records = await getUsers(kv, matches.map((user) => user.id));
    matches = matches.filter((user) => {
      const record = records.get(user.id);
      const own = record ? wordsOf(record) : [];
      return unchecked.every((word) => own.some((w) => w.startsWith(word)));
    });
  }
  return { matches: matches.sort(newestFirst), more: false };
}

/**
 * Users matching `query`, newest first, one page of them plus the pagination figures (docs/decisions.md, Admin lists,
 * "User indexes"): read through the role and word indexes (`user_index.ts`), then the page's records.
 */
export async function listUsersForAdmin(kv: Deno.Kv, query: AdminUserListQuery): Promise<AdminUserPage> {
  const words = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const { limit, offset } = query;
  let found: { matches: IndexedUser[]; more: boolean };
  if (query.suspended) {
    // The suspended accounts are few: their records are read whole and matched here (docs/decisions.md, Admin,
    // "Suspension").
    const suspended = (await suspendedUsers(kv)).filter((user) =>
      (!query.role || user.role === query.role) &&
      words.every((word) => wordsOf(user).some((own) => own.startsWith(word)))
    );
    found = { matches: suspended, more: false };
  } else if (words.length > 0) {
    found = await searchUsers(kv, words, query.role);
  } else {
    const count = Math.max(offset + limit, USER_COUNT_LIMIT);
    const read = await Promise.all((query.role ? [query.role] : ROLES).map((role) => newestOfRole(kv, role, count)));
    found = { matches: read.flatMap((r) => r.users).sort(newestFirst), more: read.some((r) => r.more) };
  }
  const { matches, more } = found;
  const shown = matches.slice(offset, offset + limit);
  const records = await getUsers(kv, shown.map((user) => user.id));
  // Only a suspended account has a removal of its comments (lifting ends it): few rows, read at once.
  const removals = await commentRemovalsOf(kv, [...records.values()].filter((u) => u.suspension).map((u) => u.id));
  const users = shown.flatMap((match): AdminUserRow[] => {
    const user = records.get(match.id);
    if (!user) return [];
    const { id, name, email, role, image, createdAt, emailVerified } = user;
    const commentRemoval = removals.get(id) ?? null;
    return [{
      id,
      name,
      email,
      role,
      image,
      createdAt,
      emailVerified,
      suspension: user.suspension ?? null,
      commentRemoval,
    }];
  });
  const total = more ? Math.min(matches.length, USER_COUNT_LIMIT) : matches.length;
  const hasMore = offset + limit < matches.length || more;
  return { users, pagination: { limit, offset, total, hasMore }, more };
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
 * write, and so is, for a poster made a user, the close of their listings nobody else answers (`demotionCloseOps`, run by
 * `closeDemotedListings` right after; dropped by a write that gives a posting role back). The new role
 * applies at the target's next request (the session middleware reads the user on every request).
 * A suspended account is never made admin (it would count as another admin and could not be suspended or lifted by
 * itself; docs/decisions.md, Admin, "Suspension"): the write is checked against the target as read, so a suspension
 * landing meanwhile is seen.
 * @throws ForbiddenError "You cannot change your own role", or the default 403 when the actor is
 *   no longer an admin; NotFoundError "User not found"; ConflictError (`promoteSuspended`) for `role` admin of a
 *   suspended account.
 */
export async function changeUserRole(
  kv: Deno.Kv,
  { actorId, targetId, role }: { actorId: string; targetId: string; role: Role },
): Promise<RoleChanged> {
  if (actorId === targetId) throw new ForbiddenError(REFUSALS.ownRole);
  if (targetId.length > MAX_ID_LENGTH) throw new NotFoundError(REFUSALS.userNotFound);
  for (;;) {
    const [actor, target] = await kv.getMany<[User, User]>([userKey(actorId), userKey(targetId)]);
    if (!isAdmin(actor.value)) throw new ForbiddenError();
    if (!target.value) throw new NotFoundError(REFUSALS.userNotFound);
    if (role === "admin" && target.value.suspension) throw new ConflictError(REFUSALS.promoteSuspended);
    const demoted = target.value.role === "admin" && role !== "admin";
    const keys = demoted ? await apiKeysOf(kv, targetId) : null;
    const op = kv.atomic().check(actor);
    const user = updateUserOps(op, target as Deno.KvEntry<User>, { role });
    if (keys) revokeApiKeysOps(op, keys);
    const summary = `${target.value.role} → ${role}`;
    appendAdminLogOps(op, { adminId: actorId, action: "user.role", targetKind: "user", targetId, summary });
    if (role !== "user") cancelDemotionCloseOps(op, targetId);
    else if (target.value.role !== "user") demotionCloseOps(op, targetId, new Date().toISOString());
    if (!(await op.commit()).ok) continue;
    if (keys && keys.entries.length > REVOKE_BATCH) await revokeApiKeysOf(kv, targetId);
    return { id: user.id, name: user.name, email: user.email, role: user.role };
  }
}
