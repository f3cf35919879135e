/**
 * The opportunities capability (specification "Opportunity", "Roles", states table
 * "Opportunity"; CONTRACT.md §5): submit, read, the public list, the caller's own list, the admin
 * queue with counts per state, and the approve/reject review. Lists answer from the read model
 * of `store.ts`; writes are its atomic commits.
 */
import { NotFoundError, UnauthenticatedError } from "../errors.ts";
import { getUser, type User } from "../users/users.ts";
import { canSee, publishesAtOnce } from "./policy.ts";
import type { AdminQueueQuery, OpportunityCreate, OpportunityQuery } from "./schema.ts";
import { insertRecord, type ModelEntry, readModel, readRecord, updateRecord } from "./store.ts";
import {
  type Opportunity,
  type OpportunityView,
  type Pagination,
  type PostedBy,
  type ReviewAction,
  type StatusCounts,
  statusOf,
} from "./types.ts";

/** The message of every hidden or unknown id. */
export const NOT_FOUND_MESSAGE = "Opportunity not found";

/** A page of a list. */
export interface OpportunityPage {
  opportunities: OpportunityView[];
  pagination: Pagination;
}

/** A page of the admin queue with the counts per state for its tabs. */
export interface AdminQueuePage extends OpportunityPage {
  counts: StatusCounts;
}

async function withPostedBy(kv: Deno.Kv, records: Opportunity[]): Promise<OpportunityView[]> {
  const ids = [...new Set(records.map((r) => r.userId))];
  const users = await Promise.all(ids.map((id) => getUser(kv, id)));
  const posters = new Map<string, PostedBy>(ids.map((id, i) => {
    const user = users[i];
    return [id, { id, name: user?.name ?? "Former member", role: user?.role ?? "user" }];
  }));
  return records.map((r) => ({ ...r, postedBy: posters.get(r.userId)! }));
}

function matches(entry: ModelEntry, words: string[]): boolean {
  return words.every((w) => entry.text.includes(w));
}

async function page(
  kv: Deno.Kv,
  entries: ModelEntry[],
  keep: (e: ModelEntry) => boolean,
  limit: number,
  offset: number,
): Promise<OpportunityPage> {
  const records: Opportunity[] = [];
  let total = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (!keep(entry)) continue;
    if (total >= offset && records.length < limit) records.push(entry.record);
    total++;
  }
  return {
    opportunities: await withPostedBy(kv, records),
    pagination: { limit, offset, total, hasMore: offset + records.length < total },
  };
}

/**
 * `GET /api/opportunities`: published ones newest first, filtered by `type` and `search`; with
 * `mine` the caller's own in every state.
 * @throws UnauthenticatedError for `mine` without a viewer.
 */
export async function listOpportunities(
  kv: Deno.Kv,
  query: OpportunityQuery,
  viewer: User | null,
): Promise<OpportunityPage> {
  if (query.mine && !viewer) throw new UnauthenticatedError();
  const model = await readModel(kv);
  const { type, search, mine } = query;
  const ownerId = mine ? viewer!.id : null;
  return await page(
    kv,
    model.entries,
    (e) => {
      const r = e.record;
      if (ownerId !== null ? r.userId !== ownerId : !(r.isVerified && r.isActive)) return false;
      return (!type || r.type === type) && matches(e, search);
    },
    query.limit,
    query.offset,
  );
}

/**
 * One opportunity as `viewer` may see it (published ones for everyone, others for the owner and
 * admins). @throws NotFoundError "Opportunity not found" otherwise or for an unknown id.
 */
export async function getOpportunity(kv: Deno.Kv, id: string, viewer: User | null): Promise<OpportunityView> {
  const { value } = await readRecord(kv, id);
  if (!value || !canSee(viewer, value)) throw new NotFoundError(NOT_FOUND_MESSAGE);
  return (await withPostedBy(kv, [value]))[0];
}

/**
 * Stores a submission by `owner`: a `user`'s awaits review, a `member`'s or `admin`'s is
 * published at once (specification "Roles").
 */
export async function submitOpportunity(
  kv: Deno.Kv,
  owner: User,
  input: OpportunityCreate,
  now = new Date(),
): Promise<OpportunityView> {
  const at = now.toISOString();
  const record: Opportunity = {
    id: crypto.randomUUID(),
    title: input.title,
    description: input.description,
    location: input.location,
    type: input.type,
    startDate: input.startDate,
    endDate: input.endDate,
    link: input.link,
    organizer: input.organizer,
    userId: owner.id,
    isVerified: publishesAtOnce(owner),
    isActive: true,
    createdAt: at,
    updatedAt: at,
  };
  await insertRecord(kv, record);
  return { ...record, postedBy: { id: owner.id, name: owner.name, role: owner.role } };
}

/** `GET /api/admin/opportunities`: the queue of `status` (or all), searched, with counts per state. */
export async function listReviewQueue(kv: Deno.Kv, query: AdminQueueQuery): Promise<AdminQueuePage> {
  const model = await readModel(kv);
  const { status, search } = query;
  const result = await page(
    kv,
    model.entries,
    (e) => (status === "all" || statusOf(e.record) === status) && matches(e, search),
    query.limit,
    query.offset,
  );
  const { pending, approved, rejected } = model.counts;
  return { ...result, counts: { pending, approved, rejected, all: pending + approved + rejected } };
}

/**
 * `PATCH /api/admin/opportunities/{id}`: `approve` sets `isVerified` and `isActive`, `reject`
 * clears `isActive` (states table "Opportunity"). Idempotent: an opportunity already in the
 * target state is left as it is. Concurrent reviews serialize on the record's versionstamp;
 * the last one wins and the indexes always match the stored state.
 * @throws NotFoundError "Opportunity not found" for an unknown id.
 */
export async function reviewOpportunity(
  kv: Deno.Kv,
  id: string,
  action: ReviewAction,
  now = new Date(),
): Promise<OpportunityView> {
  const record = await updateRecord(kv, id, (current) => {
    const target = action === "approve" ? { isVerified: true, isActive: true } : { isActive: false };
    if (statusOf({ ...current, ...target }) === statusOf(current)) return null;
    return { ...current, ...target, updatedAt: now.toISOString() };
  });
  if (!record) throw new NotFoundError(NOT_FOUND_MESSAGE);
  return (await withPostedBy(kv, [record]))[0];
}
