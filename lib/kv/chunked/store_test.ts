/**
 * The chunked store with a record type of its own (not internships): what another domain gets
 * from it, and the change marker's rule that only other processes' commits cause a re-read.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import type { Slots } from "./columns.ts";
import type { ChunkedLayout } from "./layout.ts";
import { type Columns, SYNC_INTERVAL_MS } from "./read_model.ts";
import { chunkedStore } from "./store.ts";
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
  prefix: "test_notes",
  noun: "notes",
  entry: (note) => [note.id, Date.parse(note.createdAt), note.kind],
  searchText: (note) => note.text.toLowerCase(),
};

const notes = chunkedStore(layout, (slots) => new NoteColumns(slots));

const note = (i: number, kind: string, text: string): Note => ({
  id: `note-${String(i).padStart(4, "0")}`,
  createdAt: new Date(Date.UTC(2030, 0, 1) + i * 1000).toISOString(),
  kind,
  text,
});

Deno.test("a chunked store of another record type lists newest first, filters by its columns, searches and updates", async () => {
  using kv = await Deno.openKv(":memory:");
  const { model, writer } = await notes(kv);
  await writer.insert(Array.from({ length: 300 }, (_, i) => note(i, i % 3 ? "idea" : "todo", `Note number ${i} text`)));
  assertEquals(model.slots.count, 300);
  const todos = model.slots.order.filter((slot) => model.columns.kinds[slot] === "todo");
  assertEquals(todos.length, 100);
  assertEquals((await model.recordsOf(todos.slice(0, 2))).map((n) => n.id), ["note-0297", "note-0294"]);
  const updated = await writer.update("note-0005", (n) => ({ ...n, kind: "todo", text: "Renamed zebra" }));
  assertEquals(updated?.text, "Renamed zebra");
  assertEquals(await writer.update("missing", (n) => n), null);
  const marks = model.searchMarks(["zebra"]);
  assertEquals([...model.slots.order].filter((slot) => marks[slot]).map((slot) => model.slots.ids[slot]), [
    "note-0005",
  ]);
  assertEquals(model.slots.order.filter((slot) => model.columns.kinds[slot] === "todo").length, 101);
});

Deno.test("the change marker asks for a re-read after another process's commit, never after this process's own", async () => {
  const dir = await Deno.makeTempDir();
  const a = await openKv(`${dir}/kv.sqlite3`);
  const b = await openKv(`${dir}/kv.sqlite3`);
  try {
    const storeA = await notes(a);
    const storeB = await notes(b);
    await storeA.writer.insert([note(1, "idea", "one")]);
    await storeA.writer.update("note-0001", (n) => ({ ...n, text: "one, changed" }));
    const tracker = storeA.model.changes;
    assert(!tracker.hasForeign(await tracker.read()), "own commits alone cause no re-read");
    await storeB.writer.insert([note(2, "idea", "two")]);
    assert(tracker.hasForeign(await tracker.read()), "a foreign commit causes a re-read");
    await storeA.writer.insert([note(3, "idea", "three")]);
    assert(tracker.hasForeign(await tracker.read()), "an own commit after a foreign one does not hide it");
    await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
    const { model } = await notes(a);
    assertEquals(model.slots.order.map((slot) => model.slots.ids[slot]), ["note-0003", "note-0002", "note-0001"]);
    assert(!tracker.hasForeign(await tracker.read()), "in step after the sync");
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("records are read one by one from their chunk, and whole from a chunk whose index predates record ends", async () => {
  const dir = await Deno.makeTempDir();
  try {
    {
      await using kv = await openKv(`${dir}/kv.sqlite3`);
      const { writer } = await notes(kv);
      const pad = " x".repeat(500);
      await writer.insert(Array.from({ length: 80 }, (_, i) => note(i, "idea", `Text ${i} with “quotes” and ₹${pad}`)));
      assert((await kv.get([`${layout.prefix}_chunks`, 1])).value, "the records fill more than one chunk");
      // Chunk 0 as written before the index held `ends`: same records, index JSON without it, one commit.
      const [chunk, index] = await kv.getMany<[Uint8Array, Uint8Array]>([[`${layout.prefix}_chunks`, 0], [
        `${layout.prefix}_index`,
        0,
      ]]);
      const text = new TextDecoder().decode(index.value!);
      const cut = text.indexOf("\0");
      const { entries, masks } = JSON.parse(text.slice(0, cut));
      const older = new TextEncoder().encode(JSON.stringify({ entries, masks }) + text.slice(cut));
      await kv.atomic().set(chunk.key, chunk.value).set(index.key, older).commit();
    }
    await using kv = await openKv(`${dir}/kv.sqlite3`);
    const { model } = await notes(kv);
    const wanted = ["note-0079", "note-0040", "note-0001", "note-0000"];
    const records = await model.recordsOf(wanted.map((id) => model.slotOf(id)!));
    assertEquals(records.map((n) => n.id), wanted);
    assertEquals(records[1].text, `Text 40 with “quotes” and ₹${" x".repeat(500)}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a load reads the index chunks from a replica (eventual reads), then catches up with what it missed", async () => {
  using kv = await Deno.openKv(":memory:");
  const { writer } = await notes(kv);
  const long = (i: number) => `Note ${i} ${"padding ".repeat(120)}`;
  await writer.insert(Array.from({ length: 300 }, (_, i) => note(i, "idea", long(i))));
  // The replica as it was then: the index chunks of those 300 notes.
  const replica = await Array.fromAsync(kv.list<Uint8Array>({ prefix: ["test_notes_index"] }));
  assert(replica.length > 3, `${replica.length} chunks`);
  await writer.update("note-0005", (n) => ({ ...n, kind: "todo", text: "Renamed zebra" }));
  await writer.insert(Array.from({ length: 100 }, (_, i) => note(300 + i, "idea", long(300 + i))));
  const eventual: string[] = [];
  const lagging = new Proxy(kv, {
    get(target, prop) {
      if (prop === "list") {
        return (selector: { prefix: Deno.KvKey }, options?: Deno.KvListOptions) => {
          if (options?.consistency !== "eventual") return target.list(selector, options);
          eventual.push(String(selector.prefix[0]));
          return (async function* () {
            yield* replica.filter((entry) => entry.key[0] === selector.prefix[0]);
          })();
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const { model } = await notes(lagging);
  assertEquals(eventual, ["test_notes_index"], "the index chunks were read from the replica");
  assertEquals(model.slots.count, 400, "the notes the replica had not seen yet are there");
  const zebra = model.searchMarks(["zebra"]);
  assertEquals(model.slots.order.filter((slot) => zebra[slot]).map((slot) => model.slots.ids[slot]), ["note-0005"]);
  assertEquals(model.columns.kinds[model.slotOf("note-0005")!], "todo");
});
