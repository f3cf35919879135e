/**
 * The byte format of an archive block (docs/decisions.md, Open and closed listings, "Where listings live"; the store
 * is `archive.ts`): the listing entries of up to `BLOCK_MAX_ENTRIES` archived records, newest first, column by column,
 * with the block's search index, in at most `BLOCK_MAX_BYTES`. Record-type agnostic: a column's encoding is chosen
 * per block from its values (small integers as bytes, other integers as int32, other numbers as float64, anything
 * else as codes into the block's own dictionary of distinct JSON values), so a field a domain adds to its entries is
 * stored without a change here.
 *
 * Layout: a u32 format version, the u32 length of a JSON header, the header (count, the block's key range, where each
 * section is and how it is encoded, the dictionaries), then 8-byte aligned sections: columns, the ids (UTF-8 with
 * end offsets), the vocabulary (distinct tokens, each led by `\0`) and the postings (per token, the positions of the
 * entries that hold it: a u16 list, or a bitmap when that is smaller). `ArchiveBlock` reads a block in place (typed
 * arrays over the stored bytes); `kept()` moves the sections a read uses together without the header's bytes and packs
 * UUID ids into 16 bytes each, so a block a cache holds costs about two thirds of its stored size.
 */
import type { ListingEntry } from "./layout.ts";

/** At most this many entries in a block (positions are u16). */
export const BLOCK_MAX_ENTRIES = 1024;
/** At most this many bytes in a block (KV's value limit is 65,536). */
export const BLOCK_MAX_BYTES = 60_000;

/** Where an entry sorts in list order: its creation time in ms, then its id (newest first = both descending). */
export type BlockKey = readonly [createdMs: number, id: string];

/** The lowest key: the lower bound of the first block. */
export const MIN_KEY: BlockKey = [0, ""];

/** Compares two keys ascending (oldest first). */
export function compareKeys(a: BlockKey, b: BlockKey): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** The key of an entry. */
export function keyOf(entry: ListingEntry): BlockKey {
  return [entry[1], entry[0]];
}

/**
 * A block as a write handles it: its key range `[lo, hi)` (hi null: no upper bound), its entries newest first and
 * each entry's distinct search tokens.
 */
export interface BlockContent<E extends ListingEntry> {
  lo: BlockKey;
  hi: BlockKey | null;
  entries: E[];
  tokens: string[][];
}

const VERSION = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

type ColumnKind = "u8" | "i32" | "f64" | "d8" | "d16";
/** A column in the header: its kind, its byte offset, and for a dictionary its distinct values. */
type ColumnHeader = [kind: ColumnKind, offset: number, dictionary?: unknown[]];

interface Header {
  n: number;
  lo: BlockKey;
  hi: BlockKey | null;
  /** Columns of entry fields 1, 2, ... (field 0, the id, is in `ids`). */
  f: ColumnHeader[];
  /** Offsets of the id bytes and of their u32 end offsets. */
  ids: [bytes: number, ends: number];
  /** Token count, vocabulary offset and byte length, then the offsets of the u32 posting starts, kinds and postings. */
  t: [count: number, vocabulary: number, length: number, starts: number, kinds: number, postings: number];
}

const U8_NULL = 255;
const I32_NULL = -2147483648;
/**
 * `mask`'s verdict per distinct value of a coded or byte column (-1: not tested yet), shared by every block: a mask is
 * synchronous, and one table instead of one per call keeps a scan from leaving a 256-byte or 64 KiB buffer per block
 * and field behind for the garbage collector.
 */
const verdicts = new Int8Array(65536);

/**
 * Sets `marks[i]` to the verdict on `codes[i]` for the first `n` codes, testing each distinct code once (`verdicts`
 * holds -1 for the codes not tested yet); returns 1 when any passed. One function per array type keeps each loop's
 * element access of one kind.
 */
