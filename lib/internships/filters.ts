/**
 * The list filters (docs/decisions.md, Internships) over the internship read model: one pass over the columns
 * of `columns.ts`, starting from the public order, the whole order or one owner's order; and the same filters as a
 * test of the archive's blocks (`blockTest`; docs/decisions.md, Open and closed listings, "Reading closed listings").
 * A new filter is a field of `SlotFilter` with its rule in `slotTest`, `matchingSlots` and `blockTest` (and in the
 * reference scan of `tests/api/internships/closed_filters_test.ts`, which checks that they agree).
 */
import type { ChunkedReadModel } from "@/lib/kv/chunked/read_model.ts";
import type { ArchiveClause, BlockTest } from "@/lib/kv/chunked/archive.ts";
import { BLOCK_MAX_ENTRIES } from "@/lib/kv/chunked/archive_block.ts";
import { ACTIVE, DELETED, GONE, type InternshipColumns, type InternshipEntry, WITHHELD } from "./columns.ts";
import { type Internship, INTERNSHIP_TYPES, type InternshipSort as Sort } from "./schema.ts";
import { cityVariants } from "./cities.ts";
import { PublicBits } from "./public_bits.ts";

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
  /** Lower-case substring of the location (a city under any of its names, `cities.ts`). */
  location?: string;
  /** Lower-case words the search text must all contain (a city name as any of its names). */
  words?: string[];
  /**
   * Only listings open on this IST day (`dayNumber`): no deadline, or a deadline on this day or later. Today is a
   * filter value like any other, so the read model is never rebuilt when the day changes (docs/decisions.md, Dates).
   */
  openOn?: number;
  /**
   * Only listings verified themselves or whose organization is verified (docs/decisions.md, Trust, "Trust filters"):
   * the ids of the verified organizations, and the version of that set (their directory's; it names the set in cache
   * keys); `strangers`, the slots whose link the `organizations-unlink` job will undo, which the organization's
   * verification does not cover (Trust, "Who lists under a verified name"; empty unless the job has some to judge).
   */
  verified?: { organizations: ReadonlySet<string>; version: number; strangers: ReadonlySet<number> };
}

/** One page of a filtered list: how many slots match in all, and the page's slots in the list's order. */
export interface SlotPage {
  total: number;
  slots: number[];
}

/** Sorted match lists kept per model: at most this many lists, and this many slots in all. */
const SORTED_LISTS = 16;
const SORTED_SLOTS = 2_000_000;

/** A kept sorted list, valid for one read-model version. */
interface KeptSorted {
  list: Int32Array;
  version: number;
}

const sortedCaches = new WeakMap<object, Map<string, KeptSorted>>();

/**
 * `matches` (slots newest first) in `sort`'s order: a stable distribution by key (a count per distinct key, the keys
 * sorted, then each slot placed), O(matches + distinct keys · log), so 100,000 matches take a few milliseconds where a
 * comparison sort takes tens. Keys: the deadline's day (`Infinity` when none), the negated stipend (`NaN`, unstated,
 * counts as `Infinity`).
 */
