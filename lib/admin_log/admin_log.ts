/**
 * The admin audit log (docs/decisions.md, Admin, "Audit log"; docs/api.md, Admin): one entry for every write an admin
 * makes, naming the admin, what they did and to what, appended in the same atomic write as the change where the change
 * is one commit (`auditOps` hands the domain function a hook to call on its `op`), so an entry exists exactly when its
 * change does.
 *
 * Keys (owned by this module only), all but the job's progress with KV's `expireIn` of `ADMIN_LOG_TTL_MS`:
 * - `["admin_log", id]` → `AdminLogEntry`; `id` sorts by time (`adminLogId`), so a reverse list is newest first;
 * - `["admin_log_by_admin", adminId, id]` → `true`, an admin's entries (the filter, their export and deletion);
 * - `["admin_log_by_action", action, id]` → `true`, an action's entries (the filter);
 * - `["admin_log_by_admin_action", adminId, action, id]` → `true`, an admin's entries of one action (both filters, so
 *   a rare action of a busy admin is one range read, not their whole year);
 * - `["admin_log_by_user", userId, id]` → `true` for an entry whose target is a person (`targetKind` `user`), so the
 *   entry forgets them with their account;
 * - `["admin_log_meta", "admin_action_index"]` → `{after, done}`: where the `admin-log-index` job stands.
 * An entry is small: no copy of the record, a summary of at most `SUMMARY_MAX` characters. Entries appended before the
 * admin-and-action index are indexed once by the `admin-log-index` job (`indexExistingEntries`).
 */
import { z } from "zod";
import { type Backfill, backfillDone, runBackfill } from "@/lib/kv/backfill.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import type { Job, JobContext } from "@/lib/jobs/job.ts";

/** How long an entry is kept, in ms (365 days). */
export const ADMIN_LOG_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** The longest summary kept, in characters (longer ones are cut with "…"). */
export const SUMMARY_MAX = 200;
/** Entries changed per atomic write when an admin's id is forgotten (three mutations each). */
const FORGET_BATCH = 200;

/** Every action the log records, as `area.verb`. */
export const ADMIN_ACTIONS = [
  "user.role",
  "user.suspend",
  "user.unsuspend",
  "api_key.create",
  "api_key.revoke",
  "moderation.decide",
  "opportunity.review",
  "report.resolve",
  "internship.update",
  "internship.delete",
  "organization.update",
  "coupon.create",
  "coupon.update",
  "coupon.delete",
  "toolkit.create",
  "toolkit.update",
  "toolkit.delete",
  "toolkit_item.create",
  "toolkit_item.update",
  "toolkit_item.delete",
  "purchase.refund",
  "purchase.declineRefund",
  "post.create",
  "post.update",
  "post.delete",
  "comment.delete",
  "banner.create",
  "banner.update",
  "banner.delete",
  "upload.create",
  "mail.retry",
  "job.run",
] as const;

/** An action the log records. */
export type AdminAction = typeof ADMIN_ACTIONS[number];

/** What an entry's `targetId` can name. */
export const TARGET_KINDS = [
  "user",
  "api_key",
  "internship",
  "opportunity",
  "organization",
  "coupon",
  "toolkit",
  "toolkit_item",
  "purchase",
  "post",
  "comment",
  "banner",
  "file",
  "mail",
  "job",
] as const;

/** A kind of record an entry names. */
export type TargetKind = typeof TARGET_KINDS[number];

/**
 * One entry: when (ISO 8601), which admin, what, to which record; `adminId`, and a person's `targetId`, are null once
 * that account was deleted.
 */
export interface AdminLogEntry {
  id: string;
  at: string;
  adminId: string | null;
  action: AdminAction;
  targetKind: TargetKind;
  targetId: string | null;
  /** A few words of the change (a new role, a decision, a code or title), as written; never a whole record. */
  summary?: string;
}

/** What a caller records; the time and id are added. */
export type AdminLogInput = Omit<AdminLogEntry, "id" | "at" | "targetId"> & { targetId: string };

/**
 * A hook a domain function calls on the atomic write of its change with the id of the record written (known only
 * there for a new one) and, when it has one, a summary it knows better than the route.
 */
export type AuditHook = (op: Deno.AtomicOperation, targetId: string, summary?: string) => void;

const entryKey = (id: string): Deno.KvKey => ["admin_log", id];
const byAdminKey = (adminId: string, id: string): Deno.KvKey => ["admin_log_by_admin", adminId, id];
const byActionKey = (action: string, id: string): Deno.KvKey => ["admin_log_by_action", action, id];
const byAdminActionKey = (adminId: string, action: string, id: string): Deno.KvKey => [
  "admin_log_by_admin_action",
  adminId,
  action,
  id,
];
const byUserKey = (userId: string, id: string): Deno.KvKey => ["admin_log_by_user", userId, id];

