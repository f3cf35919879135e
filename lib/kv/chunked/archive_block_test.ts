/** The archive block format: what is written is read back, in place, column by column; search finds substrings. */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { ArchiveBlock, BLOCK_MAX_ENTRIES, type BlockContent, encodeBlock, tokensOf } from "./archive_block.ts";

type Entry = [
  id: string,
  createdMs: number,
  small: number,
  big: number | null,
  fraction: number | null,
  text: string,
  list: string[],
];

const WORDS = ["data", "analyst", "pune", "remote", "python", "design", "react", "intern", "finance", "writer"];

function content(n: number): BlockContent<Entry> {
  const entries: Entry[] = [];
  const tokens: string[][] = [];
  for (let i = 0; i < n; i++) {
    entries.push([
      `id-${String(n - i).padStart(5, "0")}`,
      1_800_000_000_000 - i * 1000,
      i % 4,
      i % 7 === 0 ? null : i * 1000,
      i % 5 === 0 ? null : i / 3,
      ["bengaluru", "pune", "remote"][i % 3],
      i % 2 ? ["python", "data"] : [],
    ]);
    tokens.push(tokensOf(`${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} x${i % 50}`));
  }
  return { lo: [1, "a"], hi: null, entries, tokens };
}

Deno.test("a block reads back every entry, every field kind, its range and ids", () => {
  const written = content(300);
  const block = new ArchiveBlock<Entry>(encodeBlock(written));
  assertEquals([block.count, block.lo, block.hi, block.fields], [300, [1, "a"], null, 7]);
  for (let i = 0; i < 300; i++) assertEquals(block.entry(i), written.entries[i]);
  assertEquals(block.id(42), written.entries[42][0]);
  assertEquals(block.created[7], written.entries[7][1]);
  assert(!block.isCoded(2) && !block.isCoded(3) && !block.isCoded(4) && block.isCoded(5) && block.isCoded(6));
  assert(Number.isNaN(block.number(3, 0)));
  assertEquals(block.dictionary(5).length, 3);
  const again = block.content();
  assertEquals(again.entries, written.entries);
  assertEquals(again.tokens.map((t) => t.toSorted()), written.tokens.map((t) => t.toSorted()));
});

Deno.test("a block read from an unaligned copy still reads in place", () => {
  const bytes = encodeBlock(content(20));
  const shifted = new Uint8Array(bytes.byteLength + 3);
  shifted.set(bytes, 3);
  const block = new ArchiveBlock<Entry>(shifted.subarray(3));
  assertEquals(block.entry(19), content(20).entries[19]);
});

Deno.test("search marks the entries holding every word as a substring of a token, any variant of a word", () => {
  const written = content(BLOCK_MAX_ENTRIES);
  const block = new ArchiveBlock<Entry>(encodeBlock(written));
  const cases: string[][][] = [[["ytho"]], [["data"], ["anal"]], [["pune", "poona"], ["x1"]], [["nothing"]], [["x4"]]];
  for (const words of cases) {
    const marks = block.search(words)!;
    const expected = written.tokens.map((tokens) =>
      words.every((variants) => variants.some((v) => tokens.some((token) => token.includes(v)))) ? 1 : 0
    );
    assertEquals([...marks], expected, JSON.stringify(words));
  }
  assertEquals(block.search([]), null);
});

Deno.test("an empty block is a valid block", () => {
  const block = new ArchiveBlock(encodeBlock({ lo: [0, ""], hi: [5, "b"], entries: [], tokens: [] }));
  assertEquals([block.count, block.lo, block.hi], [0, [0, ""], [5, "b"]]);
  assertEquals(block.content().entries, []);
});

Deno.test("search and mask write into the buffers they are given, whatever those held before", () => {
  const written = content(BLOCK_MAX_ENTRIES);
  const block = new ArchiveBlock<Entry>(encodeBlock(written));
  const other = new ArchiveBlock<Entry>(encodeBlock(content(40)));
  const into = new Uint8Array(BLOCK_MAX_ENTRIES).fill(1), spare = new Uint8Array(BLOCK_MAX_ENTRIES).fill(1);
  for (const words of [[["data"], ["anal"]], [["ytho"]], [["x4"], ["pune", "poona"]]]) {
    const marks = block.search(words, into, spare)!;
    assertEquals(marks.buffer, into.buffer);
    const expected = written.tokens.map((tokens) =>
      words.every((variants) => variants.some((v) => tokens.some((token) => token.includes(v)))) ? 1 : 0
    );
    assertEquals([...marks], expected, JSON.stringify(words));
    spare.fill(1);
  }
  // Masks of coded and byte fields of two blocks in turn: each block's values are tested anew.
  for (const [field, wanted] of [[5, "pune"], [2, 3], [5, "remote"]] as const) {
    for (const b of [block, other, block]) {
      const marks = b.mask(field, (value) => value === wanted, into.fill(1));
      const expected = Array.from({ length: b.count }, (_, i) => b.value(field, i) === wanted ? 1 : 0);
      assertEquals(marks ? [...marks] : expected.map(() => 0), expected, `${field} ${wanted}`);
    }
  }
});

