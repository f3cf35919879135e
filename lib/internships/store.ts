/**
 * Internship storage in Deno KV and the in-memory read model that answers every list query
 * (CONTRACT.md §4, DESIGN.md "Deno KV").
 *
 * Records are stored packed, about 48 KB of them per chunk, each chunk beside a compact index
 * chunk (the listing fields and the lower-case search text of the same records). A process
 * loads 100,000 listings with one scan of ~1,700 index chunks instead of 100,000 entries (a KV
 * entry costs ~10 µs to read), and reads record chunks only for the pages it serves.
 * Keys, owned by this module only:
 * - `["internships_chunks", n]` → UTF-8 JSON array of `Internship` records (the record store);
 * - `["internships_index", n]` → UTF-8 of `JSON(IndexEntry[]) \0 text₀ \0 text₁ ...` for chunk n;
 * - `["internships", id]` → n, the chunk that holds the record (the id index);
 * - `["internships_chunk_stamps", n]` → record count, written with chunk n so that its
 *   versionstamp is the chunk's (listing these is how a process finds changed chunks);
 * - `["internships_meta", "open"]` → the chunk new records go to;
 * - `["internships_meta", "head"]` → changed by every write (the change marker).
 * Every write sets the records' chunks, index chunks, id entries, stamps and the head in one
 * atomic operation, checked against the versionstamps it read and against the head this
 * process is in step with (so no write of another process is missed, and a process need not
 * look for changed chunks after its own writes).
 *
 * The read model keeps the listing fields in columns by slot (one slot per record), the slots
 * newest first, tag and owner postings, a location dictionary and the search text per chunk, so a
 * filter over 100,000 listings is a pass over small arrays, an owner's list starts from that
 * owner's slots only, and a search is one `indexOf` scan per chunk.
 * Each write is applied to it by the code that committed it; writes by other processes are
 * picked up by `sync`, which compares the head versionstamp at most once per
 * `SYNC_INTERVAL_MS` and reloads only the chunks whose stamps changed.
 */
import { InvalidInputError } from "../errors.ts";
import { type Internship, INTERNSHIP_TYPES, type InternshipOwner } from "./schema.ts";

/** Chunks are filled by creates up to this many bytes... */
const CHUNK_FILL_BYTES = 48_000;
/** ...and may grow through updates up to this many (KV's value limit is 65,536). */
const CHUNK_MAX_BYTES = 64_000;
/** How often (ms) a read checks KV for writes made by other processes. */
export const SYNC_INTERVAL_MS = 1000;
/** How long (ms) owner objects are reused before they are read again. */
const OWNER_TTL_MS = 5000;

const chunkKey = (n: number): Deno.KvKey => ["internships_chunks", n];
const indexKey = (n: number): Deno.KvKey => ["internships_index", n];
const stampKey = (n: number): Deno.KvKey => ["internships_chunk_stamps", n];
const idKey = (id: string): Deno.KvKey => ["internships", id];
const OPEN_KEY: Deno.KvKey = ["internships_meta", "open"];
const HEAD_KEY: Deno.KvKey = ["internships_meta", "head"];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bit of `flags`: the record is active. */
const ACTIVE = 1;
/** Bit of `flags`: the record is soft-deleted. */
const DELETED = 2;

/** `type` as a small code: 0 none, then the position in `INTERNSHIP_TYPES` plus one. */
export function typeCode(type: string | null): number {
  return type === null ? 0 : INTERNSHIP_TYPES.indexOf(type as typeof INTERNSHIP_TYPES[number]) + 1;
}

/** The listing fields of a record: id, createdAt ms, type code, flags, stipend, location, tags, owner. */
type IndexEntry = [string, number, number, number, number | null, string, string[], string];

/** Lower-case search text of a record: title, description and hiring organization, one per line. */
function searchText(record: Internship): string {
  return `${record.title}\n${record.description ?? ""}\n${record.hiringOrganization}`.toLowerCase().replaceAll(
    "\0",
    " ",
  );
}

