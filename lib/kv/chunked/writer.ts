/**
 * Writes of a chunked store (see `store.ts` for the design): inserts append to the open chunk,
 * updates replace a record in its chunk (or move it to the open chunk when its chunk would
 * outgrow the value limit). Each write is one atomic operation checked against the versionstamps
 * of exactly what it read (the chunks it rewrites, the id entry, the open pointer) and bumping the
 * change marker. In this process, writes to one chunk wait for each other (a lock per chunk), and
 * appends wait in one queue before they read the open chunk, so they never race each other; a race
 * lost to another process is retried after a growing random pause for up to `RETRY_BUDGET_MS`, then
 * `BusyError` is thrown with nothing written (docs/decisions.md, Open and closed listings, "Concurrent writers").
 */
import { BusyError, InvalidInputError } from "@/lib/errors.ts";
import {
  CHUNK_FILL_BYTES,
  CHUNK_MAX_BYTES,
  decodeRecords,
  encodeRecords,
  indexed,
  type IndexedChunk,
  recordBytes,
  splitByIndex,
} from "./codec.ts";
import type { ListingEntry } from "./layout.ts";
import type { ChunkedReadModel, Columns } from "./read_model.ts";

/** How long (ms) a write keeps retrying races lost to other processes before it gives up with `BusyError`. */
export const RETRY_BUDGET_MS = 30_000;
/** The longest pause (ms) between two attempts of a write. */
const MAX_PAUSE_MS = 100;

/** A chunk as read for a write: its records and the versionstamps the write must check. */
interface ReadChunk<R> {
  n: number;
  versionstamp: string | null;
  records: R[];
  /** The id entry of the record being updated. */
  idEntry: Deno.KvEntryMaybe<number>;
}

/** One lock per chunk number: holders of the same chunk run one after another, in call order. */
class ChunkLocks {
  private readonly tails = new Map<number, Promise<void>>();

  /** Waits for chunk `n`; returns the release function. */
  async acquire(n: number): Promise<() => void> {
    const previous = this.tails.get(n) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => release = resolve));
    this.tails.set(n, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(n) === tail) this.tails.delete(n);
    };
  }
}

const noop = () => {};

/** Waits a random few milliseconds, more after each lost race (at most `MAX_PAUSE_MS`), so racing processes spread out. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, MAX_PAUSE_MS)));
}

/** The writer of one chunked store in one KV; applies its commits to `model`. */
export class ChunkWriter<R extends { id: string }, E extends ListingEntry, C extends Columns<E> = Columns<E>> {
  private readonly locks = new ChunkLocks();
  /** Appends wait here, one at a time, before they read the open pointer (a lock under a number no chunk has). */
  private readonly appends = new ChunkLocks();
  /** How long (ms) a write retries lost races; `RETRY_BUDGET_MS` unless a test shortens it. */
  retryBudgetMs = RETRY_BUDGET_MS;

  constructor(private readonly kv: Deno.Kv, private readonly model: ChunkedReadModel<R, E, C>) {}

  /**
   * Stores new records in one atomic write (all or nothing), filling the open chunk and opening
   * further ones as they fill. `also`, when given, adds the caller's own mutations to the same write (called again on
   * every attempt).
   * @throws BusyError after `retryBudgetMs` of races lost to other processes; InvalidInputError when the write
   * exceeds KV's limits.
   */
  async insert(records: R[], also?: (op: Deno.AtomicOperation) => void): Promise<void> {
    await this.retry(async () => {
      const release = await this.appends.acquire(0);
      try {
        return await this.append(records, undefined, also);
      } finally {
        release();
      }
    });
  }