function markBytes(codes: Uint8Array, n: number, marks: Uint8Array, verdict: (code: number) => number): number {
  let any = 0;
  for (let i = 0; i < n; i++) {
    const code = codes[i];
    let pass = verdicts[code];
    if (pass === -1) pass = verdicts[code] = verdict(code);
    marks[i] = pass;
    any |= pass;
  }
  return any;
}

/** `markBytes` over 16-bit codes. */
function markShorts(codes: Uint16Array, n: number, marks: Uint8Array, verdict: (code: number) => number): number {
  let any = 0;
  for (let i = 0; i < n; i++) {
    const code = codes[i];
    let pass = verdicts[code];
    if (pass === -1) pass = verdicts[code] = verdict(code);
    marks[i] = pass;
    any |= pass;
  }
  return any;
}

/**
 * Keeps the positions of `selected` (the first `count`) whose value passes `matches`, testing each distinct code once
 * (`verdicts` holds -1 for the codes not tested yet): a code's value is `dictionary[code]`, or without a dictionary the
 * byte itself (`U8_NULL`: null). Returns how many are kept. One function per array type, as `markBytes`; no closure
 * per call (a scan narrows some 1,800 blocks a field).
 */
function narrowBytes(
  codes: Uint8Array,
  selected: Uint16Array,
  count: number,
  matches: (value: unknown) => boolean,
  dictionary: readonly unknown[] | null,
) {
  let kept = 0;
  for (let j = 0; j < count; j++) {
    const p = selected[j], code = codes[p];
    let pass = verdicts[code];
    if (pass === -1) {
      pass = verdicts[code] = matches(dictionary ? dictionary[code] : code === U8_NULL ? null : code) ? 1 : 0;
    }
    if (pass) selected[kept++] = p;
  }
  return kept;
}

/** `narrowBytes` over 16-bit codes (always with a dictionary). */
function narrowShorts(
  codes: Uint16Array,
  selected: Uint16Array,
  count: number,
  matches: (value: unknown) => boolean,
  dictionary: readonly unknown[],
) {
  let kept = 0;
  for (let j = 0; j < count; j++) {
    const p = selected[j], code = codes[p];
    let pass = verdicts[code];
    if (pass === -1) pass = verdicts[code] = matches(dictionary[code]) ? 1 : 0;
    if (pass) selected[kept++] = p;
  }
  return kept;
}

/** The distinct, non-empty whitespace-separated tokens of a lower-case search text. */
export function tokensOf(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter(Boolean))];
}

/** The kind that stores `values` (one per entry; null for none) most compactly. */
function kindOf(values: unknown[]): ColumnKind {
  let integers = true, small = true, numbers = true;
  for (const value of values) {
    if (value === null) continue;
    if (typeof value !== "number") {
      numbers = false;
      break;
    }
    if (!Number.isInteger(value)) integers = small = false;
    else if (value < 0 || value >= U8_NULL) small = false;
    if (integers && (value <= I32_NULL || value > 2147483647)) integers = false;
  }
  if (!numbers) return values.length > 0 && new Set(values.map((v) => JSON.stringify(v))).size > 256 ? "d16" : "d8";
  return small ? "u8" : integers ? "i32" : "f64";
}

/** Bytes of one value of `kind`. */
const WIDTH: Record<ColumnKind, number> = { u8: 1, i32: 4, f64: 8, d8: 1, d16: 2 };

const align = (n: number, to: number) => Math.ceil(n / to) * to;

/**
 * The stored bytes of `content`.
 * @throws Error when it holds more than `BLOCK_MAX_ENTRIES` entries (a caller splits first).
 */
