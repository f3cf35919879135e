/**
 * The opportunities capability (docs/api.md, Opportunities, "Review states"; docs/decisions.md, Opportunities):
 * submission (a `user`'s waits for review, a `member`'s or `admin`'s is published at once), the public list with `type`
 * and `search`, the caller's own submissions, read by id, the admin queue by review state with counts, and
 * approve/reject. Lists are answered from the read model of `store.ts`; every write is one checked atomic commit.
 *
 * Review: `approve` sets `isVerified` and `isActive`; `reject` clears `isActive` (the record is
 * kept, hidden, under `status=rejected`) and keeps the admin's reason for the submitter (`rejection`). Either may follow
 * the other (an admin can reverse a decision); repeating the state a record is already in changes nothing. Concurrent
 * reviews are ordered by KV: the record ends in the state of the last one, and its state is one value, so it is never
 * in two queues. The submitter may edit a submission awaiting review or rejected by review and send it back to review
 * (`resubmitOpportunity`; docs/decisions.md, Opportunities, "Reject with a reason, resubmit").
 *
 * Closed opportunities (their `endDate` before today) leave the read model for its archive (docs/decisions.md, Open and
 * closed listings, "Opportunities"): the public list's closed part, `mine` and the admin queue merge the archive's
 * matches with the read model's (`mine` reads the submitter's through the archive's owner index once it is built); every
 * write finds a record where it is and moves it when it closes or opens again.
 */
