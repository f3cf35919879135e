/**
 * The read model keeps at most `RECORD_CHUNKS_KEPT` decoded record chunks: paging through every
 * listing returns each record right and leaves no more than that in memory.
 */
import { RECORD_CHUNKS_KEPT } from "@/lib/kv/chunked/read_model.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { DEFAULT_QUERY, listInternships } from "@/lib/internships/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { createUser } from "@/lib/users/users.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";

/** A member who owns the imported listings. */
function createOwner(kv: Deno.Kv) {
  return createUser(kv, { name: "Owner", email: "owner@example.com", emailVerified: true, role: "member" });
}

Deno.test("paging through every listing keeps at most RECORD_CHUNKS_KEPT record chunks in memory", async () => {
  await using kv = await Deno.openKv(":memory:");
  const owner = await createOwner(kv);
  const records = generateInternships(16_000, [owner.id], { seed: 3 });
  await importInternships(kv, records);
  const store = await internshipStore(kv);
  const cache = store.model["records"];
  const chunks = new Set(records.map((r) => store.model["chunkOf"][store.model.slotOf(r.id)!]));
  assert(chunks.size > RECORD_CHUNKS_KEPT, `${chunks.size} chunks, more than the cache keeps`);
  const seen = new Set<string>();
  for (let offset = 0;; offset += 100) {
    const page = await listInternships(kv, {
      query: { ...DEFAULT_QUERY, includeClosed: true, limit: 100, offset },
      viewer: null,
    });
    for (const internship of page.internships) seen.add(internship.id);
    assert(cache.size <= RECORD_CHUNKS_KEPT, `${cache.size} chunks kept`);
    if (!page.pagination.hasMore) break;
  }
  assertEquals(seen.size, records.length);
  const byId = new Map(records.map((r) => [r.id, r]));
  const [first] = (await listInternships(kv, { query: { ...DEFAULT_QUERY, limit: 1 }, viewer: null })).internships;
  assertEquals(first.title, byId.get(first.id)!.title);
});

Deno.test("an import stores records in list order, so a page reads one or two record chunks", async () => {
  await using kv = await Deno.openKv(":memory:");
  const owner = await createOwner(kv);
  const records = generateInternships(3_000, [owner.id], { seed: 5 });
  await importInternships(kv, records);
  const { model } = await internshipStore(kv);
  const chunkOf = (id: string) => model["chunkOf"][model.slotOf(id)!];
  const chunks = model.slots.order.map((slot) => chunkOf(model.slots.ids[slot]));
  assert(new Set(chunks).size > 20, `${new Set(chunks).size} chunks`);
  chunks.forEach((n, i) => assert(i === 0 || n >= chunks[i - 1], `record ${i} in chunk ${n}, after ${chunks[i - 1]}`));
  const page = await listInternships(kv, { query: { ...DEFAULT_QUERY, limit: 20, offset: 40 }, viewer: null });
  const read = new Set(page.internships.map((internship) => chunkOf(internship.id)));
  assert(read.size <= 2, `a page of 20 read ${read.size} chunks`);
});
