/**
 * The in-memory read model of a chunked store (see `store.ts`): the slots of every record (id,
 * creation time, newest-first order, the chunk that holds it), the token search index of every
 * chunk, and record chunks cached after first use. The domain's listing fields go to its
 * `Columns`. Loaded with one scan of the index chunks; kept current by the writer (own commits)
 * and by `sync` (other processes' commits, at most `SYNC_INTERVAL_MS` late).
 */
import { decodeIndex, decodeRecord, decodeRecords, type IndexedChunk } from "./codec.ts";
import { Slots } from "./columns.ts";
import { type ChunkedKeys, chunkedKeys, type ChunkedLayout, type ListingEntry } from "./layout.ts";
import { ChangeTracker } from "./sync.ts";
import { SearchIndex } from "./token_index.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";

/** How often (ms) a read checks KV for writes made by other processes. */
export const SYNC_INTERVAL_MS = 1000;

/** Where a domain keeps the listing fields of its records, by slot. */
export interface Columns<E extends ListingEntry> {
  /**
   * Stores the fields of `entry` for `slot`; `fresh` when the slot was just added (it is already
   * in `Slots.order`), otherwise the record changed and its previous fields are replaced.
   */
  set(slot: number, entry: E, fresh: boolean): void;
  /**
   * Forgets `slot`: its record left the store (to the archive of closed listings). The slot is never used again; it
   * must drop out of every view, posting and count.
   */
  remove?(slot: number): void;
}

/**
 * Index chunks read per round trip at load. Each is up to 64 KB, and a batch's values are all held
 * at once: 50 keeps that under ~3 MB, where 500 made the load's peak (and so the RSS the process
 * keeps afterwards) some 30 MB higher, for the same load time.
 */
const LOAD_BATCH = 50;

/**
 * Record chunks kept in memory as stored, the most recently used (~48 KB of JSON each): pages
 * come back to the same chunks, but a crawl through every page must not leave the whole record
 * set (over 100 MB at 100,000 listings) in memory.
 */
export const RECORD_CHUNKS_KEPT = 200;

/** A record chunk's stored bytes with the record ends and slots of the same version. */
interface HeldChunk {
  bytes: Uint8Array;
  ends: Int32Array | undefined;
  slots: Int32Array;
}

