/**
 * Byte formats of a chunked store (see `store.ts`) and how records are cut into chunks:
 * - a record chunk is the UTF-8 JSON array of its records;
 * - an index chunk is UTF-8 of `JSON({entries, coded, m64, ends}) \0 token₀ \0 token₁ ...`: the
 *   listing entry of each record (`layout.entry`), the chunk's token search index
 *   (`token_index.ts`), and where each record's JSON ends in the record chunk's bytes, so that
 *   one record can be decoded without the rest (index chunks written before `ends` existed lack
 *   it; their record chunks are decoded whole). Fields holding strings or lists (an owner, a location, tags) are
 *   stored once per chunk in `coded` (field → distinct values) and as positions in it in the entries, and the token
 *   masks as base64 of their 32-bit words (`m64`): half the bytes a cold start reads. Chunks written before either
 *   (plain values, `masks` as JSON numbers) are read as they are.
 * Both stay within `CHUNK_MAX_BYTES`, under KV's value limit of 65,536 bytes.
 */
import type { ChunkedLayout, ListingEntry } from "./layout.ts";
import { buildTokenMasks, maskWidth } from "./token_index.ts";

/** Chunks are filled by creates up to this many bytes... */
export const CHUNK_FILL_BYTES = 48_000;
/** ...and may grow through updates up to this many (KV's value limit is 65,536). */
export const CHUNK_MAX_BYTES = 64_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A decoded index chunk: the listing entries and the token search index of the chunk's records. */
export interface ChunkIndex<E extends ListingEntry> {
  entries: E[];
  /** Byte offset in the record chunk where each record's JSON ends; undefined in an older index. */
  ends?: number[];
  /** The chunk's distinct search tokens. */
  tokens: string[];
  /** `width` mask words per token, token by token; bit i = record i of the chunk. */
  masks: ArrayLike<number>;
  width: number;
}

/** A chunk's records with their stored bytes and encoded index, as a write stores them. */
export interface IndexedChunk<R> {
  records: R[];
  bytes: Uint8Array;
  index: Uint8Array;
}

/**
 * The stored bytes of a record chunk (the same bytes as the UTF-8 of `JSON.stringify(records)`),
 * and the offset where each record's JSON ends in them.
 */
export function encodeRecords<R>(records: R[]): { bytes: Uint8Array; ends: number[] } {
  const parts = records.map((record) => encoder.encode(JSON.stringify(record)));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength + 1, 1) + (parts.length ? 0 : 1));
  const ends: number[] = [];
  let at = 0;
  bytes[at++] = 0x5b; // [
  parts.forEach((part, i) => {
    if (i > 0) bytes[at++] = 0x2c; // ,
    bytes.set(part, at);
    at += part.byteLength;
    ends.push(at);
  });
  bytes[at] = 0x5d; // ]
  return { bytes, ends };
}

/** The records of a stored record chunk; none for a missing one. */
export function decodeRecords<R>(value: Uint8Array | null): R[] {
  return value ? JSON.parse(decoder.decode(value)) : [];
}

/** Record `i` of a stored record chunk whose records end at `ends`, decoded alone. */
export function decodeRecord<R>(value: Uint8Array, ends: ArrayLike<number>, i: number): R {
  const start = i === 0 ? 1 : ends[i - 1] + 1;
  return JSON.parse(decoder.decode(value.subarray(start, ends[i])));
}

/** What `record` adds to its chunk's stored size, in bytes (its JSON and a comma). */
export function recordBytes<R>(record: R): number {
  return encoder.encode(JSON.stringify(record)).byteLength + 1;
}

