import { assertEquals } from "@/tests/helpers/assert.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { type Backfill, runBackfill } from "./backfill.ts";

type Thing = { id: string; n: number };

const PROGRESS: Deno.KvKey = ["things_meta", "index"];

/** Things by `n`: one index entry a thing, 10 listed a page. */
const BY_N: Backfill<Thing> = {
  progressKey: PROGRESS,
  prefix: ["things"],
  page: 10,
  write: (op, { value }) => {
    op.set(["things_by_n", value.n, value.id], null);
  },
};

const idOf = (i: number) => `t${String(i).padStart(3, "0")}`;

/** `count` things stored as before the index: records only. */
async function storeThings(kv: Deno.Kv, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await kv.set(["things", idOf(i)], { id: idOf(i), n: i });
}

/** The index entries stored, as `n:id`. */
async function indexed(kv: Deno.Kv): Promise<string[]> {
  const entries = await Array.fromAsync(kv.list({ prefix: ["things_by_n"] }));
  return entries.map(({ key }) => `${String(key[1])}:${String(key[2])}`);
}

/** A run that counts its turns given way, with its budget spent from the start when `spent`. */
function counting(spent = false) {
  const run = { turns: 0, giveWay: () => Promise.resolve(void run.turns++), until: spent ? 0 : undefined };
  return run;
}

Deno.test("a run cut off by its budget is taken up from its cursor by the next; once done it stays done", async () => {
  using kv = await Deno.openKv(":memory:");
  await storeThings(kv, 25);
  const first = counting(true);
  assertEquals(await runBackfill(kv, BY_N, first), { read: 10, written: 10, done: false }, "one page, then no more");
  assertEquals([(await kv.get(PROGRESS)).value, first.turns], [{ after: "t009", done: false }, 1]);
  assertEquals(await runBackfill(kv, BY_N, counting()), { read: 15, written: 15, done: true }, "from its cursor");
  assertEquals((await kv.get(PROGRESS)).value, { after: null, done: true });
  assertEquals(await indexed(kv), Array.from({ length: 25 }, (_, i) => `${i}:${idOf(i)}`));

  // A record stored now was indexed by its own write: the backfill reads its progress and nothing more.
  await kv.set(["things", "t999"], { id: "t999", n: 999 });
  const reads = kvReads();
  assertEquals(await runBackfill(recordingReads(kv, reads), BY_N, counting()), { read: 0, written: 0, done: true });
  assertEquals([reads.keys, reads.lists.length], [[PROGRESS], 0]);
  assertEquals((await indexed(kv)).length, 25);
});

Deno.test("a commit that loses its race is not counted, and its page is read again as changed", async () => {
  using store = await Deno.openKv(":memory:");
  await storeThings(store, 15);
  // The first page is listed, then a thing of it changes before the commit (that write indexed it already).
  let change: (() => Promise<unknown>) | null = () => store.set(["things", "t003"], { id: "t003", n: 300 });
  const kv = new Proxy(store, {
    get(target, property) {
      if (property !== "list") return Reflect.get(target, property, target).bind(target);
      return async function* (selector: Deno.KvListSelector, options?: Deno.KvListOptions) {
        yield* target.list(selector, options);
        const changing = change;
        change = null;
        await changing?.();
      };
    },
  });
  assertEquals(await runBackfill(kv, BY_N, counting()), { read: 15, written: 15, done: true });
  const entries = await indexed(store);
  assertEquals(entries.length, 15);
  assertEquals([entries.includes("300:t003"), entries.includes("3:t003")], [true, false], "indexed as it is now");
});

Deno.test("a commit holds `perCommit` written records within the mutations, walks past the rest; finish once", async () => {
  using kv = await Deno.openKv(":memory:");
  // Keys of two parts after the prefix: the cursor is both.
  for (let i = 0; i < 14; i++) await kv.set(["pairs", i % 2 ? "odd" : "even", idOf(i)], { id: idOf(i), n: i });
  const pairs: Backfill<Thing> = {
    ...BY_N,
    prefix: ["pairs"],
    perCommit: 3,
    tally: true,
    needs: (thing) => thing.n % 4 !== 1,
    mutations: (thing) => thing.n === 12 ? 900 : 1,
    finish: (op) => {
      op.sum(["things_meta", "finished"], 1n);
    },
  };
  const first = counting(true);
  // Written: the even ones and 3, 7, 11 (1, 5, 9, 13 walked past). The first page: 0 2 4 | 6 8 10 | 12 1 | 3 5.
  assertEquals(await runBackfill(kv, pairs, first), { read: 10, written: 8, done: false });
  assertEquals(first.turns, 4, "three, three, the one of 900 mutations alone, then one");
  assertEquals((await kv.get(PROGRESS)).value, { after: ["odd", "t005"], indexed: 10, done: false });
  assertEquals(await runBackfill(kv, pairs, counting()), { read: 4, written: 2, done: true });
  assertEquals((await kv.get(PROGRESS)).value, { after: null, indexed: 14, done: true });
  assertEquals((await kv.get(["things_meta", "finished"])).value, new Deno.KvU64(1n));
  const ns = (await indexed(kv)).map((entry) => Number(entry.split(":")[0]));
  assertEquals(ns, [0, 2, 3, 4, 6, 7, 8, 10, 11, 12]);
});

Deno.test("two runs at once: the one behind neither moves the cursor back nor undoes done, tally counted once", async () => {
  using store = await Deno.openKv(":memory:");
  await storeThings(store, 25);
  const tallied: Backfill<Thing> = {
    ...BY_N,
    tally: true,
    finish: (op) => {
      op.sum(["things_meta", "finished"], 1n);
    },
  };
  // The slow run lists its first page; the other run goes to the end before the slow one commits it.
  let other: (() => Promise<unknown>) | null = () => runBackfill(store, tallied, counting());
  const kv = new Proxy(store, {
    get(target, property) {
      if (property !== "list") return Reflect.get(target, property, target).bind(target);
      return async function* (selector: Deno.KvListSelector, options?: Deno.KvListOptions) {
        yield* target.list(selector, options);
        const running = other;
        other = null;
        await running?.();
      };
    },
  });
  const slow = await runBackfill(kv, tallied, counting(true));
  assertEquals((await store.get(PROGRESS)).value, { after: null, indexed: 25, done: true }, "still done, counted once");
  assertEquals(slow, { read: 0, written: 0, done: true }, "the run behind sees it done");
  assertEquals((await store.get(["things_meta", "finished"])).value, new Deno.KvU64(1n));
  assertEquals((await indexed(store)).length, 25);
});
