/**
 * The Deno KV object store (docs/decisions.md, Ungatekeep and banners): a file is split into chunks under KV's 64 KiB value
 * limit, written a few chunks per atomic commit (under the 800 KiB commit limit), and its
 * metadata record is written last, in the commit that also drops the upload's pending marker.
 * So a file whose upload was interrupted has no metadata and is never served; its chunks stay
 * listed under the pending marker until `sweepOrphans` removes them (each `put` sweeps markers
 * older than `orphanAgeMs` first).
 *
 * Keys (owned here only): `["files", id]` metadata, `["file_chunks", id, n]` the n-th chunk,
 * `["file_pending", id]` `{startedAt}` while an upload or a delete is under way.
 */
import { createHash } from "node:crypto";
import type { FileMetadata, ObjectStore, StoredObject } from "./object_store.ts";

/** Bytes per chunk: below KV's 64 KiB value limit. */
export const CHUNK_BYTES = 60_000;
/** Chunks per atomic commit: 8 × 60 KB stays under KV's 800 KiB commit limit. */
const CHUNKS_PER_COMMIT = 8;
/** A pending upload older than this (default one hour) counts as interrupted. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

const metaKey = (id: string): Deno.KvKey => ["files", id];
const chunkPrefix = (id: string): Deno.KvKey => ["file_chunks", id];
const pendingKey = (id: string): Deno.KvKey => ["file_pending", id];

interface Pending {
  startedAt: string;
}

async function* rechunk(data: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    for (let at = 0; at < data.length; at += CHUNK_BYTES) yield data.subarray(at, at + CHUNK_BYTES);
    return;
  }
  let buffer = new Uint8Array(CHUNK_BYTES);
  let filled = 0;
  for await (const piece of data) {
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(CHUNK_BYTES - filled, piece.length - at);
      buffer.set(piece.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled === CHUNK_BYTES) {
        yield buffer;
        buffer = new Uint8Array(CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.subarray(0, filled);
}

/** The object store over a `Deno.Kv`; see the module docstring. */
export class KvObjectStore implements ObjectStore {
  constructor(private readonly kv: Deno.Kv, private readonly orphanAgeMs = ORPHAN_AGE_MS) {}

  /** Stores the bytes in chunks, then the metadata. On failure the chunks written so far are removed. */
  async put(data: Uint8Array | ReadableStream<Uint8Array>, contentType: string): Promise<FileMetadata> {
    await this.sweepOrphans(new Date(Date.now() - this.orphanAgeMs));
    const id = crypto.randomUUID();
    const createdAt = new Date().toISOString();
    await this.kv.set(pendingKey(id), { startedAt: createdAt } satisfies Pending);
    const hash = createHash("sha256");
    let size = 0;
    let index = 0;
    try {
      let commit = this.kv.atomic();
      let inCommit = 0;
      for await (const chunk of rechunk(data)) {
        hash.update(chunk);
        size += chunk.length;
        commit.set([...chunkPrefix(id), index++], chunk);
        if (++inCommit === CHUNKS_PER_COMMIT) {
          await commit.commit();
          commit = this.kv.atomic();
          inCommit = 0;
        }
      }
      if (inCommit > 0) await commit.commit();
      const metadata: FileMetadata = { id, contentType, size, etag: `"${hash.digest("hex")}"`, createdAt };
      await this.kv.atomic().check({ key: metaKey(id), versionstamp: null }).set(metaKey(id), metadata)
        .delete(pendingKey(id)).commit();
      return metadata;
    } catch (error) {
      await this.removeChunks(id);
      await this.kv.delete(pendingKey(id));
      throw error;
    }
  }

  /** The metadata, then the chunks in order as a stream (a few chunks read at a time). */
  async get(id: string): Promise<StoredObject | null> {
    const metadata = await this.metadata(id);
    if (!metadata) return null;
    const entries = this.kv.list<Uint8Array>({ prefix: chunkPrefix(id) }, { batchSize: CHUNKS_PER_COMMIT });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await entries.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value.value);
      },
    });
    return { metadata, body };
  }

  async metadata(id: string): Promise<FileMetadata | null> {
    return (await this.kv.get<FileMetadata>(metaKey(id))).value;
  }

  /**
   * Drops the metadata first (with a pending marker, so an interrupted delete is swept later),
   * then the chunks, then the marker.
   */
  async delete(id: string): Promise<void> {
    await this.kv.atomic().delete(metaKey(id)).set(pendingKey(id), { startedAt: new Date(0).toISOString() })
      .commit();
    await this.removeChunks(id);
    await this.kv.delete(pendingKey(id));
  }

  /**
   * Removes the chunks of uploads (or deletes) that started before `before` and never finished.
   * Returns how many such files were removed.
   */
  async sweepOrphans(before: Date): Promise<number> {
    let removed = 0;
    for await (const entry of this.kv.list<Pending>({ prefix: ["file_pending"] })) {
      if (entry.value.startedAt >= before.toISOString()) continue;
      const id = entry.key[1] as string;
      if (await this.metadata(id)) continue;
      await this.removeChunks(id);
      await this.kv.atomic().check(entry).delete(entry.key).commit();
      removed++;
    }
    return removed;
  }

  /** Ids of the uploads and deletes under way, or interrupted and not yet swept (for operations and tests). */
  async pendingIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const entry of this.kv.list({ prefix: ["file_pending"] })) ids.push(entry.key[1] as string);
    return ids;
  }

  /** How many chunks are stored under `id` (for operations and tests). */
  async chunkCount(id: string): Promise<number> {
    let count = 0;
    for await (const _ of this.kv.list({ prefix: chunkPrefix(id) }, { batchSize: CHUNKS_PER_COMMIT })) count++;
    return count;
  }

  private async removeChunks(id: string): Promise<void> {
    const keys: Deno.KvKey[] = [];
    for await (const entry of this.kv.list({ prefix: chunkPrefix(id) }, { batchSize: CHUNKS_PER_COMMIT })) {
      keys.push(entry.key);
    }
    for (let at = 0; at < keys.length; at += 100) {
      const commit = this.kv.atomic();
      for (const key of keys.slice(at, at + 100)) commit.delete(key);
      await commit.commit();
    }
  }
}
