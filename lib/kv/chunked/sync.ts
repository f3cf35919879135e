/**
 * How a read model learns of other processes' writes to a chunked store (see `store.ts`).
 *
 * Every write adds one to the change marker, a `Deno.KvU64` counter (`keys.changes`), with a
 * `sum` mutation: set, never checked, so writes to different chunks do not conflict on it (KV
 * applies sums atomically; FoundationDB-backed KV adds no conflict range for them). A poll reads
 * the counter: if it grew by exactly the number of this process's own commits since the last poll
 * (own commits are applied to the model by the writer, and only commits ordered no later than the
 * counter's versionstamp are counted), no other process wrote and nothing is read; otherwise the
 * stamp keys are listed and the chunks whose versionstamps differ from the model's are re-read.
 * Every commit bumps the counter, so a foreign commit always makes the two numbers differ.
 */
import type { ChunkedKeys } from "./layout.ts";

/** Stamp keys read per round trip (KV's most): 1,800 chunks of 100,000 listings are 4 round trips. */
const STAMPS_BATCH = 500;

/** The change marker as read: the write count and the versionstamp of the last write. */
export interface Marker {
  count: bigint;
  versionstamp: string | null;
}

/** Follows the change marker of one chunked store for one read model. */
export class ChangeTracker {
  private seen: Marker = { count: 0n, versionstamp: null };
  /** Versionstamps of this process's applied commits ordered after `seen`. */
  private own: string[] = [];

  constructor(private readonly kv: Deno.Kv, private readonly keys: ChunkedKeys) {}

  /** Adds the marker's increment to a write. */
  mark(op: Deno.AtomicOperation): void {
    op.sum(this.keys.changes, 1n);
  }

  /** Reads the marker now. */
  async read(): Promise<Marker> {
    const entry = await this.kv.get<Deno.KvU64>(this.keys.changes);
    return { count: entry.value?.value ?? 0n, versionstamp: entry.versionstamp };
  }

  /** Notes a commit of this process (already applied to the model) by its versionstamp. */
  recordOwn(versionstamp: string): void {
    if (versionstamp > (this.seen.versionstamp ?? "")) this.own.push(versionstamp);
  }

  /** Whether any commit up to `marker` was made by another process (or is not applied yet). */
  hasForeign(marker: Marker): boolean {
    const upTo = marker.versionstamp ?? "";
    const own = this.own.filter((stamp) => stamp <= upTo).length;
    return marker.count - this.seen.count !== BigInt(own);
  }

  /** The model is in step with `marker` (after `hasForeign` said no, or after re-reading changed chunks). */
  advance(marker: Marker): void {
    const upTo = marker.versionstamp ?? "";
    this.own = this.own.filter((stamp) => stamp > upTo);
    this.seen = marker;
  }

  /**
   * The chunks whose stamp versionstamp differs from `known` (chunk → versionstamp the model holds), and those of
   * `known` that are gone (deleted once their last record left).
   */
  async changedChunks(known: ReadonlyMap<number, string>): Promise<{ changed: number[]; gone: number[] }> {
    const changed: number[] = [];
    const listed = new Set<number>();
    for await (const entry of this.kv.list({ prefix: this.keys.stamps }, { batchSize: STAMPS_BATCH })) {
      const n = entry.key[entry.key.length - 1] as number;
      listed.add(n);
      if (known.get(n) !== entry.versionstamp) changed.push(n);
    }
    return { changed, gone: [...known.keys()].filter((n) => !listed.has(n)) };
  }
}
