/**
 * The archive beside a chunked store, with a record type of its own: a bulk seed, writes that split blocks, moves out
 * of and back into the read model, and a second process that sees them.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import type { Slots } from "./columns.ts";
import type { ChunkedLayout } from "./layout.ts";
import { type Columns, SYNC_INTERVAL_MS } from "./read_model.ts";
import { chunkedStore } from "./store.ts";
import { Archive, mergedPage } from "./archive.ts";
import { openKv } from "@/lib/kv.ts";

interface Note {
  id: string;
  createdAt: string;
  kind: string;
  text: string;
}

type NoteEntry = [id: string, createdMs: number, kind: string];

class NoteColumns implements Columns<NoteEntry> {
  readonly kinds: string[] = [];
  constructor(readonly slots: Slots) {}
  set(slot: number, [, , kind]: NoteEntry): void {
    this.kinds[slot] = kind;
  }
}

const layout: ChunkedLayout<Note, NoteEntry> = {
  prefix: "test_archived_notes",
  noun: "notes",
  entry: (note) => [note.id, Date.parse(note.createdAt), note.kind],
  searchText: (note) => note.text.toLowerCase(),
};

const notes = chunkedStore(layout, (slots) => new NoteColumns(slots));

const note = (i: number, kind = i % 3 ? "idea" : "todo"): Note => ({
  id: `note-${String(i).padStart(5, "0")}`,
  // Every tenth shares its time with the one before.
  createdAt: new Date(Date.UTC(2030, 0, 1) + (i - (i % 10 === 9 ? 1 : 0)) * 1000).toISOString(),
  kind,
  text: `Note number ${i} about ${["zebras", "lions", "owls"][i % 3]} ${"and more words ".repeat(i % 7)}`,
});

/** Ids newest first (creation time, then id, descending). */
const newestFirst = (list: Note[]) =>
  list.toSorted((a, b) => a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1)
    .map((n) => n.id);

Deno.test("a seeded archive answers a filter and its pages as a plain scan does, and refuses a second seed", async () => {
  using kv = await Deno.openKv(":memory:");
  const { archive, model } = await notes(kv);
  const all = Array.from({ length: 3000 }, (_, i) => note(i));
  await archive.seed(all);
  const directory = await Array.fromAsync(kv.list({ prefix: archive.keys.directory }));
  assert(directory.length > 2, `several blocks (${directory.length})`);
  const todo = (block: Parameters<Parameters<typeof archive.matches>[1]>[0]) =>
    block.mask(2, (kind) => kind === "todo");
  const owls = (block: Parameters<Parameters<typeof archive.matches>[1]>[0]) => block.search([["owl"]]);
  // Few matches are kept as a list, many as marks: both forms page alike.
  const n42 = (block: Parameters<Parameters<typeof archive.matches>[1]>[0]) => block.search([["42"]]);
  // An archive that keeps no block: every scan and page reads its blocks from KV again.
  const small = new Archive(kv, layout, model, 1);
  for (const reader of [archive, small]) {
    for (
      const [key, test, expected] of [
        ["todo", todo, newestFirst(all.filter((n) => n.kind === "todo"))],
        ["owls", owls, newestFirst(all.filter((n) => n.text.includes("owls")))],
        ["42", n42, newestFirst(all.filter((_, i) => String(i).includes("42")))],
      ] as const
    ) {
      for (const offset of [0, 7, 30, 500, 999, 2000]) {
        const page = await reader.reading(async () => {
          const archived = await reader.matches(key, test);
          return await mergedPage({ model, archive: reader, live: new Int32Array(0), archived }, { offset, limit: 25 });
        });
        assertEquals(page.total, expected.length);
        assertEquals(page.items.map((item) => "id" in item ? item.id : ""), expected.slice(offset, offset + 25));
      }
    }
  }
  assertEquals((await archive.records(["note-00042", "missing"])).get("note-00042"), all[42]);
  await assertRejects(() => archive.seed([note(5000)]), Error, "not empty");

  // A process that reads the archive as a whole (cold) says so once; scans of the blocks it holds then do not.
  const cold = new Archive(kv, layout, model);
  let bulkReads = 0;
  cold.onBulkRead = () => bulkReads++;
  await cold.reading(() => cold.matches("todo", todo));
  await cold.reading(() => cold.matches("owls", owls));
  assertEquals(bulkReads, 1);
});

Deno.test("writes that grow blocks split them; moves out of and back into the read model; another process sees all", async () => {
  const dir = await Deno.makeTempDir({ prefix: "archive-test-" });
  const a = await openKv(`${dir}/kv.sqlite3`);
  const b = await openKv(`${dir}/kv.sqlite3`);
  try {
    const { archive, writer, model } = await notes(a);
    // Archived in batches, oldest last, so writes land in every block and split them.
    const archived = Array.from({ length: 2500 }, (_, i) => note(i));
    for (let i = 0; i < archived.length; i += 250) {
      await archive.write({ put: archived.filter((_, j) => j % 10 === i / 250) });
    }
    const live = Array.from({ length: 300 }, (_, i) => note(10_000 + i));
    await writer.insert(live);
    // Ten live ones move to the archive, one archived one comes back.
    const leaving = live.slice(0, 10).map((n) => n.id);
    const n = model.chunkOfSlot(model.slotOf(leaving[0])!);
    const taken = await writer.take(
      n,
      (record) => leaving.includes(record.id),
      (taken) => archive.rider({ put: taken }),
    );
    assertEquals(taken.length, 10);
    const back = archived[1234];
    await writer.insert([back], { rider: archive.rider({ drop: [back.id] }) });
    assertEquals(model.slotOf(leaving[0]), undefined);
    assert(model.slotOf(back.id) !== undefined);

    await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
    const expectedArchive = newestFirst([...archived.filter((x) => x.id !== back.id), ...live.slice(0, 10)]);
    for (const kv of [a, b]) {
      const store = await notes(kv);
      assertEquals(store.model.slotOf(leaving[0]), undefined, "left the other read model too");
      const everything = (block: { count: number }) => new Uint8Array(block.count).fill(1);
      const page = await store.archive.reading(async () => {
        const matches = await store.archive.matches("all", everything);
        const live = Int32Array.from(store.model.slots.order);
        return await mergedPage({ model: store.model, archive: store.archive, live, archived: matches }, {
          offset: 0,
          limit: 5000,
        });
      });
      const ids = page.items.map((item) => "id" in item ? item.id : store.model.slots.ids[item.slot]);
      assertEquals(ids, newestFirst([...archived, ...live]), "every note once, in list order");
      const inArchive = page.items.flatMap((item) => "id" in item ? [item.id] : []);
      assertEquals(inArchive, expectedArchive);
    }
    const blocks = await Array.fromAsync(a.list({ prefix: archive.keys.directory }));
    assert(blocks.length > 2, `blocks were split (${blocks.length})`);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
