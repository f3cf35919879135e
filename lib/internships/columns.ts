/**
 * The internship listing fields in the chunked read model (`lib/kv/chunked/`): the entry each record stores in its
 * chunk's index, and the columns, postings and orders the list filters (`filters.ts`; docs/decisions.md, Internships)
 * run over.
 */
import { Dictionary, ListDictionary, Postings, type Slots } from "@/lib/kv/chunked/columns.ts";
import type { Columns } from "@/lib/kv/chunked/read_model.ts";
import { istDayOf } from "@/lib/dates.ts";
import { isWithheld } from "@/lib/moderation/moderation.ts";
import { type Internship, INTERNSHIP_TYPES } from "./schema.ts";

/** Bit of `flags`: the record is active. */
export const ACTIVE = 1;
/** Bit of `flags`: the record is soft-deleted. */
export const DELETED = 2;
/** Bit of `flags`: moderation keeps the record out of the public lists (held or rejected; docs/decisions.md, Trust). */
export const WITHHELD = 4;
/** Bit of `flags`: the record left the read model (to the archive of closed listings); its slot is never used again. */
export const GONE = 8;

/**
 * The listing fields of a record: id, createdAt ms, type code, flags, stipend, lower-case location and tags, owner id
 * ("" for none), updatedAt ms and the deadline's IST day as days since 1970-01-01 (null for none). The last two are
 * absent from index chunks written before they were kept: such a record counts as updated when created and open until
 * the store's load writes those chunks again (docs/decisions.md, Search engines and sharing). Then the organization's
 * id ("" for none) and 1 when the internship itself is verified: absent from entries written before organizations,
 * whose records have no organization either until the one-time link rewrites them (docs/decisions.md, Trust,
 * "Organizations"), which writes their entries anew. Last, how the link was judged (`linkedByManager`: 1 true, 0 false,
 * null unmarked), which the `organizations-unlink` job's pending judgement reads (docs/decisions.md, Trust, "Who lists
 * under a verified name"); absent from entries written before it was kept, read as unmarked.
 */
export type InternshipEntry = [
  id: string,
  createdMs: number,
  type: number,
  flags: number,
  stipend: number | null,
  location: string,
  tags: string[],
  owner: string,
  updatedMs?: number,
  deadlineDay?: number | null,
  organization?: string,
  verified?: 0 | 1,
  byManager?: 0 | 1 | null,
];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A `YYYY-MM-DD` day as days since 1970-01-01. */
export function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/** The IST day of `deadline` as days since 1970-01-01 (`dayNumber`), or null for none. */
function deadlineDayOf(deadline: string | null): number | null {
  const day = deadline === null ? null : istDayOf(deadline);
  return day === null ? null : dayNumber(day);
}

/** `type` as a small code: 0 none, then the position in `INTERNSHIP_TYPES` plus one. */
export function typeCode(type: string | null): number {
  return type === null ? 0 : INTERNSHIP_TYPES.indexOf(type as typeof INTERNSHIP_TYPES[number]) + 1;
}

/** The index entry of `record`. */
export function internshipEntry(r: Internship): InternshipEntry {
  return [
    r.id,
    Date.parse(r.createdAt),
    typeCode(r.type),
    (r.isActive ? ACTIVE : 0) | (r.deletedAt ? DELETED : 0) | (isWithheld(r) ? WITHHELD : 0),
    r.stipend,
    (r.location ?? "").toLowerCase(),
    r.tags.map((t) => t.toLowerCase()),
    r.userId ?? "",
    Date.parse(r.updatedAt),
    deadlineDayOf(r.deadline),
    r.organizationId ?? "",
    r.isVerified ? 1 : 0,
    r.linkedByManager === undefined ? null : r.linkedByManager ? 1 : 0,
  ];
}

/** Lower-case search text of a record: title, description and hiring organization, one per line. */
export function internshipSearchText(record: Internship): string {
  return `${record.title}\n${record.description ?? ""}\n${record.hiringOrganization}`.toLowerCase().replaceAll(
    "\0",
    " ",
  );
}

