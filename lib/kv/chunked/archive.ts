/**
 * The archive of a chunked store (docs/decisions.md, Open and closed listings): the records that left the read model
 * (closed or deleted listings), read from KV page by page instead of being held in memory. Record-type agnostic, like
 * the chunked store beside it (`store.ts`); a domain gives the same layout and tests its filters per block.
 *
 * Keys, under the store's prefix P (e.g. "internships"):
 * - `[P_closed, id]` → the record;
 * - `[P_closed_blocks, createdMs, id]` → a block (`archive_block.ts`): the listing entries of the records whose key
 *   (creation time, id) lies in the block's range `[lo, hi)`, newest first, with their search tokens. The key of a
 *   block is its `lo`; blocks partition every key, the first from `MIN_KEY`, the last without an upper bound. A block
 *   over its bounds is split in two (the older half keeps the key).
 * - `[P_closed_dir, createdMs, id]` → `{n}`, the block's entry count, written in the same commit as the block (so with
 *   the same versionstamp): listing the directory tells which blocks changed without reading them.
 * - `[P_closed_by_owner, owner, id]` → null, for a layout that names owners (`ChunkedLayout.owner`): each archived
 *   record of an owner, written and removed in the commit that writes or removes the record, so a person's archived
 *   records are found without a scan (`ownedBy`). Records archived before it are indexed once by `indexOwners`, which
 *   keeps its cursor in `[P_closed_meta, "owner_index"]`.
 *
 * Writes are one atomic commit each, checked against every record and block they read: on their own
 * (`write`), or as the `Rider` of a chunked write (`rider`), so that a listing leaves the read model and enters the
 * archive (or comes back) in one commit. Every commit adds to the store's change marker. In this process archive
 * writes take one lock, after any chunk lock they hold, so they queue instead of racing.
 *
 * Reads list the directory again once the marker showed another process's commit (or after one of this process),
 * keep blocks in a cache bounded by `ARCHIVE_CACHE_BYTES` (least recently used out first), keep each filter's
 * matches per directory version, so the next pages of a filter are slices, and, for a filter read as the AND of
 * clauses (`matchesOfAll`), each clause's marks over the archive, so filters that share a clause share its test.
 */
import {
  ArchiveBlock,
  BLOCK_MAX_BYTES,
  BLOCK_MAX_ENTRIES,
  type BlockContent,
  type BlockKey,
  compareKeys,
  encodeBlock,
  keyOf,
  MIN_KEY,
  tokensOf,
} from "./archive_block.ts";
import type { ChunkedLayout, ListingEntry } from "./layout.ts";
import { decodeRecords } from "./codec.ts";
import type { ChunkedReadModel, Columns } from "./read_model.ts";
import type { ChunkWriter, Rider, RiderOutcome } from "./writer.ts";
import { type OnLostRace, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { getManyChunked } from "@/lib/kv/get_many.ts";
import { backfillDone, type BackfillRun, runBackfill } from "@/lib/kv/backfill.ts";

/** At most this many bytes of blocks are kept in memory per archive (about 70 bytes per archived listing). */
export const ARCHIVE_CACHE_BYTES = 192 * 1024 * 1024;
/** At most this many filters keep their matches per archive. */
const MATCH_FILTERS = 32;
/** At most this many bytes of matches are kept over all filters. */
const MATCH_BYTES = 8 * 1024 * 1024;
/** At most this many clauses keep their marks per archive (an eighth of a byte per archived entry each). */
const CLAUSES = 64;
/** At most this many bytes of clause marks are kept. */
const CLAUSE_BYTES = 8 * 1024 * 1024;
/** Records per commit of a bulk seed (KV allows 1,000 mutations and 800 KiB per commit). */
const SEED_RECORDS = 400;
/** At most this many `getMany` calls of blocks by key in flight for one request (`getManyChunked`). */
const READS_AT_ONCE = 4;
/** Blocks read per round trip when many are missing (a cold scan). */
const LIST_BATCH = 100;
/** Records indexed by owner per write of `indexOwners`, each checked (100 checks a commit; records up to 64 KB). */
const OWNER_INDEX_BATCH = 50;
/** KV's largest list batch. */
const KEYS_BATCH = 500;
/**
 * At most this many of one owner's archived records are read by `Archive.ownedMatching` (10 `getMany` at once);
 * an owner with more is left to the caller's test of the blocks, which a process caches.
 */
export const OWNED_READ_MAX = 100;

/** The archive's keys under the store prefix `prefix`. */
export function archiveKeys(prefix: string) {
  return {
    record: (id: string): Deno.KvKey => [`${prefix}_closed`, id],
    records: [`${prefix}_closed`] as Deno.KvKey,
    blocks: [`${prefix}_closed_blocks`] as Deno.KvKey,
    block: (key: BlockKey): Deno.KvKey => [`${prefix}_closed_blocks`, key[0], key[1]],
    directory: [`${prefix}_closed_dir`] as Deno.KvKey,
    entry: (key: BlockKey): Deno.KvKey => [`${prefix}_closed_dir`, key[0], key[1]],
    owned: (owner: string, id: string): Deno.KvKey => [`${prefix}_closed_by_owner`, owner, id],
    ownedBy: (owner: string): Deno.KvKey => [`${prefix}_closed_by_owner`, owner],
    ownerIndex: [`${prefix}_closed_meta`, "owner_index"] as Deno.KvKey,
  };
}

/**
 * What a write changes in the archive: records to store (new, or replacing the stored one) and ids to remove;
 * `expected` gives, by id, the versionstamp the caller read a record at (null: absent), so that a change computed from
 * that read is not applied over a newer one (the write is then stale and read again by the caller).
 */
export interface ArchiveChange<R> {
  put?: R[];
  drop?: string[];
  expected?: Record<string, string | null>;
}

/**
 * A filter's test of one block: null when no entry of the block can match (it is skipped), else marks by entry
 * position (1: matches; only the block's `count` first are read, and only before the next test), built from the
 * block's columns (`ArchiveBlock.mask`, `ArchiveBlock.search`).
 */
export type BlockTest<E extends ListingEntry> = (block: ArchiveBlock<E>) => Uint8Array | null;

/**
 * One condition of a filter that is the AND of several (`Archive.matchesOfAll`): `key` names it exactly (equal keys,
 * equal tests), `makeTest` makes the test that marks the entries of a block that pass it. Its marks over the whole archive are kept per archive
 * version, so another filter that shares the condition reads them instead of testing every block again.
 */
export interface ArchiveClause<E extends ListingEntry> {
  key: string;
  /** Makes the clause's test (only when its marks are not kept). */
  makeTest: () => BlockTest<E>;
}

/** How many bits of the 32-bit `x` are set. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** How many bits of `words` are set from bit `from` to bit `to` (exclusive; bit `i` is bit `i % 32` of word `i / 32`). */
function bitsSet(words: Uint32Array, from: number, to: number): number {
  let n = 0, bit = from;
  for (; bit < to && (bit & 31) !== 0; bit++) n += (words[bit >> 5] >>> (bit & 31)) & 1;
  for (; bit + 32 <= to; bit += 32) n += popcount(words[bit >> 5]);
  for (; bit < to; bit++) n += (words[bit >> 5] >>> (bit & 31)) & 1;
  return n;
}

/** `masks` ANDed into the first (which is changed); null when any is null or nothing is left. */
export function allOf(masks: (Uint8Array | null)[]): Uint8Array | null {
  const [first, ...rest] = masks;
  if (!first || rest.some((mask) => !mask)) return null;
  // One pass per mask: a tight loop over two arrays, not a loop over the masks per entry.
  const n = first.length;
  for (const mask of rest as Uint8Array[]) for (let i = 0; i < n; i++) first[i] &= mask[i];
  let any = 0;
  for (let i = 0; i < n && any === 0; i++) any = first[i];
  return any ? first : null;
}

/**
 * A filter's matches in the archive, newest first, each as its block's directory index times 1,024 plus its position
 * in the block (`BLOCK_MAX_ENTRIES`), as of directory version `version`.
 */
export interface ArchiveMatches {
  version: number;
  /** How many entries match. */
  count: number;
  /** The bytes these matches hold in memory. */
  bytes: number;
  /** The refs of matches `from` to `to` (exclusive), in order. */
  refs(from: number, to: number): Int32Array;
  /** Each match's rank when they were ordered by a rank (highest first, ties newest first), else absent. */
  ranks?: Float64Array;
}

/** Matches held as their list of refs. */
function listedMatches(version: number, list: Int32Array, ranks?: Float64Array): ArchiveMatches {
  return {
    version,
    count: list.length,
    bytes: list.byteLength + (ranks?.byteLength ?? 0),
    refs: (from, to) => list.subarray(from, to),
    ranks,
  };
}

/**
 * Matches newest first held as one bit per archived entry (`bits`, block `b`'s entries from bit `starts[b]`) and, by
 * place in list order (the newest block first), how many match in the blocks before (`before`): a filter that matches
 * many entries costs an eighth of a byte per entry instead of 4 bytes per match.
 */
function markedMatches(version: number, bits: Uint8Array, starts: Int32Array, before: Int32Array): ArchiveMatches {
  const blocks = starts.length - 1, count = before[blocks];
  return {
    version,
    count,
    bytes: bits.byteLength + starts.byteLength + before.byteLength,
    refs(from, to) {
      to = Math.min(to, count);
      const out = new Int32Array(Math.max(0, to - from));
      if (out.length === 0) return out;
      // The place in list order of the block holding match `from`: the last whose matches before are not after it.
      let lo = 0, hi = blocks;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (before[mid] <= from) lo = mid;
        else hi = mid - 1;
      }
      let place = lo, skip = from - before[place], n = 0;
      while (n < out.length) {
        const b = blocks - 1 - place;
        for (let bit = starts[b]; bit < starts[b + 1] && n < out.length; bit++) {
          if ((bits[bit >> 3] & (1 << (bit & 7))) === 0) continue;
          if (skip > 0) skip--;
          else out[n++] = b * BLOCK_MAX_ENTRIES + bit - starts[b];
        }
        place++;
      }
      return out;
    },
  };
}

