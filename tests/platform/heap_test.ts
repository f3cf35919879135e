/**
 * `compactHeap` gives the heap a bulk load grew to back, and does not leave a `gc` in the
 * platform's global scope; `GrowthCollection` collects after growth, after a quiet while, not too often.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { collectGarbage, compactHeap, GrowthCollection } from "@/lib/platform/heap.ts";

Deno.test("compactHeap shrinks the heap a load left behind, without exposing gc globally", async () => {
  let load: { id: string; tags: string[] }[] | null = [];
  for (let i = 0; i < 400_000; i++) load.push({ id: `listing-${i}`, tags: [`tag-${i % 97}`, `city-${i % 13}`] });
  // Survive a few young-generation collections, as a read model's load does.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assertEquals(load.length, 400_000);
  load = null;
  const before = Deno.memoryUsage().heapTotal;

  assert(compactHeap(), "the runtime allows a memory-reducing collection");

  const after = Deno.memoryUsage().heapTotal;
  assert(after < before - 20_000_000, `heap ${before} → ${after} bytes`);
  assertEquals("gc" in globalThis, false);
});

Deno.test("GrowthCollection collects once the memory in use grew past its bound, after a quiet while, not too often", async () => {
  let used = 100, now = 0, collections = 0, idle = true;
  /** What happens while the collection's wait sleeps `ms` (time passes, requests come). */
  let meanwhile = (_ms: number) => {};
  const collection = new GrowthCollection(
    { growthBytes: 50, lookEveryMs: 10, collectEveryMs: 1_000, quietMs: 300 },
    () => used,
    () => {
      collections++;
      used -= 40;
      return true;
    },
    () => now,
    (ms) => {
      meanwhile(ms);
      return Promise.resolve();
    },
  );
  const started: Promise<void>[] = [];
  const start = (work: () => Promise<void>) => void started.push(work());
  const after = () => collection.afterRequests(() => idle, start);
  const quiet = (ms: number) => void (now += ms);

  meanwhile = quiet;
  assertEquals(after(), false, "the first look sets the baseline");
  used = 149;
  now = 20;
  assertEquals(after(), false, "grown by less than the bound");
  used = 160;
  now = 25;
  assertEquals(after(), false, "looked less than lookEveryMs ago");
  now = 40;
  assertEquals(after(), true, "grown past the bound");
  await Promise.all(started);
  assertEquals([collections, used, now], [1, 120, 340], "collected after a quiet while");

  used = 200;
  now = 500;
  assertEquals(after(), false, "a collection ran less than collectEveryMs ago");
  now = 1_400;
  const waits: number[] = [];
  meanwhile = (ms) => {
    waits.push(ms);
    if (waits.length === 1) {
      now += 200;
      assertEquals(after(), false, "a request answered during the wait: no second wait");
      assertEquals(collections, 1);
    }
    now += ms - (waits.length === 1 ? 200 : 0);
  };
  assertEquals(after(), true);
  await Promise.all(started);
  assertEquals([collections, waits], [2, [300, 200]], "the wait went on until 300 ms passed without an answer");

  used = 220;
  now = 3_000;
  waits.length = 0;
  meanwhile = (ms) => {
    waits.push(ms);
    idle = waits.length > 2;
    now += ms;
  };
  assertEquals(after(), true);
  await Promise.all(started);
  assertEquals([collections, waits], [3, [300, 30, 30]], "a request in flight kept it waiting");
});

Deno.test("collectGarbage runs a full collection where compactHeap can, without exposing gc globally", () => {
  assert(collectGarbage(), "the runtime allows a collection");
  assertEquals("gc" in globalThis, false);
});