/**
 * The index chunk of `records`: their listing fields, then the chunk's search vocabulary (each
 * distinct whitespace-separated token of the search texts, preceded by `\0`) with, per token, a
 * bit mask of the records that contain it (`ceil(records / 32)` 32-bit words per token). A search
 * word (no whitespace) occurs in a text exactly when it occurs inside one of the text's tokens.
 */
function encodeIndex(records: Internship[]): Uint8Array {
  const entries: IndexEntry[] = records.map((r) => [
    r.id,
    Date.parse(r.createdAt),
    typeCode(r.type),
    (r.isActive ? ACTIVE : 0) | (r.deletedAt ? DELETED : 0),
    r.stipend,
    (r.location ?? "").toLowerCase(),
    r.tags.map((t) => t.toLowerCase()),
    r.userId,
  ]);
  const width = Math.ceil(records.length / 32);
  const tokens = new Map<string, number[]>();
  records.forEach((record, i) => {
    for (const token of searchText(record).split(/\s+/)) {
      if (!token) continue;
      let mask = tokens.get(token);
      if (!mask) tokens.set(token, mask = new Array(width).fill(0));
      mask[i >> 5] |= 1 << (i & 31);
    }
  });
  const masks = [...tokens.values()].flat();
  return encoder.encode([JSON.stringify({ entries, masks }), ...tokens.keys()].join("\0"));
}

/** Reads an index chunk written by `encodeIndex`. */
function decodeIndex(bytes: Uint8Array): ChunkIndex {
  const all = decoder.decode(bytes);
  const cut = all.includes("\0") ? all.indexOf("\0") : all.length;
  const { entries, masks } = JSON.parse(all.slice(0, cut)) as { entries: IndexEntry[]; masks: number[] };
  const vocabulary = all.slice(cut);
  const starts: number[] = [];
  for (let i = vocabulary.indexOf("\0"); i !== -1; i = vocabulary.indexOf("\0", i + 1)) starts.push(i);
  return { entries, vocabulary, starts, masks: Int32Array.from(masks), width: Math.ceil(entries.length / 32) };
}

/** A decoded index chunk. */
interface ChunkIndex {
  entries: IndexEntry[];
  /** Distinct tokens, each preceded by `\0`; `starts` holds where each begins. */
  vocabulary: string;
  starts: number[];
  /** `width` mask words per token, bit i = record i of the chunk. */
  masks: Int32Array;
  width: number;
}

function decodeChunk(value: Uint8Array | null): Internship[] {
  return value ? JSON.parse(decoder.decode(value)) : [];
}

function byteLength(record: Internship): number {
  return encoder.encode(JSON.stringify(record)).byteLength + 1;
}

/** A chunk's records with their encoded index, as a write stores them. */
interface Indexed {
  records: Internship[];
  index: Uint8Array;
}

function indexed(records: Internship[]): Indexed {
  return { records, index: encodeIndex(records) };
}

/**
 * `records` (a chunk filled by size, whose first `kept` records are already stored in it) as one
 * or more chunks whose index stays within `CHUNK_MAX_BYTES`. A small record can carry a large
 * search vocabulary (each distinct word adds its text and mask words), so an index may outgrow
 * its records several times over. Usually one chunk and one encoding; otherwise each chunk takes
 * the longest prefix that fits (at least `kept` records, and at least one), found by bisection.
 */
function splitByIndex(records: Internship[], kept: number): Indexed[] {
  const out: Indexed[] = [];
  let rest = records;
  for (let minimum = Math.max(kept, 1);; minimum = 1) {
    const whole = indexed(rest);
    if (whole.index.byteLength <= CHUNK_MAX_BYTES || rest.length <= minimum) return [...out, whole];
    let lo = minimum, hi = rest.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (encodeIndex(rest.slice(0, mid)).byteLength <= CHUNK_MAX_BYTES) lo = mid;
      else hi = mid - 1;
    }
    out.push(indexed(rest.slice(0, lo)));
    rest = rest.slice(lo);
  }
}