/** A rank of an entry of a block by its position (e.g. a day number): ranked matches come highest first. */
export type BlockRank<E extends ListingEntry> = (block: ArchiveBlock<E>) => (i: number) => number;

/**
 * The directory as listed: block keys ascending, with the versionstamp each block was written at, its count, and the
 * key as the block cache names it (`keyString`, made once per listing rather than per block per scan).
 */
interface Directory {
  keys: BlockKey[];
  stamps: string[];
  counts: number[];
  names: string[];
}

/** Thrown inside a read when a block changed since the directory was listed: the read starts again. */
class StaleDirectory extends Error {}

const keyString = (key: BlockKey) => `${key[0]}\0${key[1]}`;
const sameKey = (a: BlockKey | null, b: BlockKey | null) =>
  a === null || b === null ? a === b : compareKeys(a, b) === 0;

/**
 * Whether `block`, listed at `index`, has the range the directory gives it: from its key to the next block's key (no
 * upper bound for the last). A listing taken while a block split can show the old block beside its new half.
 */
function fits(directory: Directory, index: number, block: ArchiveBlock<ListingEntry>): boolean {
  return sameKey(block.lo, directory.keys[index]) && sameKey(block.hi, directory.keys[index + 1] ?? null);
}

/** One lock: holders run one after another, in call order. */
class Lock {
  private tail = Promise.resolve();

  /** Waits for the lock; returns the release function. */
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = previous.then(() => new Promise<void>((resolve) => release = resolve));
    await previous;
    return release;
  }
}

/** The archive beside one chunked store in one KV, for this process. */
export class Archive<R extends { id: string }, E extends ListingEntry, C extends Columns<E> = Columns<E>> {
  readonly keys: ReturnType<typeof archiveKeys>;
  /** Grows whenever the directory listed differs from the one before: matches of an older version are dropped. */
  version = 0;
  private directory: Directory | null = null;
  private listedAt = -1;
  private listing: Promise<Directory> | null = null;
  /** Blocks by `keyString` of their key, each with the versionstamp read and when it was last used (`clock`). */
  private readonly cache = new Map<string, { stamp: string; block: ArchiveBlock<E>; used: number }>();
  private cachedBytes = 0;
  private clock = 0;
  private readonly matchCache = new KeptPromises<ArchiveMatches>(MATCH_FILTERS, MATCH_BYTES, (m) => m.bytes);
  /** Clause marks (one bit per archived entry, as `markedMatches` holds them) by version and clause key. */
  private readonly clauseCache = new KeptPromises<Uint8Array>(CLAUSES, CLAUSE_BYTES, (bits) => bits.byteLength);
  /** The AND of a filter's clause marks (see `combine`). */
  private andWords = new Uint32Array(0);
  private readonly lock = new Lock();
  /** Scan buffers not in use (see `scan`). */
  private readonly buffers: { refs: Int32Array; bits: Uint8Array }[] = [];
  /** How long (ms) an archive-only write retries lost races. */
  retryBudgetMs = RETRY_BUDGET_MS;
  /**
   * Called once, after the first scan that read most of the archive from KV (the first list with closed listings of a
   * process): the read leaves much garbage behind, as the read model's load does, and the process may give it back
   * (`lib/platform/server.ts`).
   */
  onBulkRead: (() => void) | null = null;
  private bulkRead = false;

  constructor(
    private readonly kv: Deno.Kv,
    readonly layout: ChunkedLayout<R, E>,
    private readonly model: ChunkedReadModel<R, E, C>,
    private readonly cacheBytes = ARCHIVE_CACHE_BYTES,
  ) {
    this.keys = archiveKeys(layout.prefix);
  }

  // ---- Reads ----

  /** The directory, listed again when another process (or this one) changed the archive since it was last listed. */
  private async current(): Promise<Directory> {
    await this.model.sync();
    if (this.directory && this.listedAt === this.model.foreignChanges) return this.directory;
    this.listing ??= this.list().finally(() => this.listing = null);
    return await this.listing;
  }

