/**
 * Chunked record storage in Deno KV with an in-memory read model: the storage behind a list that
 * must filter, search and count 100,000 records per request (docs/performance.md, Why it is fast). Record-type
 * agnostic; a domain supplies a `ChunkedLayout` (key prefix, listing fields, search text) and
 * its `Columns`, and keeps its filters.
 *
 * Storage. Records are stored packed, about 48 KB of them per chunk, each chunk beside an index
 * chunk (the listing fields and the token search index of the same records, `codec.ts`). A
 * process loads 100,000 records with one scan of ~1,700 index chunks instead of 100,000 entries,
 * and reads record chunks only for the pages it serves. Keys: `layout.ts` (`chunkedKeys`).
 *
 * Writes (`writer.ts`). Each write is one atomic operation that sets the chunks it changes
 * (records, index and stamp together), the id entries and the open pointer it moves, checked
 * against the versionstamps it read of exactly those (the chunk, the id entry, the open pointer,
 * the absence of a chunk it opens), and adds one to the change marker without checking it.
 * Why no write is lost: every value a write replaces was checked unchanged since it was read, so
 * two writes that touch a common chunk are ordered by KV and the later one fails its check and
 * retries on fresh data; writes to different chunks replace nothing of each other and need no
 * order. The marker is only incremented (a `sum`), never compared in a write, so it puts no
 * unrelated writes into one queue. Within a process, writes to one chunk take a lock and appends
 * one queue, so they wait instead of losing races to each other; races with other processes are
 * retried for up to 30 s (then `BusyError`, nothing written).
 *
 * Reads (`read_model.ts`, `sync.ts`). The writer applies each of its commits to its process's
 * read model. Every `SYNC_INTERVAL_MS` at most, a read compares the change marker with the
 * number of the process's own commits; if another process wrote, the stamp keys are listed and
 * the changed chunks re-read. Every commit bumps the marker, so each foreign write is seen by the
 * first sync after it: at most `SYNC_INTERVAL_MS` late.
 *
 * Archive (`archive.ts`). Records that leave the read model (closed or deleted listings; docs/decisions.md, Open and
 * closed listings) are stored beside it, each under its own key and their listing entries in blocks by creation time,
 * read from KV page by page. A write moves a record between the two in one commit (`ChunkWriter.take`, the `leave`
 * of `update`, an insert with a `Rider`); the read model then drops the record's slot.
 *
 * Two domains use it, each with its own layout and columns: `lib/internships/store.ts` (the internship list's
 * filter fields, owners and search text) and `lib/opportunities/store.ts` (type, review state and owner as columns,
 * and the count of records in each review state). A new domain follows either: a `ChunkedLayout`, a `Columns` class
 * that copies the fields its filters read, and `chunkedStore(layout, (slots) => new ItsColumns(slots))`.
 */
import type { Slots } from "./columns.ts";
import type { ChunkedLayout, ListingEntry } from "./layout.ts";
import { ChunkedReadModel, type Columns } from "./read_model.ts";
import { ChunkWriter } from "./writer.ts";
import { Archive } from "./archive.ts";

/** The read model, the writer and the archive (records that left the model) of one chunked store in one KV. */
export interface ChunkedStore<R extends { id: string }, E extends ListingEntry, C extends Columns<E>> {
  model: ChunkedReadModel<R, E, C>;
  writer: ChunkWriter<R, E, C>;
  archive: Archive<R, E, C>;
}

/**
 * The accessor of a chunked store: for a `Deno.Kv`, its store in this process, loaded on first
 * use (index chunks older than the layout's entries are then written anew, once) and synced with
 * other processes' writes on each call (at most every `SYNC_INTERVAL_MS`).
 */
export function chunkedStore<R extends { id: string }, E extends ListingEntry, C extends Columns<E>>(
  layout: ChunkedLayout<R, E>,
  columns: (slots: Slots) => C,
): (kv: Deno.Kv) => Promise<ChunkedStore<R, E, C>> {
  const stores = new WeakMap<Deno.Kv, Promise<ChunkedStore<R, E, C>>>();
  return async (kv) => {
    let loading = stores.get(kv);
    if (!loading) {
      const model = new ChunkedReadModel(kv, layout, columns);
      loading = model.load().then(async () => {
        const writer = new ChunkWriter(kv, model);
        await writer.upgradeIndexes();
        return { model, writer, archive: new Archive(kv, layout, model) };
      });
      loading.catch(() => stores.delete(kv));
      stores.set(kv, loading);
    }
    const store = await loading;
    await store.model.sync();
    return store;
  };
}
