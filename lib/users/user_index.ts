/**
 * The indexes the admin lists read users through (docs/decisions.md, Admin lists, "User indexes"), so that a page, a
 * search or the admins of the audit log's filter never scan every user record.
 *
 * Keys (owned by this module; written by `users.ts` in every write of a user, in the same atomic operation):
 * - `["users_by_role", role, createdAt, id]` → null: the users of a role, oldest first (the admin list reads it in
 *   reverse, the audit log's filter reads the admins).
 * - `["users_by_word", word, createdAt, id]` → role: one entry per word of the user (`wordsOf`: each word of the name,
 *   the e-mail address, its part before the `@` and its domain, lower case), so a search word is a prefix range.
 *
 * Users stored before the indexes existed are indexed once by the `users-index` job (`indexExistingUsers`, a backfill
 * of `runBackfill`; docs/decisions.md, Background work, "Index backfills"): it walks the user records in key order from
 * a cursor kept in `["users_meta", "index"]`, in checked writes of up to 25 users (fewer when their names hold many
 * words, so a write stays within KV's 1,000 mutations); a user written meanwhile is indexed by that write.
 */
import { type Backfill, type BackfillProgress, runBackfill } from "@/lib/kv/backfill.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";
import type { Role } from "./roles.ts";
import type { User } from "./users.ts";

/** The fields of a user its index entries depend on. */
type Indexed = Pick<User, "id" | "name" | "email" | "role" | "createdAt">;

/** The words a user is found by (see the module docstring), distinct, lower case. */
export function wordsOf(user: Pick<User, "name" | "email">): string[] {
  const email = user.email.toLowerCase();
  const at = email.lastIndexOf("@");
  const name = user.name.toLowerCase();
  const words = [
    ...name.split(/\s+/),
    ...name.split(/[^\p{L}\p{M}\p{N}]+/u),
    email,
    ...at > 0 ? [email.slice(0, at), email.slice(at + 1)] : [],
  ];
  return [...new Set(words.filter(Boolean))];
}

const roleKey = (user: Indexed): Deno.KvKey => ["users_by_role", user.role, user.createdAt, user.id];
const wordKey = (word: string, user: Indexed): Deno.KvKey => ["users_by_word", word, user.createdAt, user.id];

/**
 * Adds to `op` the change of the index entries from `before`'s (null: a new user) to `after`'s (null: a deleted one).
 * Nothing when neither the name nor the role changed (e-mail and creation time never do).
 */
export function userIndexOps(op: Deno.AtomicOperation, before: Indexed | null, after: Indexed | null): void {
  if (before && after && before.name === after.name && before.role === after.role) return;
  const kept = new Set(after ? wordsOf(after) : []);
  if (before) {
    if (before.role !== after?.role) op.delete(roleKey(before));
    for (const word of wordsOf(before)) if (!kept.has(word)) op.delete(wordKey(word, before));
  }
  if (after) {
    op.set(roleKey(after), null);
    for (const word of kept) op.set(wordKey(word, after), after.role);
  }
}

/** How many matches a count reads at most: past it a list says more match instead of reading on. */
export const USER_COUNT_LIMIT = 1000;

/** KV's largest list batch. */
const LIST_BATCH = 500;

/** A user as an index entry holds it: id, creation time and role. */
export interface IndexedUser {
  id: string;
  createdAt: string;
  role: Role;
}

/** Newest first, ties by id. */
export const newestFirst = (a: IndexedUser, b: IndexedUser): number =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

/**
 * The newest `count` users of `role` (newest first), and whether it has more: one reverse range read of
 * `["users_by_role", role]`.
 */
export async function newestOfRole(
  kv: Deno.Kv,
  role: Role,
  count: number,
): Promise<{ users: IndexedUser[]; more: boolean }> {
  const users: IndexedUser[] = [];
  const options = { reverse: true, limit: count + 1, batchSize: Math.min(LIST_BATCH, count + 1) };
  for await (const { key } of kv.list({ prefix: ["users_by_role", role] }, options)) {
    users.push({ role, createdAt: key[2] as string, id: key[3] as string });
  }
  return { users: users.slice(0, count), more: users.length > count };
}

