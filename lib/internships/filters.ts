/**
 * The list filters of CONTRACT.md §4 over the internship read model: one pass over the columns
 * of `columns.ts`, starting from the public order, the whole order or one owner's order.
 */
import type { ChunkedReadModel } from "../kv/chunked/read_model.ts";
import { ACTIVE, DELETED, type InternshipColumns, type InternshipEntry } from "./columns.ts";
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

/**
 * The slots matching `filter`, newest first. With `userId` the pass starts from that owner's
 * slots, so its cost follows the owner's listing count, not the total.
 */
export function selectSlots(
  model: ChunkedReadModel<Internship, InternshipEntry, InternshipColumns>,
  filter: SlotFilter,
): number[] {
  const columns = model.columns;
  const { includeInactive, includeDeleted, userId } = filter;
  const { flags } = columns;
  const stateOk = (slot: number) =>
    (includeInactive || (flags[slot] & ACTIVE) !== 0) && (includeDeleted || (flags[slot] & DELETED) === 0);
  let base: number[];
  if (userId !== undefined) base = columns.ownerOrder(userId).filter(stateOk);
  else if (!includeInactive && !includeDeleted) base = columns.publicSlots();
  else base = model.slots.order.filter(stateOk);
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
  if (!typeOk && !stipendFilter && !tagOk && !locationOk && !searchOk) return base;
  const { types: typeCodes, stipends, locationCodes } = columns;
  const out: number[] = [];
  for (const slot of base) {
    if (typeOk && typeOk[typeCodes[slot]] === 0) continue;
    if (stipendFilter && !(stipends[slot] >= min && stipends[slot] <= max)) continue;
    if (tagOk && tagOk[slot] === 0) continue;
    if (locationOk && locationOk[locationCodes[slot]] === 0) continue;
    if (searchOk && searchOk[slot] === 0) continue;
    out.push(slot);
  }
  return out;
}