  private async list(): Promise<Directory> {
    const seen = this.model.foreignChanges;
    const keys: BlockKey[] = [], stamps: string[] = [], counts: number[] = [], names: string[] = [];
    for await (const entry of this.kv.list<{ n: number }>({ prefix: this.keys.directory }, { batchSize: 1000 })) {
      const key: BlockKey = [entry.key[1] as number, entry.key[2] as string];
      keys.push(key);
      stamps.push(entry.versionstamp);
      counts.push(entry.value.n);
      names.push(keyString(key));
    }
    const before = this.directory;
    if (!before || before.stamps.length !== stamps.length || before.stamps.some((s, i) => s !== stamps[i])) {
      this.version++;
      this.matchCache.clear();
      this.clauseCache.clear();
    }
    this.directory = { keys, stamps, counts, names };
    this.listedAt = seen;
    return this.directory;
  }

  /** Marks the directory as needing a new listing (this process wrote, or a read found it stale). */
  private invalidate(): void {
    this.listedAt = -1;
  }

  /**
   * Keeps `block` (stored at `stamp`) under `name` (`keyString` of its key) as the most recently used; past the bound,
   * drops the least recently used until a tenth of the bound is free (a scan of every block then evicts once, not
   * once per block). A block used again is only marked, so a scan of a cached archive changes no map.
   */
  private keep(name: string, stamp: string, block: ArchiveBlock<E>): void {
    const used = ++this.clock;
    const old = this.cache.get(name);
    if (old?.block === block) {
      old.used = used;
      return;
    }
    if (old) this.cachedBytes -= old.block.size;
    this.cache.set(name, { stamp, block, used });
    this.cachedBytes += block.size;
    if (this.cachedBytes <= this.cacheBytes) return;
    const byUse = [...this.cache].sort((a, b) => a[1].used - b[1].used);
    for (const [oldest, kept] of byUse) {
      if (this.cachedBytes <= this.cacheBytes * 0.9 || kept.block === block) break;
      this.cache.delete(oldest);
      this.cachedBytes -= kept.block.size;
    }
  }

  /**
   * The blocks of `directory` at `indexes`, from the cache or read from KV.
   * @throws StaleDirectory when a block read is not the version the directory lists.
   */
  private async blocksAt(directory: Directory, indexes: number[]): Promise<ArchiveBlock<E>[]> {
    const out: ArchiveBlock<E>[] = new Array(indexes.length);
    const missing: number[] = [];
    indexes.forEach((index, i) => {
      const held = this.cache.get(directory.names[index]);
      if (held && held.stamp === directory.stamps[index]) {
        this.keep(directory.names[index], held.stamp, held.block);
        out[i] = held.block;
      } else missing.push(i);
    });
    const keys = missing.map((i) => this.keys.block(directory.keys[indexes[i]]));
    const entries = await getManyChunked<Uint8Array>(this.kv, keys, { inFlight: READS_AT_ONCE });
    entries.forEach((entry, j) => {
      const index = indexes[missing[j]];
      if (entry.versionstamp !== directory.stamps[index] || !entry.value) throw new StaleDirectory();
      const block = new ArchiveBlock<E>(entry.value).kept();
      this.keep(directory.names[index], entry.versionstamp, block);
      out[missing[j]] = block;
    });
    indexes.forEach((index, i) => {
      if (!fits(directory, index, out[i])) throw new StaleDirectory();
    });
    return out;
  }

  /**
   * Reads every block not in the cache with one scan of the block keys, newest first (a cold archive), checking each
   * against the directory.
   */
  private async readAll(directory: Directory): Promise<void> {
    const index = new Map(directory.names.map((name, i) => [name, i]));
    for await (
      const entry of this.kv.list<Uint8Array>({ prefix: this.keys.blocks }, { batchSize: LIST_BATCH, reverse: true })
    ) {
      const key: BlockKey = [entry.key[1] as number, entry.key[2] as string];
      const name = keyString(key), i = index.get(name);
      if (i === undefined || directory.stamps[i] !== entry.versionstamp) throw new StaleDirectory();
      if (this.cache.get(name)?.stamp === entry.versionstamp) continue;
      this.keep(name, entry.versionstamp, new ArchiveBlock<E>(entry.value).kept());
    }
  }

  /** Runs `read` on the current directory, again on a fresh listing when it found the directory stale (3 times). */
  private async fresh<T>(read: (directory: Directory) => Promise<T>): Promise<T> {
    for (let attempt = 1;; attempt++) {
      const directory = await this.current();
      try {
        return await read(directory);
      } catch (error) {
        if (!(error instanceof StaleDirectory) || attempt >= 3) throw error;
        this.invalidate();
      }
    }
  }

  /**
   * The matches of the filter `key` (any string naming it exactly, and its order) tested by `test`, newest first or,
   * with `rank`, highest rank first (ties newest first), kept per archive version (at most `MATCH_FILTERS` filters and
   * `MATCH_BYTES`; least recently used out first).
   */
  async matches(key: string, test: BlockTest<E>, rank?: BlockRank<E>): Promise<ArchiveMatches> {
    return await this.kept(key, (directory) => this.scan(directory, test, rank));
  }

  /**
   * The matches, newest first, of the filter `key` (as for `matches`) that is the AND of `clauses`: the same matches as
   * `matches` with a test ANDing theirs, from each clause's marks over the archive, kept per archive version (at most
   * `CLAUSES` of them and `CLAUSE_BYTES`; least recently used out first), so a filter whose clauses other filters
   * asked before costs a pass over one bit per archived entry, not a test of every block (docs/decisions.md, Open and
   * closed listings, "Reading closed listings").
   */
  async matchesOfAll(key: string, clauses: readonly ArchiveClause<E>[]): Promise<ArchiveMatches> {
    return await this.kept(`all\0${key}`, (directory) => this.combine(directory, clauses));
  }

  /** The matches of the filter `key` from the match cache, else found by `find` and kept. */
  private async kept(key: string, find: (directory: Directory) => Promise<ArchiveMatches>): Promise<ArchiveMatches> {
    return await this.fresh(async (directory) => {
      return await this.matchCache.get(`${this.version}\0${key}`, () => find(directory));
    });
  }

  /**
   * Where each block's entries start among the archive's (by directory index; the last value is their count), as
   * `markedMatches` reads its bits.
   */
  private startsOf(directory: Directory): Int32Array {
    const count = directory.keys.length;
    const starts = new Int32Array(count + 1);
    for (let b = 0; b < count; b++) starts[b + 1] = starts[b] + directory.counts[b];
    return starts;
  }

