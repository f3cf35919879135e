/**
 * `compactHeap` gives the heap a bulk load grew to back, and does not leave a `gc` in the
 * platform's global scope.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { compactHeap } from "@/lib/platform/heap.ts";

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
