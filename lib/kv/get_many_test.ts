import { assertEquals } from "@/tests/helpers/assert.ts";
import { getManyChunked } from "./get_many.ts";

/** `kv` whose `getMany` calls are counted, with their keys and how many were in flight at most. */
function countingGetMany(kv: Deno.Kv) {
  const calls: { keys: number; consistency?: Deno.KvConsistencyLevel }[] = [];
  let inFlight = 0, mostInFlight = 0;
  const counted = new Proxy(kv, {
    get(target, name) {
      if (name === "getMany") {
        return async (keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
          calls.push({ keys: keys.length, consistency: options?.consistency });
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          try {
            // A turn of the event loop, so calls made at once overlap.
            await new Promise((resolve) => setTimeout(resolve, 0));
            return await target.getMany(keys, options);
          } finally {
            inFlight--;
          }
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, calls, mostInFlight: () => mostInFlight };
}

Deno.test("getManyChunked reads 25 keys in calls of 10, 10 and 5, in the keys' order, missing keys as null", async () => {
  await using kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 25; i++) if (i % 7 !== 3) await kv.set(["n", i], i);
  const { kv: counted, calls } = countingGetMany(kv);
  const keys = Array.from({ length: 25 }, (_, i) => ["n", 24 - i]);
  const entries = await getManyChunked<number>(counted, keys);
  assertEquals(calls.map((call) => call.keys), [10, 10, 5]);
  assertEquals(entries.map((entry) => entry.key), keys);
  assertEquals(entries.map((entry) => entry.value), keys.map(([, n]) => (n as number) % 7 === 3 ? null : n));
  const missing = entries.filter((entry) => entry.value === null);
  assertEquals(missing.map((entry) => entry.versionstamp), [null, null, null, null]);
  assertEquals(entries.filter((entry) => entry.value !== null).every((entry) => entry.versionstamp !== null), true);
});

Deno.test("getManyChunked makes no call for no keys", async () => {
  await using kv = await Deno.openKv(":memory:");
  const { kv: counted, calls } = countingGetMany(kv);
  assertEquals(await getManyChunked(counted, []), []);
  assertEquals(calls.length, 0);
});

Deno.test("getManyChunked keeps at most `inFlight` calls in flight, 128 unless said", async () => {
  await using kv = await Deno.openKv(":memory:");
  const keys = Array.from({ length: 2000 }, (_, i) => ["n", i]);
  const all = countingGetMany(kv);
  assertEquals((await getManyChunked(all.kv, keys)).length, 2000);
  assertEquals(all.calls.length, 200);
  assertEquals(all.mostInFlight(), 128);
  const inTurn = countingGetMany(kv);
  await getManyChunked(inTurn.kv, keys.slice(0, 35), { inFlight: 1 });
  assertEquals(inTurn.calls.length, 4);
  assertEquals(inTurn.mostInFlight(), 1);
});

Deno.test("getManyChunked passes the consistency on, strong unless said", async () => {
  await using kv = await Deno.openKv(":memory:");
  const { kv: counted, calls } = countingGetMany(kv);
  await getManyChunked(counted, [["a"]]);
  await getManyChunked(counted, [["a"]], { consistency: "eventual" });
  assertEquals(calls.map((call) => call.consistency), ["strong", "eventual"]);
});
