/**
 * The opportunities API (docs/decisions.md, Opportunities; docs/api.md, Opportunities, "Review states") for guest,
 * user, member, owner and admin: submission and review states, the public list with `type` and `search`,
 * `mine=true`, read by id, the admin queue with counts, approve/reject (also at once), validation, 401 vs 403 and
 * unknown ids.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { latestDate, MAX_SPAN_YEARS, MAX_YEARS_AHEAD } from "@/lib/opportunities/schema.ts";

const HACKATHON = {
  title: "Smart India Hackathon",
  description: "Build solutions for ministries in 36 hours.",
  location: "Bengaluru",
  type: "hackathon",
  startDate: `${NEXT_YEAR}-03-01`,
  endDate: `${NEXT_YEAR}-03-02`,
  link: "https://sih.example.gov/apply",
  organizer: "AICTE",
};

/** Submits as `who`; submissions are 2 ms apart so "newest first" never depends on the ids of a tie. */
async function submit(t: TestApp, who: TestUser, body: Record<string, unknown> = HACKATHON) {
  await new Promise((resolve) => setTimeout(resolve, 2));
  const res = await t.json("POST", "/api/opportunities", { body, headers: who.headers });
  assertEquals(res.status, 201);
  return (await res.json()).opportunity;
}

async function get(t: TestApp, path: string, who?: TestUser) {
  const res = await t.fetch(path, { headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

async function review(t: TestApp, admin: TestUser, id: string, action: string) {
  return await t.json("PATCH", `/api/admin/opportunities/${id}`, { body: { action }, headers: admin.headers });
}

Deno.test("a user's submission awaits review: hidden from the public, visible to its owner and in the queue", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user", { name: "Sara Student" });
  const other = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const created = await submit(t, user);
  assertEquals(created.isVerified, false);
  assertEquals(created.isActive, true);
  assertEquals(created.postedBy, { id: user.user.id, name: "Sara Student", role: "user" });
  assertEquals(created.userId, user.user.id);
  for (const field of ["id", "createdAt", "updatedAt"]) assert(created[field], field);

  assertEquals((await get(t, "/api/opportunities")).body.opportunities, []);
  assertEquals((await get(t, `/api/opportunities/${created.id}`)).status, 404);
  assertEquals((await get(t, `/api/opportunities/${created.id}`, other)).status, 404);
  assertEquals((await get(t, `/api/opportunities/${created.id}`, user)).body.opportunity.id, created.id);
  assertEquals((await get(t, `/api/opportunities/${created.id}`, admin)).body.opportunity.id, created.id);
  const mine = await get(t, "/api/opportunities?mine=true", user);
  assertEquals(mine.body.opportunities.map((o: { id: string }) => o.id), [created.id]);
  assertEquals((await get(t, "/api/opportunities?mine=true", other)).body.opportunities, []);

  const queue = await get(t, "/api/admin/opportunities", admin);
  assertEquals(queue.status, 200);
  assertEquals(queue.body.opportunities.map((o: { id: string }) => o.id), [created.id]);
  assertEquals(queue.body.counts, { pending: 1, approved: 0, rejected: 0, all: 1 });
  assertEquals(queue.body.pagination, { limit: 50, offset: 0, total: 1, hasMore: false });
});

Deno.test("a member's and an admin's submissions are published at once", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const byMember = await submit(t, member);
  const byAdmin = await submit(t, admin, { ...HACKATHON, title: "Admin Grant", type: "grant" });
  assertEquals([byMember.isVerified, byAdmin.isVerified], [true, true]);
  const list = await get(t, "/api/opportunities");
  assertEquals(list.body.opportunities.map((o: { id: string }) => o.id), [byAdmin.id, byMember.id]);
  assertEquals(list.body.success, true);
  assertEquals(list.body.opportunities[1].postedBy.role, "member");
  assertEquals((await get(t, "/api/admin/opportunities", admin)).body.opportunities, []);
});

Deno.test("approve publishes and leaves the queue; reject keeps the record under status=rejected, hidden", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const admin = await createTestUser(t, "admin");
  const first = await submit(t, user);
  const second = await submit(t, user, { ...HACKATHON, title: "Second" });

  const approved = await review(t, admin, first.id, "approve");
  assertEquals(approved.status, 200);
  const body = await approved.json();
  assertEquals([body.success, body.opportunity.isVerified, body.opportunity.isActive], [true, true, true]);
  assertEquals((await get(t, `/api/opportunities/${first.id}`)).body.opportunity.title, HACKATHON.title);

  const rejected = await (await review(t, admin, second.id, "reject")).json();
  assertEquals(rejected.opportunity.isActive, false);
  assertEquals((await get(t, `/api/opportunities/${second.id}`)).status, 404);
  assertEquals((await get(t, `/api/opportunities/${second.id}`, user)).body.opportunity.isActive, false);

  const ids = async (status: string) =>
    (await get(t, `/api/admin/opportunities?status=${status}`, admin)).body.opportunities.map((o: { id: string }) =>
      o.id
    );
  assertEquals(await ids("pending"), []);
  assertEquals(await ids("approved"), [first.id]);
  assertEquals(await ids("rejected"), [second.id]);
  assertEquals(await ids("all"), [second.id, first.id]);
  assertEquals((await get(t, "/api/admin/opportunities", admin)).body.counts, {
    pending: 0,
    approved: 1,
    rejected: 1,
    all: 2,
  });
  assertEquals((await get(t, "/api/opportunities")).body.opportunities.map((o: { id: string }) => o.id), [first.id]);

  const again = await (await review(t, admin, first.id, "approve")).json();
  assertEquals(again.opportunity.updatedAt, body.opportunity.updatedAt, "approving twice changes nothing");
});