/** The filters of one list pass, already resolved to codes and marks. */
export interface SlotFilter {
  includeInactive: boolean;
  includeDeleted: boolean;
  /** Only the records of this user id. */
  userId?: string;
  types?: Set<number>;
  minStipend?: number;
  maxStipend?: number;
  tags?: string[];
  location?: string;
  words?: string[];
}

/** The in-memory read model of one KV store. */
export class ReadModel {
  private ids: string[] = [];
  private created: number[] = [];
  private types: number[] = [];
  private flags: number[] = [];
  private stipends: number[] = [];
  private locations: number[] = [];
  private tags: string[][] = [];
  private owners: string[] = [];
  private chunkOf: number[] = [];
  private byId = new Map<string, number>();
  private locationNames: string[] = [];
  private locationIds = new Map<string, number>();
  private tagSlots = new Map<string, Set<number>>();
  private ownerSlots = new Map<string, Set<number>>();
  /** Per owner, their slots newest first (every state); built on first use, kept in step with inserts. */
  private ownerOrders = new Map<string, number[]>();
  private vocabularies = new Map<number, ChunkIndex & { slots: number[] }>();
  private records = new Map<number, Internship[]>();
  /** Slots newest first. */
  private order: number[] = [];
  private publicOrder: number[] | null = null;
  private loading = false;
  private chunkStamps = new Map<number, string>();
  private headStamp: string | null = null;
  private checkedAt = 0;
  private syncing: Promise<void> | null = null;
  private ownerObjects = new Map<string, InternshipOwner>();
  private ownersAt = 0;
  /** Grows whenever a listing or an owner object changes: what was derived from the model stays valid until then. */
  version = 0;

  constructor(private readonly kv: Deno.Kv) {}

  /** Loads every index chunk with one scan. */
  async load(): Promise<void> {
    this.headStamp = (await this.kv.get(HEAD_KEY)).versionstamp;
    this.loading = true;
    for await (const entry of this.kv.list<Uint8Array>({ prefix: ["internships_index"] }, { batchSize: 500 })) {
      this.applyIndex(entry.key[1] as number, decodeIndex(entry.value), entry.versionstamp);
    }
    this.loading = false;
    this.order.sort((a, b) => this.newerFirst(a, b));
    this.checkedAt = Date.now();
    await this.refreshOwners();
  }

