/**
 * Opportunity storage: the chunked store of `lib/kv/chunked/` under the key prefix
 * "opportunities" (records packed in chunks, an in-memory read model, versionstamp-checked
 * writes with bounded retries), with the columns the lists filter on — type, review state and
 * owner — and the count of records in each review state, kept as the columns change.
 */
import { Postings, type Slots } from "@/lib/kv/chunked/columns.ts";
import type { ChunkedLayout } from "@/lib/kv/chunked/layout.ts";
import type { Columns } from "@/lib/kv/chunked/read_model.ts";
import { chunkedStore } from "@/lib/kv/chunked/store.ts";
import { type Opportunity, OPPORTUNITY_STATUSES, OPPORTUNITY_TYPES, statusOf } from "./schema.ts";

/**
 * The listing fields of a record: id, createdAt ms, type code, review-state code, owner id ("" for none), updatedAt
 * ms, startDate and endDate (`YYYY-MM-DD`). The last three are absent from index chunks written before they were
 * kept: then the creation time counts as the update, and the record counts as open and ending last, until the store's
 * load writes such chunks again (`fields`; docs/decisions.md, Student space).
 */
export type OpportunityEntry = [
  id: string,
  createdMs: number,
  type: number,
  status: number,
  owner: string,
  updatedMs?: number,
  startDate?: string,
  endDate?: string,
];

/** The end date an entry without dates counts with: open, and ending after every dated one. */
const NO_DATE = "9999-12-31";

/** The lower-case search text: title, description, organizer and location, one per line. */
function searchText(o: Opportunity): string {
  return [o.title, o.description ?? "", o.organizer ?? "", o.location ?? ""].join("\n").toLowerCase()
    .replaceAll("\0", " ");
}

const layout: ChunkedLayout<Opportunity, OpportunityEntry> = {
  prefix: "opportunities",
  noun: "opportunities",
  entry: (o) => [
    o.id,
    Date.parse(o.createdAt),
    OPPORTUNITY_TYPES.indexOf(o.type),
    OPPORTUNITY_STATUSES.indexOf(statusOf(o)),
    o.userId ?? "",
    Date.parse(o.updatedAt),
    o.startDate,
    o.endDate,
  ],
  searchText,
  owner: (o) => o.userId ?? null,
  fields: 8,
};

/** The opportunity columns by slot, owner postings, and the number of records per review-state code. */
export class OpportunityColumns implements Columns<OpportunityEntry> {
  readonly types: number[] = [];
  readonly statuses: number[] = [];
  readonly owners: string[] = [];
  /** When the record was last updated, in ms, by slot. */
  readonly updated: number[] = [];
  /** `startDate` and `endDate` (`YYYY-MM-DD`) by slot. */
  readonly startDates: string[] = [];
  readonly endDates: string[] = [];
  /** Records per review-state code (`OPPORTUNITY_STATUSES` order). */
  readonly counts: number[] = OPPORTUNITY_STATUSES.map(() => 0);
  private readonly ownerSlots = new Postings();

  constructor(readonly slots: Slots) {}

  set(
    slot: number,
    [, createdMs, type, status, owner, updatedMs, startDate, endDate]: OpportunityEntry,
    fresh: boolean,
  ): void {
    if (!fresh) this.counts[this.statuses[slot]]--;
    if (fresh || this.owners[slot] !== owner) {
      if (!fresh) this.ownerSlots.remove(this.owners[slot], slot);
      this.ownerSlots.add(owner, slot);
    }
    this.types[slot] = type;
    this.statuses[slot] = status;
    this.counts[status]++;
    this.owners[slot] = owner;
    this.updated[slot] = updatedMs ?? createdMs;
    this.startDates[slot] = startDate ?? NO_DATE;
    this.endDates[slot] = endDate ?? NO_DATE;
  }

  /** Forgets `slot`, whose record left the store (docs/decisions.md, Open and closed listings, "Closing"). */
  remove(slot: number): void {
    this.counts[this.statuses[slot]]--;
    this.ownerSlots.remove(this.owners[slot], slot);
    this.statuses[slot] = -1;
  }

  /** The slots of `userId`, newest first. */
  ownerOrder(userId: string): number[] {
    return [...this.ownerSlots.get(userId)].sort(this.slots.newerFirst);
  }
}

/** The opportunity store of a KV in this process (loaded on first use, synced with other processes). */
export const opportunityStore = chunkedStore(layout, (slots) => new OpportunityColumns(slots));
