/**
 * The internships capability (docs/api.md, Internships; docs/decisions.md, Internships): list with
 * filters and search, read, create (one or a batch), update and soft delete. Open listings are answered
 * from the read model of `store.ts` (filters in `filters.ts`), closed and deleted ones from its archive, merged into
 * one list where a list includes them (docs/decisions.md, Open and closed listings); writes go through atomic
 * commits that move a listing between the two when it closes, is deleted or opens again; races lost to other
 * processes are retried for up to 30 s (then BusyError).
 */
import { istToday } from "@/lib/dates.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { mergedPage, updateEither } from "@/lib/kv/chunked/archive.ts";
import type { User } from "@/lib/users/users.ts";
import { canManage, canModerate, canRead, isClosedOn, type ReadAudience, type Viewer } from "./policy.ts";
import { ACTIVE, dayNumber, DELETED, internshipSearchText, typeCode } from "./columns.ts";
import { blockTest, filterKey, filterSlots, matchList, selectPage, type SlotFilter } from "./filters.ts";
import { type InternshipStore, internshipStore } from "./store.ts";
import {
  isWithheld,
  moderationDecided,
  type ModerationDecision,
  moderationOf,
  moderationOnCreate,
  moderationOnReports,
  moderationOnUpdate,
  moderationView,
} from "@/lib/moderation/moderation.ts";
import { moderationQueueOps } from "@/lib/moderation/queue.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { moderatedNotification } from "@/lib/moderation/notices.ts";
import { organizationCounts, resolveOrganizations } from "@/lib/organizations/store.ts";
import type { OrganizationSummary } from "@/lib/organizations/schema.ts";
import { countOps } from "@/lib/stats/counters.ts";
import { applyFieldsAfter, questionsWithIds } from "./questions.ts";
import type {
  Internship,
  InternshipCreate,
  InternshipOwner,
  InternshipQuery,
  InternshipUpdate,
  InternshipView,
} from "./schema.ts";

export {
  APPLY_MODES,
  DEFAULT_LIMIT,
  DEFAULT_QUERY,
  INTERNSHIP_TIMINGS,
  INTERNSHIP_TYPES,
  InternshipBatchSchema,
  InternshipCreateSchema,
  InternshipQuerySchema,
  InternshipUpdateSchema,
  MAX_BATCH,
  MAX_LIMIT,
  MAX_QUESTIONS,
} from "./schema.ts";
export type {
  ApplyMode,
  Internship,
  InternshipCreate,
  InternshipOwner,
  InternshipQuery,
  InternshipTiming,
  InternshipType,
  InternshipUpdate,
  InternshipView,
  Question,
} from "./schema.ts";