  /** Picks up other processes' writes when `SYNC_INTERVAL_MS` has passed since the last check. */
  sync(): Promise<void> {
    if (Date.now() - this.checkedAt < SYNC_INTERVAL_MS) return Promise.resolve();
    this.syncing ??= this.pull().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async pull(): Promise<void> {
    const head = await this.kv.get(HEAD_KEY);
    if (head.versionstamp !== this.headStamp) {
      const changed: number[] = [];
      for await (const entry of this.kv.list({ prefix: ["internships_chunk_stamps"] })) {
        const n = entry.key[1] as number;
        if (this.chunkStamps.get(n) !== entry.versionstamp) changed.push(n);
      }
      for (let i = 0; i < changed.length; i += 10) {
        const entries = await this.kv.getMany<Uint8Array[]>(changed.slice(i, i + 10).map(indexKey));
        for (const entry of entries) {
          if (entry.value) this.applyIndex(entry.key[1] as number, decodeIndex(entry.value), entry.versionstamp);
        }
      }
      this.headStamp = head.versionstamp;
    }
    if (Date.now() - this.ownersAt >= OWNER_TTL_MS) await this.refreshOwners();
    this.checkedAt = Date.now();
  }

  private newerFirst(a: number, b: number): number {
    const d = this.created[b] - this.created[a];
    if (d !== 0) return d;
    const x = this.ids[a], y = this.ids[b];
    return x < y ? 1 : x > y ? -1 : 0;
  }

  private locationId(location: string): number {
    let id = this.locationIds.get(location);
    if (id === undefined) {
      id = this.locationNames.push(location) - 1;
      this.locationIds.set(location, id);
    }
    return id;
  }

  /** The head versionstamp this model is in step with; a write checks it so none is missed. */
  get syncedHead(): string | null {
    return this.headStamp;
  }

  /**
   * Puts chunks written by this process into the model: `records` and their encoded index by
   * chunk, committed at `versionstamp` after a check that the head was `syncedHead`.
   */
  applyWrite(chunks: Map<number, Indexed>, versionstamp: string): void {
    for (const [n, { records, index }] of chunks) {
      if (this.applyIndex(n, decodeIndex(index), versionstamp)) this.records.set(n, records);
    }
    this.headStamp = versionstamp;
  }

  /** Reads other processes' writes now (after a write lost a race). */
  catchUp(): Promise<void> {
    this.checkedAt = 0;
    return this.sync();
  }

  private applyIndex(n: number, index: ChunkIndex, versionstamp: string): boolean {
    const stamp = this.chunkStamps.get(n);
    if (stamp && stamp >= versionstamp) return false;
    this.chunkStamps.set(n, versionstamp);
    this.records.delete(n);
    const slots: number[] = [];
    for (const [id, created, type, flags, stipend, location, tags, owner] of index.entries) {
      let slot = this.byId.get(id);
      const fresh = slot === undefined;
      if (slot === undefined) {
        slot = this.ids.push(id) - 1;
        this.byId.set(id, slot);
        this.created.push(created);
      } else {
        for (const tag of this.tags[slot]) this.tagSlots.get(tag)?.delete(slot);
      }
      this.types[slot] = type;
      this.flags[slot] = flags;
      this.stipends[slot] = stipend ?? NaN;
      this.locations[slot] = this.locationId(location);
      this.tags[slot] = tags;
      if (this.owners[slot] !== owner) {
        if (!fresh) {
          this.ownerSlots.get(this.owners[slot])?.delete(slot);
          this.ownerOrders.delete(this.owners[slot]);
          this.ownerOrders.delete(owner);
        }
        let set = this.ownerSlots.get(owner);
        if (!set) this.ownerSlots.set(owner, set = new Set());
        set.add(slot);
        this.owners[slot] = owner;
      }
      this.chunkOf[slot] = n;
      for (const tag of tags) {
        let set = this.tagSlots.get(tag);
        if (!set) this.tagSlots.set(tag, set = new Set());
        set.add(slot);
      }
      if (fresh) {
        this.insertInOrder(slot);
        const ownerOrder = this.ownerOrders.get(owner);
        if (ownerOrder) this.insertSorted(ownerOrder, slot);
      }
      slots.push(slot);
    }
    this.vocabularies.set(n, { ...index, entries: [], slots });
    this.publicOrder = null;
    this.version++;
    return true;
  }

  private insertInOrder(slot: number): void {
    if (this.loading) this.order.push(slot);
    else this.insertSorted(this.order, slot);
  }

  /** Inserts `slot` into `list` (slots newest first) at its place. */
  private insertSorted(list: number[], slot: number): void {
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newerFirst(list[mid], slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, slot);
  }

  /** The slot of `id`, or undefined. */
  slotOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** Whether the record in `slot` is active, and whether it is deleted. */
  state(slot: number): { active: boolean; deleted: boolean } {
    return { active: (this.flags[slot] & ACTIVE) !== 0, deleted: (this.flags[slot] & DELETED) !== 0 };
  }

  /** The owner's user id of the record in `slot`. */
  ownerOf(slot: number): string {
    return this.owners[slot];
  }

  /** Marks, by slot, the rows whose search text contains every one of `words`. */
  private searchMarks(words: string[]): Uint8Array {
    const marks = new Uint8Array(this.ids.length);
    for (const { slots, vocabulary, starts, masks, width } of this.vocabularies.values()) {
      let all: Int32Array | null = null;
      for (const word of words) {
        const found = new Int32Array(width);
        let at = vocabulary.indexOf(word);
        while (at !== -1) {
          let lo = 0, hi = starts.length;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (starts[mid] < at) lo = mid + 1;
            else hi = mid;
          }
          const token = lo - 1;
          for (let w = 0; w < width; w++) found[w] |= masks[token * width + w];
          if (lo >= starts.length) break;
          at = vocabulary.indexOf(word, starts[lo]);
        }
        if (all) { for (let w = 0; w < width; w++) all[w] &= found[w]; }
        else all = found;
        if (all.every((w) => w === 0)) break;
      }
      if (!all) continue;
      for (let i = 0; i < slots.length; i++) if (all[i >> 5] & (1 << (i & 31))) marks[slots[i]] = 1;
    }
    return marks;
  }