  /**
   * Reads the record `id` from KV, passes it to `change` and stores what `change` returns, in one
   * atomic write checked against what was read. After a lost race the record is read again and
   * `change` called again with it, so checks made by `change` (it may throw) see the latest record.
   * `change` must keep the record's id. `also`, when given, adds the caller's own mutations (and checks) to the same
   * atomic write, given the stored and the previous record; it is called again on every attempt and not when `change`
   * returned the record unchanged (the same object), which writes nothing.
   * @returns the stored record, or null when `id` is unknown.
   * @throws what `change` throws (nothing is written); BusyError after `retryBudgetMs` of races lost to other
   * processes; InvalidInputError when the write exceeds KV's limits.
   */
  async update(
    id: string,
    change: (record: R) => R | Promise<R>,
    also?: (op: Deno.AtomicOperation, next: R, previous: R) => void,
  ): Promise<R | null> {
    let stored: R | null = null;
    await this.retry(async () => {
      const pointer = await this.kv.get<number>(this.model.keys.id(id));
      if (pointer.value === null) return true;
      const release = await this.locks.acquire(pointer.value);
      try {
        const n = pointer.value;
        const [idEntry, chunk] = await this.kv.getMany<[number, Uint8Array]>([
          this.model.keys.id(id),
          this.model.keys.chunk(n),
        ]);
        if (idEntry.value !== n) return false;
        const records = decodeRecords<R>(chunk.value);
        const record = records.find((r) => r.id === id);
        if (!record) return true;
        const next = await change(record);
        if (next === record) {
          stored = record;
          return true;
        }
        const extra = also && ((op: Deno.AtomicOperation) => also(op, next, record));
        if (!await this.replace({ n, versionstamp: chunk.versionstamp, records, idEntry }, next, extra)) return false;
        stored = next;
        return true;
      } finally {
        release();
      }
    });
    return stored;
  }

  /**
   * Rewrites the records of chunk `n` that `prepare(records)`'s mapper changes (a record it returns as the same object
   * is unchanged) in one atomic write checked against the chunk as read, with `also`'s mutations for each changed
   * record; a lost race reads the chunk again. When the rewritten chunk would outgrow a value, each changed record is
   * written on its own instead (`update`). For bulk rewrites (a migration): one commit per chunk, not per record.
   * @returns how many records changed; 0 for a chunk that does not exist.
   * @throws BusyError after `retryBudgetMs` of lost races; InvalidInputError when a write exceeds KV's limits.
   */
  async updateChunk(
    n: number,
    prepare: (records: readonly R[]) => Promise<(record: R) => R>,
    also?: (op: Deno.AtomicOperation, next: R, previous: R) => void,
  ): Promise<number> {
    let changed = 0;
    let oneByOne: { mapper: (record: R) => R; ids: string[] } | null = null;
    await this.retry(async () => {
      const release = await this.locks.acquire(n);
      try {
        const chunk = await this.kv.get<Uint8Array>(this.model.keys.chunk(n));
        if (!chunk.value) return true;
        const records = decodeRecords<R>(chunk.value);
        const mapper = await prepare(records);
        const next = records.map(mapper);
        const pairs = next.flatMap((record, i) => record === records[i] ? [] : [[record, records[i]] as const]);
        changed = pairs.length;
        if (changed === 0) return true;
        const replaced = indexed(this.model.layout, next);
        if (replaced.bytes.byteLength > CHUNK_MAX_BYTES || replaced.index.byteLength > CHUNK_MAX_BYTES) {
          oneByOne = { mapper, ids: pairs.map(([record]) => record.id) };
          return true;
        }
        const op = this.kv.atomic().check({ key: this.model.keys.chunk(n), versionstamp: chunk.versionstamp });
        for (const [record, previous] of pairs) also?.(op, record, previous);
        return await this.commit(op, new Map([[n, replaced]]));
      } finally {
        release();
      }
    });
    const pending = oneByOne as { mapper: (record: R) => R; ids: string[] } | null;
    if (pending) {
      for (const id of pending.ids) await this.update(id, pending.mapper, also);
    }
    return changed;
  }

  /**
   * Writes again, from their records, the index chunks the model found older than the layout's entries at load
   * (`ChunkedLayout.fields`): each is one update of one of its records to a copy of itself (the same object would
   * write nothing), which re-encodes the chunk (or moves that record out should the new index not fit). Ten chunks at
   * a time; run once after load.
   * @returns how many chunks were written.
   */
  async upgradeIndexes(): Promise<number> {
    const ids = this.model.outdatedChunkIds();
    for (let i = 0; i < ids.length; i += 10) {
      await Promise.all(ids.slice(i, i + 10).map((id) => this.update(id, (record) => ({ ...record }))));
    }
    return ids.length;
  }

  /** Runs `attempt` until it succeeds, pausing a little more after each failure, for at most `retryBudgetMs`. */
  private async retry(attempt: () => Promise<boolean>): Promise<void> {
    const started = Date.now();
    for (let i = 1;; i++) {
      if (await attempt()) return;
      if (Date.now() - started >= this.retryBudgetMs) break;
      await backoff(i);
    }
    throw new BusyError(`Too many concurrent writes to ${this.model.layout.noun}; nothing was written, try again`);
  }