Deno.test("concurrent approve and reject of one submission leave one state that the queues agree on", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const admins = [await createTestUser(t, "admin"), await createTestUser(t, "admin")];
  for (let round = 0; round < 5; round++) {
    const { id } = await submit(t, user, { ...HACKATHON, title: `Round ${round}` });
    const answers = await Promise.all([
      review(t, admins[0], id, "approve"),
      review(t, admins[1], id, "reject"),
      review(t, admins[0], id, "approve"),
      review(t, admins[1], id, "reject"),
    ]);
    assertEquals(answers.map((r) => r.status), [200, 200, 200, 200]);
    await Promise.all(answers.map((r) => r.body?.cancel()));
    const final = (await get(t, `/api/opportunities/${id}`, admins[0])).body.opportunity;
    const state = !final.isActive ? "rejected" : final.isVerified ? "approved" : "pending";
    let found = 0;
    for (const status of ["pending", "approved", "rejected"]) {
      const queue = await get(t, `/api/admin/opportunities?status=${status}&limit=100`, admins[0]);
      if (queue.body.opportunities.some((o: { id: string }) => o.id === id)) {
        found++;
        assertEquals(status, state);
      }
    }
    assertEquals(found, 1, "in exactly one queue");
  }
  const { counts } = (await get(t, "/api/admin/opportunities?status=all", admins[0])).body;
  assertEquals(counts.all, 5);
  assertEquals(counts.pending + counts.approved + counts.rejected, 5);
});

Deno.test("the public list filters by type and search and pages like internships", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const grant = await submit(t, member, {
    ...HACKATHON,
    title: "Women in Tech Grant",
    type: "grant",
    location: "Pune",
  });
  const contest = await submit(t, member, { ...HACKATHON, title: "Robotics Contest", type: "competition" });
  const hack = await submit(t, member);
  const ids = async (query: string) =>
    (await get(t, `/api/opportunities?${query}`)).body.opportunities.map((o: { id: string }) => o.id);
  assertEquals(await ids("type=grant"), [grant.id]);
  assertEquals(await ids("type=grant,competition"), [contest.id, grant.id]);
  assertEquals(await ids("search=robotics"), [contest.id]);
  assertEquals(await ids("q=PUNE"), [grant.id]);
  assertEquals(await ids("search=aicte%20hackathon"), [hack.id]);
  assertEquals(await ids("search=tech&type=hackathon"), []);
  const paged = await get(t, "/api/opportunities?limit=2&offset=1");
  assertEquals(paged.body.opportunities.map((o: { id: string }) => o.id), [contest.id, grant.id]);
  assertEquals(paged.body.pagination, { limit: 2, offset: 1, total: 3, hasMore: false });
  for (const bad of ["type=job", "limit=0", "limit=101", "offset=-1", "limit=abc"]) {
    const res = await get(t, `/api/opportunities?${bad}`);
    assertEquals(res.status, 400, bad);
    assert(Array.isArray(res.body.error), bad);
  }
});

