/**
 * The token search index of a chunked store (see `store.ts`). Stored per chunk: each distinct
 * whitespace-separated token of the chunk's lower-case search texts, with a bit mask of the
 * records that contain it. Held in memory for the whole store (`SearchIndex`): every distinct
 * token once in one vocabulary string, each chunk's tokens as ids, and per token the chunks that
 * hold it. A search word (no whitespace) occurs in a text exactly when it occurs inside one of the
 * text's tokens, so a word costs one `indexOf` scan over the distinct tokens of the whole store,
 * then work only for the chunks that hold a matching token.
 */

/** The token index of one chunk as built for storage: distinct tokens and their masks, token by token. */
export interface TokenMasks {
  tokens: string[];
  /** `ceil(records / 32)` 32-bit words per token; bit i = record i of the chunk. */
  masks: number[];
}

/** The token index of one chunk as the search index takes it: `width` mask words per token. */
export interface ChunkTokens {
  tokens: readonly string[];
  masks: ArrayLike<number>;
  width: number;
}

/** Mask words per token for a chunk of `count` records. */
export function maskWidth(count: number): number {
  return Math.ceil(count / 32);
}

/** The token masks of `texts` (one lower-case search text per record, in chunk order). */
export function buildTokenMasks(texts: string[]): TokenMasks {
  const width = maskWidth(texts.length);
  const tokens = new Map<string, number[]>();
  texts.forEach((text, i) => {
    for (const token of text.split(/\s+/)) {
      if (!token) continue;
      let mask = tokens.get(token);
      if (!mask) tokens.set(token, mask = new Array(width).fill(0));
      mask[i >> 5] |= 1 << (i & 31);
    }
  });
  return { tokens: [...tokens.keys()], masks: [...tokens.values()].flat() };
}

/** The position of `id` among the first `count` (ascending) values of `ids`, or -1. */
function positionOf(ids: Int32Array, count: number, id: number): number {
  let lo = 0, hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && ids[lo] === id ? lo : -1;
}

/**
 * The in-memory search index of every chunk of a store. Chunks get dense positions, and each a
 * place in one flat array of mask words, so a search builds one array per word instead of one
 * per chunk. A token's chunk list only grows: a chunk that lost a token stays listed under it and
 * is skipped when its current ids lack the token.
 */
export class SearchIndex {
  /** Every distinct token, each preceded by `\0`, in id order. */
  private vocabulary = "";
  /** Tokens (each `\0`-led) added since `vocabulary` was last joined. */
  private pending: string[] = [];
  private length = 0;
  /** Where token id i begins in `vocabulary` (at its `\0`). */
  private readonly starts: number[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Per token id, pairs of (chunk position, the token's place among the chunk's ids when it was
   * set): the place is checked before use and looked up again when the chunk changed since.
   */
  private readonly chunksOf: number[][] = [];
  private readonly positions = new Map<number, number>();
  /**
   * By position: the chunk number; its token ids ascending followed by their masks (`widths`
   * words per token) in one array; how many tokens it has; and where its mask words begin in a
   * flat array.
   */
  private readonly chunkNumbers: number[] = [];
  private readonly chunks: Int32Array[] = [];
  private readonly counts: number[] = [];
  private readonly widths: number[] = [];
  private readonly offsets: number[] = [];
  private readonly capacities: number[] = [];
  /** Mask words in the flat array, over every chunk. */
  private words = 0;

  private idOf(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.starts.push(this.length) - 1;
      this.ids.set(token, id);
      this.chunksOf.push([]);
      this.pending.push("\0" + token);
      this.length += token.length + 1;
    }
    return id;
  }

  /** Sets chunk `n`'s index: its distinct `tokens` and their `masks`, `width` words per token. */
  setChunk(n: number, { tokens, masks, width }: ChunkTokens): void {
    let position = this.positions.get(n);
    if (position === undefined) {
      position = this.chunks.length;
      this.positions.set(n, position);
      this.chunkNumbers.push(n);
      this.chunks.push(new Int32Array(0));
      this.counts.push(0);
      this.widths.push(0);
      this.capacities.push(0);
      this.offsets.push(0);
    }
    if (width > this.capacities[position]) {
      this.offsets[position] = this.words;
      this.capacities[position] = width;
      this.words += width;
    }
    const previous = this.chunks[position], previousCount = this.counts[position];
    // The chunk's tokens by id: each (id, local position) packed in one number, sorted as a typed array (no
    // comparator, no pair arrays: this runs for every chunk at load).
    const count = tokens.length;
    const order = new Float64Array(count);
    for (let local = 0; local < count; local++) order[local] = this.idOf(tokens[local]) * 65536 + local;
    order.sort();
    const data = new Int32Array(count + count * width);
    for (let i = 0; i < count; i++) {
      const id = Math.floor(order[i] / 65536), local = order[i] % 65536;
      data[i] = id;
      for (let w = 0; w < width; w++) data[count + i * width + w] = masks[local * width + w];
      if (previousCount === 0 || positionOf(previous, previousCount, id) === -1) this.chunksOf[id].push(position, i);
    }
    this.chunks[position] = data;
    this.counts[position] = count;
    this.widths[position] = width;
  }

  /** The ids of the tokens that contain `word`. */
  private tokensContaining(word: string): number[] {
    if (this.pending.length > 0) {
      this.vocabulary += this.pending.join("");
      this.pending = [];
    }
    const { vocabulary, starts } = this;
    const found: number[] = [];
    let at = vocabulary.indexOf(word);
    while (at !== -1) {
      let lo = 0, hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (starts[mid] < at) lo = mid + 1;
        else hi = mid;
      }
      found.push(lo - 1);
      if (lo >= starts.length) break;
      at = vocabulary.indexOf(word, starts[lo]);
    }
    return found;
  }

  /**
   * Calls `found(n, masks, offset)` for each chunk `n` with a record whose search text contains
   * every one of `words` (lower case, no whitespace or `\0`; an empty word is contained in every
   * text): bit i of `masks[offset + (i >> 5)]` is set when record i of the chunk matches.
   */
  match(words: readonly string[], found: (n: number, masks: Int32Array, offset: number) => void): void {
    let masks: Int32Array | null = null;
    let hits: Uint8Array | null = null;
    for (const word of words) {
      if (word === "") continue;
      const wordMasks = new Int32Array(this.words);
      const wordHits = new Uint8Array(this.chunks.length);
      for (const id of this.tokensContaining(word)) {
        const postings = this.chunksOf[id];
        for (let p = 0; p < postings.length; p += 2) {
          const position = postings[p];
          if (hits && hits[position] === 0) continue;
          const data = this.chunks[position], count = this.counts[position];
          let at = postings[p + 1];
          if (at >= count || data[at] !== id) {
            at = positionOf(data, count, id);
            if (at === -1) continue;
            postings[p + 1] = at;
          }
          const width = this.widths[position];
          const offset = this.offsets[position];
          const from = count + at * width;
          for (let w = 0; w < width; w++) wordMasks[offset + w] |= data[from + w];
          wordHits[position] = 1;
        }
      }
      if (masks) { for (let w = 0; w < masks.length; w++) wordMasks[w] &= masks[w]; }
      masks = wordMasks;
      hits = wordHits;
    }
    for (let position = 0; position < this.chunks.length; position++) {
      if (hits && hits[position] === 0) continue;
      const n = this.chunkNumbers[position];
      if (masks) found(n, masks, this.offsets[position]);
      else found(n, new Int32Array(this.widths[position]).fill(-1), 0);
    }
  }
}