  /** Replaces a record in its chunk, or moves it to the open chunk when the chunk would outgrow the limit. */
  private async replace(chunk: ReadChunk<R>, record: R, extra?: (op: Deno.AtomicOperation) => void): Promise<boolean> {
    const records = chunk.records.map((r) => (r.id === record.id ? record : r));
    const replaced = indexed(this.model.layout, records);
    const fits = replaced.bytes.byteLength <= CHUNK_MAX_BYTES && replaced.index.byteLength <= CHUNK_MAX_BYTES;
    if (!fits) {
      return await this.append([record], { chunk, rest: chunk.records.filter((r) => r.id !== record.id) }, extra);
    }
    const op = this.kv.atomic()
      .check(chunk.idEntry, { key: this.model.keys.chunk(chunk.n), versionstamp: chunk.versionstamp });
    extra?.(op);
    return await this.commit(op, new Map([[chunk.n, replaced]]));
  }

  /**
   * Adds `records` to the open chunk (opening further chunks as they fill: records over
   * `CHUNK_FILL_BYTES`, or an index over `CHUNK_MAX_BYTES`), with their id entries, in one atomic
   * write; `moved` is an updated record leaving its full chunk (whose lock the caller holds; chunk
   * numbers only grow, so locks are always taken in ascending order); `extra` adds the caller's mutations.
   * @returns false when a concurrent write won.
   */
  private async append(
    records: R[],
    moved?: { chunk: ReadChunk<R>; rest: R[] },
    extra?: (op: Deno.AtomicOperation) => void,
  ): Promise<boolean> {
    const { keys, layout } = this.model;
    const n = (await this.kv.get<number>(keys.open)).value ?? 0;
    const release = moved?.chunk.n === n ? noop : await this.locks.acquire(n);
    try {
      const [open, current] = await this.kv.getMany<[number, Uint8Array]>([keys.open, keys.chunk(n)]);
      if ((open.value ?? 0) !== n) return false;
      const op = this.kv.atomic().check(open, current);
      const writes = new Map<number, IndexedChunk<R>>();
      if (moved) {
        op.check(moved.chunk.idEntry, { key: keys.chunk(moved.chunk.n), versionstamp: moved.chunk.versionstamp });
        if (moved.chunk.n !== n) writes.set(moved.chunk.n, indexed(layout, moved.rest));
      }
      const filled: IndexedChunk<R>[] = [];
      let chunk = moved?.chunk.n === n ? moved.rest : decodeRecords<R>(current.value);
      let kept = chunk.length;
      let size = encodeRecords(chunk).bytes.byteLength;
      for (const record of records) {
        const bytes = recordBytes(record);
        if (chunk.length > 0 && size + bytes > CHUNK_FILL_BYTES) {
          filled.push(...splitByIndex(layout, chunk, kept));
          chunk = [];
          kept = 0;
          size = 2;
        }
        chunk.push(record);
        size += bytes;
      }
      filled.push(...splitByIndex(layout, chunk, kept));
      const fresh = new Set(records.map((record) => record.id));
      filled.forEach((piece, i) => {
        if (i > 0) op.check({ key: keys.chunk(n + i), versionstamp: null });
        for (const record of piece.records) if (fresh.has(record.id)) op.set(keys.id(record.id), n + i);
        writes.set(n + i, piece);
      });
      op.set(keys.open, n + filled.length - 1);
      extra?.(op);
      return await this.commit(op, writes);
    } finally {
      release();
    }
  }

  /** Sets the chunks of `writes` (records, index, stamp), bumps the change marker and commits. */
  private async commit(op: Deno.AtomicOperation, writes: Map<number, IndexedChunk<R>>): Promise<boolean> {
    const { keys } = this.model;
    for (const [n, { records, bytes, index }] of writes) {
      op.set(keys.chunk(n), bytes);
      op.set(keys.index(n), index);
      op.set(keys.stamp(n), records.length);
    }
    this.model.changes.mark(op);
    let result: Deno.KvCommitResult | Deno.KvCommitError;
    try {
      result = await op.commit();
    } catch (error) {
      if (error instanceof TypeError && /too large|too many/i.test(error.message)) {
        throw new InvalidInputError(`Request too large: send fewer or smaller ${this.model.layout.noun}`);
      }
      // A local KV file written by two processes at once: SQLite refused this transaction (rolled
      // back, nothing written) because the other one held the write lock. A lost race, retried.
      if (error instanceof TypeError && /database is locked/i.test(error.message)) return false;
      throw error;
    }
    if (!result.ok) return false;
    this.model.applyWrite(writes, result.versionstamp);
    return true;
  }
}