/** The kind of target that is a person. */
const PERSON = "user";

/** A time-ordered id: the time in ms (13 digits) and 8 random hex digits. */
export function adminLogId(now: Date): string {
  return `${String(now.getTime()).padStart(13, "0")}-${crypto.randomUUID().slice(0, 8)}`;
}

/** The form of an entry id, and so of a page cursor. */
const ID_PATTERN = /^\d{13}-[0-9a-f]{8}$/;

function clip(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length <= SUMMARY_MAX ? clean : `${clean.slice(0, SUMMARY_MAX - 1)}…`;
}

/**
 * Adds the entry `input` at `now` to `op` (the caller's atomic write), so it is stored only if `op` commits. At most
 * five mutations, under 1 KB. Returns the entry as it will be stored.
 */
export function appendAdminLogOps(op: Deno.AtomicOperation, input: AdminLogInput, now = new Date()): AdminLogEntry {
  const entry: AdminLogEntry = {
    id: adminLogId(now),
    at: now.toISOString(),
    adminId: input.adminId,
    action: input.action,
    targetKind: input.targetKind,
    targetId: input.targetId.slice(0, 100),
    ...input.summary ? { summary: clip(input.summary) } : {},
  };
  const expireIn = ADMIN_LOG_TTL_MS;
  op.set(entryKey(entry.id), entry, { expireIn }).set(byActionKey(entry.action, entry.id), true, { expireIn });
  if (entry.adminId) {
    op.set(byAdminKey(entry.adminId, entry.id), true, { expireIn })
      .set(byAdminActionKey(entry.adminId, entry.action, entry.id), true, { expireIn });
  }
  if (entry.targetKind === PERSON) op.set(byUserKey(input.targetId, entry.id), true, { expireIn });
  return entry;
}

/**
 * Appends `input` in a write of its own, for a change that is not one atomic write (files stored, a payment gateway
 * called): called right after the change succeeded, so a failed change leaves no entry; an admin's job run, which may
 * have done part of its work when it fails, is appended either way, with its outcome (`runJobByAdmin`).
 */
export async function appendAdminLog(kv: Deno.Kv, input: AdminLogInput): Promise<AdminLogEntry> {
  const op = kv.atomic();
  const entry = appendAdminLogOps(op, input);
  await op.commit();
  return entry;
}

/**
 * The hook that records `action` by `adminId` on a `targetKind` record in the caller's write: `summary` given here is
 * the route's, one given to the hook (the domain's) wins.
 */
export function auditOps(input: Omit<AdminLogInput, "targetId">): AuditHook {
  return (op, targetId, summary) => {
    appendAdminLogOps(op, { ...input, targetId, summary: summary ?? input.summary });
  };
}

/** Query of `GET /api/admin/log` and `/admin/log`: filters, page size (1–100, default 50) and the cursor. */
export const adminLogQuerySchema = z.object({
  action: z.enum(ADMIN_ACTIONS).optional(),
  adminId: z.string().trim().min(1).max(100).optional(),
  limit: z.string().regex(/^\d+$/, "Expected a whole number").transform(Number)
    .pipe(z.number().int().min(1).max(100)).default(50),
  cursor: z.string().regex(ID_PATTERN, "Expected the nextCursor of a previous page").optional()
    .describe("The `nextCursor` of the previous page: entries older than it"),
});

/** A parsed log query. */
export type AdminLogQuery = z.infer<typeof adminLogQuerySchema>;

/** A page of the log, newest first; `nextCursor` reads the next older page, null at the end. */
export interface AdminLogPage {
  entries: AdminLogEntry[];
  nextCursor: string | null;
}

/**
 * One page of entries matching `query`, newest first: the index of its filters is read (both: the admin's entries of
 * the action, or, until the `admin-log-index` job is done, the admin's entries kept to the action), then the page's
 * entries; entries older than `ADMIN_LOG_TTL_MS` are skipped before KV removes them.
 */
export async function listAdminLog(kv: Deno.Kv, query: AdminLogQuery, now = new Date()): Promise<AdminLogPage> {
  // Until the `admin-log-index` job is done, older entries are only in the admin's own index: read it, by action.
  const prefix: Deno.KvKey = query.adminId && query.action && await backfillDone(kv, ENTRY_INDEX_PROGRESS)
    ? ["admin_log_by_admin_action", query.adminId, query.action]
    : query.adminId
    ? ["admin_log_by_admin", query.adminId]
    : query.action
    ? ["admin_log_by_action", query.action]
    : ["admin_log"];
  const oldest = String(now.getTime() - ADMIN_LOG_TTL_MS).padStart(13, "0");
  const entries: AdminLogEntry[] = [];
  let before = query.cursor;
  for (;;) {
    const selector = before ? { prefix, end: [...prefix, before] } : { prefix };
    const ids: string[] = [];
    for await (const { key } of kv.list(selector, { reverse: true, limit: query.limit + 1 })) {
      ids.push(key[key.length - 1] as string);
    }
    for (const entry of await entriesOf(kv, ids)) {
      if (entry.id < oldest) return { entries, nextCursor: null };
      if (query.action && entry.action !== query.action) continue;
      if (entries.length === query.limit) return { entries, nextCursor: entries[entries.length - 1].id };
      entries.push(entry);
    }
    if (ids.length <= query.limit) return { entries, nextCursor: null };
    before = ids[ids.length - 1];
  }
}