export function encodeBlock<E extends ListingEntry>(content: BlockContent<E>): Uint8Array {
  const { entries, tokens } = content;
  const n = entries.length;
  if (n > BLOCK_MAX_ENTRIES) throw new Error(`An archive block holds at most ${BLOCK_MAX_ENTRIES} entries`);
  const fields = entries.reduce((most, entry) => Math.max(most, entry.length), 2);
  // Sections: columns (widest first keeps each aligned), ids, vocabulary, postings.
  const columns: { field: number; kind: ColumnKind; values: unknown[]; dictionary?: unknown[] }[] = [];
  for (let field = 1; field < fields; field++) {
    const values = entries.map((entry) => entry[field] ?? null);
    const kind = field === 1 ? "f64" : kindOf(values);
    columns.push({ field, kind, values });
  }
  const vocabulary = new Map<string, number[]>();
  tokens.forEach((list, position) => {
    for (const token of list) {
      let positions = vocabulary.get(token);
      if (!positions) vocabulary.set(token, positions = []);
      positions.push(position);
    }
  });
  const words = [...vocabulary.keys()];
  const vocabularyBytes = encoder.encode(words.map((word) => "\0" + word).join(""));
  const bitmapBytes = align(Math.ceil(n / 8), 2);
  const postings = words.map((word) => {
    const positions = vocabulary.get(word)!;
    return positions.length * 2 > bitmapBytes ? { bitmap: true, positions } : { bitmap: false, positions };
  });
  const idBytes = entries.map((entry) => encoder.encode(entry[0]));

  // Offsets relative to the start of the sections.
  let at = 0;
  const place = (bytes: number, alignment: number) => {
    at = align(at, alignment);
    const start = at;
    at += bytes;
    return start;
  };
  const order = [...columns].sort((a, b) => WIDTH[b.kind] - WIDTH[a.kind]);
  const columnOffsets = new Map<number, number>();
  for (const column of order) columnOffsets.set(column.field, place(WIDTH[column.kind] * n, WIDTH[column.kind]));
  const idEnds = place(4 * n, 4);
  const starts = place(4 * (words.length + 1), 4);
  const idStart = place(idBytes.reduce((sum, bytes) => sum + bytes.byteLength, 0), 1);
  const vocabularyStart = place(vocabularyBytes.byteLength, 1);
  const kinds = place(words.length, 1);
  const postingSizes = postings.map((p) => p.bitmap ? bitmapBytes : p.positions.length * 2);
  const postingStart = place(postingSizes.reduce((sum, size) => sum + size, 0), 2);
  const sectionBytes = at;

  const header: Header = {
    n,
    lo: content.lo,
    hi: content.hi,
    f: columns.map((column) => {
      const entry: ColumnHeader = [column.kind, columnOffsets.get(column.field)!];
      if (column.kind === "d8" || column.kind === "d16") {
        const distinct = new Map<string, unknown>();
        for (const value of column.values) distinct.set(JSON.stringify(value), value);
        column.dictionary = [...distinct.values()];
        entry.push(column.dictionary);
      }
      return entry;
    }),
    ids: [idStart, idEnds],
    t: [words.length, vocabularyStart, vocabularyBytes.byteLength, starts, kinds, postingStart],
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const base = align(8 + headerBytes.byteLength, 8);
  const bytes = new Uint8Array(base + sectionBytes);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, VERSION, true);
  view.setUint32(4, headerBytes.byteLength, true);
  bytes.set(headerBytes, 8);

  for (const column of columns) {
    const offset = base + columnOffsets.get(column.field)!;
    const { kind, values } = column;
    if (kind === "f64") {
      const out = new Float64Array(bytes.buffer, offset, n);
      values.forEach((v, i) => out[i] = v === null ? NaN : v as number);
    } else if (kind === "i32") {
      const out = new Int32Array(bytes.buffer, offset, n);
      values.forEach((v, i) => out[i] = v === null ? I32_NULL : v as number);
    } else if (kind === "u8") {
      const out = new Uint8Array(bytes.buffer, offset, n);
      values.forEach((v, i) => out[i] = v === null ? U8_NULL : v as number);
    } else {
      const codes = new Map(column.dictionary!.map((value, code) => [JSON.stringify(value), code]));
      const out = kind === "d8" ? new Uint8Array(bytes.buffer, offset, n) : new Uint16Array(bytes.buffer, offset, n);
      values.forEach((v, i) => out[i] = codes.get(JSON.stringify(v))!);
    }
  }
  const ends = new Uint32Array(bytes.buffer, base + idEnds, n);
  let idAt = base + idStart;
  idBytes.forEach((id, i) => {
    bytes.set(id, idAt);
    idAt += id.byteLength;
    ends[i] = idAt - base - idStart;
  });
  bytes.set(vocabularyBytes, base + vocabularyStart);
  const startOffsets = new Uint32Array(bytes.buffer, base + starts, words.length + 1);
  let postingAt = 0;
  postings.forEach((posting, t) => {
    startOffsets[t] = postingAt;
    bytes[base + kinds + t] = posting.bitmap ? 1 : 0;
    const offset = base + postingStart + postingAt;
    if (posting.bitmap) { for (const p of posting.positions) bytes[offset + (p >> 3)] |= 1 << (p & 7); }
    else new Uint16Array(bytes.buffer, offset, posting.positions.length).set(posting.positions);
    postingAt += postingSizes[t];
  });
  startOffsets[words.length] = postingAt;
  return bytes;
}

