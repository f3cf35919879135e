/**
 * A student with a year's applications (300 here): what they read is read by the page, not all they ever sent
 * (docs/performance.md, Student space benchmark). Reads are counted (`tests/helpers/kv_reads.ts`), never timed.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type KvReads, kvReads } from "@/tests/helpers/kv_reads.ts";
import { applicant } from "@/tests/fixtures/applications.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { applyTo } from "@/lib/applications/applications.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";

const APPLICATIONS = 300;

/**
 * `count` internships taking applications here, and a student who applied to each, 20 at a time (oldest first in the
 * listings' order, up to ties within a batch); answers both.
 */
async function heavyApplicant(t: TestApp, count: number): Promise<{ student: TestUser; listings: InternshipView[] }> {
  const owner = await createTestUser(t, "member");
  const listings: InternshipView[] = [];
  for (let i = 0; i < count; i += 100) {
    const items = Array.from(
      { length: Math.min(100, count - i) },
      (_, j) => internshipInput({ title: `Intern ${i + j}`, applyMode: "platform", deadline: "2099-12-31" }),
    );
    listings.push(...await createInternships(t.kv, owner.user, items));
  }
  const student = await applicant(t, "Keen Student");
  for (let i = 0; i < listings.length; i += 20) {
    await Promise.all(
      listings.slice(i, i + 20).map((listing) =>
        applyTo(t.kv, { internshipId: listing.id, applicant: student.user, body: { answers: [], coverNote: "Hello" } })
      ),
    );
  }
  return { student, listings };
}

/** What was read of the person index since `from` (a `reads.keys.length` and `reads.lists.length` taken before). */
function personReads(reads: KvReads, from: { keys: number; lists: number }): { keys: number; lists: number } {
  const isPerson = (key: readonly unknown[]) => key[0] === "applications_by_person";
  return {
    keys: reads.keys.slice(from.keys).filter(isPerson).length,
    lists:
      reads.lists.slice(from.lists).filter(({ selector }) =>
        isPerson("prefix" in selector ? selector.prefix : (selector as { start: Deno.KvKey }).start)
      ).length,
  };
}

const mark = (reads: KvReads) => ({ keys: reads.keys.length, lists: reads.lists.length });

Deno.test("saved ids answer `applied` for the internships asked about, read by key, not the person's every one", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { student, listings } = await heavyApplicant(t, APPLICATIONS);
  const [other] = await createInternships(t.kv, (await createTestUser(t, "member")).user, [internshipInput()]);
  const shown = [...listings.slice(0, 19), other];
  const before = mark(reads);
  const res = await t.fetch(`/api/me/saved/ids?internships=${shown.map((listing) => listing.id)}`, {
    headers: student.headers,
  });
  assertEquals(res.status, 200);
  const { applied } = await res.json();
  assertEquals(Object.keys(applied).sort(), listings.slice(0, 19).map((listing) => listing.id).sort());
  assertEquals(personReads(reads, before), { keys: 20, lists: 0 }, "the 20 cards' entries, by key");

  const tooMany = listings.slice(0, 101).map((listing) => listing.id).join(",");
  const refused = await t.fetch(`/api/me/saved/ids?internships=${tooMany}`, { headers: student.headers });
  assertEquals(refused.status, 400);
  assertEquals((await refused.json()).error[0].path, ["internships"]);
});