/**
 * Slots in list order with their type code, stipend and location code at the same positions.
 * A filter pass reads these front to back: read by slot instead, a million slots in newest-first
 * order hit the columns at random and the pass was bound by cache misses (3-5x slower).
 */
export interface FilterView {
  slots: Int32Array;
  types: Uint8Array;
  /** NaN when unstated. */
  stipends: Float64Array;
  locationCodes: Int32Array;
  /** The deadline's IST day (`dayNumber`); Infinity for none. */
  deadlineDays: Float64Array;
}

/** At most this many new listings are kept in `InternshipColumns.newest` before a new epoch starts. */
export const NEWEST_KEPT = 4096;

/** A filter view of `n` zeroed positions. */
function emptyView(n: number): FilterView {
  return {
    slots: new Int32Array(n),
    types: new Uint8Array(n),
    stipends: new Float64Array(n),
    locationCodes: new Int32Array(n),
    deadlineDays: new Float64Array(n),
  };
}

/** The positions of `view` from `start` on, sharing its memory. */
function viewFrom(view: FilterView, start: number): FilterView {
  return {
    slots: view.slots.subarray(start),
    types: view.types.subarray(start),
    stipends: view.stipends.subarray(start),
    locationCodes: view.locationCodes.subarray(start),
    deadlineDays: view.deadlineDays.subarray(start),
  };
}

/** The internship columns by slot, with tag and owner postings, the location dictionary and per-owner orders. */
export class InternshipColumns implements Columns<InternshipEntry> {
  readonly types: number[] = [];
  readonly flags: number[] = [];
  /** Stipend by slot; NaN when unstated (so no range matches it). */
  readonly stipends: number[] = [];
  /** Location code by slot (in `locations`). */
  readonly locationCodes: number[] = [];
  readonly locations = new Dictionary();
  /** Tags by slot, lower case; records with the same tags share one array (`ListDictionary`). */
  readonly tags: (readonly string[])[] = [];
  /** Owner id by slot ("" for none); each distinct id held once. */
  readonly owners: string[] = [];
  /** When the record was last updated, in ms, by slot. */
  readonly updated: number[] = [];
  /** The deadline's IST day (`dayNumber`) by slot; Infinity for none (never closes). */
  readonly deadlineDays: number[] = [];
  /** Organization code by slot (in `organizationCodes`; the code of "" for a listing not linked yet). */
  readonly organizations: number[] = [];
  /** Organization ids as codes. */
  readonly organizationCodes = new Dictionary();
  /** 1 by slot when the internship itself is verified (by an admin), else 0. */
  readonly verified: number[] = [];
  /** By slot, how its organization link was judged (`linkedByManager`): 1 true, 0 false, -1 unmarked. */
  readonly byManager: number[] = [];
  private readonly organizationSlots = new Postings();
  private readonly tagLists = new ListDictionary();
  private readonly ownerNames = new Dictionary();
  readonly tagSlots = new Postings();
  private readonly ownerSlots = new Postings();
  /** Per owner, their slots newest first (every state); built on first use, kept in step with inserts. */
  private readonly ownerOrders = new Map<string, number[]>();
  /**
   * The public view's arrays with room in front: `publicStart` is where the view begins, so a
   * new newest listing is written before it instead of the view being rebuilt (20-30 ms at
   * 1,000,000 listings). Null until first asked for, and after any other change to the view.
   */
  private publicBuffers: FilterView | null = null;
  private publicStart = 0;
  private publicFilterView: FilterView | null = null;
  /**
   * The listings added since `epoch` began, in the order added, each the newest when added: while
   * the epoch holds, a list filter's matches change only by these (search words aside, whose
   * text the columns do not hold), so a kept match list is brought up to date by testing them.
   * Any other change to a filtered field (state, type, stipend, location, deadline, tags, owner), a new
   * listing that is not the newest, or more than `NEWEST_KEPT` of them, starts a new epoch.
   */
  readonly newest: number[] = [];
  epoch = 0;

