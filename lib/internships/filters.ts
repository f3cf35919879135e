/**
 * The list filters of CONTRACT.md §4 over the internship read model: one pass over the columns
 * of `columns.ts`, starting from the public order, the whole order or one owner's order.
 */
import type { ChunkedReadModel } from "../kv/chunked/read_model.ts";
import { ACTIVE, DELETED, type FilterView, type InternshipColumns, type InternshipEntry } from "./columns.ts";
import { type Internship, INTERNSHIP_TYPES } from "./schema.ts";

/** The filters of one list pass, already resolved to codes. */
export interface SlotFilter {
  includeInactive: boolean;
  includeDeleted: boolean;
  /** Only the records of this user id. */
  userId?: string;
  /** Type codes (`typeCode`). */
  types?: Set<number>;
  minStipend?: number;
  maxStipend?: number;
  /** Lower-case tags; a record matches with any of them. */
  tags?: string[];
  /** Lower-case substring of the location. */
  location?: string;
  /** Lower-case words the search text must all contain. */
  words?: string[];
}

/** One page of a filtered list: how many slots match in all, and the page's slots, newest first. */
export interface SlotPage {
  total: number;
  slots: number[];
}

/**
 * The slots matching `filter`, newest first, from the `offset`th, at most `limit`, and how many
 * match in all. One pass that counts and keeps only the page: a list of every match (up to a
 * million slots) would be allocated and dropped per request. With `userId` the pass starts from
 * that owner's slots, so its cost follows the owner's listing count, not the total.
 */
export function selectPage(
  model: ChunkedReadModel<Internship, InternshipEntry, InternshipColumns>,
  filter: SlotFilter,
  offset: number,
  limit: number,
): SlotPage {
  const columns = model.columns;
  const { includeInactive, includeDeleted, userId } = filter;
  const { flags } = columns;
  const stateOk = (slot: number) =>
    (includeInactive || (flags[slot] & ACTIVE) !== 0) && (includeDeleted || (flags[slot] & DELETED) === 0);
  let base: FilterView;
  if (userId !== undefined) base = columns.view(columns.ownerOrder(userId).filter(stateOk));
  else if (!includeInactive && !includeDeleted) base = columns.publicView();
  else base = columns.view(model.slots.order.filter(stateOk));
  const { types, minStipend, maxStipend, tags, location, words } = filter;
  const typeOk = types && new Uint8Array(INTERNSHIP_TYPES.length + 1).map((_, code) => types.has(code) ? 1 : 0);
  const stipendFilter = minStipend !== undefined || maxStipend !== undefined;
  const min = minStipend ?? -Infinity, max = maxStipend ?? Infinity;
  let tagOk: Uint8Array | undefined;
  if (tags) {
    tagOk = new Uint8Array(model.slots.count);
    for (const tag of tags) for (const slot of columns.tagSlots.get(tag)) tagOk[slot] = 1;
  }
  const locationOk = location !== undefined ? columns.locations.marks((name) => name.includes(location)) : undefined;
  const searchOk = words && words.length > 0 ? model.searchMarks(words) : undefined;
  const end = offset + limit;
  const { slots: baseSlots, types: typeCodes, stipends, locationCodes } = base;
  if (!typeOk && !stipendFilter && !tagOk && !locationOk && !searchOk) {
    return { total: baseSlots.length, slots: Array.from(baseSlots.subarray(offset, end)) };
  }
  const slots: number[] = [];
  let total = 0;
  for (let i = 0; i < baseSlots.length; i++) {
    if (typeOk && typeOk[typeCodes[i]] === 0) continue;
    if (stipendFilter && !(stipends[i] >= min && stipends[i] <= max)) continue;
    if (locationOk && locationOk[locationCodes[i]] === 0) continue;
    const slot = baseSlots[i];
    if (tagOk && tagOk[slot] === 0) continue;
    if (searchOk && searchOk[slot] === 0) continue;
    if (total >= offset && total < end) slots.push(slot);
    total++;
  }
  return { total, slots };
}