  /**
   * Calls `visit` with every block of `directory` and its index, newest first, reading the blocks not cached (every
   * missing one with one scan of the block keys when most are, a cold archive).
   * @throws StaleDirectory when a block read is not the version the directory lists.
   */
  private async eachBlock(
    directory: Directory,
    visit: (block: ArchiveBlock<E>, index: number) => void,
  ): Promise<void> {
    const count = directory.keys.length;
    const uncached = directory.names.filter((name, i) => this.cache.get(name)?.stamp !== directory.stamps[i]);
    if (uncached.length > count / 2 && uncached.length > 20) await this.readAll(directory);
    const bulk = !this.bulkRead && uncached.length > count / 2;
    for (let end = count; end > 0; end -= LIST_BATCH) {
      const indexes: number[] = [];
      for (let i = end - 1; i >= Math.max(0, end - LIST_BATCH); i--) indexes.push(i);
      const read = await this.blocksAt(directory, indexes);
      read.forEach((block, j) => {
        if (block.count !== directory.counts[indexes[j]]) throw new StaleDirectory();
        visit(block, indexes[j]);
      });
    }
    if (bulk) {
      this.bulkRead = true;
      this.onBulkRead?.();
    }
  }

  /**
   * The marks of `clause` over the archive of `directory` (version `version`): from the clause cache, else from a test
   * of every block, then kept.
   */
  private async clauseMarks(directory: Directory, version: number, clause: ArchiveClause<E>): Promise<Uint8Array> {
    return await this.clauseCache.get(`${version}\0${clause.key}`, async () => {
      const starts = this.startsOf(directory);
      // Whole 32-bit words, so that marks are ANDed a word at a time.
      const bits = new Uint8Array(((starts[starts.length - 1] + 31) >> 5) << 2);
      const test = clause.makeTest();
      await this.eachBlock(directory, (block, index) => {
        const marks = test(block);
        if (!marks) return;
        const start = starts[index];
        for (let i = 0; i < block.count; i++) if (marks[i]) bits[(start + i) >> 3] |= 1 << ((start + i) & 7);
      });
      return bits;
    });
  }

  /** The matches of the AND of `clauses` over `directory`, newest first (see `matchesOfAll`). */
  private async combine(directory: Directory, clauses: readonly ArchiveClause<E>[]): Promise<ArchiveMatches> {
    const version = this.version;
    const marks: Uint8Array[] = [];
    for (const clause of clauses) marks.push(await this.clauseMarks(directory, version, clause));
    if (this.version !== version) throw new StaleDirectory();
    const starts = this.startsOf(directory), count = directory.keys.length;
    // The AND, a word at a time, in a buffer reused from filter to filter (nothing below awaits); bit `i` of the
    // archive is bit `i % 32` of word `i / 32`, as the bytes of `markedMatches` hold it on a little-endian machine.
    const n = marks[0].byteLength >> 2;
    if (this.andWords.length < n) this.andWords = new Uint32Array(n);
    const words = this.andWords.subarray(0, n);
    words.set(new Uint32Array(marks[0].buffer, marks[0].byteOffset, n));
    for (const other of marks.slice(1)) {
      const with32 = new Uint32Array(other.buffer, other.byteOffset, n);
      for (let w = 0; w < n; w++) words[w] &= with32[w];
    }
    // Matches before each place in list order (the newest block first).
    const before = new Int32Array(count + 1);
    for (let place = 0; place < count; place++) {
      const b = count - 1 - place;
      before[place + 1] = before[place] + bitsSet(words, starts[b], starts[b + 1]);
    }
    const total = before[count];
    // The smaller of the two forms, as `scan` chooses.
    if (total * 4 > n * 4 + 4 * starts.length) {
      return markedMatches(version, new Uint8Array(words.slice().buffer), starts, before);
    }
    const refs = new Int32Array(total);
    let k = 0;
    for (let b = count - 1; b >= 0; b--) {
      const to = starts[b + 1], base = b * BLOCK_MAX_ENTRIES - starts[b];
      for (let bit = starts[b]; bit < to;) {
        const word = words[bit >> 5];
        if (word === 0) {
          bit = (bit | 31) + 1;
          continue;
        }
        if ((word >>> (bit & 31)) & 1) refs[k++] = base + bit;
        bit++;
      }
    }
    return listedMatches(version, refs);
  }

  /** Tests every block of `directory`, newest first; with `rank`, orders the matches by it (highest first, stable). */
  private async scan(directory: Directory, test: BlockTest<E>, rank?: BlockRank<E>): Promise<ArchiveMatches> {
    const count = directory.keys.length;
    const starts = this.startsOf(directory);
    const capacity = starts[count];
    // Matches before each place in list order (the newest block first).
    const before = new Int32Array(count + 1);
    // Matches are collected in buffers of this archive's (a ref per entry, and a bit per entry), taken from a pool
    // while the scan runs, so a scan leaves behind only its matches, not buffers of the archive's size.
    const buffers = this.buffers.pop() ?? { refs: new Int32Array(0), bits: new Uint8Array(0) };
    if (buffers.refs.length < capacity) buffers.refs = new Int32Array(capacity);
    if (buffers.bits.length < (capacity + 7) >> 3) buffers.bits = new Uint8Array((capacity + 7) >> 3);
    const { refs } = buffers, bits = buffers.bits.fill(0, 0, (capacity + 7) >> 3);
    const ranks = rank ? new Float64Array(capacity) : undefined;
    let found = 0;
    try {
      await this.eachBlock(directory, (block, index) => {
        const marks = test(block);
        if (marks) {
          const base = index * BLOCK_MAX_ENTRIES, start = starts[index];
          const rankOf = rank?.(block);
          for (let i = 0; i < block.count; i++) {
            if (marks[i] === 0) continue;
            if (ranks) ranks[found] = rankOf!(i);
            refs[found++] = base + i;
            bits[(start + i) >> 3] |= 1 << ((start + i) & 7);
          }
        }
        before[count - index] = found;
      });
      if (ranks) {
        const order = Array.from({ length: found }, (_, i) => i).sort((a, b) => ranks[b] - ranks[a] || a - b);
        return listedMatches(
          this.version,
          Int32Array.from(order, (i) => refs[i]),
          Float64Array.from(order, (i) => ranks[i]),
        );
      }
      // The smaller of the two forms: a list of refs, or the marks.
      const bitBytes = (capacity + 7) >> 3;
      if (found * 4 <= bitBytes + 4 * starts.length) return listedMatches(this.version, refs.slice(0, found));
      return markedMatches(this.version, bits.slice(0, bitBytes), starts, before);
    } finally {
      this.buffers.push(buffers);
    }
  }

  /**
   * The keys (creation time, id) of matches `from` to `to` (exclusive) of `matches`.
   * @throws StaleDirectory (retried by the caller's `fresh`) when the archive changed since.
   */
  async keysOf(matches: ArchiveMatches, from: number, to: number): Promise<BlockKey[]> {
    const directory = this.directory;
    if (!directory || matches.version !== this.version) throw new StaleDirectory();
    const refs = matches.refs(from, to);
    const indexes = [...new Set(Array.from(refs, (ref) => Math.floor(ref / BLOCK_MAX_ENTRIES)))];
    const blocks = new Map((await this.blocksAt(directory, indexes)).map((block, i) => [indexes[i], block]));
    return Array.from(refs, (ref) => blocks.get(Math.floor(ref / BLOCK_MAX_ENTRIES))!.key(ref % BLOCK_MAX_ENTRIES));
  }