  constructor(readonly slots: Slots) {}

  set(slot: number, entry: InternshipEntry, fresh: boolean): void {
    const type = entry[2], flags = entry[3], stipend = entry[4], location = entry[5];
    const tags = this.tagLists.canonical(entry[6]);
    const owner = this.ownerNames.canonical(entry[7]);
    const organization = this.organizationCodes.code(entry[10] ?? "");
    const verified = entry[11] ?? 0;
    const byManager = entry[12] ?? -1;
    const stipendValue = stipend ?? NaN, locationCode = this.locations.code(location);
    const deadlineDay = entry[9] ?? Infinity;
    // A write re-applies every entry of its chunk: the public view changes only when a listing
    // enters or leaves it, or a public listing's filtered fields change.
    const stateChanged = !fresh && flags !== this.flags[slot];
    const viewFieldsChanged = !fresh && (type !== this.types[slot] ||
      !Object.is(stipendValue, this.stipends[slot]) || locationCode !== this.locationCodes[slot] ||
      deadlineDay !== this.deadlineDays[slot]);
    const viewChanged = stateChanged || viewFieldsChanged && flags === ACTIVE;
    const isNewest = fresh && this.slots.order[0] === slot;
    if (isNewest && this.newest.length < NEWEST_KEPT) this.newest.push(slot);
    else if (
      fresh || stateChanged || viewFieldsChanged || tags !== this.tags[slot] || owner !== this.owners[slot] ||
      organization !== this.organizations[slot] || verified !== this.verified[slot] ||
      byManager !== this.byManager[slot]
    ) {
      this.epoch++;
      this.newest.length = 0;
    }
    if (!fresh) { for (const tag of this.tags[slot]) this.tagSlots.remove(tag, slot); }
    this.types[slot] = type;
    this.flags[slot] = flags;
    this.stipends[slot] = stipendValue;
    this.locationCodes[slot] = locationCode;
    this.tags[slot] = tags;
    this.updated[slot] = entry[8] ?? entry[1];
    this.deadlineDays[slot] = deadlineDay;
    for (const tag of tags) this.tagSlots.add(tag, slot);
    if (this.owners[slot] !== owner) {
      if (!fresh) {
        this.ownerSlots.remove(this.owners[slot], slot);
        this.ownerOrders.delete(this.owners[slot]);
        this.ownerOrders.delete(owner);
      }
      this.ownerSlots.add(owner, slot);
      this.owners[slot] = owner;
    }
    if (fresh) {
      const ownerOrder = this.ownerOrders.get(owner);
      if (ownerOrder) this.slots.insertSorted(ownerOrder, slot);
    }
    if (fresh || this.organizations[slot] !== organization) {
      const names = this.organizationCodes.names;
      if (!fresh) this.organizationSlots.remove(names[this.organizations[slot]], slot);
      this.organizationSlots.add(names[organization], slot);
      this.organizations[slot] = organization;
    }
    this.verified[slot] = verified;
    this.byManager[slot] = byManager;
    if (isNewest && flags === ACTIVE && this.publicFilterView) this.prependPublic(slot);
    else if (viewChanged || fresh && flags === ACTIVE) this.publicBuffers = this.publicFilterView = null;
  }

  /** Forgets `slot`, whose record left the store (docs/decisions.md, Open and closed listings, "Closing"). */
  remove(slot: number): void {
    const owner = this.owners[slot];
    for (const tag of this.tags[slot]) this.tagSlots.remove(tag, slot);
    this.ownerSlots.remove(owner, slot);
    this.ownerOrders.delete(owner);
    this.organizationSlots.remove(this.organizationCodes.names[this.organizations[slot]], slot);
    if (this.flags[slot] === ACTIVE) this.publicBuffers = this.publicFilterView = null;
    this.flags[slot] = GONE;
    this.epoch++;
    this.newest.length = 0;
  }

