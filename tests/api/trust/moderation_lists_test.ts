/**
 * The moderation queue reads its page (docs/decisions.md, Trust, "The moderation queue reads its page";
 * docs/performance.md, Admin lists at scale): the status asked for only, its keys up to the page's end, and the counts
 * from counters kept by the listings' writes; entries kept before the counters are counted once by `moderation-counts`.
 * Counted with a KV that records reads, at 20 held listings and 2,000 rejected.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { call } from "./helpers.ts";

Deno.test("20 held and 2,000 rejected: a page reads its status's keys up to its end and two counters", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  // Rejected entries as kept before the counters (their listings do not matter to the counts).
  for (let from = 0; from < 2_000; from += 500) {
    const op = t.kv.atomic();
    for (let i = from; i < from + 500; i++) {
      op.set(["moderation_queue", "internships", "rejected", "", `old-${i}`], true);
    }
    await op.commit();
  }
  const held = await postInternships(
    t,
    member,
    Array.from({ length: 20 }, (_, i) => ({ title: `Held ${i}`, description: "Pay the registration fee of ₹500." })),
  );
  const view = async (query: string) => {
    await t.settled(); // what the last request started in the background (a notice's delivery) reads too
    reads.listed = 0;
    const list = await call(t, admin, "GET", `/api/admin/moderation?limit=20${query}`);
    assertEquals(list.status, 200);
    return { ...list.body, listed: reads.listed };
  };
  // Before the entries kept earlier are counted, the counts list them.
  assertEquals((await view("&status=held")).counts, { held: 20, rejected: 2_000 });
  assertEquals(await runJob(findJob("moderation-counts")!, t.services), { job: "moderation-counts", counted: 2_020 });
  assertEquals(await runJob(findJob("moderation-counts")!, t.services), { job: "moderation-counts", counted: 0 });

  const heldView = await view("&status=held");
  assertEquals([heldView.counts, heldView.pagination.total, heldView.items.length], [
    { held: 20, rejected: 2_000 },
    20,
    20,
  ]);
  assertEquals(heldView.listed, 20, "the held view reads the 20 held keys, not the 2,000 rejected");
  const both = await view("");
  assertEquals([both.items.length, both.pagination.total, both.listed], [20, 2_020, 20]);
  const second = await view("&offset=20");
  assertEquals([second.pagination.hasMore, second.listed], [true, 40], "the held ones, then 20 rejected keys");

  // The listings' writes keep the counters.
  const decide = (id: string, decision: string) =>
    call(t, admin, "POST", `/api/admin/moderation/internships/${id}`, { decision });
  assertEquals((await decide(held[0].id, "approve")).status, 200);
  assertEquals((await decide(held[1].id, "reject")).status, 200);
  const rejected = await view("&status=rejected&limit=5");
  assertEquals(rejected.counts, { held: 18, rejected: 2_001 });
  assertEquals([rejected.items[0].listing.id, rejected.listed], [held[1].id, 5]);
  assertEquals((await view("&kind=opportunities")).counts, { held: 0, rejected: 0 });
});
