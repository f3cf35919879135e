/**
 * The internships' reads (docs/api.md, Internships; docs/decisions.md, Internships): list with filters and search,
 * read one, the newest, the sitemap's stamps, an organization's open listings, a person's own for export. Open
 * listings are answered from the read model of `store.ts` (filters in `filters.ts`), closed and deleted ones from its
 * archive, merged into one list where a list includes them (docs/decisions.md, Open and closed listings). The writes
 * are `writes.ts`'s.
 */
import { istToday } from "@/lib/dates.ts";
import { NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { mergedPage, newestFirst, pageWithRecords, readEither } from "@/lib/kv/chunked/archive.ts";
import type { User } from "@/lib/users/users.ts";
import { canRead, type ReadAudience, type Viewer } from "./policy.ts";
import { ACTIVE, dayNumber, internshipSearchText, typeCode } from "./columns.ts";
import {
  blockClauses,
  blockTest,
  filterKey,
  filterSlots,
  matchList,
  organizationBlockTest,
  selectPage,
  type SlotFilter,
  sortedMatchList,
} from "./filters.ts";
import { type InternshipStore, internshipStore } from "./store.ts";
import { isWithheld } from "@/lib/moderation/moderation.ts";
import { viewsOf } from "./views.ts";
import { inDoubt, strangersAmong } from "@/lib/organizations/pending_links.ts";
import {
  type Internship,
  type InternshipQuery,
  type InternshipSort,
  type InternshipView,
  publishedMs,
} from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { isAdmin } from "@/lib/users/roles.ts";

/** A day in ms. */
const DAY_MS = 86_400_000;

/** The message of an internship that is unknown, deleted or hidden from the reader. */
export const NOT_FOUND = REFUSALS.internshipNotFound;

export {
  APPLY_MODES,
  DEFAULT_LIMIT,
  DEFAULT_QUERY,
  INTERNSHIP_SORTS,
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
  InternshipSort,
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

/** The smallest monthly stipend (₹) of a paid internship (`paidOnly`). */
const PAID_FROM = 1;

/** `strangerSlots` as last found per store, for the store's version then. */
const keptStrangers = new WeakMap<InternshipStore, { version: number; slots: Promise<ReadonlySet<number>> }>();

/**
 * The slots of the read model whose link to their organization the `organizations-unlink` job will undo
 * (docs/decisions.md, Trust, "Who lists under a verified name"): of the listings of the verified organizations still
 * queued for it, those in doubt (`inDoubt`) whose owner neither manages it nor is an admin (`strangersAmong`). Nothing
 * is read while the queue is empty; otherwise the answer is kept for the store's version (a listing, owner or
 * organization changed: a claim, a job's write, an account forgotten), so requests meanwhile read nothing more.
 */
function strangerSlots(store: InternshipStore): Promise<ReadonlySet<number>> {
  const kept = keptStrangers.get(store);
  if (kept?.version === store.version) return kept.slots;
  const slots = findStrangerSlots(store);
  keptStrangers.set(store, { version: store.version, slots });
  slots.catch(() => keptStrangers.get(store)?.slots === slots && keptStrangers.delete(store));
  return slots;
}

/** `strangerSlots`, read. */
async function findStrangerSlots(store: InternshipStore): Promise<ReadonlySet<number>> {
  const pending = await store.organizations.unlinkPending();
  if (pending.size === 0) return new Set();
  const { columns, slots: { created } } = store.model;
  const doubted = [...pending.keys()].flatMap((organizationId) =>
    columns.organizationOrder(organizationId).filter((slot) => {
      const mark = columns.byManager[slot];
      const link = {
        organizationId,
        createdAt: new Date(created[slot]).toISOString(),
        userId: columns.ownerOf(slot),
        linkedByManager: mark === -1 ? undefined : mark === 1,
      };
      return inDoubt(link, pending);
    }).map((slot) => ({ slot, organizationId, ownerId: columns.ownerOf(slot) }))
  );
  const strangers = await strangersAmong(store.kv, doubted);
  return new Set(doubted.flatMap(({ slot }, i) => strangers[i] ? [slot] : []));
}

/** The verified organizations' ids, as the `verifiedOnly` filter reads them (`SlotFilter.verified`). */
async function verifiedSet(store: InternshipStore): Promise<NonNullable<SlotFilter["verified"]>> {
  const version = store.organizations.version;
  const [organizations, strangers] = await Promise.all([store.organizations.verifiedIds(), strangerSlots(store)]);
  return { organizations, version, strangers };
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
  const admin = isAdmin(viewer);
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
 * One page of internships matching every filter of `query`, newest first or in `query.sort`'s order (with closed
 * listings included, the open ones in that order and then the closed ones, newest first). Inactive and
 * deleted ones are listed only for an admin `viewer` who asks with `includeInactive` /
 * `includeDeleted`; for anyone else those flags are ignored. With `mine`, only the viewer's own
 * listings, inactive and closed ones included (deleted ones only for an admin with `includeDeleted`),
 * answered from the read model's per-owner postings and the archive's owner index. Listings closed on `today` (IST,
 * `YYYY-MM-DD`) are left out unless `includeClosed`.
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
 * listings that are not deleted, else merged with the archive's matches (docs/decisions.md, Open and closed listings,
 * "Reading closed listings"): one owner's (`userId`) read through the archive's owner index once it is built, anyone
 * else's from a test of the archive's blocks. A listing that moved between the two while the page was read is left out
 * of it.
 */
async function pageOf(
  { model, archive }: InternshipStore,
  filter: SlotFilter,
  { offset, limit, sort }: { offset: number; limit: number; sort: InternshipSort },
): Promise<{ total: number; records: Internship[] }> {
  // Open listings are all in the read model; deleted ones (for an admin) are archived whatever their deadline.
  if (filter.openOn !== undefined && !filter.includeDeleted) {
    const { total, slots } = selectPage(model, filter, { offset, limit, sort });
    return { total, records: await model.recordsOf(slots) };
  }
  const owned = filter.userId === undefined ? null : await archive.ownedMatching(filter.userId, blockTest(filter));
  if (owned) {
    // Sorted: the read model's listings in the order asked, then the archived ones, newest first.
    const live = sortedMatchList(model, filter, sort);
    return await pageWithRecords({ model, live, archived: owned, merged: sort === "newest" }, { offset, limit });
  }
  const { total, items } = await archive.reading(async () => {
    const clauses = blockClauses(filter);
    const archived = clauses
      ? await archive.matchesOfAll(filterKey(filter), clauses)
      : await archive.matches(filterKey(filter), blockTest(filter));
    if (sort === "newest") {
      return await mergedPage({ model, archive, live: matchList(model, filter), archived }, { offset, limit });
    }
    // Sorted: the read model's listings in the order asked, then the archived ones (closed or deleted), newest first.
    const live = sortedMatchList(model, filter, sort);
    const items: ({ slot: number } | { id: string })[] = Array.from(live.subarray(offset, offset + limit), (slot) => ({
      slot,
    }));
    const from = Math.max(0, offset - live.length), to = Math.min(archived.count, offset + limit - live.length);
    if (to > from) { for (const key of await archive.keysOf(archived, from, to)) items.push({ id: key[1] }); }
    return { total: live.length + archived.count, items };
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

/**
 * How many slots of the public view `newInternships` passes between calls of its `pause` (about 0.1 ms of work;
 * docs/decisions.md, Alerts, "Published, not created").
 */
const PAUSE_EVERY_SLOTS = 16_384;

/** The listings published in a window, to test many filters against (docs/decisions.md, Alerts). */
export interface NewInternships {
  /** How many public listings became public in the window. */
  count: number;
  /** Those matching `query`'s filters as the public list applies them (closed ones left out), newest first. */
  matching(query: InternshipQuery): InternshipView[]; /**
   * The ids of those that became public after they were created (approved, released, made active again): ones a
   * reader may have been told about before their window (docs/decisions.md, Alerts, "Told once").
   */

  republished: ReadonlySet<string>;
}

/**
 * The public internships that became public (`publishedMs`) after `after` and not after `until` (ms since the epoch),
 * to match filters against on IST day `today`: read once (the slots of the public order created by `until` and created
 * or updated after `after`, as becoming public moves `updatedAt` too, and their records), then each filter is a test of
 * those few listings instead of a pass over every listing (docs/decisions.md, Alerts, "Published, not created").
 * The pass over the public view calls `pause` (when given) every `PAUSE_EVERY_SLOTS` slots, so a caller in the request
 * process can give way to requests.
 */
export async function newInternships(
  kv: Deno.Kv,
  { after, until, today, pause }: { after: number; until: number; today: string; pause?: () => Promise<void> },
): Promise<NewInternships> {
  const store = await internshipStore(kv);
  const { model } = store;
  const created = model.slots.created, updated = model.columns.updated;
  const slots: number[] = [];
  const view = model.columns.publicView().slots;
  for (let i = 0; i < view.length; i++) {
    const slot = view[i];
    if (created[slot] <= until && Math.max(created[slot], updated[slot]) > after) slots.push(slot);
    if (pause && i % PAUSE_EVERY_SLOTS === PAUSE_EVERY_SLOTS - 1) await pause();
  }
  // A listing that left the read model meanwhile (closed) is left out.
  const records = (await model.recordsOf(slots)).filter((record) => {
    const published = publishedMs(record);
    return published > after && published <= until;
  });
  const listed = await viewsOf(store, records, today);
  const views = new Map(records.map((record, i) => [model.slotOf(record.id)!, listed[i]]));
  const found = slots.filter((slot) => views.has(slot));
  const texts = records.map(internshipSearchText);
  const verified = await verifiedSet(store);
  return {
    count: found.length,
    republished: new Set(records.flatMap((r) => r.publishedAt && r.publishedAt !== r.createdAt ? [r.id] : [])),
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
    {
      query: { ...query, mine: false, includeClosed: false, sort: "newest", offset: 0, limit: count },
      viewer: null,
      today,
    },
  ))
    .internships;
}

/**
 * The internships of `ids` that guests may read (active, not deleted, not withheld by moderation; closed ones
 * included), by id, as the public read answers them on IST day `today`; unknown and hidden ids are absent.
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
  const listed = [...archived.values()].filter((record) => record.isActive && !record.deletedAt && !isWithheld(record));
  const views = await viewsOf(store, [...live, ...listed], today);
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * The deadline days (IST, `YYYY-MM-DD`) of the internships of `ids` the public may read whose deadline falls from IST
 * day `from` through `to`, by id, from the read model's columns alone: no record is read (the home page's "Closing
 * soon", docs/decisions.md, Student space, "The home page"). A closed or deleted listing (in the archive) is absent.
 */
export async function internshipDeadlinesBetween(
  kv: Deno.Kv,
  ids: readonly string[],
  { from, to }: { from: string; to: string },
): Promise<Map<string, string>> {
  const { model } = await internshipStore(kv);
  const { flags, deadlineDays } = model.columns;
  const first = dayNumber(from), last = dayNumber(to);
  const days = new Map<string, string>();
  for (const id of ids) {
    const slot = model.slotOf(id);
    if (slot === undefined || flags[slot] !== ACTIVE) continue;
    const day = deadlineDays[slot];
    if (day >= first && day <= last) days.set(id, new Date(day * DAY_MS).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Every internship linked to organization `organizationId`, in every state (deleted ones included): those of the read
 * model from its postings, the archived ones from a test of the archive's blocks.
 */
export async function internshipsOfOrganization(kv: Deno.Kv, organizationId: string): Promise<Internship[]> {
  const { model, archive } = await internshipStore(kv);
  const live = await model.recordsOf(model.columns.organizationOrder(organizationId));
  const ids = await archive.reading(async () => {
    const matches = await archive.matches(`organization\0${organizationId}`, organizationBlockTest(organizationId));
    return (await archive.keysOf(matches, 0, matches.count)).map((key) => key[1]);
  });
  const archived = await archive.records(ids);
  return [...live, ...ids.flatMap((id) => archived.get(id) ?? [])];
}

/**
 * Every internship `userId` posted, in every state (deleted ones included), newest first: the read model's from its
 * postings, the archived ones from the archive's owner index (docs/decisions.md, Data rights, "Read by person"), or,
 * until the `closed-owners-index` job has indexed the listings archived before it, from a test of every block.
 */
export async function internshipsOwnedBy(kv: Deno.Kv, userId: string): Promise<Internship[]> {
  const store = await internshipStore(kv);
  const archived = await store.archive.ownedBy(userId);
  if (!archived) {
    const filter: SlotFilter = { userId, includeInactive: true, includeDeleted: true };
    return (await pageOf(store, filter, { offset: 0, limit: Number.MAX_SAFE_INTEGER, sort: "newest" })).records;
  }
  return newestFirst(await store.model.recordsOf(store.model.columns.ownerOrder(userId)), archived);
}

/**
 * How many internships `userId` posted, as `internshipsOwnedBy` would list them, without reading them: the read model's
 * postings by owner and the archive's owner index ("Your data", docs/decisions.md, Data rights, "Read by person");
 * until that index is built, their count as listed.
 */
export async function internshipCountOwnedBy(kv: Deno.Kv, userId: string): Promise<number> {
  const { model, archive } = await internshipStore(kv);
  const archived = await archive.idsOwnedBy(userId);
  if (!archived) return (await internshipsOwnedBy(kv, userId)).length;
  const live = new Set(model.columns.ownerOrder(userId).map((slot) => model.slots.ids[slot]));
  return live.size + archived.filter((id) => !live.has(id)).length;
}

/**
 * The JSON body of `GET /api/internships`, `{success: true, internships, pagination}`, for a viewer who sees only
 * public listings (a guest, or a non-admin without `mine`): the same for every such viewer, so the route keeps it in
 * the guest page cache per URL and read-model version (docs/decisions.md, Guest pages) and calls this on a miss.
 */
export async function publicListBody(kv: Deno.Kv, query: InternshipQuery): Promise<string> {
  return JSON.stringify({
    success: true,
    ...await listInternships(kv, { query: { ...query, mine: false }, viewer: null }),
  });
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

/**
 * The internship `id` in any state, read from KV itself (`readEither`), not from the process's read model, which may be
 * up to a second behind another process's write; with its view. Null for an unknown id.
 */
export async function currentInternshipRecord(
  kv: Deno.Kv,
  id: string,
): Promise<{ record: Internship; view: InternshipView } | null> {
  const store = await internshipStore(kv);
  const record = await readEither(kv, store, id);
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
 * them: active, not withheld, deadline not passed; not one the unlink job will unlink, `strangerSlots`), newest first,
 * with how many there are: the organization's page (docs/decisions.md, Trust, "Organizations").
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
  const strangers = await strangerSlots(store);
  const open = columns.organizationOrder(organizationId).filter((slot) =>
    columns.isOpen(slot, day) && !strangers.has(slot)
  );
  const records = await store.model.recordsOf(open.slice(offset, offset + limit));
  return { internships: await viewsOf(store, records, today), total: open.length };
}
