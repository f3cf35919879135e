/**
 * The list's `sort` (docs/decisions.md, Internships, "Sorting"): newest first by default; the soonest deadline first
 * with listings without one last; the highest stipend first with unstated ones last; equal keys newest first; filters
 * and pages apply to the sorted list; closed listings come after the open ones; an unknown order is 400.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { istToday } from "@/lib/dates.ts";
import { InternshipCreateSchema } from "@/lib/internships/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";

const day = (n: number) => istToday(new Date(Date.now() + n * 86_400_000));

async function titles(t: TestApp, query: string): Promise<string[]> {
  const res = await t.fetch(`/api/internships?${query}`);
  assertEquals(res.status, 200, query);
  return (await res.json()).internships.map((i: { title: string }) => i.title);
}

Deno.test("sort orders the list by newest, deadline or stipend; ties stay newest first; filters and pages apply", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  for (
    const fields of [
      { title: "A", deadline: day(20), stipend: 5000, type: "remote" },
      { title: "B", deadline: null, stipend: 20000, type: "onsite" },
      { title: "C", deadline: day(3), stipend: null, type: "remote" },
      { title: "D", deadline: day(20), stipend: 20000, type: "remote" },
      { title: "E", deadline: day(1), stipend: 0, type: "onsite" },
    ]
  ) {
    await postInternships(t, member, [fields]);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assertEquals(await titles(t, ""), ["E", "D", "C", "B", "A"]);
  assertEquals(await titles(t, "sort=newest"), ["E", "D", "C", "B", "A"]);
  assertEquals(await titles(t, "sort=deadline"), ["E", "C", "D", "A", "B"]);
  assertEquals(await titles(t, "sort=stipend"), ["D", "B", "A", "E", "C"]);
  assertEquals(await titles(t, "sort=deadline&types=remote"), ["C", "D", "A"]);
  assertEquals(await titles(t, "sort=stipend&minStipend=1"), ["D", "B", "A"]);
  assertEquals(await titles(t, "sort=deadline&limit=2&offset=2"), ["D", "A"]);
  const page = await (await t.fetch("/api/internships?sort=stipend&limit=2")).json();
  assertEquals(page.pagination, { limit: 2, offset: 0, total: 5, hasMore: true });

  // A new listing is in the sorted list at once.
  await postInternships(t, member, [{ title: "F", deadline: day(2), stipend: 30000 }]);
  assertEquals(await titles(t, "sort=deadline"), ["E", "F", "C", "D", "A", "B"]);
  assertEquals((await titles(t, "sort=stipend"))[0], "F");

  const bad = await t.fetch("/api/internships?sort=popular");
  assertEquals(bad.status, 400);
  assert(Array.isArray((await bad.json()).error));
});

Deno.test("with closed listings included, the open ones come sorted and the closed ones after, newest first", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const write = async (title: string, deadline: string | null, stipend: number) => {
    await createInternships(t.kv, member.user, [
      InternshipCreateSchema.parse(internshipBody({ title, deadline, stipend })),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2));
  };
  await write("Oldest closed", day(-60), 70000);
  await write("Old closed", day(-30), 90000);
  await write("Open cheap", day(10), 1000);
  await write("New closed", day(-2), 80000);
  await write("Open rich", day(40), 50000);
  assertEquals(await titles(t, "includeClosed=true&sort=stipend"), [
    "Open rich",
    "Open cheap",
    "New closed",
    "Old closed",
    "Oldest closed",
  ]);
  assertEquals(await titles(t, "includeClosed=true&sort=deadline&limit=2&offset=1"), ["Open rich", "New closed"]);
  // Past the open ones: every closed one is counted and paged (three of them, more than a page of two).
  const closedPage = await (await t.fetch("/api/internships?includeClosed=true&sort=deadline&limit=2&offset=3")).json();
  assertEquals(closedPage.pagination, { limit: 2, offset: 3, total: 5, hasMore: false });
  assertEquals(closedPage.internships.map((i: { title: string }) => i.title), ["Old closed", "Oldest closed"]);
  assertEquals(await titles(t, "includeClosed=true"), [
    "Open rich",
    "New closed",
    "Open cheap",
    "Old closed",
    "Oldest closed",
  ]);
});