/** The stored index of `records`, whose JSON ends at `ends` in their record chunk. */
export function encodeIndex<R extends { id: string }, E extends ListingEntry>(
  layout: ChunkedLayout<R, E>,
  records: R[],
  ends: number[],
): Uint8Array {
  const entries: unknown[][] = records.map((record) => [...layout.entry(record)]);
  const coded: Record<number, unknown[]> = {};
  const fields = entries.reduce((most, entry) => Math.max(most, entry.length), 0);
  for (let field = 2; field < fields; field++) {
    if (
      !entries.some((entry) => entry[field] !== null && entry[field] !== undefined && typeof entry[field] !== "number")
    ) {
      continue;
    }
    const codes = new Map<string, number>();
    const values: unknown[] = [];
    for (const entry of entries) {
      if (entry.length <= field) continue;
      const key = JSON.stringify(entry[field] ?? null);
      let code = codes.get(key);
      if (code === undefined) {
        codes.set(key, code = values.length);
        values.push(entry[field] ?? null);
      }
      entry[field] = code;
    }
    coded[field] = values;
  }
  const { tokens, masks } = buildTokenMasks(records.map((record) => layout.searchText(record)));
  const m64 = encodeWords(masks);
  return encoder.encode([JSON.stringify({ entries, coded, m64, ends }), ...tokens].join("\0"));
}

/** 32-bit words as base64 of their little-endian bytes. */
function encodeWords(words: number[]): string {
  const bytes = new Uint8Array(Int32Array.from(words).buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The 32-bit words of `encodeWords`. */
function decodeWords(base64: string): Int32Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Int32Array(bytes.buffer);
}

/** Reads an index chunk written by `encodeIndex` (or by its earlier forms). */
export function decodeIndex<E extends ListingEntry>(bytes: Uint8Array): ChunkIndex<E> {
  // The JSON part and the vocabulary are decoded apart: the search index keeps each new token,
  // and a slice of one decoded string would keep the whole of it (entries included) alive.
  const zero = bytes.indexOf(0);
  const cut = zero === -1 ? bytes.length : zero;
  const json = JSON.parse(decoder.decode(bytes.subarray(0, cut))) as {
    entries: E[];
    coded?: Record<string, unknown[]>;
    masks?: number[];
    m64?: string;
    ends?: number[];
  };
  if (json.coded) {
    for (const [field, values] of Object.entries(json.coded)) {
      const at = Number(field);
      for (const entry of json.entries as unknown as unknown[][]) {
        if (entry.length > at) entry[at] = values[entry[at] as number];
      }
    }
  }
  const masks = json.m64 !== undefined ? decodeWords(json.m64) : json.masks ?? [];
  const tokens = cut < bytes.length ? decoder.decode(bytes.subarray(cut + 1)).split("\0") : [];
  return { entries: json.entries, ends: json.ends, tokens, masks, width: maskWidth(json.entries.length) };
}

/** `records` with their encoded index. */
export function indexed<R extends { id: string }, E extends ListingEntry>(
  layout: ChunkedLayout<R, E>,
  records: R[],
): IndexedChunk<R> {
  const { bytes, ends } = encodeRecords(records);
  return { records, bytes, index: encodeIndex(layout, records, ends) };
}

/**
 * `records` (a chunk filled by size, whose first `kept` records are already stored in it) as one
 * or more chunks whose index stays within `CHUNK_MAX_BYTES`. A small record can carry a large
 * search vocabulary (each distinct word adds its text and mask words), so an index may outgrow
 * its records several times over. Usually one chunk and one encoding; otherwise each chunk takes
 * the longest prefix that fits (at least `kept` records, and at least one), found by bisection.
 */
export function splitByIndex<R extends { id: string }, E extends ListingEntry>(
  layout: ChunkedLayout<R, E>,
  records: R[],
  kept: number,
): IndexedChunk<R>[] {
  const out: IndexedChunk<R>[] = [];
  let rest = records;
  for (let minimum = Math.max(kept, 1);; minimum = 1) {
    const { bytes, ends } = encodeRecords(rest);
    const whole = { records: rest, bytes, index: encodeIndex(layout, rest, ends) };
    if (whole.index.byteLength <= CHUNK_MAX_BYTES || rest.length <= minimum) return [...out, whole];
    let lo = minimum, hi = rest.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      // A prefix's records are encoded as in the whole, so its ends are the first of the whole's.
      if (encodeIndex(layout, rest.slice(0, mid), ends.slice(0, mid)).byteLength <= CHUNK_MAX_BYTES) lo = mid;
      else hi = mid - 1;
    }
    out.push(indexed(layout, rest.slice(0, lo)));
    rest = rest.slice(lo);
  }
}