import type { AuditHook } from "@/lib/admin_log/admin_log.ts";
import { istToday } from "@/lib/dates.ts";
import { ConflictError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { getUserSummaries, type User } from "@/lib/users/users.ts";
import { addNotification, type NotificationInput } from "@/lib/notifications/notifications.ts";
import {
  heldByReports,
  moderationDecided,
  type ModerationDecision,
  moderationOf,
  moderationOnCreate,
  moderationOnDismissal,
  moderationOnReports,
  moderationOnResubmit,
  moderationOnReviewRejection,
  moderationView,
} from "@/lib/moderation/moderation.ts";
import { moderationQueueOps } from "@/lib/moderation/queue.ts";
import { moderatedNotification } from "@/lib/moderation/notices.ts";
import { canRead, canResubmit, publishesAtOnce, type Viewer } from "./policy.ts";
import {
  type AdminOpportunityQuery,
  type Opportunity,
  OPPORTUNITY_STATUSES,
  OPPORTUNITY_TYPES,
  type OpportunityCreate,
  type OpportunityQuery,
  type OpportunityStatus,
  type OpportunityView,
  type PostedBy,
  publishedMs,
  type Review,
  statusOf,
} from "./schema.ts";
import { type OpportunityColumns, type OpportunityEntry, opportunityStore } from "./store.ts";
import { removalMarkOps } from "./removal_mark.ts";
import type { ArchiveBlock } from "@/lib/kv/chunked/archive_block.ts";
import {
  allOf,
  type BlockTest,
  mergedPage,
  newestFirst,
  type PageItem,
  pageWithRecords,
  updateEither,
} from "@/lib/kv/chunked/archive.ts";
import type { OnLostRace } from "@/lib/kv/retry.ts";
import type { Remover } from "@/lib/reports/schema.ts";
import { removingListing } from "@/lib/reports/removals.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { assertUnchangedSince } from "@/lib/moderation/seen_version.ts";

export * from "./schema.ts";

const NOT_FOUND = REFUSALS.opportunityNotFound;
/** The refusal of an edit to an opportunity published or rejected by moderation (meanwhile, on a page: an admin's review). */
export const NOT_EDITABLE = REFUSALS.opportunityReviewed;
const APPROVED = OPPORTUNITY_STATUSES.indexOf("approved");

/** A page of a list with the internships' pagination object. */
export interface OpportunityPage {
  opportunities: OpportunityView[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

/** Records per review state, and all of them. */
export type StatusCounts = Record<OpportunityStatus | "all", number>;

/** Whether an opportunity ending on `endDate` is closed on IST day `today` (both `YYYY-MM-DD`). */
export function isOpportunityClosedOn(endDate: string, today: string): boolean {
  return endDate < today;
}

/**
 * `records` as read responses carry them: with `postedBy` (null for a former member: a submitter forgotten, or whose
 * account is being deleted, its user record gone before this record is forgotten), and `isClosed` on today's IST date.
 */
async function withPostedBy(kv: Deno.Kv, records: Opportunity[]): Promise<OpportunityView[]> {
  const summaries = await getUserSummaries(kv, records.flatMap((r) => r.userId ?? []));
  const today = istToday();
  return records.map(({ publishedAt: _, ...record }) => {
    const isClosed = isOpportunityClosedOn(record.endDate, today);
    const moderation = moderationView(record);
    const rejection = record.rejection ?? null;
    const user = record.userId === null ? undefined : summaries.get(record.userId);
    const postedBy: PostedBy | null = user ? { id: user.id, name: user.name, role: user.role } : null;
    return { ...record, postedBy, isClosed, moderation, rejection };
  });
}

type OpportunityModel = Awaited<ReturnType<typeof opportunityStore>>["model"];

/** The published slots in list order on one IST day, and how many of them (the first ones) are open. */
interface PublicOrder {
  version: number;
  today: string;
  slots: number[];
  open: number;
}

const publicOrders = new WeakMap<OpportunityModel, PublicOrder>();

/** Orders open slots: the one ending soonest first, then the one starting soonest, then newest. */
function openFirst(columns: OpportunityColumns) {
  return (a: number, b: number) => {
    const { endDates, startDates, slots } = columns;
    if (endDates[a] !== endDates[b]) return endDates[a] < endDates[b] ? -1 : 1;
    if (startDates[a] !== startDates[b]) return startDates[a] < startDates[b] ? -1 : 1;
    return slots.newerFirst(a, b);
  };
}

/**
 * The published opportunities in public list order on IST day `today` (docs/decisions.md, Student space): open ones
 * (ongoing and upcoming) first, the one ending soonest on top, ties by start date then newest; then closed ones, the
 * latest `endDate` first, ties newest. Sorted once per read-model version and day, then kept.
 */
function publicOrder(model: OpportunityModel, today: string): PublicOrder {
  const kept = publicOrders.get(model);
  if (kept && kept.version === model.version && kept.today === today) return kept;
  const { columns } = model;
  const open: number[] = [], closed: number[] = [];
  for (const slot of model.slots.order) {
    if (columns.statuses[slot] !== APPROVED) continue;
    (isOpportunityClosedOn(columns.endDates[slot], today) ? closed : open).push(slot);
  }
  open.sort(openFirst(columns));
  closed.sort((a, b) => {
    const x = columns.endDates[a], y = columns.endDates[b];
    return x !== y ? (x < y ? 1 : -1) : model.slots.newerFirst(a, b);
  });
  const order = { version: model.version, today, slots: open.concat(closed), open: open.length };
  publicOrders.set(model, order);
  return order;
}

/** The test of whether a slot of `model` is of one of `types` (type names as a query gives them; none: every type). */
function typeTest(model: OpportunityModel, types: readonly string[]): (slot: number) => boolean {
  const codes = new Set(types.map((t) => OPPORTUNITY_TYPES.indexOf(t as typeof OPPORTUNITY_TYPES[number])));
  return (slot) => codes.size === 0 || codes.has(model.columns.types[slot]);
}

/** Whether `record` belongs in the read model on IST day `today`: it has not ended before today. */
export function isOpportunityLive(record: Opportunity, today: string): boolean {
  return !isOpportunityClosedOn(record.endDate, today);
}

/** Positions of the fields of `OpportunityEntry` that the archive's block tests read. */
const TYPE = 2, STATUS = 3, OWNER = 4, UPDATED = 5, END = 7;
const DAY_MS = 86_400_000;

/**
 * The rank of a closed opportunity in the public order: its end day (later first), then its creation second (newer
 * first); ties within a second fall to creation time and id, newest first, as everywhere.
 */
function closedRank(endDate: string, createdMs: number): number {
  return Date.parse(`${endDate}T00:00:00Z`) / DAY_MS * 2 ** 32 + Math.floor(createdMs / 1000);
}

/** What a list selects: type codes (empty: any), a review-state code (undefined: any), an owner, search words. */
interface Selection {
  types: readonly string[];
  status?: number;
  owner?: string;
  words: readonly string[];
}

const selectionKey = ({ types, status, owner, words }: Selection) =>
  JSON.stringify([[...types].sort(), status ?? null, owner ?? null, [...words].sort()]);

/** The slots of `base` that `selection` selects. */
function selectLive(model: OpportunityModel, base: readonly number[], { types, status, owner, words }: Selection) {
  const ofType = typeTest(model, types);
  const marks = words.length > 0 ? model.searchMarks([...words]) : undefined;
  const { statuses, owners } = model.columns;
  return base.filter((slot) =>
    ofType(slot) && (status === undefined || statuses[slot] === status) &&
    (owner === undefined || owners[slot] === owner) &&
    (!marks || marks[slot] === 1)
  );
}

/** `selection` as a test of the archive's blocks (the rules of `selectLive`). */
function archivedTest({ types, status, owner, words }: Selection): BlockTest<OpportunityEntry> {
  const codes = new Set(types.map((t) => OPPORTUNITY_TYPES.indexOf(t as typeof OPPORTUNITY_TYPES[number])));
  return (block: ArchiveBlock<OpportunityEntry>) => {
    const masks: (Uint8Array | null)[] = [block.mask(STATUS, (code) => status === undefined || code === status)];
    if (codes.size > 0) masks.push(block.mask(TYPE, (type) => codes.has(type as number)));
    if (owner !== undefined) masks.push(block.mask(OWNER, (id) => id === owner));
    if (words.length > 0) masks.push(block.search(words.map((word) => [word])));
    return allOf(masks);
  };
}

/** The records of `items` (read model slots and archived ids), in order; one that moved meanwhile is left out. */
async function recordsOfItems(
  { model, archive }: Awaited<ReturnType<typeof opportunityStore>>,
  items: PageItem[],
): Promise<Opportunity[]> {
  const [live, archived] = await Promise.all([
    model.recordsOf(items.flatMap((item) => "slot" in item ? [item.slot] : [])),
    archive.records(items.flatMap((item) => "id" in item ? [item.id] : [])),
  ]);
  const byId = new Map(live.map((record) => [record.id, record]));
  return items.flatMap((item) => {
    const record = "slot" in item ? byId.get(model.slots.ids[item.slot]) : archived.get(item.id);
    return record ? [record] : [];
  });
}

/**
 * One page of `live` (read model slots in list order) followed by or merged with the archive's matches of
 * `selection` (newest first, or with `ranked` by the closed opportunities' public order), and how many in all.
 */
async function mergedRecords(
  store: Awaited<ReturnType<typeof opportunityStore>>,
  { live, selection, ranked, offset, limit }: {
    live: readonly number[];
    selection: Selection;
    ranked?: boolean;
    offset: number;
    limit: number;
  },
): Promise<{ total: number; records: Opportunity[] }> {
  const { model, archive } = store;
  const { columns } = model;
  const { total, items } = await archive.reading(async () => {
    const archived = await archive.matches(
      `${ranked ? "ranked" : "newest"}\0${selectionKey(selection)}`,
      archivedTest(selection),
      ranked ? (block) => (i) => closedRank(block.value(END, i) as string, block.created[i]) : undefined,
    );
    const liveRank = ranked
      ? (slot: number) => closedRank(columns.endDates[slot], model.slots.created[slot])
      : undefined;
    return await mergedPage({ model, archive, live, archived, liveRank }, { offset, limit });
  });
  return { total, records: await recordsOfItems(store, items) };
}

async function page(
  kv: Deno.Kv,
  { records, total, limit, offset }: { records: Opportunity[]; total: number; limit: number; offset: number },
): Promise<OpportunityPage> {
  return {
    opportunities: await withPostedBy(kv, records),
    pagination: { limit, offset, total, hasMore: offset + records.length < total },
  };
}

/**
 * One page of published opportunities in public list order (`publicOrder`: open ones first; closed ones, the
 * archived among them, unless `includeClosed` is false) matching `query`; with `mine`, the viewer's own submissions in
 * every state instead, newest first.
 * @throws UnauthenticatedError for `mine` without a viewer.
 */
export async function listOpportunities(
  kv: Deno.Kv,
  query: OpportunityQuery,
  viewer: Viewer,
): Promise<OpportunityPage> {
  if (query.mine && !viewer) throw new UnauthenticatedError();
  const store = await opportunityStore(kv);
  const { model } = store;
  const { limit, offset } = query;
  const words = query.search.map((w) => w.replaceAll("\0", "")).filter(Boolean);
  if (query.mine) {
    const selection = { types: query.type, owner: viewer!.id, words };
    const live = selectLive(model, model.columns.ownerOrder(viewer!.id), selection);
    // The archived ones through the archive's owner index once it is built, else from a test of every block.
    const owned = await store.archive.ownedMatching(viewer!.id, archivedTest(selection));
    const listed = owned
      ? await pageWithRecords({ model, live, archived: owned, merged: true }, { offset, limit })
      : await mergedRecords(store, { live, selection, offset, limit });
    return await page(kv, { ...listed, limit, offset });
  }
  const order = publicOrder(model, istToday());
  const selection = { types: query.type, status: APPROVED, words };
  const open = selectLive(model, order.slots.slice(0, order.open), selection);
  const openPage = open.slice(offset, offset + limit);
  if (!query.includeClosed) {
    const records = await model.recordsOf(openPage);
    return await page(kv, { records, total: open.length, limit, offset });
  }
  const closed = await mergedRecords(store, {
    live: selectLive(model, order.slots.slice(order.open), selection),
    selection,
    ranked: true,
    offset: Math.max(0, offset - open.length),
    limit: limit - openPage.length,
  });
  const records = [...await model.recordsOf(openPage), ...closed.records];
  return await page(kv, { records, total: open.length + closed.total, limit, offset });
}

/** The admin queue: one page of the records in `query.status` (or all), newest first, with the counts per state. */
export async function adminQueue(
  kv: Deno.Kv,
  query: AdminOpportunityQuery,
): Promise<OpportunityPage & { counts: StatusCounts }> {
  const store = await opportunityStore(kv);
  const { model, archive } = store;
  const status = query.status === "all" ? undefined : OPPORTUNITY_STATUSES.indexOf(query.status);
  const selection = { types: [], status, words: query.search };
  const live = selectLive(model, model.slots.order, selection);
  const { limit, offset } = query;
  const listed = await mergedRecords(store, { live, selection, offset, limit });
  // The archive's records per state: a scan per state, kept per archive version like any filter's matches.
  const archived = await archive.reading(() =>
    Promise.all(OPPORTUNITY_STATUSES.map(async (_, code) => {
      const only = { types: [], status: code, words: [] };
      return (await archive.matches(`newest\0${selectionKey(only)}`, archivedTest(only))).count;
    }))
  );
  const [pending, approved, rejected] = model.columns.counts.map((n, code) => n + archived[code]);
  return {
    ...await page(kv, { ...listed, limit, offset }),
    counts: { pending, approved, rejected, all: pending + approved + rejected },
  };
}

/**
 * One opportunity with `postedBy`, when `viewer` may read it (`canRead`).
 * @throws NotFoundError "Opportunity not found" when unknown or hidden from `viewer`.
 */
export async function getOpportunity(kv: Deno.Kv, id: string, viewer: Viewer): Promise<OpportunityView> {
  const record = await opportunityRecord(kv, id);
  if (!record || !canRead(viewer, record)) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
}

/**
 * True when opportunity `id` exists and an admin took it off the site: review rejected it, or a report's resolution
 * hid or removed it (docs/decisions.md, Trust, "Reports"). Its page says so (410) to those who may not read it.
 */
export async function isOpportunityRemoved(kv: Deno.Kv, id: string): Promise<boolean> {
  const record = await opportunityRecord(kv, id);
  return !!record && (!record.isActive || record.moderation?.status === "rejected");
}

/** The stored opportunity `id`, live or archived, or undefined. */
async function opportunityRecord(kv: Deno.Kv, id: string): Promise<Opportunity | undefined> {
  const { model, archive } = await opportunityStore(kv);
  const slot = model.slotOf(id);
  return slot === undefined ? (await archive.records([id])).get(id) : (await model.recordsOf([slot]))[0];
}

/**
 * Every published opportunity open on IST day `today` (ongoing and upcoming), as the public read answers them, in the
 * public list's order (the one ending soonest first).
 */
export async function openPublishedOpportunities(kv: Deno.Kv, today = istToday()): Promise<OpportunityView[]> {
  const { model } = await opportunityStore(kv);
  const order = publicOrder(model, today);
  return await withPostedBy(kv, await model.recordsOf(order.slots.slice(0, order.open)));
}

/** The opportunities published in a window, to test many filters against (docs/decisions.md, Alerts). */
export interface NewOpportunities {
  /** How many open opportunities became public in the window. */
  count: number;
  /** Those matching `query`'s type and search words as the public list applies them, newest first. */
  matching(query: Pick<OpportunityQuery, "type" | "search">): OpportunityView[]; /**
   * The ids of those that became public after they were created (approved, released, made active again): ones a
   * reader may have been told about before their window (docs/decisions.md, Alerts, "Told once").
   */

  republished: ReadonlySet<string>;
}

/**
 * The published opportunities open on IST day `today` that became public (`publishedMs`) after `after` and not after
 * `until` (ms since the epoch), read once, then each filter a test of those few (as `select` tests, on their search
 * texts). Becoming public moves `updatedAt` too, so only the slots created by `until` and created or updated after
 * `after` are read (docs/decisions.md, Alerts, "Published, not created").
 */
export async function newOpportunities(
  kv: Deno.Kv,
  { after, until, today }: { after: number; until: number; today: string },
): Promise<NewOpportunities> {
  const { model } = await opportunityStore(kv);
  const order = publicOrder(model, today);
  const created = model.slots.created, updated = model.columns.updated;
  const slots = order.slots.slice(0, order.open)
    .filter((slot) => created[slot] <= until && Math.max(created[slot], updated[slot]) > after)
    .sort(model.slots.newerFirst);
  // An opportunity that left the read model meanwhile (closed) is left out.
  const records = (await model.recordsOf(slots)).filter((record) => {
    const published = publishedMs(record);
    return published > after && published <= until;
  });
  const views = await withPostedBy(kv, records);
  const texts = records.map((record) => model.layout.searchText(record));
  const found = records.map((record) => model.slotOf(record.id)!);
  return {
    count: records.length,
    republished: new Set(records.flatMap((r) => r.publishedAt && r.publishedAt !== r.createdAt ? [r.id] : [])),
    matching({ type, search }) {
      const ofType = typeTest(model, type);
      return views.filter((_, i) =>
        ofType(found[i]) && search.every((word) => texts[i].includes(word.replaceAll("\0", "")))
      );
    },
  };
}

/** The published opportunities of `ids` by id, as the public read answers them; unknown and hidden ids are absent. */
export async function publishedOpportunitiesById(
  kv: Deno.Kv,
  ids: readonly string[],
): Promise<Map<string, OpportunityView>> {
  const { model, archive } = await opportunityStore(kv);
  const slots = ids.flatMap((id) => {
    const slot = model.slotOf(id);
    return slot !== undefined && model.columns.statuses[slot] === APPROVED ? [slot] : [];
  });
  const [live, archived] = await Promise.all([
    model.recordsOf(slots),
    archive.records(ids.filter((id) => model.slotOf(id) === undefined)),
  ]);
  const published = [...archived.values()].filter((record) => statusOf(record) === "approved");
  const views = await withPostedBy(kv, [...live, ...published]);
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * The end dates (`YYYY-MM-DD`) of the published opportunities of `ids` that end from IST day `from` through `to`, by
 * id, from the read model's columns alone: no record is read (the home page's "Closing soon", docs/decisions.md,
 * Student space, "The home page"). A closed one (in the archive) is absent.
 */
export async function opportunityEndsBetween(
  kv: Deno.Kv,
  ids: readonly string[],
  { from, to }: { from: string; to: string },
): Promise<Map<string, string>> {
  const { model } = await opportunityStore(kv);
  const { statuses, endDates } = model.columns;
  const ends = new Map<string, string>();
  for (const id of ids) {
    const slot = model.slotOf(id);
    if (slot === undefined || statuses[slot] !== APPROVED) continue;
    if (endDates[slot] >= from && endDates[slot] <= to) ends.set(id, endDates[slot]);
  }
  return ends;
}

/**
 * Records a submission by `user`: awaiting review, or published at once for members and admins, unless any of its
 * texts (title, description, location, organizer) asks for money (docs/decisions.md, Trust, "The never-pay rule"): then it is held for review whoever
 * submitted it, and enters the moderation queue in the same write.
 */
export async function submitOpportunity(kv: Deno.Kv, user: User, input: OpportunityCreate): Promise<OpportunityView> {
  const now = new Date().toISOString();
  const record = withPublication(null, {
    id: crypto.randomUUID(),
    ...input,
    userId: user.id,
    isVerified: publishesAtOnce(user),
    isActive: true,
    createdAt: now,
    updatedAt: now,
    moderation: moderationOnCreate(input, now),
  }, now);
  const store = await opportunityStore(kv);
  const also = (op: Deno.AtomicOperation) => moderationQueueOps(op, "opportunities", null, record);
  // One that ended already (a past end date) goes to the archive at once.
  if (isOpportunityLive(record, istToday())) await store.writer.insert([record], { also });
  else await store.archive.write({ put: [record] }, also);
  const isClosed = isOpportunityClosedOn(record.endDate, istToday());
  const { publishedAt: _, ...fields } = record;
  return {
    ...fields,
    postedBy: { id: user.id, name: user.name, role: user.role },
    isClosed,
    moderation: moderationView(record),
    rejection: null,
  };
}

/**
 * The submitter's edit of opportunity `id` to `input`, which sends it back to review (awaiting review whoever they
 * are, since review rejected it or has not decided yet): the same fields as a submission, every text read again by
 * the never-pay rule (`moderationOnResubmit`), the last rejection kept for the admin to compare. One checked write, which also
 * moves it in the moderation queue.
 * @throws NotFoundError when unknown, hidden from `user` or another person's; ConflictError when students' reports
 *   hold it (`heldByReports`), or it is published or moderation rejected it (only a submission awaiting review or
 *   rejected by review is edited); BusyError after 30 s of lost races.
 */
export async function resubmitOpportunity(
  kv: Deno.Kv,
  { user, id, input }: { user: User; id: string; input: OpportunityCreate },
): Promise<OpportunityView> {
  const record = await updateOpportunity(kv, {
    id,
    change: (current) => {
      // Another person's, whatever its state, is hidden as one they cannot read is (docs/api.md, Opportunities).
      if (!canRead(user, current) || current.userId !== user.id) throw new NotFoundError(NOT_FOUND);
      if (heldByReports(current.moderation)) throw new ConflictError(REFUSALS.heldByReports);
      if (!canResubmit(user, current)) throw new ConflictError(NOT_EDITABLE);
      const now = new Date().toISOString();
      const moderation = moderationOnResubmit(moderationOf(current), input, now);
      return { ...current, ...input, isVerified: false, isActive: true, moderation, updatedAt: now };
    },
    also: (op, next, previous) => moderationQueueOps(op, "opportunities", previous, next),
  });
  if (!record) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
}

/**
 * The record after `review` at `now`: approve publishes it, clears a moderation hold (docs/decisions.md, Trust,
 * "Moderation") and the last rejection; reject hides it with its reason (`rejection`) and lifts a hold
 * (`moderationOnReviewRejection`: its submitter may edit it and submit it again, as they are told). The same object
 * when nothing changes.
 */
function reviewed(current: Opportunity, { action, reason }: Review, now: string): Opportunity {
  const note = action === "reject" ? reason ?? null : null;
  const flags = action === "approve"
    ? { isVerified: true, isActive: true }
    : { isVerified: current.isVerified, isActive: false };
  const moderation = moderationOf(current);
  const decided = action === "approve"
    ? (moderation.status === "clear" ? moderation : moderationDecided(moderation, { decision: "approve", note, now }))
    : moderationOnReviewRejection(moderation, now);
  if (flags.isVerified === current.isVerified && flags.isActive === current.isActive && decided === moderation) {
    return current;
  }
  const rejection = action === "reject" ? { reason: note, at: now } : null;
  return { ...current, ...flags, ...decided === moderation ? {} : { moderation: decided }, rejection, updatedAt: now };
}

/**
 * Applies `review` (see the module docstring) in one checked write, which also moves the record in the moderation
 * queue and adds the `opportunity_reviewed` notification for the submitter, with the reason of a rejection, when the
 * review changed the record's state (docs/decisions.md, Notifications), and `audit`'s entry.
 * @throws NotFoundError for an unknown id; ConflictError (`listingChanged`) when `review.updatedAt` is given and the
 *   record changed since (docs/decisions.md, Trust, "Moderation"); BusyError after 30 s of lost races (nothing changed).
 */
export async function reviewOpportunity(
  kv: Deno.Kv,
  { id, review, audit }: { id: string; review: Review; audit?: AuditHook },
): Promise<OpportunityView> {
  const record = await updateOpportunity(kv, {
    id,
    change: (current) => {
      assertUnchangedSince(current, review.updatedAt);
      return reviewed(current, review, new Date().toISOString());
    },
    also: (op, next, previous) => {
      moderationQueueOps(op, "opportunities", previous, next);
      if (next.userId !== null) addNotification(op, reviewNotification(next, next.userId));
      audit?.(op, id, review.action);
    },
  });
  if (!record) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
}

/**
 * An admin's moderation `decision` on opportunity `id` with `note` (docs/decisions.md, Trust, "Moderation"): approve
 * publishes it and clears its reasons, reject hides it for good. One write, which also moves it in the queue and, when
 * it changed and it has a submitter, tells them (`listing_moderated`, with the note). A reject that rejects it
 * resolves its open reports as removed by `removedBy` in the same write, the rest after it (`removingListing`;
 * docs/decisions.md, Trust, "Reports of what is removed"), unless `removedBy` is null (the caller resolves them:
 * `resolveTarget`). Returns the opportunity as admins read it, and when it was held. `audit`'s entry (and checks), when
 * given, is in the same write. A lost race is tried again, or with `onLostRace` "give-up" ends the call (a caller that
 * reads its checks again).
 * @throws NotFoundError for an unknown id; ConflictError (`listingChanged`) when `updatedAt` is given and the record
 *   changed since; BusyError after 30 s of lost races (nothing changed), or of its reports' writes; RaceLost for a lost
 *   race with `onLostRace` "give-up" (nothing changed).
 */
export async function moderateOpportunity(
  kv: Deno.Kv,
  { id, decision, note, updatedAt, notify = true, removedBy = "moderation", audit, onLostRace }: {
    id: string;
    decision: ModerationDecision;
    note: string | null;
    /** The record's `updatedAt` as the admin read it; none decides on the current text. */
    updatedAt?: string;
    /** False when the caller tells the submitter itself (a listing hidden after reports). */
    notify?: boolean;
    /** Who a reject removes it as, for its open reports; null when the caller resolves them. */
    removedBy?: Remover | null;
    audit?: AuditHook;
    onLostRace?: OnLostRace;
  },
): Promise<{ opportunity: OpportunityView; heldAt: string | null }> {
  const record = await removingListing(
    kv,
    { kind: "opportunity", targetId: id, reports: decision === "reject" && removedBy !== null, onLostRace },
    ({ reportsRead, join }) =>
      updateOpportunity(kv, {
        id,
        change: async (current) => {
          await reportsRead;
          assertUnchangedSince(current, updatedAt);
          const now = new Date().toISOString();
          const next = reviewed(current, { action: decision, reason: note }, now);
          if (decision === "reject" && moderationOf(next).status !== "rejected") {
            const moderation = moderationDecided(moderationOf(current), { decision, note, now });
            return { ...next, moderation, updatedAt: now };
          }
          return next;
        },
        also: (op, next, previous) => {
          moderationQueueOps(op, "opportunities", previous, next);
          if (next.userId !== null && notify) {
            addNotification(op, moderatedNotification({ kind: "opportunity", listing: next, userId: next.userId }));
          }
          if (removedBy && moderationOf(next).status === "rejected" && moderationOf(previous).status !== "rejected") {
            join(op, { by: removedBy, at: new Date().toISOString() });
          }
          audit?.(op, id);
        },
        onLostRace: "give-up",
      }),
  );
  if (!record) throw new NotFoundError(NOT_FOUND);
  return { opportunity: (await withPostedBy(kv, [record]))[0], heldAt: moderationOf(record).heldAt };
}

/**
 * Holds opportunity `id` because students' reports reached the threshold at `since` (ISO; docs/decisions.md, Trust,
 * "Reports"): it leaves the public lists until an admin decides; nothing for a rejected or unknown one, one held for
 * it already, or one an admin decided on since (`moderationOnReports`).
 * @throws BusyError after 30 s of lost races.
 */
export async function holdReportedOpportunity(kv: Deno.Kv, id: string, since: string): Promise<void> {
  await updateOpportunity(kv, {
    id,
    change: (record) => {
      const current = moderationOf(record);
      const next = moderationOnReports(current, { since, now: new Date().toISOString() });
      return next === current ? record : { ...record, moderation: next };
    },
    also: (op, next, previous) => moderationQueueOps(op, "opportunities", previous, next),
  });
}

/**
 * Releases opportunity `id` from a hold by students' reports after an admin dismissed them (`moderationOnDismissal`,
 * docs/decisions.md, Trust, "Reports"): listed again unless the never-pay rule holds it too. One write, which also moves
 * it in the moderation queue, with `audit`'s mutations (and checks); nothing for an unknown one or one reports do not
 * hold. Its submitter is not told (a hold by reports never told them either). A lost race is tried again, or with
 * `onLostRace` "give-up" ends the call. Returns whether it stays held (for another reason).
 * @throws BusyError after 30 s of lost races; RaceLost for a lost race with `onLostRace` "give-up" (nothing changed).
 */
export async function releaseReportedOpportunity(
  kv: Deno.Kv,
  id: string,
  { audit, onLostRace }: { audit?: AuditHook; onLostRace?: OnLostRace } = {},
): Promise<boolean> {
  const record = await updateOpportunity(kv, {
    id,
    change: (record) => {
      const current = moderationOf(record);
      const next = moderationOnDismissal(current, new Date().toISOString());
      return next === current ? record : { ...record, moderation: next };
    },
    also: (op, next, previous) => {
      moderationQueueOps(op, "opportunities", previous, next);
      audit?.(op, id);
    },
    onLostRace,
  });
  return record !== null && moderationOf(record).status === "held";
}

/** The opportunities of `ids` as admins read them (every state), by id; unknown ids are absent. */
export async function opportunitiesForAdmin(
  kv: Deno.Kv,
  ids: readonly string[],
): Promise<Map<string, OpportunityView>> {
  const { model, archive } = await opportunityStore(kv);
  const slots = ids.flatMap((id) => model.slotOf(id) ?? []);
  const [live, archived] = await Promise.all([
    model.recordsOf(slots),
    archive.records(ids.filter((id) => model.slotOf(id) === undefined)),
  ]);
  const views = await withPostedBy(kv, [...live, ...archived.values()]);
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * `next` (the record that was `before`, null when new) with `publishedAt` and `updatedAt` set to `now` when it becomes
 * public with this write (docs/decisions.md, Alerts, "Published, not created"); else `next` as it is.
 */
function withPublication(before: Opportunity | null, next: Opportunity, now: string): Opportunity {
  if (statusOf(next) !== "approved" || (before !== null && statusOf(before) === "approved")) return next;
  return { ...next, publishedAt: now, updatedAt: now };
}

/**
 * Replaces opportunity `id` with `change(record)` (with `also`'s mutations) in one checked write wherever it is, moving
 * it into or out of the archive when it ends or opens again (`updateEither`); one that becomes public with it is
 * stamped so (`withPublication`), one moderation rejects or lists again has its removal mark set (`removalMarkOps`). A
 * lost race is tried again unless `onLostRace` is "give-up".
 * @returns the stored record, or null for an unknown id.
 * @throws RaceLost for a lost race with `onLostRace` "give-up"; as `updateEither`.
 */
async function updateOpportunity(
  kv: Deno.Kv,
  { id, change, also, onLostRace }: {
    id: string;
    change: (record: Opportunity) => Opportunity | Promise<Opportunity>;
    also?: (op: Deno.AtomicOperation, next: Opportunity, previous: Opportunity) => void;
    onLostRace?: OnLostRace;
  },
): Promise<Opportunity | null> {
  const today = istToday();
  return await updateEither(kv, await opportunityStore(kv), {
    id,
    change: async (record) => withPublication(record, await change(record), new Date().toISOString()),
    also: (op, next, previous) => {
      removalMarkOps(op, previous, next);
      also?.(op, next, previous);
    },
    isLive: (record) => isOpportunityLive(record, today),
    onLostRace,
  });
}

/**
 * Moves every opportunity of the read model that ended before IST day `today` to the archive (the `close-listings`
 * job; docs/decisions.md, Open and closed listings, "Closing"), chunk by chunk as `closeInternships` does.
 * @returns how many were moved.
 */
export async function closeOpportunities(
  kv: Deno.Kv,
  { today, giveWay }: { today: string; giveWay: () => Promise<void> },
): Promise<number> {
  const { model, writer, archive } = await opportunityStore(kv);
  const chunks = new Set<number>();
  for (const slot of model.slots.order) {
    if (isOpportunityClosedOn(model.columns.endDates[slot], today)) chunks.add(model.chunkOfSlot(slot));
  }
  let moved = 0;
  for (const n of chunks) {
    const taken = await writer.take(
      n,
      (record) => !isOpportunityLive(record, today),
      (taken) => archive.rider({ put: taken }),
    );
    moved += taken.length;
    await giveWay();
  }
  return moved;
}

/**
 * The notification telling `userId` that their opportunity `record` was approved or rejected (words by key); the
 * reason's own final full stop is left out, as the sentence quoting it ends with one.
 */
function reviewNotification(record: Opportunity, userId: string): NotificationInput {
  const reason = record.rejection?.reason?.replace(/\s*[.।]+$/, "");
  const title = { title: record.title };
  return {
    userId,
    type: "opportunity_reviewed",
    message: record.isActive
      ? {
        title: { key: "notifications.text.opportunityApproved.title" },
        body: { key: "notifications.text.opportunityApproved.body", values: title },
      }
      : {
        title: { key: "notifications.text.opportunityRejected.title" },
        body: reason
          ? { key: "notifications.text.opportunityRejected.bodyReason", values: { ...title, reason } }
          : { key: "notifications.text.opportunityRejected.body", values: title },
      },
    url: `/opportunities/${record.id}`,
  };
}

/**
 * Every opportunity `userId` submitted, in every review state, newest first: the read model's from its postings, the
 * archived ones from the archive's owner index (docs/decisions.md, Data rights, "Read by person"), or, until the
 * `closed-owners-index` job has indexed the opportunities archived before it, from a test of every block.
 */
export async function opportunitiesOwnedBy(kv: Deno.Kv, userId: string): Promise<Opportunity[]> {
  const store = await opportunityStore(kv);
  const live = store.model.columns.ownerOrder(userId);
  const archived = await store.archive.ownedBy(userId);
  if (archived) return newestFirst(await store.model.recordsOf(live), archived);
  const selection = { types: [], owner: userId, words: [] };
  return (await mergedRecords(store, { live, selection, offset: 0, limit: Number.MAX_SAFE_INTEGER })).records;
}

/**
 * How many opportunities `userId` submitted, as `opportunitiesOwnedBy` would list them, without reading them: the read
 * model's postings by owner and the archive's owner index ("Your data", docs/decisions.md, Data rights, "Read by
 * person"); until that index is built, their count as listed.
 */
export async function opportunityCountOwnedBy(kv: Deno.Kv, userId: string): Promise<number> {
  const { model, archive } = await opportunityStore(kv);
  const archived = await archive.idsOwnedBy(userId);
  if (!archived) return (await opportunitiesOwnedBy(kv, userId)).length;
  const live = new Set(model.columns.ownerOrder(userId).map((slot) => model.slots.ids[slot]));
  return live.size + archived.filter((id) => !live.has(id)).length;
}

/**
 * Keeps the opportunities `userId` submitted without their submitter (`userId` null, shown as a former member):
 * account deletion, one checked write per record. After every 50 writes it calls `renew` (the deletion's lease), whose
 * throw stops it.
 * @throws BusyError after 30 s of races lost on one record (running it again finishes); what `renew` throws.
 */
export async function forgetOpportunityOwner(
  kv: Deno.Kv,
  userId: string,
  { renew }: { renew?: () => Promise<void> } = {},
): Promise<void> {
  const { model, writer, archive } = await opportunityStore(kv);
  const forget = (record: Opportunity) => record.userId === userId ? { ...record, userId: null } : record;
  for (const [i, id] of model.columns.ownerOrder(userId).map((slot) => model.slots.ids[slot]).entries()) {
    await writer.update(id, forget);
    if (i % 50 === 49) await renew?.();
  }
  const archived = (await opportunitiesOwnedBy(kv, userId)).filter((record) => model.slotOf(record.id) === undefined);
  for (let i = 0; i < archived.length; i += 50) {
    await archive.write({ put: archived.slice(i, i + 50).map(forget) });
    await renew?.();
  }
}

/** A published opportunity as the sitemap lists it: id and last update in ms. */
export interface OpportunityStamp {
  id: string;
  updatedMs: number;
}

/** Every published opportunity, newest first, with its last update, from the read model's columns alone. */
export async function publishedOpportunityStamps(kv: Deno.Kv): Promise<OpportunityStamp[]> {
  const { model, archive } = await opportunityStore(kv);
  const { columns, slots } = model;
  const live = slots.order.filter((slot) => columns.statuses[slot] === APPROVED)
    .map((slot) => ({ id: slots.ids[slot], updatedMs: columns.updated[slot] }));
  const selection = { types: [], status: APPROVED, words: [] };
  const archived = await archive.reading(async () => {
    const matches = await archive.matches(`newest\0${selectionKey(selection)}`, archivedTest(selection));
    return await archive.entriesOf(matches, 0, matches.count);
  });
  const stamps = [...live, ...archived.map((entry) => ({ id: entry[0], updatedMs: entry[UPDATED] ?? entry[1] }))];
  const created = new Map([
    ...slots.order.map((slot) => [slots.ids[slot], slots.created[slot]] as const),
    ...archived.map((entry) => [entry[0], entry[1]] as const),
  ]);
  return stamps.sort((a, b) => created.get(b.id)! - created.get(a.id)! || (a.id < b.id ? 1 : -1));
}

/**
 * The version of the opportunity data this process holds on IST day `today` (changes with every write and with the
 * day, which closes opportunities): for caches of public pages.
 */
export async function opportunitiesVersion(kv: Deno.Kv, today = istToday()): Promise<string> {
  return `opportunities:${(await opportunityStore(kv)).model.version}:${today}`;
}