  /** The record's state passes the inactive and deleted rules of `filter`. */
  private stateOk(slot: number, { includeInactive, includeDeleted }: SlotFilter): boolean {
    return (includeInactive || (this.flags[slot] & ACTIVE) !== 0) &&
      (includeDeleted || (this.flags[slot] & DELETED) === 0);
  }

  /**
   * The slots of `userId`, newest first, every state. Built by sorting the owner's postings, or
   * for an owner of a large share of the listings by one pass over `order` (cheaper than a
   * comparison sort then), and kept: new slots are inserted in place.
   */
  private ownerOrder(userId: string): number[] {
    let order = this.ownerOrders.get(userId);
    if (!order) {
      const slots = this.ownerSlots.get(userId) ?? new Set<number>();
      order = slots.size * Math.log2(slots.size + 1) < this.order.length
        ? [...slots].sort((a, b) => this.newerFirst(a, b))
        : this.order.filter((slot) => this.owners[slot] === userId);
      this.ownerOrders.set(userId, order);
    }
    return order;
  }

  /**
   * The slots matching `filter`, newest first. With `userId` the pass starts from that owner's
   * slots, so its cost follows the owner's listing count, not the total.
   */
  select(filter: SlotFilter): number[] {
    const { includeInactive, includeDeleted, userId } = filter;
    let base: number[];
    if (userId !== undefined) {
      base = this.ownerOrder(userId).filter((slot) => this.stateOk(slot, filter));
    } else if (!includeInactive && !includeDeleted) {
      this.publicOrder ??= this.order.filter((slot) => this.flags[slot] === ACTIVE);
      base = this.publicOrder;
    } else {
      base = this.order.filter((slot) => this.stateOk(slot, filter));
    }
    const { types, minStipend, maxStipend, tags, location, words } = filter;
    const typeOk = types && new Uint8Array(INTERNSHIP_TYPES.length + 1).map((_, code) => types.has(code) ? 1 : 0);
    const stipendFilter = minStipend !== undefined || maxStipend !== undefined;
    const min = minStipend ?? -Infinity, max = maxStipend ?? Infinity;
    let tagOk: Uint8Array | undefined;
    if (tags) {
      tagOk = new Uint8Array(this.ids.length);
      for (const tag of tags) for (const slot of this.tagSlots.get(tag) ?? []) tagOk[slot] = 1;
    }
    const locationOk = location !== undefined
      ? Uint8Array.from(this.locationNames, (name) => name.includes(location) ? 1 : 0)
      : undefined;
    const searchOk = words && words.length > 0 ? this.searchMarks(words) : undefined;
    if (!typeOk && !stipendFilter && !tagOk && !locationOk && !searchOk) return base;
    const out: number[] = [];
    for (const slot of base) {
      if (typeOk && typeOk[this.types[slot]] === 0) continue;
      if (stipendFilter && !(this.stipends[slot] >= min && this.stipends[slot] <= max)) continue;
      if (tagOk && tagOk[slot] === 0) continue;
      if (locationOk && locationOk[this.locations[slot]] === 0) continue;
      if (searchOk && searchOk[slot] === 0) continue;
      out.push(slot);
    }
    return out;
  }