  /**
   * The listing entries of matches `from` to `to` (exclusive) of `matches`, as `keysOf` reads them.
   * @throws StaleDirectory (retried by the caller's `fresh`) when the archive changed since.
   */
  async entriesOf(matches: ArchiveMatches, from: number, to: number): Promise<E[]> {
    const directory = this.directory;
    if (!directory || matches.version !== this.version) throw new StaleDirectory();
    const refs = matches.refs(from, to);
    const indexes = [...new Set(Array.from(refs, (ref) => Math.floor(ref / BLOCK_MAX_ENTRIES)))];
    const blocks = new Map((await this.blocksAt(directory, indexes)).map((block, i) => [indexes[i], block]));
    return Array.from(refs, (ref) => blocks.get(Math.floor(ref / BLOCK_MAX_ENTRIES))!.entry(ref % BLOCK_MAX_ENTRIES));
  }

  /**
   * Runs `read` against a consistent archive (matches taken in it stay valid while it runs): started again, on a
   * fresh directory, when the archive changed meanwhile.
   */
  async reading<T>(read: () => Promise<T>): Promise<T> {
    return await this.fresh(() => read());
  }

  /** The stored records of `ids` that are in the archive, by id. */
  async records(ids: readonly string[]): Promise<Map<string, R>> {
    const entries = await getManyChunked<R>(this.kv, ids.map(this.keys.record));
    return new Map(entries.flatMap(({ value }) => value ? [[value.id, value]] : []));
  }

  /**
   * The archived records `owner` owns, in id order, read through the owner index (their entries, then those records):
   * null while records archived before the index may be missing from it (`indexOwners` not done), or for a layout
   * without owners, so the caller scans instead.
   */
  async ownedBy(owner: string): Promise<R[] | null> {
    const ids = await this.idsOwnedBy(owner);
    return ids && await this.recordsOwned(owner, ids);
  }

  /** The stored records of `ids` (from the owner index) that `owner` still owns, in the order of `ids`. */
  private async recordsOwned(owner: string, ids: readonly string[]): Promise<R[]> {
    const records = await this.records(ids);
    return ids.flatMap((id) => {
      const record = records.get(id);
      return record && this.layout.owner!(record) === owner ? [record] : [];
    });
  }

  /**
   * The archived records `owner` owns whose listing entries pass `test` (a filter's test of a block, as `matches`
   * takes), newest first (creation time, then id, both descending), read through the owner index as `ownedBy` reads
   * them: what it reads grows with the owner's archived records, not with the archive (docs/decisions.md, Open and
   * closed listings, "Reading closed listings"). The test runs on blocks made in memory of those records' entries and
   * search tokens, so it is the test a scan of the stored blocks makes. Null as for `ownedBy`, and for an owner of more
   * than `OWNED_READ_MAX` archived records (at most that many and one index entries are read), so the caller scans.
   */
  async ownedMatching(owner: string, test: BlockTest<E>): Promise<R[] | null> {
    const ids = await this.idsOwnedBy(owner, OWNED_READ_MAX + 1);
    if (!ids || ids.length > OWNED_READ_MAX) return null;
    const records = await this.recordsOwned(owner, ids);
    if (records.length === 0) return [];
    const { layout } = this;
    const items = records.map((record) => ({ record, entry: layout.entry(record) }))
      .sort((a, b) => compareKeys(keyOf(b.entry), keyOf(a.entry)));
    // One block holds them all (`OWNED_READ_MAX` is below `BLOCK_MAX_ENTRIES`); it is only read, so its size is free.
    const marks = test(
      new ArchiveBlock<E>(encodeBlock({
        lo: keyOf(items[items.length - 1].entry),
        hi: null,
        entries: items.map((item) => item.entry),
        tokens: items.map((item) => tokensOf(layout.searchText(item.record))),
      })),
    );
    return marks ? items.flatMap((item, i) => marks[i] ? [item.record] : []) : [];
  }

  /**
   * The ids of the archived records `owner` owns, in id order (the first `limit`, when given), from the owner index
   * alone; null as for `ownedBy` (until `indexOwners` is done, `backfillDone`).
   */
  async idsOwnedBy(owner: string, limit?: number): Promise<string[] | null> {
    if (!this.layout.owner || !(await backfillDone(this.kv, this.keys.ownerIndex))) return null;
    const ids: string[] = [];
    const entries = this.kv.list({ prefix: this.keys.ownedBy(owner) }, { batchSize: KEYS_BATCH, limit });
    for await (const { key } of entries) {
      ids.push(key[2] as string);
    }
    return ids;
  }

  /**
   * Indexes by owner, once, the records archived before the owner index (`runBackfill`; docs/decisions.md, Background
   * work, "Index backfills"): `OWNER_INDEX_BATCH` records a write, each checked against the record as read (one changed
   * or moved meanwhile is read again; that write kept its entry); `run.giveWay` between writes, no new page after
   * `run.until`. Returns how many records this call indexed; nothing once done (one read).
   */
  async indexOwners(run: BackfillRun): Promise<number> {
    const ownerOf = this.layout.owner;
    if (!ownerOf) return 0;
    const { keys } = this;
    return (await runBackfill<R>(this.kv, {
      progressKey: keys.ownerIndex,
      prefix: keys.records,
      page: OWNER_INDEX_BATCH,
      write(op, { key, value }) {
        const owner = ownerOf(value);
        if (owner) op.set(keys.owned(owner, key[1] as string), null);
      },
    }, run)).read;
  }

  // ---- Writes ----

  /**
   * The rider that makes `change` in the archive within a chunked write (see `ChunkWriter`): it takes the archive
   * lock, reads the records and blocks concerned, adds their mutations and checks, and applies the outcome.
   */
  rider(change: ArchiveChange<R>): Rider {
    return async (op) => await this.prepare(op, change);
  }

  /**
   * Makes `change` in the archive alone, in one atomic write (with the change marker and `also`'s mutations), retried
   * on a lost race.
   * @throws BusyError after `retryBudgetMs` of lost races (nothing written).
   */
  async write(change: ArchiveChange<R>, also?: (op: Deno.AtomicOperation) => void): Promise<void> {
    await retrying(() => this.tryWrite(change, also), this.retryBudgetMs);
  }

  /**
   * One attempt of `write`, for a caller that retries itself.
   * @returns false when what it read was stale or a concurrent write won (nothing was written).
   */
  async tryWrite(change: ArchiveChange<R>, also?: (op: Deno.AtomicOperation) => void): Promise<boolean> {
    const op = this.kv.atomic();
    const outcome = await this.prepare(op, change);
    if (!outcome) return false;
    also?.(op);
    this.model.changes.mark(op);
    let stamp: string | null = null;
    try {
      const result = await op.commit();
      stamp = result.ok ? result.versionstamp : null;
    } catch (error) {
      outcome(null);
      if (error instanceof TypeError && /database is locked/i.test(error.message)) return false;
      throw error;
    }
    outcome(stamp);
    if (stamp) this.model.applyOther(stamp);
    return stamp !== null;
  }

