/**
 * The per-chunk token search index of a chunked store (see `store.ts`): for the records of one
 * chunk, each distinct whitespace-separated token of their lower-case search texts with a bit mask
 * of the records that contain it. A search word (no whitespace) occurs in a text exactly when it
 * occurs inside one of the text's tokens, so `matchWords` answers substring search with one
 * `indexOf` scan over the chunk's vocabulary per word.
 */

/** The token index of one chunk as built for storage: distinct tokens and their masks, token by token. */
export interface TokenMasks {
  tokens: string[];
  /** `ceil(records / 32)` 32-bit words per token; bit i = record i of the chunk. */
  masks: number[];
}

/** The token index of one chunk as held in memory. */
export interface TokenIndex {
  /** Distinct tokens, each preceded by `\0`; `starts` holds where each begins. */
  vocabulary: string;
  starts: Int32Array;
  /** `width` mask words per token, bit i = record i of the chunk. */
  masks: Int32Array;
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

/** The in-memory token index of a chunk of `count` records from its `\0`-led vocabulary and masks. */
export function readTokenIndex(vocabulary: string, masks: number[], count: number): TokenIndex {
  const starts: number[] = [];
  for (let i = vocabulary.indexOf("\0"); i !== -1; i = vocabulary.indexOf("\0", i + 1)) starts.push(i);
  return { vocabulary, starts: Int32Array.from(starts), masks: Int32Array.from(masks), width: maskWidth(count) };
}

/**
 * The records of the chunk whose search text contains every one of `words` (lower case, no
 * whitespace or `\0`), as a mask of `width` words; null when `words` is empty.
 */
export function matchWords({ vocabulary, starts, masks, width }: TokenIndex, words: string[]): Int32Array | null {
  let all: Int32Array | null = null;
  for (const word of words) {
    const found = new Int32Array(width);
    let at = vocabulary.indexOf(word);
    while (at !== -1) {
      let lo = 0, hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (starts[mid] < at) lo = mid + 1;
        else hi = mid;
      }
      const token = lo - 1;
      for (let w = 0; w < width; w++) found[w] |= masks[token * width + w];
      if (lo >= starts.length) break;
      at = vocabulary.indexOf(word, starts[lo]);
    }
    if (all) { for (let w = 0; w < width; w++) all[w] &= found[w]; }
    else all = found;
    if (all.every((w) => w === 0)) break;
  }
  return all;
}