  /** The full records of `slots`, in order, reading record chunks not held in memory yet. */
  async recordsOf(slots: number[]): Promise<Internship[]> {
    const missing = [...new Set(slots.map((slot) => this.chunkOf[slot]))].filter((n) => !this.records.has(n));
    const batches: number[][] = [];
    for (let i = 0; i < missing.length; i += 10) batches.push(missing.slice(i, i + 10));
    await Promise.all(batches.map(async (batch) => {
      const [entries, indexes] = await Promise.all([
        this.kv.getMany<Uint8Array[]>(batch.map(chunkKey)),
        this.kv.getMany<Uint8Array[]>(batch.map(indexKey)),
      ]);
      entries.forEach((entry, i) => {
        const index = indexes[i];
        if (!entry.versionstamp || !index.value) return;
        this.applyIndex(batch[i], decodeIndex(index.value), index.versionstamp);
        if (this.chunkStamps.get(batch[i]) === entry.versionstamp) this.records.set(batch[i], decodeChunk(entry.value));
      });
    }));
    return slots.map((slot) => {
      const chunk = this.records.get(this.chunkOf[slot]);
      const record = chunk?.find((r) => r.id === this.ids[slot]);
      if (!record) throw new Error(`Internship ${this.ids[slot]} is missing from chunk ${this.chunkOf[slot]}`);
      return record;
    });
  }

  /** The owner objects of `userIds`, reading the ones not known yet. */
  async ownersOf(userIds: Iterable<string>): Promise<Map<string, InternshipOwner>> {
    const missing = [...new Set(userIds)].filter((id) => !this.ownerObjects.has(id));
    if (missing.length > 0) await this.readOwners(missing);
    return this.ownerObjects;
  }

  /** Remembers the owner object of a user known to the caller (e.g. the creator). */
  rememberOwner(owner: InternshipOwner): void {
    const known = this.ownerObjects.get(owner.id);
    if (known?.name === owner.name && known.image === owner.image && known.role === owner.role) return;
    this.ownerObjects.set(owner.id, { id: owner.id, name: owner.name, image: owner.image, role: owner.role });
    this.version++;
  }

  private async refreshOwners(): Promise<void> {
    await this.readOwners([...new Set(this.owners)]);
    this.ownersAt = Date.now();
  }

  private async readOwners(ids: string[]): Promise<void> {
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += 10) batches.push(ids.slice(i, i + 10));
    const results = await Promise.all(
      batches.map((batch) => this.kv.getMany<InternshipOwner[]>(batch.map((id) => ["users", id]))),
    );
    for (const entry of results.flat()) {
      if (entry.value) this.rememberOwner(entry.value);
    }
  }
}

const models = new WeakMap<Deno.Kv, Promise<ReadModel>>();

/** The read model of `kv`, loaded on first use and brought up to date with other processes' writes. */
export async function readModel(kv: Deno.Kv): Promise<ReadModel> {
  let loading = models.get(kv);
  if (!loading) {
    const model = new ReadModel(kv);
    loading = model.load().then(() => model);
    loading.catch(() => models.delete(kv));
    models.set(kv, loading);
  }
  const model = await loading;
  await model.sync();
  return model;
}

/** Reads the chunk index entry and the chunk of `id`: the record with what `writeChunks` needs to check. */
export async function readRecord(
  kv: Deno.Kv,
  id: string,
): Promise<{ record: Internship; chunk: Chunk } | null> {
  const index = await kv.get<number>(idKey(id));
  if (index.value === null) return null;
  const entry = await kv.get<Uint8Array>(chunkKey(index.value));
  const records = decodeChunk(entry.value);
  const record = records.find((r) => r.id === id);
  if (!record) return null;
  return { record, chunk: { n: index.value, versionstamp: entry.versionstamp, records, index } };
}

/** A chunk as read, with what a write must check. */
export interface Chunk {
  n: number;
  versionstamp: string | null;
  records: Internship[];
  index: Deno.KvEntryMaybe<number>;
}

/** Converts a commit that KV refused for its size into a 400. */
async function commit(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  try {
    return await op.commit();
  } catch (error) {
    if (error instanceof TypeError && /too large|too many/i.test(error.message)) {
      throw new InvalidInputError("Request too large: send fewer or smaller internships");
    }
    throw error;
  }
}

