/**
 * Closed listings (docs/decisions.md, Dates; docs/decisions.md, Student space): an internship whose deadline's IST day
 * is before today is left out of `GET /api/internships` unless `includeClosed=true`, carries `isClosed`, and its page
 * offers no "Apply"; opportunities are listed open first, closed ones after or left out with `includeClosed=false`.
 */
import { istToday } from "@/lib/dates.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";

const DAY_MS = 86_400_000;
/** The IST day `days` from today, `YYYY-MM-DD`. */
const day = (days: number) => istToday(new Date(Date.now() + days * DAY_MS));

async function list(t: TestApp, path: string, who?: TestUser) {
  const res = await t.fetch(path, { headers: who?.headers });
  assertEquals(res.status, 200, path);
  return await res.json();
}

const titlesOf = (items: { title: string }[]) => items.map((item) => item.title);

Deno.test("closed internships are left out of the list unless includeClosed=true, and carry isClosed", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  // Oldest first, so the list (newest first) reads bottom to top.
  for (
    const [title, deadline] of [
      ["No deadline", null],
      ["Closed yesterday", day(-1)],
      ["Closes today", day(0)],
      ["Closed at midnight IST", `${day(-1)}T18:29:00.000Z`],
      ["Closes tomorrow", day(1)],
    ] as const
  ) {
    await postInternships(t, member, [{ title, deadline, type: "remote" }]);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const open = await list(t, "/api/internships");
  assertEquals(titlesOf(open.internships), ["Closes tomorrow", "Closes today", "No deadline"]);
  assertEquals(open.pagination.total, 3);
  assert(open.internships.every((i: { isClosed: boolean }) => i.isClosed === false));

  const all = await list(t, "/api/internships?includeClosed=true");
  assertEquals(all.pagination.total, 5);
  assertEquals(
    all.internships.map((i: { title: string; isClosed: boolean }) => [i.title, i.isClosed]),
    [
      ["Closes tomorrow", false],
      ["Closed at midnight IST", true],
      ["Closes today", false],
      ["Closed yesterday", true],
      ["No deadline", false],
    ],
  );
  // A filter leaves closed ones out as well; the owner's own list keeps them.
  assertEquals((await list(t, "/api/internships?types=remote")).pagination.total, 3);
  assertEquals((await list(t, "/api/internships?types=remote&includeClosed=true")).pagination.total, 5);
  assertEquals((await list(t, "/api/internships?mine=true", member)).pagination.total, 5);

  const closed = all.internships.find((i: { title: string }) => i.title === "Closed yesterday");
  const read = await list(t, `/api/internships/${closed.id}`);
  assertEquals(read.internship.isClosed, true);

  const bad = await t.fetch("/api/internships?includeClosed=yes");
  assertEquals(bad.status, 400);
});

Deno.test("a listing whose deadline moves into the past leaves the kept list; a new closed one never enters it", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [first] = await postInternships(t, member, [{ title: "Moves", deadline: day(5) }]);
  assertEquals(titlesOf((await list(t, "/api/internships")).internships), ["Moves"]);
  await postInternships(t, member, [{ title: "Born closed", deadline: day(-3) }]);
  await postInternships(t, member, [{ title: "Born open", deadline: day(3) }]);
  assertEquals(titlesOf((await list(t, "/api/internships")).internships), ["Born open", "Moves"]);
  const res = await t.json("PUT", `/api/internships/${first.id}`, {
    body: { deadline: day(-1) },
    headers: member.headers,
  });
  assertEquals(res.status, 200);
  assertEquals((await res.json()).internship.isClosed, true);
  assertEquals(titlesOf((await list(t, "/api/internships")).internships), ["Born open"]);
  assertEquals((await list(t, "/api/internships?includeClosed=true")).pagination.total, 3);
});

Deno.test("a closed internship's page shows Closed and no Apply link; an open one has both Apply and no badge", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [closed, open] = await postInternships(t, member, [
    { title: "Past Intern", deadline: day(-2) },
    { title: "Future Intern", deadline: day(2) },
  ]);
  const closedPage = await (await t.fetch(`/internships/${closed.id}`)).text();
  assert(closedPage.includes(">Closed<"), "Closed badge");
  assert(closedPage.includes("Applications are closed."));
  assert(!closedPage.includes("Apply on"), "no Apply link");
  const openPage = await (await t.fetch(`/internships/${open.id}`)).text();
  assert(openPage.includes("Apply on"));
  assert(!openPage.includes(">Closed<"));
});

Deno.test("opportunities: open ones first by end date, start date, newest; then closed ones by latest end date", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const submit = async (title: string, startDate: string, endDate: string) => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const res = await t.json(
      "POST",
      "/api/opportunities",
      { body: { title, type: "hackathon", startDate, endDate }, headers: member.headers },
    );
    assertEquals(res.status, 201);
    return (await res.json()).opportunity;
  };
  await submit("Closed long ago", day(-30), day(-20));
  await submit("Ends in 10, started", day(-2), day(10));
  await submit("Ends in 3, starts in 2", day(2), day(3));
  await submit("Ends in 3, started", day(-1), day(3));
  await submit("Closed yesterday", day(-5), day(-1));
  await submit("Ends today", day(0), day(0));
  const older = await submit("Ends in 10, started (older twin)", day(-2), day(10));
  await submit("Ends in 10, started (newer twin)", day(-2), day(10));
  const body = await list(t, "/api/opportunities?limit=20");
  assertEquals(titlesOf(body.opportunities), [
    "Ends today",
    "Ends in 3, started",
    "Ends in 3, starts in 2",
    "Ends in 10, started (newer twin)",
    "Ends in 10, started (older twin)",
    "Ends in 10, started",
    "Closed yesterday",
    "Closed long ago",
  ]);
  assertEquals(
    body.opportunities.map((o: { isClosed: boolean }) => o.isClosed),
    [false, false, false, false, false, false, true, true],
  );
  const open = await list(t, "/api/opportunities?includeClosed=false&limit=20");
  assertEquals(open.pagination.total, 6);
  assert(open.opportunities.every((o: { isClosed: boolean }) => !o.isClosed));
  assertEquals((await list(t, "/api/opportunities?includeClosed=false&search=twin")).pagination.total, 2);
  assertEquals((await list(t, `/api/opportunities/${older.id}`)).opportunity.isClosed, false);
  assertEquals((await t.fetch("/api/opportunities?includeClosed=maybe")).status, 400);
});

Deno.test("a closed opportunity's page shows Closed and no apply link", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const res = await t.json("POST", "/api/opportunities", {
    body: {
      title: "Old Hack",
      type: "hackathon",
      startDate: day(-4),
      endDate: day(-1),
      link: "https://hack.example.com",
    },
    headers: member.headers,
  });
  const { opportunity } = await res.json();
  assertEquals(opportunity.isClosed, true);
  const page = await (await t.fetch(`/opportunities/${opportunity.id}`)).text();
  assert(page.includes(">Closed<"));
  assert(!page.includes("Apply or learn more"));
});