/** The entries of `ids` still stored, in the order of `ids`. */
async function entriesOf(kv: Deno.Kv, ids: string[]): Promise<AdminLogEntry[]> {
  return (await getManyChunked<AdminLogEntry>(kv, ids.map(entryKey))).flatMap(({ value }) => value ? [value] : []);
}

/** Every entry kept of admin `adminId`, oldest first (their data export, docs/decisions.md, Data rights). */
export async function adminLogOf(kv: Deno.Kv, adminId: string): Promise<AdminLogEntry[]> {
  const ids: string[] = [];
  for await (const { key } of kv.list({ prefix: ["admin_log_by_admin", adminId] })) {
    ids.push(key[key.length - 1] as string);
  }
  return await entriesOf(kv, ids);
}

/**
 * Forgets `userId` in every entry naming them (their account's deletion, docs/decisions.md, Data rights): an entry
 * they made is kept with `adminId` null, one whose target they were with `targetId` null, each keeping its expiry, and
 * their index entries go (of an entry they made, both of its admin's). Idempotent, in writes of `FORGET_BATCH` entries. Returns how many entries were changed.
 */
export async function forgetPersonInLog(kv: Deno.Kv, userId: string, now = new Date()): Promise<number> {
  let forgotten = 0;
  for (const [index, field] of [["admin_log_by_admin", "adminId"], ["admin_log_by_user", "targetId"]] as const) {
    for (;;) {
      const keys: Deno.KvKey[] = [];
      for await (const { key } of kv.list({ prefix: [index, userId] }, { limit: FORGET_BATCH })) keys.push(key);
      if (keys.length === 0) break;
      const op = kv.atomic();
      for (const entry of await entriesOf(kv, keys.map((key) => key[2] as string))) {
        const expireIn = Date.parse(entry.at) + ADMIN_LOG_TTL_MS - now.getTime();
        if (expireIn > 0) op.set(entryKey(entry.id), { ...entry, [field]: null }, { expireIn });
        else op.delete(entryKey(entry.id));
        if (field === "adminId") op.delete(byAdminActionKey(userId, entry.action, entry.id));
        forgotten++;
      }
      for (const key of keys) op.delete(key);
      await op.commit();
    }
  }
  return forgotten;
}

const ENTRY_INDEX_PROGRESS: Deno.KvKey = ["admin_log_meta", "admin_action_index"];

/**
 * The entries appended before `["admin_log_by_admin_action"]`, indexed at `now`: 90 entries a write (KV allows 100
 * checks a commit), each of an admin and not yet expired checked as read (one forgotten meanwhile is read again), its
 * index entry expiring with it.
 */
function entryIndexBackfill(now: Date): Backfill<AdminLogEntry> {
  const expireIn = ({ at }: AdminLogEntry) => Date.parse(at) + ADMIN_LOG_TTL_MS - now.getTime();
  return {
    progressKey: ENTRY_INDEX_PROGRESS,
    prefix: ["admin_log"],
    page: 90,
    needs: (entry) => Boolean(entry.adminId) && expireIn(entry) > 0,
    write(op, { value }) {
      op.set(byAdminActionKey(value.adminId!, value.action, value.id), true, { expireIn: expireIn(value) });
    },
  };
}

/**
 * Indexes, once, the entries appended before `["admin_log_by_admin_action"]` (`runBackfill`; docs/decisions.md,
 * Background work, "Index backfills"). Returns how many entries this run indexed.
 */
export async function indexExistingEntries(
  ctx: Pick<JobContext, "kv" | "requests">,
  now = new Date(),
): Promise<{ indexed: number }> {
  return { indexed: (await runBackfill(ctx.kv, entryIndexBackfill(now), ctx.requests)).read };
}

/** The `admin-log-index` job: every 5 minutes until the entries appended before the index are indexed. */
export const adminLogIndexJob: Job = {
  name: "admin-log-index",
  schedule: "*/5 * * * *",
  run: async (ctx) => ({ ...await indexExistingEntries(ctx, ctx.now) }),
};
