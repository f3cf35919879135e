import { assertEquals } from "@/tests/helpers/assert.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import type { Moderation } from "./moderation.ts";
import { countQueueEntries, moderationQueueOps, moderationQueuePage } from "./queue.ts";

const rejected = (heldAt: string | null): Moderation => ({
  status: "rejected",
  reasons: ["REJECTED_BY_ADMIN"],
  heldAt,
  decidedAt: heldAt,
  note: null,
});

Deno.test("a listing rejected while the old entries are counted is counted too: the count is taken again", async () => {
  using kv = await Deno.openKv(":memory:");
  // Three rejected entries kept before the counters.
  for (const id of ["a", "b", "c"]) await kv.set(["moderation_queue", "internships", "rejected", "", id], true);
  const query = { kind: "internships" as const, status: "rejected" as const, limit: 20, offset: 0 };
  let raced = false;
  const counting = kvWithCommits(kv, async (_n, apply, sets) => {
    const counter = sets.some((key) => key[0] === "moderation_queue_count" && key[2] === "rejected");
    if (counter && !raced) {
      raced = true; // a listing's write lands between the count's list and its write
      const op = kv.atomic();
      moderationQueueOps(op, "internships", null, { id: "d", moderation: rejected("2026-11-28T10:00:00.000Z") });
      await op.commit();
    }
    return await apply();
  });
  assertEquals(await countQueueEntries(counting), { counted: 4 });
  assertEquals(raced, true);
  const page = await moderationQueuePage(kv, query);
  assertEquals([page.counts, page.total, page.entries.map((entry) => entry.id)], [
    { held: 0, rejected: 4 },
    4,
    ["d", "c", "b", "a"],
  ]);
  // Once counted, the listings' writes keep the counter: "d" approved leaves three.
  const op = kv.atomic();
  moderationQueueOps(op, "internships", { id: "d", moderation: rejected("2026-11-28T10:00:00.000Z") }, { id: "d" });
  await op.commit();
  assertEquals((await moderationQueuePage(kv, query)).counts, { held: 0, rejected: 3 });
  assertEquals(await countQueueEntries(kv), { counted: 0 });
});