/** A page of the list with its pagination object (docs/api.md, Internships). */
export interface InternshipPage {
  internships: InternshipView[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

const NOT_FOUND = "Internship not found";

/** The owner object of a listing: null for a former member (no owner), a placeholder for an owner not found. */
function ownerOrPlaceholder(
  owners: ReadonlyMap<string, InternshipOwner>,
  userId: string | null,
): InternshipOwner | null {
  if (userId === null) return null;
  return owners.get(userId) ?? { id: userId, name: "Unknown user", image: null, role: "user" };
}

/** What a view shows beside a record: owner and organization summaries by id. */
interface ViewContext {
  owners: ReadonlyMap<string, InternshipOwner>;
  organizations: ReadonlyMap<string, OrganizationSummary>;
}

/**
 * `record` as read responses carry it, on IST day `today`: with its owner object, its organization (null only for a
 * listing the one-time link has not reached yet: docs/decisions.md, Trust, "Organizations"), `isClosed` and
 * `moderation`.
 */
function viewOf(record: Internship, { owners, organizations }: ViewContext, today: string): InternshipView {
  const { organizationId, moderation: _, applyMode = "link", questions = [], ...fields } = record;
  return {
    ...fields,
    applyMode,
    questions,
    user: ownerOrPlaceholder(owners, record.userId),
    organization: organizationId ? organizations.get(organizationId) ?? null : null,
    isClosed: isClosedOn(record.deadline, today),
    moderation: moderationView(record),
  };
}

/** `records` as read responses carry them on IST day `today` (`viewOf`), reading the owners and organizations. */
async function viewsOf(store: InternshipStore, records: Internship[], today: string): Promise<InternshipView[]> {
  const [owners, organizations] = await Promise.all([
    store.owners.of(records.flatMap((record) => record.userId ?? [])),
    store.organizations.summariesOf(records.flatMap((record) => record.organizationId ?? [])),
  ]);
  return records.map((record) => viewOf(record, { owners, organizations }, today));
}

/**
 * Whether `record` belongs in the read model on IST day `today`: not deleted, and its deadline not before today
 * (docs/decisions.md, Open and closed listings, "Where listings live"); otherwise it belongs in the archive.
 */
export function isLive(record: Internship, today: string): boolean {
  return !record.deletedAt && !isClosedOn(record.deadline, today);
}

/** The smallest monthly stipend (₹) of a paid internship (`paidOnly`). */
const PAID_FROM = 1;

/** The verified organizations' ids, as the `verifiedOnly` filter reads them (`SlotFilter.verified`). */
async function verifiedSet(store: InternshipStore): Promise<NonNullable<SlotFilter["verified"]>> {
  const version = store.organizations.version;
  return { organizations: await store.organizations.verifiedIds(), version };
}

/**
 * The filters of `query` for `viewer` on IST day `today`, as `listInternships` applies them; `verified` is the set
 * `verifiedOnly` tests against (`verifiedSet`).
 */
function slotFilterOf(
  query: InternshipQuery,
  viewer: User | null,
  today: string,
  verified?: SlotFilter["verified"],
): SlotFilter {
  const admin = viewer?.role === "admin";
  return {
    userId: query.mine ? viewer?.id : undefined,
    includeInactive: query.mine || (admin && query.includeInactive),
    includeDeleted: admin && query.includeDeleted,
    types: query.types.length > 0 ? new Set(query.types.map(typeCode)) : undefined,
    minStipend: query.paidOnly ? Math.max(query.minStipend ?? PAID_FROM, PAID_FROM) : query.minStipend,
    verified: query.verifiedOnly ? verified : undefined,
    maxStipend: query.maxStipend,
    tags: query.tags.length > 0 ? query.tags : undefined,
    location: query.location,
    words: query.search.map((word) => word.replaceAll("\0", "")).filter(Boolean),
    openOn: query.mine || query.includeClosed ? undefined : dayNumber(today),
  };
}

/**
 * One page of internships, newest first, matching every filter of `query`. Inactive and
 * deleted ones are listed only for an admin `viewer` who asks with `includeInactive` /
 * `includeDeleted`; for anyone else those flags are ignored. With `mine`, only the viewer's own
 * listings, inactive and closed ones included (deleted ones only for an admin with `includeDeleted`),
 * answered from the read model's per-owner postings. Listings closed on `today` (IST, `YYYY-MM-DD`) are left out
 * unless `includeClosed`.
 * @throws UnauthenticatedError for `mine` without a viewer.
 */
export async function listInternships(
  kv: Deno.Kv,
  { query, viewer, today = istToday() }: { query: InternshipQuery; viewer: User | null; today?: string },
): Promise<InternshipPage> {
  if (query.mine && !viewer) throw new UnauthenticatedError();
  const store = await internshipStore(kv);
  const verified = query.verifiedOnly ? await verifiedSet(store) : undefined;
  const { total, records } = await pageOf(store, slotFilterOf(query, viewer, today, verified), query);
  return {
    internships: await viewsOf(store, records, today),
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total,
      hasMore: query.offset + records.length < total,
    },
  };
}

/**
 * The records of one page of `filter` and how many match in all: from the read model alone for a list of open
 * listings that are not deleted, else merged with the archive's matches (docs/decisions.md, Open and closed listings, "Reading closed
 * listings"). A listing that moved between the two while the page was read is left out of it.
 */
async function pageOf(
  { model, archive }: InternshipStore,
  filter: SlotFilter,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ total: number; records: Internship[] }> {
  // Open listings are all in the read model; deleted ones (for an admin) are archived whatever their deadline.
  if (filter.openOn !== undefined && !filter.includeDeleted) {
    const { total, slots } = selectPage(model, filter, { offset, limit });
    return { total, records: await model.recordsOf(slots) };
  }
  const { total, items } = await archive.reading(async () => {
    const archived = await archive.matches(filterKey(filter), blockTest(filter));
    return await mergedPage({ model, archive, live: matchList(model, filter), archived }, { offset, limit });
  });
  const slots = items.flatMap((item) => "slot" in item ? [item.slot] : []);
  const [live, archived] = await Promise.all([
    model.recordsOf(slots),
    archive.records(items.flatMap((item) => "id" in item ? [item.id] : [])),
  ]);
  const byId = new Map(live.map((record) => [record.id, record]));
  const records = items.flatMap((item) => {
    const record = "slot" in item ? byId.get(model.slots.ids[item.slot]) : archived.get(item.id);
    return record ? [record] : [];
  });
  return { total, records };
}

/** The listings created in a window, to test many filters against (docs/decisions.md, Alerts). */
export interface NewInternships {
  /** How many listings were created in the window and are public. */
  count: number;
  /** Those matching `query`'s filters as the public list applies them (closed ones left out), newest first. */
  matching(query: InternshipQuery): InternshipView[];
}

/**
 * The public internships created after `after` and not after `until` (ms since the epoch), to match filters against on
 * IST day `today`: read once (the newest slots of the public order, and their records), then each filter is a test
 * of those few listings instead of a pass over every listing.
 */
export async function newInternships(
  kv: Deno.Kv,
  { after, until, today }: { after: number; until: number; today: string },
): Promise<NewInternships> {
  const store = await internshipStore(kv);
  const { model } = store;
  const created = model.slots.created;
  const slots: number[] = [];
  for (const slot of model.columns.publicView().slots) {
    if (created[slot] <= after) break;
    if (created[slot] <= until) slots.push(slot);
  }
  // A listing that left the read model meanwhile (closed) is left out.
  const records = await model.recordsOf(slots);
  const listed = await viewsOf(store, records, today);
  const views = new Map(records.map((record, i) => [model.slotOf(record.id)!, listed[i]]));
  const found = slots.filter((slot) => views.has(slot));
  const texts = records.map(internshipSearchText);
  const verified = await verifiedSet(store);
  return {
    count: found.length,
    matching: (query) =>
      filterSlots(model.columns, slotFilterOf(query, null, today, verified), { slots: found, texts }).map((slot) =>
        views.get(slot)!
      ),
  };
}

/**
 * The version of the internship data this process holds on IST day `today`: it changes with every write (this
 * process's at once, other processes' within `SYNC_INTERVAL_MS`) and with the day, which closes listings. Pages and
 * bodies that show internships to guests are cached per version.
 */
export async function internshipsVersion(kv: Deno.Kv, today = istToday()): Promise<string> {
  return `internships:${(await internshipStore(kv)).version}:${today}`;
}

/** An open internship as the sitemap lists it: id and last update in ms. */
export interface OpenInternshipStamp {
  id: string;
  updatedMs: number;
}

/**
 * Every internship open on IST day `today` (`YYYY-MM-DD`), newest first, with its last update, answered from the
 * read model's columns alone (no record is read).
 */
export async function openInternshipStamps(kv: Deno.Kv, today: string): Promise<OpenInternshipStamp[]> {
  const { model } = await internshipStore(kv);
  const day = dayNumber(today);
  const { columns, slots } = model;
  const stamps: OpenInternshipStamp[] = [];
  for (const slot of columns.publicView().slots) {
    if (columns.isOpen(slot, day)) stamps.push({ id: slots.ids[slot], updatedMs: columns.updated[slot] });
  }
  return stamps;
}

/**
 * The `count` newest internships open on IST day `today` that match `query`'s filters (its paging ignored), as a
 * guest reads them.
 */
export async function newestOpenInternships(
  kv: Deno.Kv,
  { query, today, count }: { query: InternshipQuery; today: string; count: number },
): Promise<InternshipView[]> {
  return (await listInternships(
    kv,
    { query: { ...query, mine: false, includeClosed: false, offset: 0, limit: count }, viewer: null, today },
  ))
    .internships;
}

/**
 * The internships of `ids` that guests may read (active and not deleted; closed ones included), by id, as the public
 * read answers them on IST day `today`; unknown and hidden ids are absent.
 */
export async function publicInternshipsById(
  kv: Deno.Kv,
  ids: readonly string[],
  today = istToday(),
): Promise<Map<string, InternshipView>> {
  const store = await internshipStore(kv);
  const { model, archive } = store;
  const slots = ids.flatMap((id) => {
    const slot = model.slotOf(id);
    return slot !== undefined && model.columns.flags[slot] === ACTIVE ? [slot] : [];
  });
  const elsewhere = ids.filter((id) => model.slotOf(id) === undefined);
  const [live, archived] = await Promise.all([model.recordsOf(slots), archive.records(elsewhere)]);
  const records = [...live, ...[...archived.values()].filter((record) => record.isActive && !record.deletedAt)];
  const views = await viewsOf(store, records, today);
  return new Map(views.map((view) => [view.id, view]));
}

/** Every internship `userId` posted, in every state (deleted ones included), newest first. */
export async function internshipsOwnedBy(kv: Deno.Kv, userId: string): Promise<Internship[]> {
  const store = await internshipStore(kv);
  const filter: SlotFilter = { userId, includeInactive: true, includeDeleted: true };
  return (await pageOf(store, filter, { offset: 0, limit: Number.MAX_SAFE_INTEGER })).records;
}

/**
 * Keeps the internships `userId` posted without their owner (`userId` null, shown as a former member): account
 * deletion. One checked write per listing in the read model (a listing's chunk is the unit of a write), and per 50
 * archived ones, so any number fit KV's limits.
 * @throws BusyError after 30 s of races lost on one write (those done stay done; running it again finishes).
 */
export async function forgetInternshipOwner(kv: Deno.Kv, userId: string): Promise<void> {
  const store = await internshipStore(kv);
  const forget = (record: Internship) => record.userId === userId ? { ...record, userId: null } : record;
  const ids = store.model.columns.ownerOrder(userId).map((slot) => store.model.slots.ids[slot]);
  for (const id of ids) await store.writer.update(id, forget);
  const archived = (await internshipsOwnedBy(kv, userId)).filter((record) =>
    store.model.slotOf(record.id) === undefined
  );
  for (let i = 0; i < archived.length; i += 50) {
    await store.archive.write({ put: archived.slice(i, i + 50).map(forget) });
  }
}

/**
 * Moves every listing of the read model that is closed on IST day `today` or deleted to the archive (the
 * `close-listings` job; docs/decisions.md, Open and closed listings, "Closing"): found in the columns, then taken out
 * chunk by chunk, each chunk's in one checked write with their archive records and blocks, calling `giveWay` between
 * writes. A listing changed meanwhile is judged as stored; one another process moved first is not there any more.
 * @returns how many listings were moved.
 */
export async function closeInternships(
  kv: Deno.Kv,
  { today, giveWay }: { today: string; giveWay: () => Promise<void> },
): Promise<number> {
  const { model, writer, archive } = await internshipStore(kv);
  const day = dayNumber(today);
  const { flags, deadlineDays } = model.columns;
  const chunks = new Set<number>();
  for (const slot of model.slots.order) {
    if ((flags[slot] & DELETED) !== 0 || deadlineDays[slot] < day) chunks.add(model.chunkOfSlot(slot));
  }
  let moved = 0;
  for (const n of chunks) {
    const taken = await writer.take(n, (record) => !isLive(record, today), (taken) => archive.rider({ put: taken }));
    moved += taken.length;
    await giveWay();
  }
  return moved;
}

/** How many distinct public list queries keep their serialized body. */
const PUBLIC_BODY_CACHE_SIZE = 256;
const publicBodies = new WeakMap<InternshipStore, { version: number; bodies: Map<string, string> }>();

/** The key of a public list query in the body cache (the viewer-dependent flags do not count). */
function publicBodyKey(query: InternshipQuery, today: string): string {
  return JSON.stringify({ ...query, includeInactive: false, includeDeleted: false, mine: false, today });
}

/** The public list bodies kept for `store`'s current version. */
function publicBodiesOf(store: InternshipStore): Map<string, string> {
  let cache = publicBodies.get(store);
  if (!cache || cache.version !== store.version) {
    cache = { version: store.version, bodies: new Map() };
    publicBodies.set(store, cache);
  }
  return cache.bodies;
}

/**
 * The JSON body of `GET /api/internships`, `{success: true, internships, pagination}`, for a
 * viewer who sees only public listings (a guest, or a non-admin without `mine`): the same for
 * every such viewer, so it is serialized once per query, IST day and read-model version (serializing a
 * page is the largest cost of a list request). Up to 256 queries are kept; then the cache starts
 * over.
 */
export async function publicListBody(kv: Deno.Kv, query: InternshipQuery): Promise<string> {
  const today = istToday();
  const key = publicBodyKey(query, today);
  const store = await internshipStore(kv);
  const bodies = publicBodiesOf(store);
  let body = bodies.get(key);
  if (body === undefined) {
    const version = store.version;
    body = JSON.stringify({
      success: true,
      ...await listInternships(kv, { query: { ...query, mine: false }, viewer: null, today }),
    });
    if (store.version === version) {
      if (bodies.size >= PUBLIC_BODY_CACHE_SIZE) bodies.clear();
      bodies.set(key, body);
    }
  }
  return body;
}

/**
 * One internship with its owner, as `viewer` may read it in `audience` (`canRead` of `policy.ts`).
 * @throws NotFoundError "Internship not found" when unknown, deleted, or hidden from `viewer`.
 */
export async function getInternship(
  kv: Deno.Kv,
  { id, viewer, audience }: { id: string; viewer: Viewer; audience: ReadAudience },
): Promise<InternshipView> {
  const store = await internshipStore(kv);
  const { model, archive } = store;
  const slot = model.slotOf(id);
  const record = slot === undefined ? (await archive.records([id])).get(id) : (await model.recordsOf([slot]))[0];
  const access = record &&
    { userId: record.userId, isActive: record.isActive, deleted: !!record.deletedAt, withheld: isWithheld(record) };
  if (!record || !access || !canRead(viewer, access, audience)) {
    throw new NotFoundError(NOT_FOUND);
  }
  const [view] = await viewsOf(store, [record], istToday());
  return view;
}

/**
 * Creates internships owned by `owner`, all in one atomic write (all or nothing): unverified,
 * active, with fresh ids and timestamps; one whose title or description asks applicants to pay is held for review
 * (docs/decisions.md, Trust, "The never-pay rule") and enters the moderation queue in the same write.
 * @throws BusyError after 30 s of races lost to other processes (nothing is created).
 */
export async function createInternships(
  kv: Deno.Kv,
  owner: User,
  items: InternshipCreate[],
): Promise<InternshipView[]> {
  const now = new Date().toISOString();
  const organizations = await resolveOrganizations(kv, items.map((item) => item.hiringOrganization));
  const records: Internship[] = items.map((item) => ({
    id: crypto.randomUUID(),
    title: item.title,
    description: item.description ?? null,
    type: item.type ?? null,
    timing: item.timing ?? null,
    link: item.link,
    hiringOrganization: item.hiringOrganization,
    hiringManager: item.hiringManager ?? null,
    tags: item.tags ?? [],
    stipend: item.stipend ?? null,
    duration: item.duration ?? null,
    experience: item.experience ?? null,
    location: item.location ?? null,
    deadline: item.deadline ?? null,
    isVerified: false,
    isActive: true,
    userId: owner.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    moderation: moderationOnCreate({ title: item.title, description: item.description ?? null }, now),
    organizationId: organizations.get(item.hiringOrganization)!,
    applyMode: item.applyMode ?? "link",
    questions: questionsWithIds(item.questions ?? []),
  }));
  const store = await internshipStore(kv);
  const today = istToday();
  const also = (op: Deno.AtomicOperation) => {
    for (const record of records) moderationQueueOps(op, "internships", null, record);
    countOps(op, [], records.flatMap(organizationCounts));
  };
  // An item already closed (a past deadline) goes to the archive, in the same all-or-nothing write.
  const open = records.filter((record) => isLive(record, today));
  const closed = records.filter((record) => !isLive(record, today));
  const rider = closed.length > 0 ? store.archive.rider({ put: closed }) : undefined;
  if (open.length > 0) await store.writer.insert(open, { also, rider });
  else await store.archive.write({ put: closed }, also);
  store.owners.remember(owner);
  return await viewsOf(store, records, today);
}

/**
 * Replaces the record `id` with `change(record)` as `actor` (owner or admin), in one atomic write, wherever it is,
 * that also moves the record in the moderation queue: one that closes or is deleted leaves the read model for the
 * archive in that write, an archived one that opens again comes back (docs/decisions.md, Open and closed listings,
 * "Coming back"); `change` runs again on the latest record after a lost race. `also` adds the caller's own mutations
 * to that write.
 * @throws NotFoundError for an unknown or deleted id; ForbiddenError for anyone but the owner or
 * an admin; what `change` throws; BusyError after 30 s of lost races (nothing is changed).
 */
async function writeInternship(
  kv: Deno.Kv,
  { id, actor, change, also }: {
    id: string;
    actor: User;
    change: (record: Internship) => Internship;
    also?: (op: Deno.AtomicOperation, next: Internship, previous: Internship) => void;
  },
): Promise<{ store: InternshipStore; record: Internship }> {
  const store = await internshipStore(kv);
  const guarded = (record: Internship) => {
    if (record.deletedAt) throw new NotFoundError(NOT_FOUND);
    if (!canManage(actor, record)) throw new ForbiddenError();
    return change(record);
  };
  const record = await updateAnywhere(kv, store, {
    id,
    change: guarded,
    also: (op, next, previous) => {
      moderationQueueOps(op, "internships", previous, next);
      countOps(op, organizationCounts(previous), organizationCounts(next));
      also?.(op, next, previous);
    },
  });
  if (!record) throw new NotFoundError(NOT_FOUND);
  return { store, record };
}

/**
 * Replaces the record `id` with `change(record)` (with `also`'s mutations) in one atomic write, in the read model or
 * the archive, moving it between them when it closes, is deleted or opens again (`updateEither`).
 * @returns the stored record, or null for an unknown id.
 */
async function updateAnywhere(
  kv: Deno.Kv,
  store: InternshipStore,
  { id, change, also }: {
    id: string;
    change: (record: Internship) => Internship;
    also: (op: Deno.AtomicOperation, next: Internship, previous: Internship) => void;
  },
): Promise<Internship | null> {
  const today = istToday();
  return await updateEither(kv, store, { id, change, also, isLive: (record) => isLive(record, today) });
}

/**
 * Applies `patch` (only the fields given) as owner or admin, and sets `updatedAt`. A change of the title or
 * description that adds a never-pay phrase holds the listing (`moderationOnUpdate`); a new `hiringOrganization` (or
 * any change of a listing not linked yet) links it to its organization, made when new.
 * @throws NotFoundError for an unknown or deleted id; ForbiddenError for anyone but the owner
 * or an admin, and for a non-admin setting `isVerified` or `isActive` (nothing is changed);
 * BusyError after 30 s of races lost to other processes (nothing is changed).
 */
export async function updateInternship(
  kv: Deno.Kv,
  { id, actor, patch }: { id: string; actor: User; patch: InternshipUpdate },
): Promise<InternshipView> {
  const changes: Partial<Internship> = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const name = patch.hiringOrganization ?? await unlinkedName(kv, id);
  const organizationId = name === undefined ? undefined : (await resolveOrganizations(kv, [name])).get(name);
  const { store, record } = await writeInternship(kv, {
    id,
    actor,
    change: (record) => {
      if (!canModerate(actor) && ("isVerified" in changes || "isActive" in changes)) {
        throw new ForbiddenError("Only admins can change isVerified or isActive");
      }
      const now = new Date().toISOString();
      const next: Internship = { ...record, ...changes, ...applyFieldsAfter(record, patch), updatedAt: now };
      if (organizationId && next.hiringOrganization === name) next.organizationId = organizationId;
      const moderation = moderationOnUpdate(moderationOf(record), { before: record, after: next }, now);
      return moderation === moderationOf(record) ? next : { ...next, moderation };
    },
  });
  const [view] = await viewsOf(store, [record], istToday());
  return view;
}

/** The `hiringOrganization` of internship `id` (live or archived) when it is not linked to its organization yet. */
async function unlinkedName(kv: Deno.Kv, id: string): Promise<string | undefined> {
  const { model, archive } = await internshipStore(kv);
  const slot = model.slotOf(id);
  const { organizations, organizationCodes } = model.columns;
  if (slot !== undefined && organizationCodes.names[organizations[slot]] !== "") return undefined;
  const record = slot === undefined ? (await archive.records([id])).get(id) : (await model.recordsOf([slot]))[0];
  return !record || record.organizationId ? undefined : record.hiringOrganization;
}

/**
 * Soft-deletes an internship as owner or admin: sets `deletedAt` (and `updatedAt`).
 * @throws NotFoundError for an unknown or already deleted id; ForbiddenError for anyone else;
 * BusyError after 30 s of races lost to other processes (nothing is changed).
 */
export async function deleteInternship(kv: Deno.Kv, id: string, actor: User): Promise<void> {
  await writeInternship(kv, {
    id,
    actor,
    change: (record) => {
      const now = new Date().toISOString();
      return { ...record, deletedAt: now, updatedAt: now };
    },
  });
}

/**
 * An admin's moderation `decision` on internship `id` with `note` (docs/decisions.md, Trust, "Moderation"): approve
 * lists it (`clear`), reject keeps it out for good (`rejected`). One write, which also moves it in the queue and, when
 * the state changed and the listing has an owner, tells them (`listing_moderated`, with the note). Returns the
 * internship as admins read it, and when it was held.
 * @throws NotFoundError for an unknown or deleted id; BusyError after 30 s of lost races (nothing changed).
 */
export async function moderateInternship(
  kv: Deno.Kv,
  { id, admin, decision, note, notify = true }: {
    id: string;
    admin: User;
    decision: ModerationDecision;
    note: string | null;
    /** False when the caller tells the owner itself (a listing hidden after reports). */
    notify?: boolean;
  },
): Promise<{ internship: InternshipView; heldAt: string | null }> {
  const { store, record } = await writeInternship(kv, {
    id,
    actor: admin,
    change: (record) => {
      const current = moderationOf(record);
      if (decision === "approve" && current.status === "clear") return record;
      if (decision === "reject" && current.status === "rejected") return record;
      const now = new Date().toISOString();
      return { ...record, moderation: moderationDecided(current, { decision, note, now }) };
    },
    also: (op, next) => {
      if (next.userId === null || !notify) return;
      addNotification(op, moderatedNotification({ kind: "internship", listing: next, userId: next.userId }));
    },
  });
  const [internship] = await viewsOf(store, [record], istToday());
  return { internship, heldAt: moderationOf(record).heldAt };
}

/**
 * Holds internship `id` because students reported it (docs/decisions.md, Trust, "Reports"), in one write that also
 * puts it in the moderation queue; nothing for a rejected, deleted or unknown one.
 * @throws BusyError after 30 s of lost races.
 */
export async function holdReportedInternship(kv: Deno.Kv, id: string): Promise<void> {
  const store = await internshipStore(kv);
  await updateAnywhere(kv, store, {
    id,
    change: (record) => {
      if (record.deletedAt) return record;
      const current = moderationOf(record);
      const next = moderationOnReports(current, new Date().toISOString());
      return next === current ? record : { ...record, moderation: next };
    },
    also: (op, next, previous) => {
      moderationQueueOps(op, "internships", previous, next);
      countOps(op, organizationCounts(previous), organizationCounts(next));
    },
  });
}

/**
 * The internship `id` as stored, in every state (deleted, inactive, held, closed), with its organization summary, or
 * null when unknown: what the applications of a listing are checked against (docs/decisions.md, Applications).
 */
export async function internshipRecord(
  kv: Deno.Kv,
  id: string,
): Promise<{ record: Internship; view: InternshipView } | null> {
  const store = await internshipStore(kv);
  const { model, archive } = store;
  const slot = model.slotOf(id);
  const record = slot === undefined ? (await archive.records([id])).get(id) : (await model.recordsOf([slot]))[0];
  if (!record) return null;
  const [view] = await viewsOf(store, [record], istToday());
  return { record, view };
}

/** The internships of `ids` as admins read them (every state but deleted), by id; unknown ids are absent. */
export async function internshipsForAdmin(kv: Deno.Kv, ids: readonly string[]): Promise<Map<string, InternshipView>> {
  const store = await internshipStore(kv);
  const { model, archive } = store;
  const slots = ids.flatMap((id) => model.slotOf(id) ?? []);
  const [live, archived] = await Promise.all([
    model.recordsOf(slots),
    archive.records(ids.filter((id) => model.slotOf(id) === undefined)),
  ]);
  const records = [...live, ...[...archived.values()].filter((record) => !record.deletedAt)];
  const views = await viewsOf(store, records, istToday());
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * One page of the internships of organization `organizationId` open on IST day `today` (as the public list shows
 * them: active, not withheld, deadline not passed), newest first, with how many there are: the organization's page
 * (docs/decisions.md, Trust, "Organizations").
 */
export async function openInternshipsOf(
  kv: Deno.Kv,
  { organizationId, offset, limit, today = istToday() }: {
    organizationId: string;
    offset: number;
    limit: number;
    today?: string;
  },
): Promise<{ internships: InternshipView[]; total: number }> {
  const store = await internshipStore(kv);
  const { columns } = store.model;
  const day = dayNumber(today);
  const open = columns.organizationOrder(organizationId).filter((slot) => columns.isOpen(slot, day));
  const records = await store.model.recordsOf(open.slice(offset, offset + limit));
  return { internships: await viewsOf(store, records, today), total: open.length };
}