/**
 * Every user of `roles`, newest first (ties by id): the roles' entries read in reverse, `LIST_BATCH` at a time, and
 * merged. For a walk that stops once it has what it needs.
 */
export async function* newestUsers(kv: Deno.Kv, roles: readonly Role[]): AsyncGenerator<IndexedUser> {
  const lists = roles.map((role) => ({
    role,
    entries: kv.list({ prefix: ["users_by_role", role] }, { reverse: true, batchSize: LIST_BATCH })[
      Symbol.asyncIterator
    ](),
  }));
  const heads = await Promise.all(lists.map(async ({ role, entries }) => {
    const next = await entries.next();
    return next.done ? null : { role, createdAt: next.value.key[2] as string, id: next.value.key[3] as string };
  }));
  while (true) {
    let first = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (head && (first < 0 || newestFirst(head, heads[first]!) < 0)) first = i;
    }
    if (first < 0) return;
    yield heads[first]!;
    const next = await lists[first].entries.next();
    heads[first] = next.done
      ? null
      : { role: lists[first].role, createdAt: next.value.key[2] as string, id: next.value.key[3] as string };
  }
}

/** The ids of every admin, newest first (the audit log's filter): one range read of the admins' role entries. */
export async function adminIds(kv: Deno.Kv): Promise<string[]> {
  const ids: string[] = [];
  const options = { reverse: true, batchSize: LIST_BATCH };
  for await (const { key } of kv.list({ prefix: ["users_by_role", "admin"] }, options)) ids.push(key[3] as string);
  return ids;
}

/**
 * The users with a word starting with `prefix` (lower case), by id, up to `USER_COUNT_LIMIT` of them; `more` when
 * the range held more entries than were read.
 */
export async function usersWithWord(
  kv: Deno.Kv,
  prefix: string,
): Promise<{ users: Map<string, IndexedUser>; more: boolean }> {
  const users = new Map<string, IndexedUser>();
  const selector = { start: ["users_by_word", prefix], end: ["users_by_word", `${prefix}\u{10FFFF}`] };
  const limit = USER_COUNT_LIMIT + 1;
  let read = 0;
  for await (const { key, value } of kv.list<Role>(selector, { limit, batchSize: LIST_BATCH })) {
    read++;
    const id = key[3] as string;
    users.set(id, { id, createdAt: key[2] as string, role: value });
  }
  return { users, more: read === limit };
}

const PROGRESS: Deno.KvKey = ["users_meta", "index"];

/** Whether the `users-index` job indexed every user stored before the indexes (one read). */
export async function usersIndexed(kv: Deno.Kv): Promise<boolean> {
  return (await kv.get<BackfillProgress>(PROGRESS)).value?.done ?? false;
}

/**
 * The users stored before the indexes, indexed (see the module docstring): 25 users a write, each a check and its
 * entries (about ten), fewer when their names hold many words.
 */
const USERS_BACKFILL: Backfill<User> = {
  progressKey: PROGRESS,
  prefix: ["users"],
  page: 25,
  tally: true,
  mutations: (user) => 1 + wordsOf(user).length,
  write: (op, { value }) => userIndexOps(op, null, value),
};

/**
 * Indexes the users stored before the indexes existed (`runBackfill`; docs/decisions.md, Background work, "Index
 * backfills"). Returns how many users this run indexed; nothing once done (one read).
 */
export async function indexExistingUsers(ctx: Pick<JobContext, "kv" | "requests">): Promise<{ indexed: number }> {
  return { indexed: (await runBackfill(ctx.kv, USERS_BACKFILL, ctx.requests)).read };
}

/**
 * The `users-index` job: every minute until the users stored before the indexes are indexed (then one read a run).
 * A run by hand (`deno task job users-index`) does the same.
 */
export const usersIndexJob: Job = {
  name: "users-index",
  schedule: "* * * * *",
  run: async (ctx) => ({ ...await indexExistingUsers(ctx) }),
};