/** The read model of one chunked store in one KV. */
export class ChunkedReadModel<R extends { id: string }, E extends ListingEntry, C extends Columns<E> = Columns<E>> {
  readonly slots = new Slots();
  /** The domain's columns, built over `slots`. */
  readonly columns: C;
  readonly keys: ChunkedKeys;
  readonly changes: ChangeTracker;
  /** Grows whenever a listing changes: what was derived from the model stays valid until then. */
  version = 0;
  /** How many bytes of index chunks `load` read from KV. */
  loadedBytes = 0;
  /** Grows with every sync that found another process's commits (the archive beside the store lists again then). */
  foreignChanges = 0;
  private readonly chunkOf: number[] = [];
  /** Per chunk, the slots of its records in chunk order. */
  private readonly chunkSlots = new Map<number, Int32Array>();
  /** Per chunk, where each record's JSON ends in the record chunk (absent for an older index). */
  private readonly chunkEnds = new Map<number, Int32Array>();
  private readonly search = new SearchIndex();
  private readonly records = new Map<number, Uint8Array>();
  private readonly chunkStamps = new Map<number, string>();
  private loading = false;
  /** Chunks found at load with an index older than the layout's entries (`ChunkedLayout.fields`). */
  private readonly outdated = new Set<number>();
  private checkedAt = 0;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly kv: Deno.Kv,
    readonly layout: ChunkedLayout<R, E>,
    columns: (slots: Slots) => C,
  ) {
    this.columns = columns(this.slots);
    this.keys = chunkedKeys(layout.prefix);
    this.changes = new ChangeTracker(kv, this.keys);
  }

  /**
   * Slots whose record was missing from a chunk applied since the last `settle`: each leaves the model then, unless
   * another chunk applied meanwhile holds it (a record moved between chunks).
   */
  private readonly leaving = new Map<number, number>();

  /**
   * Loads every index chunk with one scan, read with eventual consistency (on Deno Deploy from the nearest replica,
   * which may lag the primary), then catches up with strong reads: the change marker, the stamp keys (a few bytes a
   * chunk) and the chunks whose stamp differs from the version loaded, as a sync after another process's write does.
   * The stamps are read after the marker, so every commit the marker counts is seen: the model ends in step with it
   * whatever the replica missed (docs/performance.md, Scale).
   */
  async load(): Promise<void> {
    this.loading = true;
    const indexes = this.kv.list<Uint8Array>(
      { prefix: this.keys.indexes },
      { batchSize: LOAD_BATCH, consistency: "eventual" },
    );
    for await (const entry of indexes) {
      this.loadedBytes += entry.value.byteLength;
      this.applyIndex(entry.key[1] as number, entry.value, entry.versionstamp);
    }
    this.loading = false;
    this.slots.sortOrder();
    await this.pull({ catchUp: true });
  }

  /** Whether `SYNC_INTERVAL_MS` has passed since the last check for other processes' writes. */
  get syncDue(): boolean {
    return Date.now() - this.checkedAt >= SYNC_INTERVAL_MS;
  }

  /** Picks up other processes' writes when `SYNC_INTERVAL_MS` has passed since the last check. */
  sync(): Promise<void> {
    if (!this.syncDue) return Promise.resolve();
    this.syncing ??= this.pull().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /** Reads the marker, and the changed chunks when another process wrote since it was last read (or `catchUp`). */
  private async pull({ catchUp = false } = {}): Promise<void> {
    const marker = await this.changes.read();
    if (catchUp || this.changes.hasForeign(marker)) {
      // Another process wrote: whatever was derived from this model (and from the archive beside it) is stale.
      this.version++;
      this.foreignChanges++;
      const { changed, gone } = await this.changes.changedChunks(this.chunkStamps);
      for (const entry of await getManyChunked<Uint8Array>(this.kv, changed.map(this.keys.index))) {
        if (entry.value) this.applyIndex(entry.key[1] as number, entry.value, entry.versionstamp);
        else this.dropChunk(entry.key[1] as number);
      }
      for (const n of gone) this.dropChunk(n);
      this.settle();
    }
    this.changes.advance(marker);
    this.checkedAt = Date.now();
  }

  /** Puts chunks this process committed at `versionstamp` into the model (null: the chunk was deleted). */
  applyWrite(chunks: Map<number, IndexedChunk<R> | null>, versionstamp: string): void {
    for (const [n, chunk] of chunks) {
      if (!chunk) this.dropChunk(n);
      else if (this.applyIndex(n, chunk.index, versionstamp)) this.keepRecords(n, chunk.bytes);
    }
    this.settle();
    this.changes.recordOwn(versionstamp);
  }

  /** Notes a commit of this process that changed no chunk (only the archive beside the store): derived data is stale. */
  applyOther(versionstamp: string): void {
    this.version++;
    this.changes.recordOwn(versionstamp);
  }

  /** Forgets chunk `n`, deleted once its last record left: its records leave the model at the next `settle`. */
  private dropChunk(n: number): void {
    const slots = this.chunkSlots.get(n);
    if (!slots) return;
    for (const slot of slots) if (this.chunkOf[slot] === n) this.leaving.set(slot, n);
    this.chunkSlots.delete(n);
    this.chunkEnds.delete(n);
    this.chunkStamps.delete(n);
    this.records.delete(n);
    this.outdated.delete(n);
    this.search.setChunk(n, { tokens: [], masks: [], width: 0 });
    this.version++;
  }

  /** Removes the slots whose records left their chunk and entered no other (see `leaving`). */
  private settle(): void {
    if (this.leaving.size === 0) return;
    for (const [slot, n] of this.leaving) {
      if (this.chunkOf[slot] !== n) continue;
      this.chunkOf[slot] = -1;
      this.columns.remove?.(slot);
      this.slots.remove(slot);
    }
    this.leaving.clear();
    this.slots.compact();
    this.version++;
  }

  /** Applies index chunk `n` read at `versionstamp`, unless the model holds that version or a later one. */
  private applyIndex(n: number, bytes: Uint8Array, versionstamp: string): boolean {
    const stamp = this.chunkStamps.get(n);
    if (stamp && stamp >= versionstamp) return false;
    const index = decodeIndex<E>(bytes);
    this.chunkStamps.set(n, versionstamp);
    this.records.delete(n);
    const previous = this.chunkSlots.get(n);
    const slots: number[] = [];
    const { fields } = this.layout;
    if (this.loading && fields && index.entries.some((entry) => entry.length < fields)) this.outdated.add(n);
    else this.outdated.delete(n);
    for (const entry of index.entries) {
      let slot = this.slots.slotOf(entry[0]);
      const fresh = slot === undefined;
      if (slot === undefined) slot = this.slots.add(entry[0], entry[1], this.loading);
      this.chunkOf[slot] = n;
      this.leaving.delete(slot);
      this.columns.set(slot, entry, fresh);
      slots.push(slot);
    }
    if (previous && previous.length > 0) {
      const kept = new Set(slots);
      for (const slot of previous) if (!kept.has(slot) && this.chunkOf[slot] === n) this.leaving.set(slot, n);
    }
    this.search.setChunk(n, index);
    this.chunkSlots.set(n, Int32Array.from(slots));
    if (index.ends) this.chunkEnds.set(n, Int32Array.from(index.ends));
    else this.chunkEnds.delete(n);
    this.version++;
    return true;
  }

  /**
   * One record id of each chunk whose stored index is older than the layout's entries, as found at load and not
   * written since: writing that record again (unchanged) writes its chunk's index anew.
   */
  outdatedChunkIds(): string[] {
    return [...this.outdated].flatMap((n) => {
      const slot = this.chunkSlots.get(n)?.[0];
      return slot === undefined ? [] : [this.slots.ids[slot]];
    });
  }

  /** The chunk that holds the record of `slot` (-1 once it left the store). */
  chunkOfSlot(slot: number): number {
    return this.chunkOf[slot] ?? -1;
  }

  /** The slot of `id`, or undefined. */
  slotOf(id: string): number | undefined {
    return this.slots.slotOf(id);
  }

  /**
   * Marks, by slot, the records whose search text contains every one of `words` (lower case,
   * no whitespace or `\0`).
   */
  searchMarks(words: string[]): Uint8Array {
    const marks = new Uint8Array(this.slots.count);
    this.search.match(words, (n, masks, offset) => {
      const slots = this.chunkSlots.get(n)!;
      for (let i = 0; i < slots.length; i++) if (masks[offset + (i >> 5)] & (1 << (i & 31))) marks[slots[i]] = 1;
    });
    return marks;
  }

  /** Keeps the stored bytes of record chunk `n` as the most recently used, dropping the least recently used past the limit. */
  private keepRecords(n: number, bytes: Uint8Array): void {
    this.records.delete(n);
    this.records.set(n, bytes);
    if (this.records.size > RECORD_CHUNKS_KEPT) this.records.delete(this.records.keys().next().value!);
  }

  /**
   * The full records of `slots`, in order, reading record chunks not held in memory yet; only
   * the records asked for are decoded (a whole chunk only when its index predates `ends`). A slot whose record left
   * the store while this ran (to the archive) is left out; one whose record moved to another chunk is read there.
   */
  async recordsOf(slots: number[]): Promise<R[]> {
    const found = new Map<number, R>();
    let wanted = slots;
    for (let round = 0; round < 2 && wanted.length > 0; round++) {
      await this.readRecords(wanted, found);
      wanted = wanted.filter((slot) => !found.has(slot) && this.chunkOf[slot] !== -1);
    }
    return slots.flatMap((slot) => found.get(slot) ?? []);
  }

  /** Reads the records of `slots` from the chunks the model holds them in now, into `found` (by slot). */
  private async readRecords(slots: number[], found: Map<number, R>): Promise<void> {
    // The chunk of each slot as of now, and the chunks this call uses with their record ends and slots as of the
    // bytes, held here so that another request's reads or a write cannot evict or change them meanwhile.
    const chunkOf = new Map(slots.map((slot) => [slot, this.chunkOf[slot]]));
    const used = new Map<number, HeldChunk>();
    const hold = (n: number, bytes: Uint8Array) =>
      used.set(n, { bytes, ends: this.chunkEnds.get(n), slots: this.chunkSlots.get(n) ?? new Int32Array(0) });
    const missing: number[] = [];
    for (const n of new Set(chunkOf.values())) {
      if (n === undefined || n === -1) continue;
      const held = this.records.get(n);
      if (held) {
        hold(n, held);
        this.keepRecords(n, held);
      } else missing.push(n);
    }
    const entries = await getManyChunked<Uint8Array>(this.kv, missing.map(this.keys.chunk));
    // A chunk and its index are written in one commit, so they share a versionstamp: the index
    // is read only for a chunk that another process changed since the model last saw it.
    const stale = missing.filter((n, i) => this.chunkStamps.get(n) !== entries[i].versionstamp);
    if (stale.length > 0) {
      for (const index of await getManyChunked<Uint8Array>(this.kv, stale.map(this.keys.index))) {
        if (index.value) this.applyIndex(index.key[1] as number, index.value, index.versionstamp);
        else this.dropChunk(index.key[1] as number);
      }
      this.settle();
    }
    entries.forEach((entry, i) => {
      if (entry.versionstamp && this.chunkStamps.get(missing[i]) === entry.versionstamp) {
        hold(missing[i], entry.value);
        this.keepRecords(missing[i], entry.value);
      }
    });
    const whole = new Map<number, R[]>();
    for (const slot of slots) {
      const n = chunkOf.get(slot)!;
      const chunk = used.get(n);
      const id = this.slots.ids[slot];
      let record: R | undefined;
      if (chunk?.ends) {
        const at = chunk.slots.indexOf(slot);
        record = at === -1 ? undefined : decodeRecord<R>(chunk.bytes, chunk.ends, at);
      } else if (chunk) {
        let records = whole.get(n);
        if (!records) whole.set(n, records = decodeRecords<R>(chunk.bytes));
        record = records.find((r) => r.id === id);
      }
      if (record?.id === id) found.set(slot, record);
    }
  }
}
