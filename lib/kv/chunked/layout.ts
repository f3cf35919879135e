/**
 * What a domain tells the chunked store about its records (the store itself is record-type
 * agnostic; see `store.ts` for the design and a usage example), and the KV keys of one store.
 */

/**
 * The listing fields of a record as stored in its chunk's index: the id, the creation time in ms
 * (the read model keeps slots newest first by it, then by id descending), then whatever fields
 * the domain filters on (plain JSON values).
 */
export type ListingEntry = readonly [id: string, createdMs: number, ...fields: unknown[]];

/** A record type, its listing fields and its search text, under one key prefix. */
export interface ChunkedLayout<R extends { id: string }, E extends ListingEntry> {
  /** The key prefix, e.g. "internships": the store owns every key listed by `chunkedKeys`. */
  prefix: string;
  /** The plural noun used in error messages, e.g. "internships". */
  noun: string;
  /** The listing fields of `record`. */
  entry(record: R): E;
  /** The lower-case search text of `record`; whitespace separates tokens, `\0` must not occur. */
  searchText(record: R): string;
  /**
   * The id of the person who owns `record` (null: nobody), when the domain wants its archived records found by owner
   * (`Archive.ownedBy`; docs/decisions.md, Data rights, "Read by person").
   */
  owner?(record: R): string | null;
  /**
   * How many fields `entry` writes. A stored entry with fewer comes from an index chunk written before a field was
   * added; such chunks are written again from their records when the store loads.
   */
  fields?: number;
}

/** The keys of a chunked store under `prefix` (e.g. "internships"). */
export interface ChunkedKeys {
  /** `[prefix_chunks, n]` → UTF-8 JSON array of the records of chunk n. */
  chunk(n: number): Deno.KvKey;
  /** `[prefix_index, n]` → the encoded index of chunk n (`codec.ts`). */
  index(n: number): Deno.KvKey;
  /** `[prefix_chunk_stamps, n]` → record count of chunk n, written with it (its versionstamp is the chunk's). */
  stamp(n: number): Deno.KvKey;
  /** Prefix of every stamp key: listing it finds changed chunks. */
  stamps: Deno.KvKey;
  /** Prefix of every index key: listing it loads the read model. */
  indexes: Deno.KvKey;
  /** `[prefix, id]` → n, the chunk that holds the record. */
  id(id: string): Deno.KvKey;
  /** `[prefix_meta, "open"]` → the chunk new records go to. */
  open: Deno.KvKey;
  /** `[prefix_meta, "changes"]` → `Deno.KvU64` count of committed writes (the change marker). */
  changes: Deno.KvKey;
}

/** The keys of the chunked store under `prefix`. */
export function chunkedKeys(prefix: string): ChunkedKeys {
  return {
    chunk: (n) => [`${prefix}_chunks`, n],
    index: (n) => [`${prefix}_index`, n],
    stamp: (n) => [`${prefix}_chunk_stamps`, n],
    stamps: [`${prefix}_chunk_stamps`],
    indexes: [`${prefix}_index`],
    id: (id) => [prefix, id],
    open: [`${prefix}_meta`, "open"],
    changes: [`${prefix}_meta`, "changes"],
  };
}