  /**
   * Stores `records` in an empty archive in bulk (a benchmark's seed, a restore): full blocks built directly, one
   * commit per block with its records, instead of a read and rewrite of blocks per batch.
   * @throws Error when the archive is not empty.
   */
  async seed(records: R[]): Promise<void> {
    if ((await this.list()).keys.length > 0) throw new Error(`The ${this.layout.noun} archive is not empty`);
    const items = records.map((record) => ({ record, entry: this.layout.entry(record) }))
      .sort((a, b) => compareKeys(keyOf(a.entry), keyOf(b.entry)));
    // Entries per block: what fits by the size of a first block, below both bounds.
    const sample = items.slice(0, 256).reverse();
    const bytes = encodeBlock({
      lo: MIN_KEY,
      hi: null,
      entries: sample.map((item) => item.entry),
      tokens: sample.map((item) => tokensOf(this.layout.searchText(item.record))),
    }).byteLength;
    const perBlock = Math.max(1, Math.min(BLOCK_MAX_ENTRIES, Math.floor(0.9 * BLOCK_MAX_BYTES / (bytes / 256 || 1))));
    for (let from = 0; from < items.length; from += perBlock) {
      const group = items.slice(from, from + perBlock).reverse();
      const next = items[from + perBlock];
      const pieces = split({
        lo: from === 0 ? MIN_KEY : keyOf(group[group.length - 1].entry),
        hi: next ? keyOf(next.entry) : null,
        entries: group.map((item) => item.entry),
        tokens: group.map((item) => tokensOf(this.layout.searchText(item.record))),
      });
      for (const piece of pieces) {
        const ids = new Set(piece.block.entries.map((entry) => entry[0]));
        const stored = group.filter(({ record }) => ids.has(record.id));
        // Its records first (at most `SEED_RECORDS` a commit), then the block that lists them.
        for (let i = 0; i <= stored.length; i += SEED_RECORDS) {
          const op = this.kv.atomic();
          for (const { record } of stored.slice(i, i + SEED_RECORDS)) {
            op.set(this.keys.record(record.id), record);
            this.ownerOps(op, record.id, null, record);
          }
          if (i + SEED_RECORDS >= stored.length) {
            op.set(this.keys.block(piece.block.lo), piece.bytes);
            op.set(this.keys.entry(piece.block.lo), { n: piece.block.entries.length });
          }
          this.model.changes.mark(op);
          const result = await op.commit();
          if (!result.ok) throw new Error("The archive changed while it was seeded");
          this.model.applyOther(result.versionstamp);
        }
      }
    }
    this.invalidate();
  }

  /** Adds `change`'s mutations and checks to `op` (see `rider`); false when what it read was stale. */
  private async prepare(op: Deno.AtomicOperation, change: ArchiveChange<R>): Promise<RiderOutcome | false> {
    const release = await this.lock.acquire();
    try {
      const outcome = await this.mutations(op, change);
      if (!outcome) release();
      return outcome && ((stamp) => {
        try {
          outcome(stamp);
        } finally {
          release();
        }
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  private async mutations(op: Deno.AtomicOperation, { put = [], drop = [], expected = {} }: ArchiveChange<R>) {
    const { layout, keys } = this;
    const ids = [...new Set([...put.map((record) => record.id), ...drop])];
    const entries = await getManyChunked<R>(this.kv, ids.map(keys.record));
    const stored = new Map(ids.map((id, i) => [id, entries[i]]));
    for (const [id, stamp] of Object.entries(expected)) if (stored.get(id)?.versionstamp !== stamp) return false;
    // Entries leaving blocks (by key) and entering them (with their tokens).
    const leaving: BlockKey[] = [];
    const entering: { entry: E; tokens: string[] }[] = [];
    for (const record of put) {
      const before = stored.get(record.id)!;
      // A record new to the archive needs no check (KV allows 100 per commit): its id is new, or it is taken out of
      // the read model in this commit, whose chunk is checked. One replaced must be the one read.
      if (before.value) op.check(before);
      op.set(keys.record(record.id), record);
      this.ownerOps(op, record.id, before.value, record);
      if (before.value) leaving.push(keyOf(layout.entry(before.value)));
      entering.push({ entry: layout.entry(record), tokens: tokensOf(layout.searchText(record)) });
    }
    for (const id of drop) {
      const before = stored.get(id)!;
      if (!before.value) continue;
      op.check(before);
      op.delete(keys.record(id));
      this.ownerOps(op, id, before.value, null);
      leaving.push(keyOf(layout.entry(before.value)));
    }
    if (leaving.length === 0 && entering.length === 0) return () => {};

    const directory = this.directory && this.listedAt === this.model.foreignChanges
      ? this.directory
      : await this.list();
    // The block each key falls in (the last whose lo is not after it), as the directory says; checked below.
    const target = (key: BlockKey) => {
      let lo = 0, hi = directory.keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeys(directory.keys[mid], key) <= 0) lo = mid + 1;
        else hi = mid;
      }
      return lo - 1;
    };
    const touched = new Map<number, { leave: BlockKey[]; enter: { entry: E; tokens: string[] }[] }>();
    const at = (index: number) => {
      let change = touched.get(index);
      if (!change) touched.set(index, change = { leave: [], enter: [] });
      return change;
    };
    for (const key of leaving) at(target(key)).leave.push(key);
    for (const item of entering) at(target(keyOf(item.entry))).enter.push(item);

    const written: { key: BlockKey; bytes: Uint8Array; block: BlockContent<E> }[] = [];
    const indexes = [...touched.keys()];
    const reads = indexes.filter((index) => index >= 0);
    const blocks = await getManyChunked<Uint8Array>(this.kv, reads.map((index) => keys.block(directory.keys[index])));
    const current = new Map(reads.map((index, i) => [index, blocks[i]]));
    for (const index of indexes) {
      const { leave, enter } = touched.get(index)!;
      let content: BlockContent<E>;
      if (index === -1) {
        // No block yet covers these keys: the archive is empty (the first block covers every key).
        if (directory.keys.length > 0) return this.stale();
        op.check({ key: keys.block(MIN_KEY), versionstamp: null });
        content = { lo: MIN_KEY, hi: null, entries: [], tokens: [] };
      } else {
        const entry = current.get(index)!;
        if (!entry.value) return this.stale();
        const block = new ArchiveBlock<E>(entry.value);
        const inRange = (key: BlockKey) =>
          compareKeys(block.lo, key) <= 0 && (block.hi === null || compareKeys(key, block.hi) < 0);
        if (!leave.every(inRange) || !enter.every(({ entry }) => inRange(keyOf(entry)))) return this.stale();
        op.check(entry);
        content = block.content();
      }
      const gone = new Set(leave.map(keyString));
      const kept = content.entries.map((entry, i) => ({ entry, tokens: content.tokens[i] }))
        .filter(({ entry }) => !gone.has(keyString(keyOf(entry))));
      const all = [...kept, ...enter].sort((a, b) => compareKeys(keyOf(b.entry), keyOf(a.entry)));
      const pieces = split({
        lo: content.lo,
        hi: content.hi,
        entries: all.map((item) => item.entry),
        tokens: all.map((item) => item.tokens),
      });
      pieces.forEach((piece, i) => {
        if (i > 0) op.check({ key: keys.block(piece.block.lo), versionstamp: null });
        op.set(keys.block(piece.block.lo), piece.bytes);
        op.set(keys.entry(piece.block.lo), { n: piece.block.entries.length });
        written.push({ key: piece.block.lo, ...piece });
      });
    }
    return (stamp: string | null) => {
      if (!stamp) return;
      for (const piece of written) {
        this.keep(keyString(piece.key), stamp, new ArchiveBlock<E>(piece.bytes.slice()).kept());
      }
      this.applyOwn(directory, written.map(({ key, block }) => ({ key, count: block.entries.length })), stamp);
    };
  }

  /**
   * Puts this process's commit at `stamp`, which wrote `blocks`, into the directory it read (`directory`), when that is
   * still the current one, instead of listing the directory again; a new version either way.
   */
  private applyOwn(directory: Directory, blocks: { key: BlockKey; count: number }[], stamp: string): void {
    this.version++;
    this.matchCache.clear();
    if (this.directory !== directory || this.listedAt === -1) return this.invalidate();
    // A new directory: reads under way keep the one they hold.
    const next: Directory = {
      keys: [...directory.keys],
      stamps: [...directory.stamps],
      counts: [...directory.counts],
      names: [...directory.names],
    };
    for (const { key, count } of blocks) {
      let lo = 0, hi = next.keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeys(next.keys[mid], key) < 0) lo = mid + 1;
        else hi = mid;
      }
      const known = lo < next.keys.length && compareKeys(next.keys[lo], key) === 0;
      next.keys.splice(lo, known ? 1 : 0, key);
      next.stamps.splice(lo, known ? 1 : 0, stamp);
      next.counts.splice(lo, known ? 1 : 0, count);
      next.names.splice(lo, known ? 1 : 0, keyString(key));
    }
    this.directory = next;
  }

