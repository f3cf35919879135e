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
 * Users stored before the indexes existed are indexed once by the `users-index` job (`indexExistingUsers`): it walks
 * the user records in key order from a cursor, in checked writes of up to `INDEX_BATCH` users (fewer when their names
 * hold many words, so a write stays within KV's 1,000 mutations), and records its progress
 * (`["users_meta", "index"]`) in each, so a run that stops anywhere is taken up from there by the next; a user written
 * meanwhile is indexed by that write, and a write checked against a changed record is read again.
 */
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

/** Where `indexExistingUsers` stands. */
export interface IndexProgress {
  /** The id of the last user indexed; null before the first. */
  after: string | null;
  /** Users indexed so far. */
  indexed: number;
  /** Set once every user stored before the indexes was indexed. */
  done: boolean;
}

const PROGRESS: Deno.KvKey = ["users_meta", "index"];

/** Whether the `users-index` job indexed every user stored before the indexes (one read). */
export async function usersIndexed(kv: Deno.Kv): Promise<boolean> {
  return (await kv.get<IndexProgress>(PROGRESS)).value?.done ?? false;
}

/** Users read per write: each a check and its entries (about ten), well within KV's 100 checks a commit. */
export const INDEX_BATCH = 25;

/** The most mutations a write of `indexExistingUsers` makes (KV allows 1,000); a write stops short of it. */
const MAX_MUTATIONS = 900;

/** How long (ms) one run works before it stops; the next run goes on from its cursor. */
const RUN_BUDGET_MS = 20_000;

/**
 * Indexes the users stored before the indexes existed (see the module docstring), `INDEX_BATCH` users a write, for at
 * most `RUN_BUDGET_MS`, giving way to requests between writes. Safe to run twice at once (the writes are idempotent
 * and checked). Returns how many users this run indexed; nothing once done (one read).
 */
export async function indexExistingUsers(ctx: Pick<JobContext, "kv" | "requests">): Promise<{ indexed: number }> {
  const { kv } = ctx;
  const started = performance.now();
  let indexed = 0;
  let progress = (await kv.get<IndexProgress>(PROGRESS)).value ?? { after: null, indexed: 0, done: false };
  while (!progress.done && performance.now() - started < RUN_BUDGET_MS) {
    // A key one part longer than the last user's sorts right after it.
    const selector = progress.after
      ? { prefix: ["users"], start: ["users", progress.after, ""] }
      : { prefix: ["users"] };
    const batch: Deno.KvEntry<User>[] = [];
    for await (const entry of kv.list<User>(selector, { limit: INDEX_BATCH })) {
      batch.push(entry);
    }
    const op = kv.atomic();
    let taken = 0;
    let mutations = 1; // the progress
    for (const entry of batch) {
      const entries = 1 + wordsOf(entry.value).length;
      if (taken > 0 && mutations + entries > MAX_MUTATIONS) break; // the rest in the next write
      op.check(entry);
      userIndexOps(op, null, entry.value);
      mutations += entries;
      taken++;
    }
    const next: IndexProgress = taken === 0
      ? { ...progress, done: true }
      : { after: batch[taken - 1].value.id, indexed: progress.indexed + taken, done: false };
    op.set(PROGRESS, next);
    if (!(await op.commit()).ok) continue; // a user changed meanwhile: read the batch again
    indexed += taken;
    progress = next;
    await ctx.requests.giveWay();
  }
  return { indexed };
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