/** The bytes of a canonical lower-case UUID's 36 characters: hex digits, with `-` at 8, 13, 18 and 23. */
const DASHES = new Set([8, 13, 18, 23]);
/** Two lower-case hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** The value of the lower-case hex digit with char code `c`, or -1. */
function hexDigit(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
}

/**
 * The ids of `n` entries (UTF-8 `bytes`, entry i ending at `ends[i]`) as 16 bytes each, or null when any is not a
 * canonical lower-case UUID (such ids are kept as they are stored).
 */
function packUuids(bytes: Uint8Array, ends: Uint32Array, n: number): Uint8Array | null {
  const packed = new Uint8Array(16 * n);
  for (let i = 0, start = 0; i < n; start = ends[i++]) {
    if (ends[i] - start !== 36) return null;
    let out = 16 * i;
    for (let k = 0; k < 36; k++) {
      if (DASHES.has(k)) {
        if (bytes[start + k] !== 45) return null;
        continue;
      }
      const high = hexDigit(bytes[start + k]), low = hexDigit(bytes[start + k + 1]);
      if (high < 0 || low < 0) return null;
      packed[out++] = (high << 4) | low;
      k++;
    }
  }
  return packed;
}

/** A stored block, read in place; `kept()` gives the smaller form a cache holds. */
export class ArchiveBlock<E extends ListingEntry = ListingEntry> {
  readonly count: number;
  readonly lo: BlockKey;
  readonly hi: BlockKey | null;
  /** The bytes the block holds in memory (its stored size, or less once `kept()`). */
  readonly size: number;
  /** Creation times in ms, newest first. */
  readonly created: Float64Array;
  private readonly bytes: Uint8Array;
  private readonly base: number;
  private readonly header: Header;
  private readonly columns: (Uint8Array | Uint16Array | Int32Array | Float64Array)[] = [];
  /** The ids as stored (UTF-8, with each entry's end), or as 16 bytes each (`packed`) once `kept()`. */
  private readonly idBytes: Uint8Array | null;
  private readonly idEnds: Uint32Array | null;
  private readonly packed: Uint8Array | null;
  private vocabulary: string | undefined;
  private tokenStarts: Int32Array | undefined;
  private postingStarts: Uint32Array | undefined;

