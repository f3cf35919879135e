import { assertEquals } from "@/tests/helpers/assert.ts";
import { buildTokenMasks, maskWidth, SearchIndex } from "./token_index.ts";

/** Records per chunk number, as last set by `setTexts`. */
const sizes = new Map<number, number>();

/** Chunk number → the records (by index in the chunk) that `index` finds for `words`. */
function found(index: SearchIndex, words: string[]): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  index.match(words, (n, masks, offset) => {
    const records: number[] = [];
    for (let i = 0; i < sizes.get(n)!; i++) if (masks[offset + (i >> 5)] & (1 << (i & 31))) records.push(i);
    if (records.length > 0) out[n] = records;
  });
  return out;
}

function setTexts(index: SearchIndex, n: number, texts: string[]): void {
  sizes.set(n, texts.length);
  const { tokens, masks } = buildTokenMasks(texts);
  index.setChunk(n, { tokens, masks, width: maskWidth(texts.length) });
}

Deno.test("the search index finds substrings of tokens across chunks, every word in one record", () => {
  const index = new SearchIndex();
  setTexts(index, 1, ["data analyst intern", "frontend developer", "database admin"]);
  setTexts(index, 7, ["analyst of data", "python data engineer"]);
  assertEquals(found(index, ["data"]), { 1: [0, 2], 7: [0, 1] });
  assertEquals(found(index, ["data", "analyst"]), { 1: [0], 7: [0] });
  assertEquals(found(index, ["ana", "eng"]), {});
  assertEquals(found(index, ["velop"]), { 1: [1] });
  assertEquals(found(index, ["nothing"]), {});
});

Deno.test("a chunk set again is searched by its new tokens only, old ones no longer match", () => {
  const index = new SearchIndex();
  setTexts(index, 1, ["alpha beta", "gamma"]);
  setTexts(index, 2, ["beta delta"]);
  setTexts(index, 1, ["gamma", "zeta alpha", "omega"]);
  assertEquals(found(index, ["beta"]), { 2: [0] });
  assertEquals(found(index, ["alpha"]), { 1: [1] });
  assertEquals(found(index, ["omega"]), { 1: [2] });
  setTexts(index, 1, ["beta"]);
  assertEquals(found(index, ["beta"]), { 1: [0], 2: [0] });
  assertEquals(found(index, ["alpha"]), {});
});

Deno.test("a chunk that grows past 32 records keeps the masks of its other chunks apart", () => {
  const index = new SearchIndex();
  setTexts(index, 1, ["x one"]);
  setTexts(index, 2, ["x two"]);
  setTexts(index, 1, Array.from({ length: 40 }, (_, i) => (i === 35 ? "x one" : "filler")));
  assertEquals(found(index, ["x"]), { 1: [35], 2: [0] });
});

Deno.test("empty words match every record", () => {
  const index = new SearchIndex();
  setTexts(index, 3, ["a", "b"]);
  assertEquals(found(index, [""]), { 3: [0, 1] });
});