  /** Writes `slot`, the newest slot and a public one, in front of the public view, growing its room when full. */
  private prependPublic(slot: number): void {
    if (this.publicStart === 0) {
      const current = this.publicFilterView!;
      const room = Math.max(1024, current.slots.length >> 3);
      const grown = emptyView(room + current.slots.length);
      grown.slots.set(current.slots, room);
      grown.types.set(current.types, room);
      grown.stipends.set(current.stipends, room);
      grown.locationCodes.set(current.locationCodes, room);
      grown.deadlineDays.set(current.deadlineDays, room);
      this.publicBuffers = grown;
      this.publicStart = room;
    }
    const at = --this.publicStart, buffers = this.publicBuffers!;
    buffers.slots[at] = slot;
    buffers.types[at] = this.types[slot];
    buffers.stipends[at] = this.stipends[slot];
    buffers.locationCodes[at] = this.locationCodes[slot];
    buffers.deadlineDays[at] = this.deadlineDays[slot];
    this.publicFilterView = viewFrom(buffers, at);
  }

  /** Whether the record in `slot` is active, whether it is deleted, and whether moderation withholds it. */
  state(slot: number): { active: boolean; deleted: boolean; withheld: boolean } {
    const flags = this.flags[slot];
    return { active: (flags & ACTIVE) !== 0, deleted: (flags & DELETED) !== 0, withheld: (flags & WITHHELD) !== 0 };
  }

  /** The owner's user id of the record in `slot`, or null when it has none (its owner deleted their account). */
  ownerOf(slot: number): string | null {
    return this.owners[slot] || null;
  }

  /**
   * Whether the record in `slot` is open on IST day `today` (`dayNumber`): active, not deleted, and its deadline
   * not before `today` (docs/decisions.md, Search engines and sharing).
   */
  isOpen(slot: number, today: number): boolean {
    return this.flags[slot] === ACTIVE && this.deadlineDays[slot] >= today;
  }

  /** The active, not deleted, not withheld slots, newest first, as a filter view (new listings are written in front; rebuilt after other changes to it). */
  publicView(): FilterView {
    if (!this.publicFilterView) {
      this.publicBuffers = this.publicFilterView = this.view(
        this.slots.order.filter((slot) => this.flags[slot] === ACTIVE),
      );
      this.publicStart = 0;
    }
    return this.publicFilterView;
  }

  /** `slots` (in the order given) with the fields the list filters test, copied into that order. */
  view(slots: readonly number[]): FilterView {
    const n = slots.length;
    const view = emptyView(n);
    for (let i = 0; i < n; i++) {
      const slot = slots[i];
      view.slots[i] = slot;
      view.types[i] = this.types[slot];
      view.stipends[i] = this.stipends[slot];
      view.locationCodes[i] = this.locationCodes[slot];
      view.deadlineDays[i] = this.deadlineDays[slot];
    }
    return view;
  }

  /** The slots of the listings of organization `id`, every state, newest first. */
  organizationOrder(id: string): number[] {
    return [...this.organizationSlots.get(id)].sort(this.slots.newerFirst);
  }

  /**
   * The slots of `userId`, newest first, every state. Built by sorting the owner's postings, or
   * for an owner of a large share of the listings by one pass over the order (cheaper than a
   * comparison sort then), and kept: new slots are inserted in place.
   */
  ownerOrder(userId: string): number[] {
    let order = this.ownerOrders.get(userId);
    if (!order) {
      const slots = this.ownerSlots.get(userId);
      const all = this.slots.order;
      order = slots.length * Math.log2(slots.length + 1) < all.length
        ? [...slots].sort(this.slots.newerFirst)
        : all.filter((slot) => this.owners[slot] === userId);
      this.ownerOrders.set(userId, order);
    }
    return order;
  }
}