  /**
   * The block of `stored` bytes; or, from `kept()`, its sections as `header` places them in `stored` without a stored
   * header, and the ids packed from `header.ids[0]`.
   */
  constructor(stored: Uint8Array, kept?: Header) {
    // Typed arrays need their element alignment within the buffer.
    const bytes = stored.byteOffset % 8 === 0 ? stored : stored.slice();
    if (kept) {
      this.header = kept;
      this.bytes = bytes;
      this.base = bytes.byteOffset;
      this.size = bytes.byteLength;
      this.packed = new Uint8Array(bytes.buffer, bytes.byteOffset + kept.ids[0], 16 * kept.n);
    } else {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (view.getUint32(0, true) !== VERSION) throw new Error("Unknown archive block format");
      const length = view.getUint32(4, true);
      this.header = JSON.parse(decoder.decode(bytes.subarray(8, 8 + length)));
      this.bytes = bytes;
      this.base = bytes.byteOffset + align(8 + length, 8);
      this.size = bytes.byteLength;
      this.packed = null;
    }
    const { n } = this.header;
    this.count = n;
    this.lo = this.header.lo;
    this.hi = this.header.hi;
    for (const [kind, offset] of this.header.f) {
      const at = this.base + offset;
      this.columns.push(
        kind === "f64"
          ? new Float64Array(bytes.buffer, at, n)
          : kind === "i32"
          ? new Int32Array(bytes.buffer, at, n)
          : kind === "d16"
          ? new Uint16Array(bytes.buffer, at, n)
          : new Uint8Array(bytes.buffer, at, n),
      );
    }
    this.created = this.columns[0] as Float64Array;
    if (this.packed) {
      this.idBytes = this.idEnds = null;
    } else {
      this.idEnds = new Uint32Array(bytes.buffer, this.base + this.header.ids[1], n);
      const start = this.base + this.header.ids[0];
      this.idBytes = new Uint8Array(bytes.buffer, start, n === 0 ? 0 : this.idEnds[n - 1]);
    }
  }

  /**
   * This block as a cache keeps it: the sections a read uses without the header's bytes, and the ids, when all are
   * canonical lower-case UUIDs, as 16 bytes each instead of 36 and an end offset (itself when they are not, or when
   * already kept). At 1,000,000 listings the ids were 36 of the 87.5 MB of blocks held. When the block owns its whole
   * buffer (as a value read from KV does), the sections move down within it and the buffer is cut to the new length
   * (`ArrayBuffer.prototype.transfer`, which gives the rest back to the allocator: a copy would leave the stored
   * buffer's memory behind as a hole); this block must not be used afterwards.
   */
  kept(): ArchiveBlock<E> {
    if (this.packed || !this.idBytes || !this.idEnds) return this;
    const packed = packUuids(this.idBytes, this.idEnds, this.count);
    if (!packed) return this;
    const { n, f, t } = this.header;
    const [words, vocabulary, vocabularyLength, starts, kinds, postings] = t;
    const postingLength = new Uint32Array(this.bytes.buffer, this.base + starts, words + 1)[words];
    // The sections in stored order, each moved to a multiple of 8 (every element kind stays aligned): never later
    // than where it was, so moving them in order overwrites nothing not yet moved.
    const sections: [from: number, length: number][] = [
      ...f.map(([kind, offset]): [number, number] => [offset, WIDTH[kind] * n]),
      [starts, 4 * (words + 1)],
      [kinds, words],
      [vocabulary, vocabularyLength],
      [postings, postingLength],
    ].sort((a, b) => a[0] - b[0]) as [number, number][];
    const moved = new Map<number, number>();
    let at = 0;
    for (const [from, length] of sections) {
      moved.set(from, at);
      at = align(at + length, 8);
    }
    const packedAt = at, total = at + packed.byteLength;
    const start = this.base - this.bytes.byteOffset;
    const owned = this.bytes.byteOffset === 0 && this.bytes.byteLength === this.bytes.buffer.byteLength &&
      this.bytes.buffer instanceof ArrayBuffer && !this.bytes.buffer.resizable && total <= this.bytes.byteLength &&
      sections.every(([from]) => moved.get(from)! <= start + from);
    let out: Uint8Array;
    if (owned) {
      for (const [from, length] of sections) {
        this.bytes.copyWithin(moved.get(from)!, start + from, start + from + length);
      }
      out = new Uint8Array((this.bytes.buffer as ArrayBuffer).transfer(total));
    } else {
      out = new Uint8Array(total);
      for (const [from, length] of sections) {
        out.set(this.bytes.subarray(start + from, start + from + length), moved.get(from)!);
      }
    }
    out.set(packed, packedAt);
    const header: Header = {
      ...this.header,
      f: f.map(([kind, offset, dictionary]) =>
        dictionary ? [kind, moved.get(offset)!, dictionary] : [kind, moved.get(offset)!]
      ),
      ids: [packedAt, -1],
      t: [words, moved.get(vocabulary)!, vocabularyLength, moved.get(starts)!, moved.get(kinds)!, moved.get(postings)!],
    };
    return new ArchiveBlock<E>(out, header);
  }