  /**
   * Adds to `op` the owner index's change for record `id` stored as `before` and written as `after` (null: absent): the
   * old owner's entry goes and the new owner's is set, when the owner changed.
   */
  private ownerOps(op: Deno.AtomicOperation, id: string, before: R | null, after: R | null): void {
    const ownerOf = this.layout.owner;
    if (!ownerOf) return;
    const was = before ? ownerOf(before) : null, is = after ? ownerOf(after) : null;
    if (was === is) return;
    if (was) op.delete(this.keys.owned(was, id));
    if (is) op.set(this.keys.owned(is, id), null);
  }

  /** What a write does when the directory it used is stale: a new listing, and another attempt. */
  private stale(): false {
    this.invalidate();
    return false;
  }
}

/**
 * `content` as one or more blocks within the bounds, each with its bytes: split in halves until each fits, the older
 * half keeping `lo`, the newer starting at the oldest key of its entries.
 */
function split<E extends ListingEntry>(content: BlockContent<E>): { block: BlockContent<E>; bytes: Uint8Array }[] {
  if (content.entries.length <= BLOCK_MAX_ENTRIES) {
    const bytes = encodeBlock(content);
    if (bytes.byteLength <= BLOCK_MAX_BYTES || content.entries.length <= 1) return [{ block: content, bytes }];
  }
  const middle = content.entries.length >> 1;
  const boundary = keyOf(content.entries[middle - 1]);
  const newer: BlockContent<E> = {
    lo: boundary,
    hi: content.hi,
    entries: content.entries.slice(0, middle),
    tokens: content.tokens.slice(0, middle),
  };
  const older: BlockContent<E> = {
    lo: content.lo,
    hi: boundary,
    entries: content.entries.slice(middle),
    tokens: content.tokens.slice(middle),
  };
  return [...split(older), ...split(newer)];
}

/** One listing of a merged page: a slot of the read model, or the id of an archived record. */
export type PageItem = { slot: number } | { id: string };

/**
 * Items `offset` to `offset + limit` of the read model's matches `live` (slots newest first) and the archive's
 * matches `archived` (newest first) merged in list order (creation time, then id, both descending), and how many
 * there are in all. With `liveRank`, both are ordered by a rank first (highest first; `archived` was matched with the
 * same rank). Call within `archive.reading`, which starts again when the archive changed meanwhile.
 */
export async function mergedPage<R extends { id: string }, E extends ListingEntry, C extends Columns<E>>(
  { model, archive, live, archived, liveRank }: {
    model: ChunkedReadModel<R, E, C>;
    archive: Archive<R, E, C>;
    live: ArrayLike<number>;
    archived: ArchiveMatches;
    liveRank?: (slot: number) => number;
  },
  { offset, limit }: { offset: number; limit: number },
): Promise<{ total: number; items: PageItem[] }> {
  const { created, ids } = model.slots;
  const liveCount = live.length, archivedCount = archived.count;
  const total = liveCount + archivedCount;
  if (offset >= total) return { total, items: [] };
  const ranks = archived.ranks;
  /** Whether the live match `slot` comes before archived match `y` (with `key`) in list order. */
  const before = (slot: number, y: number, key: BlockKey) => {
    if (liveRank && ranks) {
      const a = liveRank(slot), b = ranks[y];
      if (a !== b) return a > b;
    }
    return created[slot] !== key[0] ? created[slot] > key[0] : ids[slot] > key[1];
  };
  // How many of the first `offset` items are live matches: the least i whose live match i comes after archived match
  // offset - i - 1 (bisection over i).
  let lo = Math.max(0, offset - archivedCount), hi = Math.min(offset, liveCount);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const y = offset - mid - 1;
    const [key] = await archive.keysOf(archived, y, y + 1);
    if (before(live[mid], y, key)) lo = mid + 1;
    else hi = mid;
  }
  let x = lo, y = offset - lo;
  const end = Math.min(total, offset + limit);
  const first = y;
  const keys = await archive.keysOf(archived, y, Math.min(archivedCount, y + (end - offset)));
  const items: PageItem[] = [];
  while (x + y < end) {
    if (y >= archivedCount || x < liveCount && before(live[x], y, keys[y - first])) items.push({ slot: live[x++] });
    else items.push({ id: keys[y++ - first][1] });
  }
  return { total, items };
}

/**
 * The read model's records `live` and the archive's `archived` (of one owner, say) as one list in list order (creation
 * time, then id, both descending), as `mergedPage` orders them; a record found in both (it moved meanwhile) comes once,
 * as the read model holds it.
 */
