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
 */
import { istToday } from "@/lib/dates.ts";
import { ConflictError, NotFoundError, UnauthenticatedError } from "@/lib/errors.ts";
import { getUserSummaries, type User } from "@/lib/users/users.ts";
import { addNotification, type NotificationInput } from "@/lib/notifications/notifications.ts";
import {
  moderationDecided,
  type ModerationDecision,
  moderationOf,
  moderationOnCreate,
  moderationOnReports,
  moderationOnUpdate,
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
  type Review,
} from "./schema.ts";
import { type OpportunityColumns, opportunityStore } from "./store.ts";

export * from "./schema.ts";

const NOT_FOUND = "Opportunity not found";
const NOT_EDITABLE = "Only a submission awaiting review or not approved can be edited";
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

/** `records` as read responses carry them: with `postedBy`, and `isClosed` on today's IST date. */
async function withPostedBy(kv: Deno.Kv, records: Opportunity[]): Promise<OpportunityView[]> {
  const summaries = await getUserSummaries(kv, records.flatMap((r) => r.userId ?? []));
  const today = istToday();
  return records.map((record) => {
    const isClosed = isOpportunityClosedOn(record.endDate, today);
    const moderation = moderationView(record);
    const rejection = record.rejection ?? null;
    if (record.userId === null) return { ...record, postedBy: null, isClosed, moderation, rejection };
    const user = summaries.get(record.userId);
    const postedBy: PostedBy = user
      ? { id: user.id, name: user.name, role: user.role }
      : { id: record.userId, name: "Unknown user", role: "user" };
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

/** The slots of `base` whose type is one of `types` (all when empty) and whose search text holds every word. */
async function select(
  kv: Deno.Kv,
  { base, types, words }: { base: (model: OpportunityModel) => number[]; types: string[]; words: string[] },
) {
  const { model } = await opportunityStore(kv);
  const ofType = typeTest(model, types);
  const marks = words.length > 0 ? model.searchMarks(words.map((w) => w.replaceAll("\0", ""))) : undefined;
  const slots = base(model).filter((slot) => ofType(slot) && (!marks || marks[slot] === 1));
  return { model, slots };
}

async function page(
  kv: Deno.Kv,
  model: OpportunityModel,
  { slots, limit, offset }: { slots: number[]; limit: number; offset: number },
): Promise<OpportunityPage> {
  const records = await model.recordsOf(slots.slice(offset, offset + limit));
  return {
    opportunities: await withPostedBy(kv, records),
    pagination: { limit, offset, total: slots.length, hasMore: offset + records.length < slots.length },
  };
}

/**
 * One page of published opportunities in public list order (`publicOrder`: open ones first; closed ones left out
 * unless `includeClosed`) matching `query`; with `mine`, the viewer's own submissions in every state instead, newest
 * first.
 * @throws UnauthenticatedError for `mine` without a viewer.
 */
export async function listOpportunities(
  kv: Deno.Kv,
  query: OpportunityQuery,
  viewer: Viewer,
): Promise<OpportunityPage> {
  if (query.mine && !viewer) throw new UnauthenticatedError();
  const { model, slots } = await select(kv, {
    base: (model) => {
      if (query.mine) return model.columns.ownerOrder(viewer!.id);
      const order = publicOrder(model, istToday());
      return query.includeClosed ? order.slots : order.slots.slice(0, order.open);
    },
    types: query.type,
    words: query.search,
  });
  return await page(kv, model, { slots, limit: query.limit, offset: query.offset });
}

/** The admin queue: one page of the records in `query.status` (or all), newest first, with the counts per state. */
export async function adminQueue(
  kv: Deno.Kv,
  query: AdminOpportunityQuery,
): Promise<OpportunityPage & { counts: StatusCounts }> {
  const code = query.status === "all" ? -1 : OPPORTUNITY_STATUSES.indexOf(query.status);
  const { model, slots } = await select(kv, {
    base: (model) =>
      code === -1 ? model.slots.order : model.slots.order.filter((slot) => model.columns.statuses[slot] === code),
    types: [],
    words: query.search,
  });
  const [pending, approved, rejected] = model.columns.counts;
  return {
    ...await page(kv, model, { slots, limit: query.limit, offset: query.offset }),
    counts: { pending, approved, rejected, all: pending + approved + rejected },
  };
}

/**
 * One opportunity with `postedBy`, when `viewer` may read it (`canRead`).
 * @throws NotFoundError "Opportunity not found" when unknown or hidden from `viewer`.
 */
export async function getOpportunity(kv: Deno.Kv, id: string, viewer: Viewer): Promise<OpportunityView> {
  const { model } = await opportunityStore(kv);
  const slot = model.slotOf(id);
  if (slot === undefined) throw new NotFoundError(NOT_FOUND);
  const [record] = await model.recordsOf([slot]);
  if (!canRead(viewer, record)) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
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
  /** How many open published opportunities were created in the window. */
  count: number;
  /** Those matching `query`'s type and search words as the public list applies them, newest first. */
  matching(query: Pick<OpportunityQuery, "type" | "search">): OpportunityView[];
}

/**
 * The published opportunities open on IST day `today` and created after `after` and not after `until` (ms since the
 * epoch), read once, then each filter a test of those few (as `select` tests, on their search texts).
 */
export async function newOpportunities(
  kv: Deno.Kv,
  { after, until, today }: { after: number; until: number; today: string },
): Promise<NewOpportunities> {
  const { model } = await opportunityStore(kv);
  const order = publicOrder(model, today);
  const created = model.slots.created;
  const slots = order.slots.slice(0, order.open).filter((slot) => created[slot] > after && created[slot] <= until)
    .sort(model.slots.newerFirst);
  // An opportunity that left the read model meanwhile (closed) is left out.
  const records = await model.recordsOf(slots);
  const views = await withPostedBy(kv, records);
  const texts = records.map((record) => model.layout.searchText(record));
  const found = records.map((record) => model.slotOf(record.id)!);
  return {
    count: records.length,
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
  const { model } = await opportunityStore(kv);
  const slots = ids.flatMap((id) => {
    const slot = model.slotOf(id);
    return slot !== undefined && model.columns.statuses[slot] === APPROVED ? [slot] : [];
  });
  const views = await withPostedBy(kv, await model.recordsOf(slots));
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * Records a submission by `user`: awaiting review, or published at once for members and admins, unless its title or
 * description asks for money (docs/decisions.md, Trust, "The never-pay rule"): then it is held for review whoever
 * submitted it, and enters the moderation queue in the same write.
 */
export async function submitOpportunity(kv: Deno.Kv, user: User, input: OpportunityCreate): Promise<OpportunityView> {
  const now = new Date().toISOString();
  const record: Opportunity = {
    id: crypto.randomUUID(),
    ...input,
    userId: user.id,
    isVerified: publishesAtOnce(user),
    isActive: true,
    createdAt: now,
    updatedAt: now,
    moderation: moderationOnCreate(input, now),
  };
  await (await opportunityStore(kv)).writer.insert([record], {
    also: (op) => moderationQueueOps(op, "opportunities", null, record),
  });
  const isClosed = isOpportunityClosedOn(record.endDate, istToday());
  return {
    ...record,
    postedBy: { id: user.id, name: user.name, role: user.role },
    isClosed,
    moderation: moderationView(record),
    rejection: null,
  };
}

/**
 * The submitter's edit of opportunity `id` to `input`, which sends it back to review (awaiting review whoever they
 * are, since review rejected it or has not decided yet): the same fields as a submission, moderation checked again on
 * the new text (`moderationOnUpdate`), the last rejection kept for the admin to compare. One checked write, which also
 * moves it in the moderation queue.
 * @throws NotFoundError when unknown or hidden from `user`; ConflictError when it is published or moderation rejected
 *   it (only a submission awaiting review or rejected by review is edited); BusyError after 30 s of lost races.
 */
export async function resubmitOpportunity(
  kv: Deno.Kv,
  { user, id, input }: { user: User; id: string; input: OpportunityCreate },
): Promise<OpportunityView> {
  const store = await opportunityStore(kv);
  const record = await store.writer.update(id, (current) => {
    if (!canRead(user, current)) throw new NotFoundError(NOT_FOUND);
    if (!canResubmit(user, current)) throw new ConflictError(NOT_EDITABLE);
    const now = new Date().toISOString();
    const moderation = moderationOnUpdate(moderationOf(current), { before: current, after: input }, now);
    return { ...current, ...input, isVerified: false, isActive: true, moderation, updatedAt: now };
  }, (op, next, previous) => moderationQueueOps(op, "opportunities", previous, next));
  if (!record) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
}

/**
 * The record after `review` at `now`: approve publishes it, clears a moderation hold (docs/decisions.md, Trust,
 * "Moderation") and the last rejection; reject hides it with its reason (`rejection`), and a held one becomes rejected
 * by moderation with the reason as the admin's note. The same object when nothing changes.
 */
function reviewed(current: Opportunity, { action, reason }: Review, now: string): Opportunity {
  const note = action === "reject" ? reason ?? null : null;
  const flags = action === "approve"
    ? { isVerified: true, isActive: true }
    : { isVerified: current.isVerified, isActive: false };
  const moderation = moderationOf(current);
  const decided = action === "approve"
    ? (moderation.status === "clear" ? moderation : moderationDecided(moderation, { decision: "approve", note, now }))
    : (moderation.status === "held" ? moderationDecided(moderation, { decision: "reject", note, now }) : moderation);
  if (flags.isVerified === current.isVerified && flags.isActive === current.isActive && decided === moderation) {
    return current;
  }
  const rejection = action === "reject" ? { reason: note, at: now } : null;
  return { ...current, ...flags, ...decided === moderation ? {} : { moderation: decided }, rejection, updatedAt: now };
}

/**
 * Applies `review` (see the module docstring) in one checked write, which also moves the record in the moderation
 * queue and adds the `opportunity_reviewed` notification for the submitter, with the reason of a rejection, when the
 * review changed the record's state (docs/decisions.md, Notifications).
 * @throws NotFoundError for an unknown id; BusyError after 30 s of lost races (nothing changed).
 */
export async function reviewOpportunity(kv: Deno.Kv, id: string, review: Review): Promise<OpportunityView> {
  const store = await opportunityStore(kv);
  const record = await store.writer.update(
    id,
    (current) => reviewed(current, review, new Date().toISOString()),
    (op, next, previous) => {
      moderationQueueOps(op, "opportunities", previous, next);
      if (next.userId !== null) addNotification(op, reviewNotification(next, next.userId));
    },
  );
  if (!record) throw new NotFoundError(NOT_FOUND);
  return (await withPostedBy(kv, [record]))[0];
}

/**
 * An admin's moderation `decision` on opportunity `id` with `note` (docs/decisions.md, Trust, "Moderation"): approve
 * publishes it and clears its reasons, reject hides it for good. One write, which also moves it in the queue and, when
 * it changed and it has a submitter, tells them (`listing_moderated`, with the note). Returns the opportunity as admins
 * read it, and when it was held.
 * @throws NotFoundError for an unknown id; BusyError after 30 s of lost races (nothing changed).
 */
export async function moderateOpportunity(
  kv: Deno.Kv,
  { id, decision, note }: { id: string; decision: ModerationDecision; note: string | null },
): Promise<{ opportunity: OpportunityView; heldAt: string | null }> {
  const store = await opportunityStore(kv);
  const record = await store.writer.update(id, (current) => {
    const now = new Date().toISOString();
    const next = reviewed(current, { action: decision, reason: note }, now);
    if (decision === "reject" && moderationOf(next).status !== "rejected") {
      return { ...next, moderation: moderationDecided(moderationOf(current), { decision, note, now }), updatedAt: now };
    }
    return next;
  }, (op, next, previous) => {
    moderationQueueOps(op, "opportunities", previous, next);
    if (next.userId !== null) {
      addNotification(op, moderatedNotification({ kind: "opportunity", listing: next, userId: next.userId }));
    }
  });
  if (!record) throw new NotFoundError(NOT_FOUND);
  return { opportunity: (await withPostedBy(kv, [record]))[0], heldAt: moderationOf(record).heldAt };
}

/**
 * Holds opportunity `id` because students reported it (docs/decisions.md, Trust, "Reports"): it leaves the public
 * lists until an admin decides; nothing for a rejected or unknown one.
 * @throws BusyError after 30 s of lost races.
 */
export async function holdReportedOpportunity(kv: Deno.Kv, id: string): Promise<void> {
  const { writer } = await opportunityStore(kv);
  await writer.update(id, (record) => {
    const current = moderationOf(record);
    const next = moderationOnReports(current, new Date().toISOString());
    return next === current ? record : { ...record, moderation: next };
  }, (op, next, previous) => moderationQueueOps(op, "opportunities", previous, next));
}

/** The opportunities of `ids` as admins read them (every state), by id; unknown ids are absent. */
export async function opportunitiesForAdmin(
  kv: Deno.Kv,
  ids: readonly string[],
): Promise<Map<string, OpportunityView>> {
  const { model } = await opportunityStore(kv);
  const slots = ids.flatMap((id) => model.slotOf(id) ?? []);
  const views = await withPostedBy(kv, await model.recordsOf(slots));
  return new Map(views.map((view) => [view.id, view]));
}

/** The notification telling `userId` that their opportunity `record` was approved or rejected. */
function reviewNotification(record: Opportunity, userId: string): NotificationInput {
  if (record.isActive) {
    return {
      userId,
      type: "opportunity_reviewed",
      title: "Your opportunity was approved",
      body: `"${record.title}" is now published for everyone to see.`,
      url: `/opportunities/${record.id}`,
    };
  }
  const reason = record.rejection?.reason;
  return {
    userId,
    type: "opportunity_reviewed",
    title: "Your opportunity was not approved",
    body: `"${record.title}" was not published.${reason ? ` Reason: “${reason}”.` : ""} ` +
      "You can edit it and submit it again.",
    url: `/opportunities/${record.id}`,
  };
}

/** Every opportunity `userId` submitted, in every review state, newest first. */
export async function opportunitiesOwnedBy(kv: Deno.Kv, userId: string): Promise<Opportunity[]> {
  const { model } = await opportunityStore(kv);
  return await model.recordsOf(model.columns.ownerOrder(userId));
}

/**
 * Keeps the opportunities `userId` submitted without their submitter (`userId` null, shown as a former member):
 * account deletion, one checked write per record.
 * @throws BusyError after 30 s of races lost on one record (running it again finishes).
 */
export async function forgetOpportunityOwner(kv: Deno.Kv, userId: string): Promise<void> {
  const { model, writer } = await opportunityStore(kv);
  for (const id of model.columns.ownerOrder(userId).map((slot) => model.slots.ids[slot])) {
    await writer.update(id, (record) => record.userId === userId ? { ...record, userId: null } : record);
  }
}

/** A published opportunity as the sitemap lists it: id and last update in ms. */
export interface OpportunityStamp {
  id: string;
  updatedMs: number;
}

/** Every published opportunity, newest first, with its last update, from the read model's columns alone. */
export async function publishedOpportunityStamps(kv: Deno.Kv): Promise<OpportunityStamp[]> {
  const { model } = await opportunityStore(kv);
  const { columns, slots } = model;
  return slots.order.filter((slot) => columns.statuses[slot] === APPROVED)
    .map((slot) => ({ id: slots.ids[slot], updatedMs: columns.updated[slot] }));
}

/**
 * The version of the opportunity data this process holds on IST day `today` (changes with every write and with the
 * day, which closes opportunities): for caches of public pages.
 */
export async function opportunitiesVersion(kv: Deno.Kv, today = istToday()): Promise<string> {
  return `opportunities:${(await opportunityStore(kv)).model.version}:${today}`;
}