  /** How many fields the entries have (the id and creation time included). */
  get fields(): number {
    return this.header.f.length + 1;
  }

  /** The id of entry `i`. */
  id(i: number): string {
    const packed = this.packed;
    if (packed) {
      const h = (k: number) => HEX[packed[16 * i + k]];
      return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-` +
        `${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
    }
    const ends = this.idEnds!;
    return decoder.decode(this.idBytes!.subarray(i === 0 ? 0 : ends[i - 1], ends[i]));
  }

  /** The key of entry `i`. */
  key(i: number): BlockKey {
    return [this.created[i], this.id(i)];
  }

  /** Whether field `field` is stored as dictionary codes (`code`, `dictionary`) rather than numbers (`number`). */
  isCoded(field: number): boolean {
    const kind = this.header.f[field - 1]?.[0];
    return kind === "d8" || kind === "d16";
  }

  /** Field `field` (a numeric column) of entry `i`; NaN for none. */
  number(field: number, i: number): number {
    const column = this.columns[field - 1];
    if (!column) return NaN;
    const value = column[i];
    const kind = this.header.f[field - 1][0];
    return kind === "u8"
      ? (value === U8_NULL ? NaN : value)
      : kind === "i32"
      ? (value === I32_NULL ? NaN : value)
      : value;
  }

  /** The dictionary code of field `field` (a coded column) of entry `i`. */
  code(field: number, i: number): number {
    return this.columns[field - 1][i];
  }

  /** The distinct values of field `field` (a coded column), by code. */
  dictionary(field: number): readonly unknown[] {
    return this.header.f[field - 1]?.[2] ?? [];
  }

  /** Field `field` of entry `i` as the entry held it (null for none). */
  value(field: number, i: number): unknown {
    if (field === 0) return this.id(i);
    if (field - 1 >= this.columns.length) return null;
    if (this.isCoded(field)) return this.dictionary(field)[this.code(field, i)];
    const value = this.number(field, i);
    return Number.isNaN(value) ? null : value;
  }

  /**
   * Keeps, of the first `count` entry positions in `selected` (in order), those whose field `field` passes `matches`
   * (given the value as the entry held it, null for none), moved to the front in the same order; returns how many.
   * A coded field's distinct values, and a byte column's values, are each tested once; other numbers once per
   * position. A filter narrows a block's positions field by field, so each field costs the positions still left.
   */
  narrow(field: number, matches: (value: unknown) => boolean, selected: Uint16Array, count: number): number {
    const column = this.columns[field - 1];
    if (!column) return matches(null) ? count : 0;
    const kind = this.header.f[field - 1][0];
    if (kind === "d8" || kind === "d16" || kind === "u8") {
      const dictionary = kind === "u8" ? null : this.dictionary(field);
      verdicts.fill(-1, 0, dictionary ? dictionary.length : 256);
      return kind === "d16"
        ? narrowShorts(column as Uint16Array, selected, count, matches, dictionary!)
        : narrowBytes(column as Uint8Array, selected, count, matches, dictionary);
    }
    let kept = 0;
    if (kind === "i32") {
      const ints = column as Int32Array;
      for (let j = 0; j < count; j++) {
        const p = selected[j], value = ints[p];
        if (matches(value === I32_NULL ? null : value)) selected[kept++] = p;
      }
    } else {
      const floats = column as Float64Array;
      for (let j = 0; j < count; j++) {
        const p = selected[j], value = floats[p];
        if (matches(Number.isNaN(value) ? null : value)) selected[kept++] = p;
      }
    }
    return kept;
  }

  /**
   * `narrow` for a numeric field and the rule "present and within `[min, max]`", without a call per position.
   * A coded field is narrowed by `narrow` with that rule.
   */
  narrowRange(field: number, min: number, max: number, selected: Uint16Array, count: number): number {
    const column = this.columns[field - 1];
    const kind = this.header.f[field - 1]?.[0];
    if (!column || (kind !== "i32" && kind !== "f64" && kind !== "u8")) {
      return this.narrow(field, (v) => typeof v === "number" && v >= min && v <= max, selected, count);
    }
    let kept = 0;
    if (kind === "i32") {
      const ints = column as Int32Array;
      for (let j = 0; j < count; j++) {
        const p = selected[j], value = ints[p];
        if (value !== I32_NULL && value >= min && value <= max) selected[kept++] = p;
      }
    } else if (kind === "u8") {
      const bytes = column as Uint8Array;
      for (let j = 0; j < count; j++) {
        const p = selected[j], value = bytes[p];
        if (value !== U8_NULL && value >= min && value <= max) selected[kept++] = p;
      }
    } else {
      const floats = column as Float64Array;
      // NaN (none) fails both comparisons.
      for (let j = 0; j < count; j++) {
        const p = selected[j], value = floats[p];
        if (value >= min && value <= max) selected[kept++] = p;
      }
    }
    return kept;
  }

  /**
   * Marks, by entry position, the entries whose field `field` passes `matches` (given the value as the entry held it,
   * null for none), or null when none does. A coded field's distinct values, and a byte column's values, are each
   * tested once; other numbers once per entry. The marks are written to `into` (at least `count` long; a new array
   * without it), which the caller may change.
   */
  mask(field: number, matches: (value: unknown) => boolean, into?: Uint8Array): Uint8Array | null {
    const n = this.count, marks = into ? into.subarray(0, n) : new Uint8Array(n);
    const column = this.columns[field - 1];
    let any = 0;
    if (!column) {
      if (!matches(null)) return null;
      return marks.fill(1);
    }
    const kind = this.header.f[field - 1][0];
    if (kind === "d8" || kind === "d16" || kind === "u8") {
      // Each distinct value (a code, or a byte) tested once, when first met.
      const dictionary = kind === "u8" ? null : this.dictionary(field);
      const verdict = (code: number) => matches(dictionary ? dictionary[code] : code === U8_NULL ? null : code) ? 1 : 0;
      verdicts.fill(-1, 0, dictionary ? dictionary.length : 256);
      any = kind === "d16"
        ? markShorts(column as Uint16Array, n, marks, verdict)
        : markBytes(column as Uint8Array, n, marks, verdict);
    } else if (kind === "i32") {
      const ints = column as Int32Array;
      for (let i = 0; i < n; i++) {
        const value = ints[i];
        const pass = matches(value === I32_NULL ? null : value) ? 1 : 0;
        marks[i] = pass;
        any |= pass;
      }
    } else {
      const floats = column as Float64Array;
      for (let i = 0; i < n; i++) {
        const value = floats[i];
        const pass = matches(Number.isNaN(value) ? null : value) ? 1 : 0;
        marks[i] = pass;
        any |= pass;
      }
    }
    return any ? marks : null;
  }

  /** Entry `i` as written. */
  entry(i: number): E {
    return Array.from({ length: this.fields }, (_, field) => this.value(field, i)) as unknown as E;
  }

  /** The vocabulary: every distinct token, each led by `\0`, decoded once. */
  private words(): { text: string; starts: Int32Array } {
    if (this.vocabulary === undefined) {
      const [count, offset, length] = this.header.t;
      const at = this.base - this.bytes.byteOffset + offset;
      this.vocabulary = decoder.decode(this.bytes.subarray(at, at + length));
      const starts = new Int32Array(count);
      let t = 0;
      for (let i = 0; i < this.vocabulary.length; i++) if (this.vocabulary.charCodeAt(i) === 0) starts[t++] = i;
      this.tokenStarts = starts;
    }
    return { text: this.vocabulary, starts: this.tokenStarts! };
  }

  /** Calls `each(position)` for every entry that holds token `t`. */
  private postings(t: number, each: (position: number) => void): void {
    const [count, , , startsAt, kindsAt, postingsAt] = this.header.t;
    const starts = new Uint32Array(this.bytes.buffer, this.base + startsAt, count + 1);
    const from = this.base + postingsAt + starts[t], to = this.base + postingsAt + starts[t + 1];
    if (this.bytes[this.base - this.bytes.byteOffset + kindsAt + t] === 1) {
      const bits = new Uint8Array(this.bytes.buffer, from, to - from);
      for (let p = 0; p < this.count; p++) if (bits[p >> 3] & (1 << (p & 7))) each(p);
    } else {
      for (const p of new Uint16Array(this.bytes.buffer, from, (to - from) / 2)) each(p);
    }
  }

  /** Sets `hits[p]` to 1 for every entry `p` that holds token `t` (`postings` without a call per entry). */
  private mark(t: number, hits: Uint8Array): void {
    const [count, , , startsAt, kindsAt, postingsAt] = this.header.t;
    const { buffer, byteOffset } = this.bytes;
    this.postingStarts ??= new Uint32Array(buffer, this.base + startsAt, count + 1);
    const from = this.base + postingsAt + this.postingStarts[t],
      to = this.base + postingsAt + this.postingStarts[t + 1];
    if (this.bytes[this.base - byteOffset + kindsAt + t] === 1) {
      const bits = this.bytes, n = this.count;
      for (let at = from - byteOffset, p = 0; p < n; at++, p += 8) {
        const byte = bits[at];
        if (byte === 0) continue;
        for (let k = 0; k < 8; k++) if (byte & (1 << k)) hits[p + k] = 1;
      }
    } else {
      const list = new Uint16Array(buffer, from, (to - from) / 2);
      for (let k = 0; k < list.length; k++) hits[list[k]] = 1;
    }
  }

  /**
   * Marks, by position, the entries whose search text holds every one of `words`, each given as its variants (a word
   * matches a token that contains any of them; lower case, no whitespace or `\0`); null when `words` is empty. The
   * marks are written to `into`, and a second word's to `spare` (each at least `count` long; new arrays without them),
   * which the caller may change.
   */
  search(words: readonly (readonly string[])[], into?: Uint8Array, spare?: Uint8Array): Uint8Array | null {
    if (words.length === 0) return null;
    const { text, starts } = this.words();
    const n = this.count;
    const marks = into ? into.subarray(0, n) : new Uint8Array(n);
    const other = words.length > 1 ? (spare ? spare.subarray(0, n) : new Uint8Array(n)) : marks;
    let first = true;
    for (const variants of words) {
      const hits = first ? marks : other;
      hits.fill(0);
      const tokens = new Set<number>();
      for (const variant of variants) {
        let at = text.indexOf(variant);
        while (at !== -1) {
          let lo = 0, hi = starts.length;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (starts[mid] < at) lo = mid + 1;
            else hi = mid;
          }
          tokens.add(lo - 1);
          if (lo >= starts.length) break;
          at = text.indexOf(variant, starts[lo]);
        }
      }
      for (const t of tokens) this.mark(t, hits);
      if (!first) { for (let p = 0; p < n; p++) marks[p] &= hits[p]; }
      first = false;
    }
    return marks;
  }

  /** The block as a write handles it (entries and their tokens). */
  content(): BlockContent<E> {
    const { text, starts } = this.words();
    const tokens: string[][] = Array.from({ length: this.count }, () => []);
    for (let t = 0; t < starts.length; t++) {
      const word = text.slice(starts[t] + 1, t + 1 < starts.length ? starts[t + 1] : text.length);
      this.postings(t, (p) => tokens[p].push(word));
    }
    return {
      lo: this.lo,
      hi: this.hi,
      entries: Array.from({ length: this.count }, (_, i) => this.entry(i)),
      tokens,
    };
  }
}