/**
 * Adds the new records to the open chunk (opening further chunks as they fill: records over
 * `CHUNK_FILL_BYTES`, or an index over `CHUNK_MAX_BYTES`), with their id index entries, in one
 * atomic write; `moved` is an updated record leaving a full chunk.
 * @returns false when a concurrent write won (the caller reads again and retries).
 */
async function appendRecords(
  kv: Deno.Kv,
  model: ReadModel,
  records: Internship[],
  moved?: { chunk: Chunk; rest: Internship[] },
): Promise<boolean> {
  const open = await kv.get<number>(OPEN_KEY);
  const n = open.value ?? 0;
  const current = await kv.get<Uint8Array>(chunkKey(n));
  const op = kv.atomic().check(open).check(current);
  const writes = new Map<number, Indexed>();
  if (moved) {
    op.check(moved.chunk.index, { key: chunkKey(moved.chunk.n), versionstamp: moved.chunk.versionstamp });
    if (moved.chunk.n !== n) writes.set(moved.chunk.n, indexed(moved.rest));
  }
  const filled: Indexed[] = [];
  let chunk = moved?.chunk.n === n ? moved.rest : decodeChunk(current.value);
  let kept = chunk.length;
  let size = encoder.encode(JSON.stringify(chunk)).byteLength;
  for (const record of records) {
    const bytes = byteLength(record);
    if (chunk.length > 0 && size + bytes > CHUNK_FILL_BYTES) {
      filled.push(...splitByIndex(chunk, kept));
      chunk = [];
      kept = 0;
      size = 2;
    }
    chunk.push(record);
    size += bytes;
  }
  filled.push(...splitByIndex(chunk, kept));
  const fresh = new Set(records.map((record) => record.id));
  filled.forEach((piece, i) => {
    if (i > 0) op.check({ key: chunkKey(n + i), versionstamp: null });
    for (const record of piece.records) if (fresh.has(record.id)) op.set(idKey(record.id), n + i);
    writes.set(n + i, piece);
  });
  op.set(OPEN_KEY, n + filled.length - 1);
  return await commitChunks(op, model, writes);
}

async function commitChunks(
  op: Deno.AtomicOperation,
  model: ReadModel,
  writes: Map<number, Indexed>,
): Promise<boolean> {
  for (const [n, { records, index }] of writes) {
    op.set(chunkKey(n), encoder.encode(JSON.stringify(records)));
    op.set(indexKey(n), index);
    op.set(stampKey(n), records.length);
  }
  op.check({ key: HEAD_KEY, versionstamp: model.syncedHead }).set(HEAD_KEY, Date.now());
  const result = await commit(op);
  if (!result.ok) {
    await model.catchUp();
    return false;
  }
  model.applyWrite(writes, result.versionstamp);
  return true;
}

/** Stores new records in one atomic write, retrying on a concurrent write. */
export async function insertRecords(kv: Deno.Kv, records: Internship[]): Promise<void> {
  const model = await readModel(kv);
  while (!await appendRecords(kv, model, records));
}

/**
 * Replaces a record read by `readRecord`: in its chunk, or moved to the open chunk when its
 * chunk would outgrow the value limit.
 * @returns false when a concurrent write won (the caller reads again and retries).
 */
export async function replaceRecord(kv: Deno.Kv, chunk: Chunk, record: Internship): Promise<boolean> {
  const model = await readModel(kv);
  const records = chunk.records.map((r) => (r.id === record.id ? record : r));
  const replaced = indexed(records);
  const fits = encoder.encode(JSON.stringify(records)).byteLength <= CHUNK_MAX_BYTES &&
    replaced.index.byteLength <= CHUNK_MAX_BYTES;
  if (fits) {
    const op = kv.atomic().check(chunk.index, { key: chunkKey(chunk.n), versionstamp: chunk.versionstamp });
    return await commitChunks(op, model, new Map([[chunk.n, replaced]]));
  }
  const rest = chunk.records.filter((r) => r.id !== record.id);
  return await appendRecords(kv, model, [record], { chunk, rest });
}
