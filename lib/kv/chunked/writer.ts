/**
 * Writes of a chunked store (see `store.ts` for the design): inserts append to the open chunk,
 * updates replace a record in its chunk (or move it to the open chunk when its chunk would
 * outgrow the value limit). Each write is one atomic operation checked against the versionstamps
 * of exactly what it read (the chunks it rewrites, the id entry, the open pointer) and bumping the
 * change marker. In this process, writes to one chunk wait for each other (a lock per chunk), and
 * appends wait in one queue before they read the open chunk, so they never race each other; a race
 * lost to another process is retried after a growing random pause for up to `RETRY_BUDGET_MS` (`lib/kv/retry.ts`),
 * then `BusyError` is thrown with nothing written (docs/decisions.md, Open and closed listings, "Concurrent writers").
 */
import { InvalidInputError } from "@/lib/errors.ts";
import { type OnLostRace, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
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

/** A chunk as read for a write: its records and the versionstamps the write must check. */
interface ReadChunk<R> {
  n: number;
  versionstamp: string | null;
  records: R[];
  /** The id entry of the record being updated (null when records are taken out by chunk). */
  idEntry: Deno.KvEntryMaybe<number> | null;
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

/**
 * What a write learns once its commit is decided: the commit's versionstamp, or null when it did not commit (a lost
 * race, or an error).
 */
export type RiderOutcome = (versionstamp: string | null) => void;

/**
 * The part of a chunked write that another store (the archive of closed listings, `archive.ts`) commits in the same
 * atomic operation: it reads what it needs, adds its mutations and checks to `op` and returns what to call once the
 * commit is decided, or false when what it read is already stale (the write is then tried again). Called once per
 * attempt, while the write holds its chunk locks.
 */
export type Rider = (op: Deno.AtomicOperation) => Promise<RiderOutcome | false>;

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
   * further ones as they fill. `also` adds the caller's own mutations to the same write, `rider` another store's part
   * (both called again on every attempt).
   * @throws BusyError after `retryBudgetMs` of races lost to other processes; InvalidInputError when the write
   * exceeds KV's limits.
   */
  async insert(records: R[], parts: { also?: (op: Deno.AtomicOperation) => void; rider?: Rider } = {}): Promise<void> {
    await this.retry(() => this.tryInsert(records, parts));
  }

  /**
   * One attempt of `insert`, for a caller that retries itself (after reading again what `rider` depends on).
   * @returns false when a concurrent write won (nothing was written).
   */
  async tryInsert(
    records: R[],
    { also, rider }: { also?: (op: Deno.AtomicOperation) => void; rider?: Rider } = {},
  ): Promise<boolean> {
    const release = await this.appends.acquire(0);
    try {
      return await this.append(records, { extra: also, rider });
    } finally {
      release();
    }
  }

  /**
   * Reads the record `id` from KV, passes it to `change` and stores what `change` returns, in one
   * atomic write checked against what was read. After a lost race the record is read again and
   * `change` called again with it, so checks made by `change` (it may throw) see the latest record.
   * `change` must keep the record's id. `also`, when given, adds the caller's own mutations (and checks) to the same
   * atomic write, given the stored and the previous record; it is called again on every attempt and not when `change`
   * returned the record unchanged (the same object), which writes nothing. When `leave` returns a rider for the new
   * record, the record leaves this store instead (out of its chunk, its id entry deleted) and the rider stores it
   * elsewhere in the same write. `onLostRace` "give-up" makes one attempt (`retrying`).
   * @returns the stored record, or null when `id` is unknown here.
   * @throws what `change` throws (nothing is written); BusyError after `retryBudgetMs` of races lost to other
   * processes; RaceLost for a lost race with `onLostRace` "give-up"; InvalidInputError when the write exceeds KV's
   * limits.
   */
  async update(
    id: string,
    change: (record: R) => R | Promise<R>,
    also?: (op: Deno.AtomicOperation, next: R, previous: R) => void,
    { leave, onLostRace }: { leave?: (next: R) => Rider | null; onLostRace?: OnLostRace } = {},
  ): Promise<R | null> {
    let stored: R | null = null;
    await retrying(
      async () => {
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
          const read = { n, versionstamp: chunk.versionstamp, records, idEntry };
          const rider = leave?.(next);
          const done = rider ? await this.remove(read, [id], rider, extra) : await this.replace(read, next, extra);
          if (!done) return false;
          stored = next;
          return true;
        } finally {
          release();
        }
      },
      this.retryBudgetMs,
      onLostRace,
    );
    return stored;
  }

  /**
   * Rewrites the records of chunk `n` that `prepare(records)`'s mapper changes (a record it returns as the same object
   * is unchanged) in one atomic write checked against the chunk as read, with `also`'s mutations for each changed
   * record; a lost race reads the chunk again. When the rewritten chunk would outgrow a value, each changed record is
   * written on its own instead (`update`). For bulk rewrites (a migration): one commit per chunk, not per record;
   * `once` adds the caller's mutations to that commit once (its progress).
   * @returns how many records changed; 0 for a chunk that does not exist.
   * @throws BusyError after `retryBudgetMs` of lost races; InvalidInputError when a write exceeds KV's limits.
   */
  async updateChunk(
    n: number,
    prepare: (records: readonly R[]) => Promise<(record: R) => R>,
    also?: (op: Deno.AtomicOperation, next: R, previous: R) => void,
    once?: (op: Deno.AtomicOperation) => void,
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
        once?.(op);
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
   * Takes the records of chunk `n` that pass `which` (as stored now) out of it, in one atomic write with the part
   * `rider` adds for them (the archive storing them) and `also`'s mutations (and checks) for them: the chunk is written
   * without them (or deleted once empty, unless it is the open chunk) and their id entries deleted. Retried on a lost
   * race like every write, unless `onLostRace` is "give-up" (`retrying`).
   * @returns the records taken (none when none passes).
   * @throws BusyError after `retryBudgetMs` of races lost to other processes; RaceLost for a lost race with
   *   `onLostRace` "give-up" (nothing written).
   */
  async take(
    n: number,
    which: (record: R) => boolean,
    rider: (taken: R[]) => Rider,
    { also, onLostRace }: { also?: (op: Deno.AtomicOperation, taken: R[]) => void; onLostRace?: OnLostRace } = {},
  ): Promise<R[]> {
    let taken: R[] = [];
    await retrying(
      async () => {
        const release = await this.locks.acquire(n);
        try {
          const chunk = await this.kv.get<Uint8Array>(this.model.keys.chunk(n));
          const records = decodeRecords<R>(chunk.value);
          taken = records.filter(which);
          if (taken.length === 0) return true;
          const read = { n, versionstamp: chunk.versionstamp, records, idEntry: null };
          const extra = also && ((op: Deno.AtomicOperation) => also(op, taken));
          return await this.remove(read, taken.map((record) => record.id), rider(taken), extra);
        } finally {
          release();
        }
      },
      this.retryBudgetMs,
      onLostRace,
    );
    return taken;
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

  /** Runs `attempt` until it succeeds, for at most `retryBudgetMs` (`retrying`). */
  private async retry(attempt: () => Promise<boolean>): Promise<void> {
    await retrying(attempt, this.retryBudgetMs);
  }

  /** Replaces a record in its chunk, or moves it to the open chunk when the chunk would outgrow the limit. */
  private async replace(chunk: ReadChunk<R>, record: R, extra?: (op: Deno.AtomicOperation) => void): Promise<boolean> {
    const records = chunk.records.map((r) => (r.id === record.id ? record : r));
    const replaced = indexed(this.model.layout, records);
    const fits = replaced.bytes.byteLength <= CHUNK_MAX_BYTES && replaced.index.byteLength <= CHUNK_MAX_BYTES;
    if (!fits) {
      return await this.append([record], {
        moved: { chunk, rest: chunk.records.filter((r) => r.id !== record.id) },
        extra,
      });
    }
    const op = this.kv.atomic()
      .check(chunk.idEntry!, { key: this.model.keys.chunk(chunk.n), versionstamp: chunk.versionstamp });
    extra?.(op);
    return await this.commit(op, new Map([[chunk.n, replaced]]));
  }

  /**
   * Writes chunk `chunk` without the records `ids` and deletes their id entries, with `rider`'s part, in one atomic
   * write. An emptied chunk is deleted unless it is the open one (new records go there).
   */
  private async remove(
    chunk: ReadChunk<R>,
    ids: string[],
    rider: Rider,
    extra?: (op: Deno.AtomicOperation) => void,
  ): Promise<boolean> {
    const { keys, layout } = this.model;
    const gone = new Set(ids);
    const rest = chunk.records.filter((record) => !gone.has(record.id));
    const open = await this.kv.get<number>(keys.open);
    const op = this.kv.atomic().check({ key: keys.chunk(chunk.n), versionstamp: chunk.versionstamp });
    if (chunk.idEntry) op.check(chunk.idEntry);
    for (const id of ids) op.delete(keys.id(id));
    extra?.(op);
    // Chunk numbers only grow, so a chunk before the open one never becomes open again.
    const drop = rest.length === 0 && chunk.n < (open.value ?? 0);
    const writes = new Map<number, IndexedChunk<R> | null>([[chunk.n, drop ? null : indexed(layout, rest)]]);
    const outcome = await rider(op);
    if (!outcome) return false;
    return await this.commit(op, writes, outcome);
  }

  /**
   * Adds `records` to the open chunk (opening further chunks as they fill: records over
   * `CHUNK_FILL_BYTES`, or an index over `CHUNK_MAX_BYTES`), with their id entries, in one atomic
   * write; `moved` is an updated record leaving its full chunk (whose lock the caller holds; chunk
   * numbers only grow, so locks are always taken in ascending order); `extra` adds the caller's mutations, `rider`
   * another store's part.
   * @returns false when a concurrent write won.
   */
  private async append(
    records: R[],
    { moved, extra, rider }: {
      moved?: { chunk: ReadChunk<R>; rest: R[] };
      extra?: (op: Deno.AtomicOperation) => void;
      rider?: Rider;
    },
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
        op.check(moved.chunk.idEntry!, { key: keys.chunk(moved.chunk.n), versionstamp: moved.chunk.versionstamp });
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
      const outcome = rider ? await rider(op) : undefined;
      if (outcome === false) return false;
      return await this.commit(op, writes, outcome);
    } finally {
      release();
    }
  }

  /**
   * Sets the chunks of `writes` (records, index, stamp; null: the chunk is deleted), bumps the change marker and
   * commits; tells `outcome` how it went.
   */
  private async commit(
    op: Deno.AtomicOperation,
    writes: Map<number, IndexedChunk<R> | null>,
    outcome?: RiderOutcome,
  ): Promise<boolean> {
    const { keys } = this.model;
    for (const [n, chunk] of writes) {
      if (chunk) {
        op.set(keys.chunk(n), chunk.bytes);
        op.set(keys.index(n), chunk.index);
        op.set(keys.stamp(n), chunk.records.length);
      } else {
        op.delete(keys.chunk(n));
        op.delete(keys.index(n));
        op.delete(keys.stamp(n));
      }
    }
    this.model.changes.mark(op);
    let result: Deno.KvCommitResult | Deno.KvCommitError;
    try {
      result = await op.commit();
    } catch (error) {
      outcome?.(null);
      if (error instanceof TypeError && /too large|too many/i.test(error.message)) {
        throw new InvalidInputError(`Request too large: send fewer or smaller ${this.model.layout.noun}`);
      }
      // A local KV file written by two processes at once: SQLite refused this transaction (rolled
      // back, nothing written) because the other one held the write lock. A lost race, retried.
      if (error instanceof TypeError && /database is locked/i.test(error.message)) return false;
      throw error;
    }
    outcome?.(result.ok ? result.versionstamp : null);
    if (!result.ok) return false;
    this.model.applyWrite(writes, result.versionstamp);
    return true;
  }
}