export function sortSlots(columns: InternshipColumns, matches: Int32Array, sort: Exclude<Sort, "newest">): Int32Array {
  const keyOf = sort === "deadline"
    ? (slot: number) => columns.deadlineDays[slot]
    : (slot: number) => Number.isNaN(columns.stipends[slot]) ? Infinity : -columns.stipends[slot];
  // Each distinct key gets a small code (one map lookup per match); the codes are counted and placed in arrays.
  const codeOf = new Map<number, number>();
  const keys: number[] = [];
  const codes = new Int32Array(matches.length);
  let counts = new Int32Array(64);
  for (let i = 0; i < matches.length; i++) {
    const key = keyOf(matches[i]);
    let code = codeOf.get(key);
    if (code === undefined) {
      codeOf.set(key, code = keys.push(key) - 1);
      if (code === counts.length) {
        const grown = new Int32Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
    }
    codes[i] = code;
    counts[code]++;
  }
  const starts = new Int32Array(keys.length);
  let at = 0;
  for (const code of keys.map((_, code) => code).sort((a, b) => keys[a] - keys[b])) {
    starts[code] = at;
    at += counts[code];
  }
  const sorted = new Int32Array(matches.length);
  for (let i = 0; i < matches.length; i++) sorted[starts[codes[i]]++] = matches[i];
  return sorted;
}

/**
 * Every slot matching `filter` in `sort`'s order (`matchList` for `newest`); a sorted list is kept for the model's
 * version, so paging through it sorts once (least recently used lists go first past the bounds).
 */
export function sortedMatchList(model: InternshipModel, filter: SlotFilter, sort: Sort): Int32Array {
  const matches = matchList(model, filter);
  if (sort === "newest") return matches;
  let cache = sortedCaches.get(model);
  if (!cache) sortedCaches.set(model, cache = new Map());
  const key = `${sort}\0${filterKey(filter)}`;
  const kept = cache.get(key);
  cache.delete(key);
  if (kept && kept.version === model.version) {
    cache.set(key, kept);
    return kept.list;
  }
  const list = sortSlots(model.columns, matches, sort);
  if (list.length <= SORTED_SLOTS) {
    let slots = list.length;
    for (const other of cache.values()) slots += other.list.length;
    for (const [oldest, old] of cache) {
      if (cache.size < SORTED_LISTS && slots <= SORTED_SLOTS) break;
      cache.delete(oldest);
      slots -= old.list.length;
    }
    cache.set(key, { list, version: model.version });
  }
  return list;
}

/** At most this many matching slots are kept by the match cache of one model (4 bytes each). */
export const MATCH_CACHE_SLOTS = 4_000_000;
/** At most this many filters are kept by the match cache of one model. */
export const MATCH_CACHE_FILTERS = 64;

/** A kept match list, as of a read-model version and of a place in its columns' `newest` journal. */
interface KeptMatches {
  list: Int32Array;
  version: number;
  epoch: number;
  /** How many of `InternshipColumns.newest` the list has taken in. */
  seen: number;
}

type InternshipModel = ChunkedReadModel<Internship, InternshipEntry, InternshipColumns>;

/**
 * The matching slots of recently asked filters, for one read model: the pages after a filter's
 * first one are slices of its list, not another pass over every listing. A list stays valid
 * while the model's version holds; after writes that only added newest listings (the columns'
 * `newest` journal, same epoch), a list without search words takes in those that match, in
 * front, instead of a new pass (7-16 ms at 1,000,000 listings); any other write drops it.
 * Least recently used filters go first when a bound is passed.
 */
class MatchCache {
  private readonly lists = new Map<string, KeptMatches>();
  private slots = 0;

  get(model: InternshipModel, key: string, filter: SlotFilter): Int32Array | undefined {
    const kept = this.lists.get(key);
    if (!kept) return undefined;
    this.lists.delete(key);
    const { epoch, newest } = model.columns;
    if (kept.version !== model.version) {
      if (kept.epoch !== epoch || (filter.words && filter.words.length > 0)) {
        this.slots -= kept.list.length;
        return undefined;
      }
      const added = newest.slice(kept.seen).filter(slotTest(model.columns, filter)).reverse();
      if (added.length > 0) {
        const list = new Int32Array(added.length + kept.list.length);
        list.set(added);
        list.set(kept.list, added.length);
        this.slots += added.length;
        kept.list = list;
      }
      kept.version = model.version;
      kept.seen = newest.length;
    }
    this.lists.set(key, kept);
    return kept.list;
  }

  set(model: InternshipModel, key: string, list: Int32Array): void {
    if (list.length > MATCH_CACHE_SLOTS) return;
    for (const [oldest, old] of this.lists) {
      if (this.lists.size < MATCH_CACHE_FILTERS && this.slots + list.length <= MATCH_CACHE_SLOTS) break;
      this.lists.delete(oldest);
      this.slots -= old.list.length;
    }
    const { epoch, newest } = model.columns;
    this.lists.set(key, { list, version: model.version, epoch, seen: newest.length });
    this.slots += list.length;
  }
}

/**
 * The test of whether a slot passes `filter`'s state, owner, type, stipend, location and tag tests: what a
 * pass of `matchingSlots` tests, for one slot (search words aside).
 */
function slotTest(columns: InternshipColumns, filter: SlotFilter): (slot: number) => boolean {
  const { userId, types, minStipend, maxStipend, tags, location, openOn, verified } = filter;
  const organizationIds = columns.organizationCodes.names;
  const places = location === undefined ? [] : cityVariants(location);
  return (slot) => {
    const stipend = columns.stipends[slot];
    const name = location === undefined ? "" : columns.locations.names[columns.locationCodes[slot]];
    return stateMatches(filter, columns.flags[slot]) &&
      (userId === undefined || columns.ownerOf(slot) === userId) &&
      (!types || types.has(columns.types[slot])) &&
      (minStipend === undefined && maxStipend === undefined ||
        stipend >= (minStipend ?? -Infinity) && stipend <= (maxStipend ?? Infinity)) &&
      (location === undefined || places.some((variant) => name.includes(variant))) &&
      (!tags || columns.tags[slot].some((tag) => tags.includes(tag))) &&
      (openOn === undefined || columns.deadlineDays[slot] >= openOn) &&
      (!verified || columns.verified[slot] === 1 ||
        verified.organizations.has(organizationIds[columns.organizations[slot]]) && !verified.strangers.has(slot));
  };
}

/**
 * Those of `slots` that pass `filter` as `selectPage` would, in the order given, `texts[i]` being the lower-case
 * search text of `slots[i]` (`internshipSearchText`): a test per slot, for a few slots (the listings new since some
 * time, docs/decisions.md, Alerts) instead of a pass over every listing.
 */
export function filterSlots(
  columns: InternshipColumns,
  filter: SlotFilter,
  { slots, texts }: { slots: readonly number[]; texts: readonly string[] },
): number[] {
  const words = (filter.words ?? []).map(cityVariants);
  const matches = slotTest(columns, filter);
  return slots.filter((slot, i) =>
    matches(slot) &&
    words.every((variants) => variants.some((word) => texts[i].includes(word)))
  );
}

/**
 * Whether a record with `flags` passes `filter`'s state test: active, not deleted and not withheld by moderation,
 * unless included (`includeInactive` includes withheld ones too: the owner's and the admins' views); a slot whose
 * record left the read model (`GONE`) never does.
 */
export function stateMatches(filter: SlotFilter, flags: number): boolean {
  return (flags & GONE) === 0 && (filter.includeInactive || (flags & (ACTIVE | WITHHELD)) === ACTIVE) &&
    (filter.includeDeleted || (flags & DELETED) === 0);
}

const matchCaches = new WeakMap<object, MatchCache>();

/** `filter` as a cache key: equal for filters that match the same slots (tags and words in any order). */
export function filterKey(filter: SlotFilter): string {
  const sorted = <T>(values: Iterable<T> | undefined) => values ? [...values].sort() : null;
  return JSON.stringify([
    filter.includeInactive,
    filter.includeDeleted,
    filter.userId ?? null,
    sorted(filter.types),
    filter.minStipend ?? null,
    filter.maxStipend ?? null,
    sorted(filter.tags),
    filter.location ?? null,
    sorted(filter.words),
    filter.openOn ?? null,
    filter.verified?.version ?? null,
    filter.verified ? [...filter.verified.strangers].sort((a, b) => a - b) : null,
  ]);
}

/**
 * The slots matching `filter`, in `sort`'s order (newest first by default), from the `offset`th, at most `limit`, and
 * how many match in all. The public list without filters (closed listings included) is a slice of the public view.
 * Otherwise every match is listed once by `matchingSlots` and kept by the model's match cache, so that paging through a
 * filter costs one pass, not one per page (at 1,000,000 listings a pass is 3-30 ms); another order is sorted once per
 * read-model version (`sortedMatchList`).
 */
export function selectPage(
  model: InternshipModel,
  filter: SlotFilter,
  { offset, limit, sort = "newest" }: { offset: number; limit: number; sort?: Sort },
): SlotPage {
  const matches = sortedMatchList(model, filter, sort);
  return { total: matches.length, slots: Array.from(matches.subarray(offset, offset + limit)) };
}

/** Every slot matching `filter`, newest first (see `selectPage`); kept, so not to be changed. */
export function matchList(model: InternshipModel, filter: SlotFilter): Int32Array {
  const { includeInactive, includeDeleted, userId, types, minStipend, maxStipend, tags, location, words, openOn } =
    filter;
  const filtered = userId !== undefined || includeInactive || includeDeleted || types || tags ||
    minStipend !== undefined || maxStipend !== undefined || location !== undefined || (words && words.length > 0) ||
    openOn !== undefined || filter.verified !== undefined;
  if (!filtered) return model.columns.publicView().slots;
  let cache = matchCaches.get(model);
  if (!cache) matchCaches.set(model, cache = new MatchCache());
  const key = filterKey(filter);
  let matches = cache.get(model, key, filter);
  if (!matches) cache.set(model, key, matches = matchingSlots(model, filter));
  return matches;
}

/** Positions of the fields of `InternshipEntry` that the archive's block tests read. */
const TYPE = 2,
  FLAGS = 3,
  STIPEND = 4,
  LOCATION = 5,
  TAGS = 6,
  OWNER = 7,
  DEADLINE = 9,
  ORGANIZATION = 10,
  VERIFIED = 11;

/** Every position of a block, in order: a test's first selection, copied. */
const EVERY_POSITION = Uint16Array.from({ length: BLOCK_MAX_ENTRIES }, (_, i) => i);

/**
 * `filter` as a test of the archive's blocks (`lib/kv/chunked/archive.ts`): the rules of `slotTest` and the search of
 * `searchMarks`, read from the entries a block holds. The block's positions are narrowed field by field, the fields
 * that usually leave fewest first (each distinct location, tag list, owner or type of a block tested once, stipends
 * compared without a call each), so every field costs the positions still left; a block is left at the first field
 * none of them passes, and the search runs only over a block with positions left. Without `state`, the state test
 * (active, not deleted, not withheld) is left out (a clause of `blockClauses`).
 */
export function blockTest(filter: SlotFilter, { state = true }: { state?: boolean } = {}): BlockTest<InternshipEntry> {
  const { userId, types, minStipend, maxStipend, tags, location, openOn } = filter;
  const places = location === undefined ? [] : cityVariants(location);
  const words = (filter.words ?? []).map(cityVariants);
  const min = minStipend ?? -Infinity, max = maxStipend ?? Infinity;
  // Positions and marks are written to buffers reused from block to block (a scan reads each block's marks before the
  // next), and the rules are made once per filter, not once per block: a scan tests some 1,800 blocks at 900,000
  // archived listings, and what each test allocated was most of a request's garbage.
  const selected = new Uint16Array(BLOCK_MAX_ENTRIES);
  const [marks, found, spare, itself, byOrganization] = Array.from(
    { length: 5 },
    () => new Uint8Array(BLOCK_MAX_ENTRIES),
  );
  const ownedBy = (owner: unknown) => owner === userId;
  const inPlace = (name: unknown) => {
    for (let i = 0; i < places.length; i++) if ((name as string).includes(places[i])) return true;
    return false;
  };
  const tagged = (list: unknown) => {
    for (let i = 0; i < (list as string[]).length; i++) if (tags!.includes((list as string[])[i])) return true;
    return false;
  };
  const typed = (type: unknown) => types!.has(type as number);
  const openUntil = (day: unknown) => (day ?? Infinity) as number >= openOn!;
  const stateOk = (flags: unknown) => stateMatches(filter, flags as number);
  const verifiedSelf = (flag: unknown) => flag === 1;
  const verifiedOrganization = (id: unknown) => filter.verified!.organizations.has(id as string);
  return (block) => {
    const n = block.count;
    selected.set(EVERY_POSITION);
    let count = n;
    if (userId !== undefined && !(count = block.narrow(OWNER, ownedBy, selected, count))) return null;
    if (location !== undefined && !(count = block.narrow(LOCATION, inPlace, selected, count))) return null;
    if (tags && !(count = block.narrow(TAGS, tagged, selected, count))) return null;
    if (types && !(count = block.narrow(TYPE, typed, selected, count))) return null;
    if (minStipend !== undefined || maxStipend !== undefined) {
      if (!(count = block.narrowRange(STIPEND, min, max, selected, count))) return null;
    }
    if (openOn !== undefined && !(count = block.narrow(DEADLINE, openUntil, selected, count))) return null;
    if (state && !(count = block.narrow(FLAGS, stateOk, selected, count))) return null;
    if (filter.verified) {
      const self = block.mask(VERIFIED, verifiedSelf, itself);
      const byOrg = block.mask(ORGANIZATION, verifiedOrganization, byOrganization);
      let kept = 0;
      for (let j = 0; j < count; j++) {
        const p = selected[j];
        if ((self && self[p]) || (byOrg && byOrg[p])) selected[kept++] = p;
      }
      if (!(count = kept)) return null;
    }
    // The marks of the block's `n` positions (the buffer's rest is not read).
    marks.fill(0, 0, n);
    if (words.length > 0) {
      const hits = block.search(words, found, spare)!;
      let any = 0;
      for (let j = 0; j < count; j++) {
        const p = selected[j];
        marks[p] = hits[p];
        any |= hits[p];
      }
      return any ? marks : null;
    }
    for (let j = 0; j < count; j++) marks[selected[j]] = 1;
    return marks;
  };
}

/**
 * The archive's listings linked to organization `id` (any state) as a test of its blocks: a block's positions whose
 * organization is `id` (docs/decisions.md, Trust, "Who lists under a verified name").
 */
export function organizationBlockTest(id: string): BlockTest<InternshipEntry> {
  const selected = new Uint16Array(BLOCK_MAX_ENTRIES);
  const marks = new Uint8Array(BLOCK_MAX_ENTRIES);
  const linked = (organization: unknown) => organization === id;
  return (block) => {
    selected.set(EVERY_POSITION);
    const count = block.narrow(ORGANIZATION, linked, selected, block.count);
    if (count === 0) return null;
    marks.fill(0, 0, block.count);
    for (let j = 0; j < count; j++) marks[selected[j]] = 1;
    return marks;
  };
}

/**
 * `filter` as the AND of clauses of the archive (`Archive.matchesOfAll`): its state test, and each of its fields (the
 * types, the stipend range, the location, the tags, the deadline, the verified test) and search words on its own, so
 * that random filters, which combine a few values of each field, share the marks of their clauses over the archive.
 * Null for a filter of one owner's listings (`userId`), which `blockTest` narrows to a few positions per block at once
 * (docs/decisions.md, Open and closed listings, "Reading closed listings").
 */
export function blockClauses(filter: SlotFilter): ArchiveClause<InternshipEntry>[] | null {
  if (filter.userId !== undefined) return null;
  const { includeInactive, includeDeleted } = filter;
  const clause = (part: Partial<SlotFilter>, state = false): ArchiveClause<InternshipEntry> => {
    // The state clause reads the state flags; the others do not, so public and admin lists share them.
    const partial: SlotFilter = state
      ? { includeInactive, includeDeleted }
      : { includeInactive: false, includeDeleted: false, ...part };
    return {
      key: `${state ? "state" : "field"}\0${filterKey(partial)}`,
      makeTest: () => blockTest(partial, { state }),
    };
  };
  const clauses = [clause({}, true)];
  if (filter.types) clauses.push(clause({ types: filter.types }));
  if (filter.minStipend !== undefined || filter.maxStipend !== undefined) {
    clauses.push(clause({ minStipend: filter.minStipend, maxStipend: filter.maxStipend }));
  }
  if (filter.location !== undefined) clauses.push(clause({ location: filter.location }));
  if (filter.tags) clauses.push(clause({ tags: filter.tags }));
  if (filter.openOn !== undefined) clauses.push(clause({ openOn: filter.openOn }));
  if (filter.verified) clauses.push(clause({ verified: filter.verified }));
  for (const word of new Set(filter.words ?? [])) clauses.push(clause({ words: [word] }));
  return clauses;
}

/**
 * Working buffers of `matchingSlots`, which runs synchronously, so one set serves every call: a pass leaves behind only
 * the copy of its matches that the match cache keeps, not buffers of the model's size for the garbage collector (at
 * 1,000,000 listings they were most of what random filters left, and the process's memory grew by it).
 */
const scratch = {
  slots: new Int32Array(0),
  marks: new Uint8Array(0),
  words: new Uint32Array(0),
  /** A buffer for `n` matching slots (contents undefined). */
  matches(n: number): Int32Array {
    if (this.slots.length < n) this.slots = new Int32Array(Math.ceil(n * 1.25));
    return this.slots;
  },
  /** A bitset of exactly `n` words (contents undefined). */
  bits(n: number): Uint32Array {
    if (this.words.length < n) this.words = new Uint32Array(Math.ceil(n * 1.25));
    return this.words.subarray(0, n);
  },
  /** `n` marks, all 0. */
  tags(n: number): Uint8Array {
    if (this.marks.length < n) this.marks = new Uint8Array(Math.ceil(n * 1.25));
    return this.marks.fill(0, 0, n);
  },
};

const publicBitsOf = new WeakMap<object, PublicBits>();

/**
 * Every public slot matching `filter` (no owner, no admin flags), newest first: the AND of the kept bitsets of its
 * fields over the public view (`public_bits.ts`), then the slots at the positions left; the verified test is made on
 * those slots alone.
 */
function publicMatches(model: InternshipModel, filter: SlotFilter): Int32Array {
  const columns = model.columns;
  const view = columns.publicView();
  let bits = publicBitsOf.get(model);
  if (!bits) publicBitsOf.set(model, bits = new PublicBits());
  bits.use(model.version, view);
  const { types, minStipend, maxStipend, tags, location, words, openOn, verified } = filter;
  const fields: Uint32Array[] = [];
  if (openOn !== undefined) fields.push(bits.of(`open\0${openOn}`, (i) => view.deadlineDays[i] >= openOn));
  if (types) {
    const typeOk = new Uint8Array(INTERNSHIP_TYPES.length + 1).map((_, code) => types.has(code) ? 1 : 0);
    fields.push(bits.of(`types\0${typeOk.join()}`, (i) => typeOk[view.types[i]] === 1));
  }
  if (minStipend !== undefined || maxStipend !== undefined) {
    const min = minStipend ?? -Infinity, max = maxStipend ?? Infinity;
    fields.push(bits.of(`stipend\0${min}\0${max}`, (i) => view.stipends[i] >= min && view.stipends[i] <= max));
  }
  if (location !== undefined) {
    const places = cityVariants(location);
    const locationOk = columns.locations.marks((name) => places.some((place) => name.includes(place)));
    fields.push(bits.of(`location\0${location}`, (i) => locationOk[view.locationCodes[i]] === 1));
  }
  if (tags) {
    const key = `tags\0${[...tags].sort().join("\0")}`;
    fields.push(bits.ofSlots(key, () => tags.map((tag) => columns.tagSlots.get(tag))));
  }
  for (const word of words ?? []) {
    const marks = wordMarks(model, word);
    fields.push(bits.of(`word\0${word}`, (i) => marks[view.slots[i]] === 1));
  }
  const n = view.slots.length, size = bits.words;
  const all = scratch.bits(size);
  if (fields.length === 0) {
    all.fill(0xffffffff);
    if (n & 31) all[size - 1] = (1 << (n & 31)) - 1;
  } else {
    all.set(fields[0]);
    for (let f = 1; f < fields.length; f++) {
      const field = fields[f];
      for (let w = 0; w < size; w++) all[w] &= field[w];
    }
  }
  const verifiedOk = verified && columns.organizationCodes.marks((id) => verified.organizations.has(id));
  const byOrganization = (slot: number) =>
    verifiedOk![columns.organizations[slot]] === 1 && !verified!.strangers.has(slot);
  const slots = view.slots;
  const matches = scratch.matches(n);
  let total = 0;
  for (let w = 0; w < size; w++) {
    let left = all[w];
    while (left !== 0) {
      const low = left & -left;
      left ^= low;
      const slot = slots[(w << 5) + 31 - Math.clz32(low)];
      if (verifiedOk && columns.verified[slot] === 0 && !byOrganization(slot)) continue;
      matches[total++] = slot;
    }
  }
  return matches.slice(0, total);
}

/**
 * Every slot matching `filter`, newest first: for the public listings the bitsets of `publicMatches`, else one pass over
 * the filtered whole order, or one owner's order, whose cost then follows the owner's listing count.
 */
function matchingSlots(
  model: InternshipModel,
  filter: SlotFilter,
): Int32Array {
  const columns = model.columns;
  const { includeInactive, includeDeleted, userId } = filter;
  if (userId === undefined && !includeInactive && !includeDeleted) return publicMatches(model, filter);
  const { flags } = columns;
  const stateOk = (slot: number) => stateMatches(filter, flags[slot]);
  const base = userId !== undefined
    ? columns.view(columns.ownerOrder(userId).filter(stateOk))
    : columns.view(model.slots.order.filter(stateOk));
  const { types, minStipend, maxStipend, tags, location, words, openOn, verified } = filter;
  const verifiedOk = verified && columns.organizationCodes.marks((id) => verified.organizations.has(id));
  const typeOk = types && new Uint8Array(INTERNSHIP_TYPES.length + 1).map((_, code) => types.has(code) ? 1 : 0);
  const stipendFilter = minStipend !== undefined || maxStipend !== undefined;
  const min = minStipend ?? -Infinity, max = maxStipend ?? Infinity;
  let tagOk: Uint8Array | undefined;
  if (tags) {
    tagOk = scratch.tags(model.slots.count);
    for (const tag of tags) for (const slot of columns.tagSlots.get(tag)) tagOk[slot] = 1;
  }
  const places = location !== undefined ? cityVariants(location) : [];
  const locationOk = location !== undefined
    ? columns.locations.marks((name) => places.some((place) => name.includes(place)))
    : undefined;
  const searchOk = words && words.length > 0 ? searchMarks(model, words) : undefined;
  const { slots: baseSlots, types: typeCodes, stipends, locationCodes, deadlineDays } = base;
  const closing = openOn !== undefined, today = openOn ?? 0;
  const matches = scratch.matches(baseSlots.length);
  let total = 0;
  for (let i = 0; i < baseSlots.length; i++) {
    if (closing && deadlineDays[i] < today) continue;
    if (typeOk && typeOk[typeCodes[i]] === 0) continue;
    if (stipendFilter && !(stipends[i] >= min && stipends[i] <= max)) continue;
    if (locationOk && locationOk[locationCodes[i]] === 0) continue;
    const slot = baseSlots[i];
    if (tagOk && tagOk[slot] === 0) continue;
    if (searchOk && searchOk[slot] === 0) continue;
    if (
      verifiedOk && columns.verified[slot] === 0 &&
      (verifiedOk[columns.organizations[slot]] === 0 || verified!.strangers.has(slot))
    ) continue;
    matches[total++] = slot;
  }
  return matches.slice(0, total);
}

/** Marks of single search words kept per model, for its version: at most `WORD_MARKS_KEPT` words. */
const wordMarkCaches = new WeakMap<object, { version: number; marks: Map<string, Uint8Array> }>();
const WORD_MARKS_KEPT = 32;

/**
 * Marks, by slot, of the records whose search text contains `word`, a word naming a city under any of that city's
 * names (the union of a pass per name). Kept for the model's version: people search for the same few words, and a
 * filter that adds a field to a word asked before needs no scan of the token index (not to be changed).
 */
function wordMarks(model: InternshipModel, word: string): Uint8Array {
  let cache = wordMarkCaches.get(model);
  if (!cache || cache.version !== model.version) {
    wordMarkCaches.set(model, cache = { version: model.version, marks: new Map() });
  }
  let marks = cache.marks.get(word);
  if (marks) return marks;
  const variants = cityVariants(word);
  marks = model.searchMarks([variants[0]]);
  for (const variant of variants.slice(1)) {
    const found = model.searchMarks([variant]);
    for (let slot = 0; slot < marks.length; slot++) marks[slot] |= found[slot];
  }
  if (cache.marks.size >= WORD_MARKS_KEPT) cache.marks.delete(cache.marks.keys().next().value!);
  cache.marks.set(word, marks);
  return marks;
}

/**
 * Marks of the slots whose search text contains every word of `words`, a word naming a city
 * under any of that city's names (`wordMarks`; not to be changed).
 */
function searchMarks(model: InternshipModel, words: string[]): Uint8Array {
  if (words.length === 1) return wordMarks(model, words[0]);
  const marks = wordMarks(model, words[0]).slice();
  for (const word of words.slice(1)) {
    const found = wordMarks(model, word);
    for (let slot = 0; slot < marks.length; slot++) marks[slot] &= found[slot];
  }
  return marks;
}