Deno.test("submission validation: unknown type, end before start, missing title, bad dates and links", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const cases: [Record<string, unknown>, string][] = [
    [{ ...HACKATHON, type: "job" }, "type"],
    [{ ...HACKATHON, startDate: `${NEXT_YEAR}-03-05`, endDate: `${NEXT_YEAR}-03-01` }, "endDate"],
    [{ ...HACKATHON, title: undefined }, "title"],
    [{ ...HACKATHON, title: "   " }, "title"],
    [{ ...HACKATHON, startDate: `${NEXT_YEAR}-02-30` }, "startDate"],
    [{ ...HACKATHON, endDate: "03/02/2099" }, "endDate"],
    [{ ...HACKATHON, link: "javascript:alert(1)" }, "link"],
    [{ ...HACKATHON, link: "ftp://example.com/x" }, "link"],
  ];
  for (const [body, field] of cases) {
    const res = await t.json("POST", "/api/opportunities", { body, headers: user.headers });
    assertEquals(res.status, 400, field);
    const { error } = await res.json();
    assert(error.some((issue: { path: string[] }) => issue.path[0] === field), `${field}: ${JSON.stringify(error)}`);
  }
  const malformed = await t.fetch("/api/opportunities", {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals([malformed.status, await malformed.json()], [400, { error: "Invalid JSON body" }]);
  const forged = await submit(t, user, { ...HACKATHON, isVerified: true, userId: "someone-else", id: "x" });
  assertEquals([forged.isVerified, forged.userId], [false, user.user.id]);
  assert(forged.id !== "x");
});

Deno.test("dates are bounded: from 2000 to a few years ahead, the end within two years of the start, in both languages", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [en, hi] = [translatorFor("en"), translatorFor("hi")];
  const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const latest = latestDate();
  const send = (dates: Record<string, string>) =>
    t.json("POST", "/api/opportunities", { body: { ...HACKATHON, ...dates }, headers: member.headers });
  const refused: [Record<string, string>, Record<string, string>][] = [
    // Published at once by a member, before: "ongoing" for ten thousand years, and an ICS ending in year 10000.
    [{ startDate: "0001-01-01", endDate: "9999-12-31" }, {
      startDate: "fields.dateFrom2000",
      endDate: "fields.dateYearsAhead",
    }],
    [{ startDate: "1999-12-31", endDate: "2000-01-01" }, { startDate: "fields.dateFrom2000" }],
    [{ startDate: `${NEXT_YEAR}-01-01`, endDate: dayAfter(latest) }, { endDate: "fields.dateYearsAhead" }],
    [
      { startDate: `${NEXT_YEAR}-01-01`, endDate: `${NEXT_YEAR + MAX_SPAN_YEARS}-01-02` },
      { endDate: "fields.spanTooLong" },
    ],
  ];
  for (const [dates, keys] of refused) {
    const res = await send(dates);
    assertEquals(res.status, 400, JSON.stringify(dates));
    const { fields } = await res.json();
    assertEquals(
      Object.fromEntries(fields.map((f: { field: string; messageKey: string }) => [f.field, f.messageKey])),
      keys,
    );
    for (const { field, message } of fields) assertEquals(message, en(keys[field] as "fields.spanTooLong"));
  }
  assert(en("fields.dateYearsAhead").includes(String(MAX_YEARS_AHEAD)), "the English says the years ahead");
  assert(hi("fields.dateYearsAhead").includes(String(MAX_YEARS_AHEAD)), "the Hindi says the years ahead");
  assert(
    en("fields.spanTooLong").includes(String(MAX_SPAN_YEARS)) &&
      hi("fields.spanTooLong").includes(String(MAX_SPAN_YEARS)),
  );
  for (
    const dates of [
      { startDate: "2000-01-01", endDate: "2000-01-01" },
      { startDate: `${NEXT_YEAR}-01-01`, endDate: `${NEXT_YEAR + MAX_SPAN_YEARS}-01-01` },
      { startDate: latest, endDate: latest },
    ]
  ) {
    assertEquals((await send(dates)).status, 201, JSON.stringify(dates));
  }

  const hindi = { ...member.headers, cookie: `${member.cookie}; lang=hi` };
  const page = await t.fetch("/opportunities/new", {
    method: "POST",
    headers: { ...hindi, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      title: "Forever Hack",
      type: "hackathon",
      startDate: "0001-01-01",
      endDate: "9999-12-31",
    }),
  });
  assertEquals(page.status, 400);
  const html = await page.text();
  for (const key of ["fields.dateFrom2000", "fields.dateYearsAhead"] as const) assert(html.includes(hi(key)), key);
});

Deno.test("401 without a session and 403 for non-admins; unknown ids and actions", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const { id } = await submit(t, user);
  assertEquals((await t.json("POST", "/api/opportunities", { body: HACKATHON })).status, 401);
  assertEquals((await get(t, "/api/opportunities?mine=true")).status, 401);
  assertEquals((await get(t, "/api/admin/opportunities")).status, 401);
  assertEquals((await t.json("PATCH", `/api/admin/opportunities/${id}`, { body: { action: "approve" } })).status, 401);
  for (const who of [user, member]) {
    assertEquals((await get(t, "/api/admin/opportunities", who)).status, 403);
    const res = await review(t, who, id, "approve");
    assertEquals([res.status, await res.json()], [403, { error: "Forbidden" }]);
  }
  assertEquals((await get(t, `/api/opportunities/${id}`, admin)).body.opportunity.isVerified, false, "nothing changed");
  const unknown = await review(t, admin, "no-such-id", "approve");
  assertEquals([unknown.status, await unknown.json()], [404, { error: "Opportunity not found" }]);
  assertEquals((await get(t, "/api/opportunities/no-such-id")).body, { error: "Opportunity not found" });
  for (const action of ["publish", "", 1, undefined]) {
    const res = await review(t, admin, id, action as string);
    assertEquals([res.status, await res.json()], [400, { error: "Action must be approve or reject" }]);
  }
  assertEquals((await get(t, "/api/admin/opportunities?status=archived", admin)).status, 400);
});