Deno.test("a kept block reads as the stored one, with UUID ids in 16 bytes each; other ids stay as stored", () => {
  const written = content(BLOCK_MAX_ENTRIES);
  written.entries.forEach((entry) => entry[0] = crypto.randomUUID());
  const bytes = encodeBlock(written);
  const stored = new ArchiveBlock<Entry>(bytes.slice());
  // Kept in its own buffer, cut to size (as a value read from KV), and from a view into a larger buffer (copied).
  const inLarger = new Uint8Array(bytes.byteLength + 16);
  inLarger.set(bytes, 8);
  for (
    const kept of [
      new ArchiveBlock<Entry>(bytes.slice()).kept(),
      new ArchiveBlock<Entry>(inLarger.subarray(8, 8 + bytes.byteLength)).kept(),
    ]
  ) {
    assert(kept.size < stored.size - 20 * BLOCK_MAX_ENTRIES, `${kept.size} of ${stored.size}`);
    assertEquals(kept.kept(), kept);
    assertEquals([kept.count, kept.lo, kept.hi, kept.fields], [stored.count, stored.lo, stored.hi, stored.fields]);
    for (let i = 0; i < kept.count; i++) assertEquals(kept.entry(i), written.entries[i]);
    assertEquals(kept.content(), stored.content());
    for (const words of [[["data"], ["anal"]], [["ytho"]], [["x4"], ["pune", "poona"]], [["nothing"]]]) {
      assertEquals(kept.search(words), stored.search(words), JSON.stringify(words));
    }
    for (const [field, wanted] of [[5, "pune"], [2, 3], [3, 7000], [4, null]] as const) {
      assertEquals(kept.mask(field, (value) => value === wanted), stored.mask(field, (value) => value === wanted));
    }
  }

  // One id that is not a canonical lower-case UUID: the block keeps its ids as stored.
  for (const odd of ["id-1", crypto.randomUUID().toUpperCase(), crypto.randomUUID().replace("-", "_")]) {
    const mixed = content(30);
    mixed.entries.forEach((entry, i) => entry[0] = i === 17 ? odd : crypto.randomUUID());
    const block = new ArchiveBlock<Entry>(encodeBlock(mixed)).kept();
    assertEquals(block.id(17), odd);
    assertEquals(block.content().entries, mixed.entries);
  }
  const empty = new ArchiveBlock(encodeBlock({ lo: [0, ""], hi: null, entries: [], tokens: [] })).kept();
  assertEquals([empty.count, empty.content().entries], [0, []]);
});

Deno.test("narrow keeps, in order, the positions whose field passes; narrowRange the ones present and in range", () => {
  const written = content(BLOCK_MAX_ENTRIES);
  const block = new ArchiveBlock<Entry>(encodeBlock(written));
  const all = () => Uint16Array.from({ length: block.count }, (_, i) => i);
  const kept = (selected: Uint16Array, count: number) => [...selected.subarray(0, count)];
  const expected = (test: (entry: Entry) => boolean, from: number[]) => from.filter((i) => test(written.entries[i]));
  const every = [...all()];
  // A byte column, an int32 column with nulls, a float column with nulls, a coded column.
  for (
    const [field, rule] of [[2, (v: unknown) => v === 1], [3, (v: unknown) => v === null], [
      4,
      (v: unknown) => v !== null && (v as number) > 100,
    ], [5, (v: unknown) => v === "pune"]] as const
  ) {
    const selected = all();
    const count = block.narrow(field, rule, selected, block.count);
    assertEquals(kept(selected, count), expected((entry) => rule(entry[field] ?? null), every), `field ${field}`);
    // Narrowed again: only what is left is tested.
    const left = kept(selected, count);
    const again = block.narrow(6, (list) => (list as string[]).includes("python"), selected, count);
    assertEquals(kept(selected, again), expected((entry) => entry[6].includes("python"), left));
  }
  for (const [field, min, max] of [[3, 5000, 200000], [4, 10, 50.5], [2, 1, 2], [3, -Infinity, Infinity]] as const) {
    const selected = all();
    const count = block.narrowRange(field, min, max, selected, block.count);
    const within = (v: unknown) => v !== null && (v as number) >= min && (v as number) <= max;
    assertEquals(kept(selected, count), expected((entry) => within(entry[field] ?? null), every), `${field}`);
  }
});