export function newestFirst<R extends { id: string; createdAt: string }>(live: R[], archived: R[]): R[] {
  const seen = new Set(live.map((record) => record.id));
  const all = [...live, ...archived.filter((record) => !seen.has(record.id))];
  const created = new Map(all.map((record) => [record.id, Date.parse(record.createdAt)]));
  return all.sort((a, b) => created.get(b.id)! - created.get(a.id)! || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * Records `offset` to `offset + limit` of the read model's matches `live` (slots in list order) and the archived
 * records `archived` (newest first, as `Archive.ownedMatching` gives them): with `merged`, both in list order
 * (creation time, then id, both descending; `live` newest first), as `mergedPage` merges an archive's matches; else
 * `live` first, then `archived`. Returns them and how many there are in all. An archived record the read model holds
 * too (it moved meanwhile) counts once, as the read model holds it; a page's slot whose record left meanwhile is left
 * out.
 */
export async function pageWithRecords<
  R extends { id: string; createdAt: string },
  E extends ListingEntry,
  C extends Columns<E>,
>(
  { model, live, archived, merged }: {
    model: ChunkedReadModel<R, E, C>;
    live: ArrayLike<number>;
    archived: readonly R[];
    merged: boolean;
  },
  { offset, limit }: { offset: number; limit: number },
): Promise<{ total: number; records: R[] }> {
  const { created, ids } = model.slots;
  const others = archived.filter((record) => model.slotOf(record.id) === undefined);
  const total = live.length + others.length;
  const end = Math.min(total, offset + limit);
  const items: ({ slot: number } | { record: R })[] = [];
  let x = 0, y = 0;
  /** Whether the live match `slot` comes before the archived `record` in list order. */
  const before = (slot: number, record: R) => {
    const ms = Date.parse(record.createdAt);
    return created[slot] !== ms ? created[slot] > ms : ids[slot] > record.id;
  };
  while (x + y < end) {
    const fromLive = y >= others.length || x < live.length && (!merged || before(live[x], others[y]));
    const item = fromLive ? { slot: live[x++] } : { record: others[y++] };
    if (x + y > offset) items.push(item);
  }
  const found = await model.recordsOf(items.flatMap((item) => "slot" in item ? [item.slot] : []));
  const byId = new Map(found.map((record) => [record.id, record]));
  const records = items.flatMap((item) => {
    const record = "slot" in item ? byId.get(ids[item.slot]) : item.record;
    return record ? [record] : [];
  });
  return { total, records };
}

/**
 * Replaces the record `id` with `change(record)` (with `also`'s mutations) in one atomic write wherever it is, in the
 * read model's store or the archive, moving it when `isLive` of the new record says it belongs in the other
 * (docs/decisions.md, Open and closed listings, "Coming back"); `change` (it may wait for a read of the caller's, made
 * with the record's) runs again on the latest record after a lost race, unless `onLostRace` is "give-up" (for a caller
 * that reads its own checks again before another try).
 * @returns the stored record, or null for an unknown id.
 * @throws what `change` throws; BusyError after 30 s of lost races (nothing written); RaceLost for a lost race with
 *   `onLostRace` "give-up" (nothing written).
 */
export async function updateEither<R extends { id: string }, E extends ListingEntry, C extends Columns<E>>(
  kv: Deno.Kv,
  { model, writer, archive }: {
    model: ChunkedReadModel<R, E, C>;
    writer: ChunkWriter<R, E, C>;
    archive: Archive<R, E, C>;
  },
  { id, change, also, isLive, onLostRace }: {
    id: string;
    change: (record: R) => R | Promise<R>;
    also?: (op: Deno.AtomicOperation, next: R, previous: R) => void;
    isLive: (record: R) => boolean;
    onLostRace?: OnLostRace;
  },
): Promise<R | null> {
  // A record may move between the two meanwhile (another process): look again, a few times.
  for (let round = 0; round < 3; round++) {
    const leave = (next: R) => isLive(next) ? null : archive.rider({ put: [next] });
    const live = await writer.update(id, change, also, { leave, onLostRace });
    if (live) return live;
    let stored: R | null = null;
    await retrying(
      async () => {
        const entry = await kv.get<R>(archive.keys.record(id));
        const previous = entry.value;
        stored = previous;
        if (!previous) return true;
        const next = await change(previous);
        if (next === previous) return true;
        const expected = { [id]: entry.versionstamp };
        const mutations = also && ((op: Deno.AtomicOperation) => also(op, next, previous));
        stored = next;
        return isLive(next)
          ? await writer.tryInsert([next], { also: mutations, rider: archive.rider({ drop: [id], expected }) })
          : await archive.tryWrite({ put: [next], expected }, mutations);
      },
      RETRY_BUDGET_MS,
      onLostRace,
    );
    if (stored) return stored;
    if ((await kv.get(model.keys.id(id))).value === null) break;
  }
  return null;
}

/**
 * The record `id` as KV holds it now, in the read model's store or the archive, read from KV itself rather than from
 * the process's read model (which may be up to a second behind another process's write): a caller that must decide on
 * the latest record (an application checked against its listing) reads it here after reading what its write checks.
 * @returns the record, or null for an unknown id.
 */
export async function readEither<R extends { id: string }, E extends ListingEntry, C extends Columns<E>>(
  kv: Deno.Kv,
  { model, archive }: { model: ChunkedReadModel<R, E, C>; archive: Archive<R, E, C> },
  id: string,
): Promise<R | null> {
  // A record may move between the two meanwhile (another process): look again, a few times.
  for (let round = 0; round < 3; round++) {
    const [pointer, archived] = await kv.getMany<[number, R]>([model.keys.id(id), archive.keys.record(id)]);
    if (archived.value) return archived.value;
    if (pointer.value === null) return null;
    const chunk = await kv.get<Uint8Array>(model.keys.chunk(pointer.value));
    const record = decodeRecords<R>(chunk.value).find((r) => r.id === id);
    if (record) return record;
  }
  return null;
}

/**
 * Values made asynchronously and kept by key, least recently used out first, at most `maxEntries` of them and
 * `maxBytes` in all (`bytesOf` each value): callers asking for a key while its value is being made share it; a value
 * whose making fails is not kept, nor one made across a `clear` (a new archive version).
 */
class KeptPromises<T> {
  private readonly kept = new Map<string, { value: Promise<T>; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly bytesOf: (value: T) => number,
  ) {}

  /** The value kept for `key`, else the one `make` makes, then kept. */
  async get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      this.kept.set(key, hit);
      return await hit.value;
    }
    const entry = { value: make(), bytes: 0 };
    this.kept.set(key, entry);
    entry.value.catch(() => this.kept.get(key) === entry && this.kept.delete(key));
    const value = await entry.value;
    if (this.kept.get(key) !== entry) return value;
    entry.bytes = this.bytesOf(value);
    this.bytes += entry.bytes;
    for (const [oldest, other] of this.kept) {
      if (this.kept.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      if (other === entry) continue;
      this.kept.delete(oldest);
      this.bytes -= other.bytes;
    }
    return value;
  }

  /** Drops every value kept (values being made are not kept when done). */
  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }
}
