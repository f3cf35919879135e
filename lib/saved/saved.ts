/**
 * Saved items and the application tracker (docs/decisions.md, Student space): a person saves internships and
 * opportunities, moves each through the tracker's statuses and keeps a note.
 *
 * Keys (owned by this module only):
 * - `["saved", userId, kind, id]` → `SavedRecord`;
 * - `["saved_count", userId]` → number of items, checked with every save so the 500 limit holds under races;
 * - `["saved_by_listing", kind, id, userId]` → the item's status, to find who saved a listing (deadline reminders).
 * A record, its listing index entry and the count change in one checked atomic write; a lost race reads again and
 * tries again for up to 30 s (`RETRY_BUDGET_MS`), then `BusyError` (503).
 * An application here moves the applicant's item of its internship in the application's own write
 * (`readTrackerEntries`, `followApplicationOps`; docs/decisions.md, Applications, "The tracker follows").
 */
import { InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { internshipDeadlinesBetween, publicInternshipsById } from "@/lib/internships/internships.ts";
import { opportunityEndsBetween, publishedOpportunitiesById } from "@/lib/opportunities/opportunities.ts";
import {
  cursorOf,
  MAX_SAVED,
  type SavedChange,
  type SavedCursor,
  type SavedItem,
  type SavedKind,
  type SavedQuery,
  type SavedRecord,
  type SavedStatus,
  TOO_MANY_SAVED,
} from "./schema.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

export * from "./schema.ts";

const recordKey = (userId: string, kind: SavedKind, id: string): Deno.KvKey => ["saved", userId, kind, id];
const countKey = (userId: string): Deno.KvKey => ["saved_count", userId];
const listingKey = (kind: SavedKind, id: string, userId: string): Deno.KvKey => ["saved_by_listing", kind, id, userId];

const NOT_FOUND: Record<SavedKind, string> = {
  internships: REFUSALS.internshipNotFound,
  opportunities: REFUSALS.opportunityNotFound,
};

/** The listings of `kind` with `ids` as the public read answers them, by id (hidden and unknown ones absent). */
async function listingsOf(kv: Deno.Kv, kind: SavedKind, ids: string[]) {
  return kind === "internships" ? await publicInternshipsById(kv, ids) : await publishedOpportunitiesById(kv, ids);
}

/** `records` with their listings (null for a listing deleted or hidden since), in the order given. */
export async function savedItemsOf(kv: Deno.Kv, records: readonly SavedRecord[]): Promise<SavedItem[]> {
  const ids = (kind: SavedKind) => records.filter((r) => r.kind === kind).map((r) => r.id);
  const [internships, opportunities] = await Promise.all([
    publicInternshipsById(kv, ids("internships")),
    publishedOpportunitiesById(kv, ids("opportunities")),
  ]);
  return records.map((record) =>
    record.kind === "internships"
      ? { ...record, kind: "internships", listing: internships.get(record.id) ?? null }
      : { ...record, kind: "opportunities", listing: opportunities.get(record.id) ?? null }
  );
}

/** Saved items the export reads the listings of at once: only their titles are kept. */
const EXPORT_BATCH = 50;

/**
 * Every saved item of `userId` as the export lists it (docs/decisions.md, Data rights, "Export"): the record, in key
 * order, with its listing's title now, or `removed` true and no title once the listing is deleted or hidden (nothing of
 * a hidden listing, which may have changed since it was saved). The listings are read `EXPORT_BATCH` at a time and
 * dropped but for their titles, so the export holds no more than that many.
 */
export async function savedForExport(kv: Deno.Kv, userId: string) {
  const records = await savedRecordsOf(kv, userId);
  const items: (SavedRecord & { title: string | null; removed: boolean })[] = [];
  for (let i = 0; i < records.length; i += EXPORT_BATCH) {
    for (const { listing, ...record } of await savedItemsOf(kv, records.slice(i, i + EXPORT_BATCH))) {
      items.push({ ...record, title: listing?.title ?? null, removed: listing === null });
    }
  }
  return items;
}

/** Listing `kind`/`id` in the saved items of `userId`. */
export interface SavedRef {
  userId: string;
  kind: SavedKind;
  id: string;
}

/**
 * Saves listing `kind`/`id` for `userId`, or changes the saved item: `change.status` and `change.note` replace what
 * the item has, absent ones keep it (a new item starts as `saved` with no note). `statusChangedAt` moves when the
 * status does; `updatedAt` when anything does. A new save needs a listing the public may read (closed ones
 * included); an item already saved can be changed after its listing was hidden (the history stays the person's).
 * @throws NotFoundError "Internship not found" / "Opportunity not found" for a new save of an unknown, deleted,
 *   inactive or unpublished listing; InvalidInputError `TOO_MANY_SAVED` for a save past 500; BusyError after 30 s of
 *   lost races (nothing written): a lost race reads again and tries again, so under the limit every save succeeds.
 */
export async function saveItem(
  kv: Deno.Kv,
  { userId, kind, id, change }: SavedRef & { change: SavedChange },
): Promise<SavedItem> {
  let saved: SavedRecord | null = null;
  await retrying(
    async () => {
      const [current, count] = await kv.getMany<[SavedRecord, number]>([recordKey(userId, kind, id), countKey(userId)]);
      const now = new Date().toISOString();
      let record: SavedRecord;
      if (current.value) {
        const status = change.status ?? current.value.status;
        const note = change.note ?? current.value.note;
        if (status === current.value.status && note === current.value.note) {
          saved = current.value;
          return true;
        }
        record = {
          ...current.value,
          status,
          note,
          updatedAt: now,
          statusChangedAt: status === current.value.status ? current.value.statusChangedAt : now,
        };
      } else {
        if (!(await listingsOf(kv, kind, [id])).has(id)) throw new NotFoundError(NOT_FOUND[kind]);
        if ((count.value ?? 0) >= MAX_SAVED) throw new InvalidInputError(TOO_MANY_SAVED);
        record = {
          kind,
          id,
          status: change.status ?? "saved",
          note: change.note ?? "",
          savedAt: now,
          updatedAt: now,
          statusChangedAt: now,
        };
      }
      const op = kv.atomic().check(current, count)
        .set(recordKey(userId, kind, id), record)
        .set(listingKey(kind, id, userId), record.status);
      if (!current.value) op.set(countKey(userId), (count.value ?? 0) + 1);
      const ok = (await op.commit()).ok;
      if (ok) saved = record;
      return ok;
    },
    RETRY_BUDGET_MS,
  );
  return (await savedItemsOf(kv, [saved!]))[0];
}

/**
 * Removes listing `kind`/`id` from `userId`'s saved items; nothing happens when it was not saved. A lost race reads
 * again and tries again.
 * @throws BusyError after 30 s of lost races.
 */
export async function unsaveItem(kv: Deno.Kv, { userId, kind, id }: SavedRef): Promise<void> {
  await retrying(
    async () => {
      const [current, count] = await kv.getMany<[SavedRecord, number]>([recordKey(userId, kind, id), countKey(userId)]);
      if (!current.value) return true;
      const left = Math.max(0, (count.value ?? 1) - 1);
      const op = kv.atomic().check(current, count)
        .delete(recordKey(userId, kind, id))
        .delete(listingKey(kind, id, userId));
      if (left === 0) op.delete(countKey(userId));
      else op.set(countKey(userId), left);
      return (await op.commit()).ok;
    },
    RETRY_BUDGET_MS,
  );
}

/** What the tracker item of an internship needs read before an application's write moves it. */
export type TrackerEntries = [Deno.KvEntryMaybe<SavedRecord>, Deno.KvEntryMaybe<number>];

/** The saved item of internship `internshipId` of `userId` and their item count, as an application's write checks them. */
export async function readTrackerEntries(kv: Deno.Kv, userId: string, internshipId: string): Promise<TrackerEntries> {
  return await kv.getMany<[SavedRecord, number]>([recordKey(userId, "internships", internshipId), countKey(userId)]);
}

/**
 * The saved items of internship `internshipId` of each `userId` of `pairs` (`getManyChunked`), in the order given, for
 * moves that never make an item (`create: false`): each as `TrackerEntries` whose count is not read (value null).
 */
export async function readTrackerItems(
  kv: Deno.Kv,
  pairs: readonly { userId: string; internshipId: string }[],
): Promise<TrackerEntries[]> {
  const keys = pairs.map((pair) => recordKey(pair.userId, "internships", pair.internshipId));
  return (await getManyChunked<SavedRecord>(kv, keys)).map((item, i): TrackerEntries => [
    item,
    { key: countKey(pairs[i].userId), value: null, versionstamp: null },
  ]);
}

/**
 * Adds to `op` the tracker's following of an application (docs/decisions.md, Applications, "The tracker follows"): the
 * item `entries` (as read by `readTrackerEntries`) of internship `internshipId` moves to `status` at `now` (ISO), made
 * when missing and `create` is set (the application itself; not past the 500-item limit), checked against what was
 * read. Nothing is added when the item already has that status, or is missing and not to be made.
 */
export function followApplicationOps(
  op: Deno.AtomicOperation,
  { userId, internshipId, entries: [current, count], status, now, create }: {
    userId: string;
    internshipId: string;
    entries: TrackerEntries;
    status: SavedStatus;
    now: string;
    create: boolean;
  },
): void {
  let record: SavedRecord;
  if (current.value) {
    if (current.value.status === status) return;
    record = { ...current.value, status, updatedAt: now, statusChangedAt: now };
  } else {
    if (!create || (count.value ?? 0) >= MAX_SAVED) return;
    record = {
      kind: "internships",
      id: internshipId,
      status,
      note: "",
      savedAt: now,
      updatedAt: now,
      statusChangedAt: now,
    };
    op.check(count).set(countKey(userId), (count.value ?? 0) + 1);
  }
  op.check(current)
    .set(recordKey(userId, "internships", internshipId), record)
    .set(listingKey("internships", internshipId, userId), status);
}

/**
 * Every saved record of `userId` (of `kind` when given), without listings, in key order (also the account export): one
 * list round trip, as a batch holds the 500 a person may keep.
 */
export async function savedRecordsOf(kv: Deno.Kv, userId: string, kind?: SavedKind): Promise<SavedRecord[]> {
  const prefix = kind ? ["saved", userId, kind] : ["saved", userId];
  const records: SavedRecord[] = [];
  for await (const entry of kv.list<SavedRecord>({ prefix }, { batchSize: MAX_SAVED })) records.push(entry.value);
  return records;
}

/** The saved list's order: newest `updatedAt` first, then kind and id (key order). */
function newestFirst(a: SavedCursor, b: SavedCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** `records` in the saved list's order (`newestFirst`), as a new array. */
export function inListOrder(records: readonly SavedRecord[]): SavedRecord[] {
  return [...records].sort(newestFirst);
}

/** A page of `GET /api/me/saved`: the items and the cursor of the next page (null on the last). */
export interface SavedPage {
  items: SavedItem[];
  nextCursor: string | null;
}

/**
 * A page of `userId`'s saved items of `kind` and `status` (absent: all), newest `updatedAt` first (then kind and id),
 * each with its listing: `limit` of them (default 500, all) after `cursor`. Only the page's listings are read.
 */
export async function listSaved(
  kv: Deno.Kv,
  userId: string,
  { kind, status, limit = MAX_SAVED, cursor }: Partial<SavedQuery>,
): Promise<SavedPage> {
  const records = inListOrder(await savedRecordsOf(kv, userId, kind))
    .filter((record) => !status || record.status === status)
    .filter((record) => !cursor || newestFirst(record, cursor) > 0);
  const page = records.slice(0, limit);
  const more = records.length > page.length;
  return { items: await savedItemsOf(kv, page), nextCursor: more ? cursorOf(page[page.length - 1]) : null };
}

/** A saved listing the person has not applied to yet whose last day comes soon: `on` is that day (IST). */
export type ClosingSoon = SavedItem & { on: string };

/**
 * The items of `records` (a person's saved records, `savedRecordsOf`) still at status `saved` whose last day (an
 * internship's deadline, an opportunity's end date, as the tracker counts) is from IST day `today` through `days` days
 * later, soonest first, at most `limit` (the home page's "Closing soon"). The last days come from the read models'
 * columns; only the listings shown are read.
 */
export async function closingSoon(
  kv: Deno.Kv,
  { records, today, days = 7, limit = 3 }: {
    records: readonly SavedRecord[];
    today: string;
    days?: number;
    limit?: number;
  },
): Promise<ClosingSoon[]> {
  const window = {
    from: today,
    to: new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10),
  };
  const waiting = records.filter((record) => record.status === "saved");
  const ids = (kind: SavedKind) => waiting.filter((record) => record.kind === kind).map((record) => record.id);
  const [internships, opportunities] = await Promise.all([
    internshipDeadlinesBetween(kv, ids("internships"), window),
    opportunityEndsBetween(kv, ids("opportunities"), window),
  ]);
  const lastDays = { internships, opportunities };
  const soonest = waiting.flatMap((record) => {
    const on = lastDays[record.kind].get(record.id);
    return on ? [{ record, on }] : [];
  }).sort((a, b) => a.on.localeCompare(b.on)).slice(0, limit);
  const items = await savedItemsOf(kv, soonest.map(({ record }) => record));
  return items.flatMap((item, i) => item.listing ? [{ ...item, on: soonest[i].on }] : []);
}

/** The ids `userId` saved, by kind (what pages and islands mark saved cards with). */
export async function savedIds(kv: Deno.Kv, userId: string): Promise<Record<SavedKind, string[]>> {
  const ids: Record<SavedKind, string[]> = { internships: [], opportunities: [] };
  for (const record of await savedRecordsOf(kv, userId)) ids[record.kind].push(record.id);
  return ids;
}

/** Deletes every saved item of `userId` (account deletion), in commits of at most 300 items; idempotent. */
export async function deleteSavedOf(kv: Deno.Kv, userId: string): Promise<void> {
  const records = await savedRecordsOf(kv, userId);
  for (let i = 0; i < records.length; i += 300) {
    const op = kv.atomic();
    for (const { kind, id } of records.slice(i, i + 300)) {
      op.delete(recordKey(userId, kind, id)).delete(listingKey(kind, id, userId));
    }
    await op.commit();
  }
  await kv.delete(countKey(userId));
}
