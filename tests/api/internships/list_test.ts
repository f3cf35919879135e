import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";

async function seeded(t: TestApp): Promise<{ member: TestUser; admin: TestUser }> {
  const member = await createTestUser(t, "member", { name: "Mira Member" });
  const admin = await createTestUser(t, "admin");
  await postInternships(t, member, [
    {
      title: "Data Analyst Intern",
      description: "Work with SQL dashboards",
      type: "remote",
      tags: ["Data", "SQL"],
      stipend: 10000,
      location: "Remote",
      hiringOrganization: "Acme Analytics",
    },
    { title: "Design Intern", type: "onsite", tags: ["design"], stipend: 0, location: "Bengaluru, Karnataka" },
    { title: "Python Developer", type: "hybrid", tags: ["python"], stipend: null, location: "Pune, Maharashtra" },
    { title: "Marketing Intern", type: "onsite", tags: ["marketing"], stipend: 50000, location: "New Bengaluru Hub" },
    { title: "Unstated Type Intern", hiringOrganization: "Data Corp", stipend: 25000 },
  ]);
  return { member, admin };
}

async function titles(t: TestApp, query: string, headers?: Record<string, string>): Promise<string[]> {
  const res = await t.fetch(`/api/internships${query}`, { headers });
  assertEquals(res.status, 200, query);
  return (await res.json()).internships.map((i: { title: string }) => i.title).sort();
}

Deno.test("GET /api/internships: newest first, pagination object, owner on every item", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Mira Member" });
  for (const title of ["First", "Second", "Third"]) {
    await postInternships(t, member, [{ title }]);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const res = await t.fetch("/api/internships?limit=2");
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.internships.map((i: { title: string }) => i.title), ["Third", "Second"]);
  assertEquals(body.pagination, { limit: 2, offset: 0, total: 3, hasMore: true });
  for (const item of body.internships) {
    assertEquals(item.user, { id: member.user.id, name: "Mira Member", image: null, role: "member" });
  }
  const next = await (await t.fetch("/api/internships?limit=2&offset=2")).json();
  assertEquals(next.internships.map((i: { title: string }) => i.title), ["First"]);
  assertEquals(next.pagination, { limit: 2, offset: 2, total: 3, hasMore: false });
  const beyond = await (await t.fetch("/api/internships?offset=50")).json();
  assertEquals(beyond.internships, []);
  assertEquals(beyond.pagination, { limit: 10, offset: 50, total: 3, hasMore: false });
});

Deno.test("GET /api/internships: types filter matches any of the listed types", async () => {
  await using t = await createTestApp();
  await seeded(t);
  assertEquals(await titles(t, "?types=remote"), ["Data Analyst Intern"]);
  assertEquals(await titles(t, "?types=onsite,hybrid"), ["Design Intern", "Marketing Intern", "Python Developer"]);
  assertEquals(await titles(t, "?types="), await titles(t, ""));
});

Deno.test("GET /api/internships: tags filter is any-of and case-insensitive", async () => {
  await using t = await createTestApp();
  await seeded(t);
  assertEquals(await titles(t, "?tags=sql"), ["Data Analyst Intern"]);
  assertEquals(await titles(t, "?tags=PYTHON,Design"), ["Design Intern", "Python Developer"]);
  assertEquals(await titles(t, "?tags=sq"), []);
});

Deno.test("GET /api/internships: location is a case-insensitive partial match", async () => {
  await using t = await createTestApp();
  await seeded(t);
  assertEquals(await titles(t, "?location=bengaluru"), ["Design Intern", "Marketing Intern"]);
  assertEquals(await titles(t, "?location=PUNE"), ["Python Developer"]);
  assertEquals(await titles(t, "?location=Mysuru"), []);
});

Deno.test("GET /api/internships: a city's other names find it in the location filter and the search", async () => {
  await using t = await createTestApp();
  const { member } = await seeded(t);
  await postInternships(t, member, [
    { title: "Ops Intern", location: "Gurgaon, Haryana", description: "Logistics in Bombay and Gurgaon" },
  ]);
  assertEquals(await titles(t, "?location=Bangalore"), ["Design Intern", "Marketing Intern"]);
  assertEquals(await titles(t, "?location=poona"), ["Python Developer"]);
  assertEquals(await titles(t, "?location=Gurugram"), ["Ops Intern"]);
  assertEquals(await titles(t, "?location=bangalore%2C%20karnataka"), ["Design Intern"]);
  assertEquals(await titles(t, "?search=mumbai"), ["Ops Intern"]);
  assertEquals(await titles(t, "?search=gurugram%20logistics"), ["Ops Intern"]);
  assertEquals(await titles(t, "?search=gurugram%20design"), []);
  assertEquals(await titles(t, "?search=madras"), []);
});

Deno.test("GET /api/internships: stipend bounds are inclusive and skip null stipends", async () => {
  await using t = await createTestApp();
  await seeded(t);
  assertEquals(await titles(t, "?minStipend=10000"), [
    "Data Analyst Intern",
    "Marketing Intern",
    "Unstated Type Intern",
  ]);
  assertEquals(await titles(t, "?maxStipend=10000"), ["Data Analyst Intern", "Design Intern"]);
  assertEquals(await titles(t, "?minStipend=0&maxStipend=0"), ["Design Intern"]);
  assertEquals(await titles(t, "?minStipend=10000&maxStipend=25000"), ["Data Analyst Intern", "Unstated Type Intern"]);
});

Deno.test("GET /api/internships: search (alias q) matches every word over title, description, organization", async () => {
  await using t = await createTestApp();
  await seeded(t);
  assertEquals(await titles(t, "?search=data"), ["Data Analyst Intern", "Unstated Type Intern"]);
  assertEquals(await titles(t, "?q=DASHBOARD"), ["Data Analyst Intern"]);
  assertEquals(await titles(t, "?search=acme%20sql"), ["Data Analyst Intern"]);
  assertEquals(await titles(t, "?search=acme%20python"), []);
  assertEquals(await titles(t, "?search=ntern"), [
    "Data Analyst Intern",
    "Design Intern",
    "Marketing Intern",
    "Unstated Type Intern",
  ]);
  assertEquals(await titles(t, "?search=%20%20"), await titles(t, ""));
});

Deno.test("GET /api/internships: filters combine with AND and total counts all matches", async () => {
  await using t = await createTestApp();
  await seeded(t);
  const res = await t.fetch("/api/internships?types=onsite&location=bengaluru&minStipend=1&search=intern&limit=1");
  const body = await res.json();
  assertEquals(body.internships.map((i: { title: string }) => i.title), ["Marketing Intern"]);
  assertEquals(body.pagination, { limit: 1, offset: 0, total: 1, hasMore: false });
  assertEquals(await titles(t, "?types=remote&tags=design"), []);
});

Deno.test("GET /api/internships: invalid query values are 400 with the zod issue array", async () => {
  await using t = await createTestApp();
  const cases: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=", "limit"],
    ["offset=-1", "offset"],
    ["offset=ten", "offset"],
    ["types=remote,office", "types"],
    ["minStipend=cheap", "minStipend"],
    ["maxStipend=-5", "maxStipend"],
    ["minStipend=500&maxStipend=100", "maxStipend"],
    ["includeInactive=yes", "includeInactive"],
    ["mine=1", "mine"],
    [`search=${"x".repeat(201)}`, "search"],
  ];
  for (const [query, field] of cases) {
    const res = await t.fetch(`/api/internships?${query}`);
    assertEquals(res.status, 400, query);
    assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
    const { error } = await res.json();
    assert(Array.isArray(error), query);
    assertEquals(error[0].path[0], field, query);
    assertEquals(typeof error[0].code, "string");
  }
  const max = await t.fetch("/api/internships?limit=100&offset=0");
  assertEquals(max.status, 200);
  assertEquals((await max.json()).pagination.limit, 100);
});

Deno.test("GET /api/internships: inactive and deleted are hidden; admins opt in with includeInactive/includeDeleted", async () => {
  await using t = await createTestApp();
  const { member, admin } = await seeded(t);
  const list = await (await t.fetch("/api/internships")).json();
  const byTitle = (title: string) => list.internships.find((i: { title: string }) => i.title === title).id;
  const hide = await t.json("PUT", `/api/internships/${byTitle("Design Intern")}`, {
    body: { isActive: false },
    headers: admin.headers,
  });
  assertEquals(hide.status, 200);
  const del = await t.json("DELETE", `/api/internships/${byTitle("Python Developer")}`, { headers: member.headers });
  assertEquals(del.status, 200);

  const visible = ["Data Analyst Intern", "Marketing Intern", "Unstated Type Intern"];
  assertEquals(await titles(t, ""), visible);
  assertEquals(await titles(t, "?includeInactive=true&includeDeleted=true"), visible);
  assertEquals(await titles(t, "?includeInactive=true&includeDeleted=true", member.headers), visible);
  const user = await createTestUser(t, "user");
  assertEquals(await titles(t, "?includeInactive=true", user.headers), visible);
  assertEquals(await titles(t, "?includeInactive=true", admin.headers), [...visible, "Design Intern"].sort());
  assertEquals(await titles(t, "?includeDeleted=true", admin.headers), [...visible, "Python Developer"].sort());
  assertEquals(
    await titles(t, "?includeInactive=true&includeDeleted=true", admin.headers),
    [...visible, "Design Intern", "Python Developer"].sort(),
  );
  assertEquals(await titles(t, "?includeInactive=false", admin.headers), visible);
  const total = (await (await t.fetch("/api/internships?includeDeleted=true", { headers: admin.headers })).json())
    .pagination.total;
  assertEquals(total, 4);
});

Deno.test("GET /api/internships?mine=true: the caller's own live listings, inactive included, newest first", async () => {
  await using t = await createTestApp();
  const { member, admin } = await seeded(t);
  const other = await createTestUser(t, "member");
  await postInternships(t, other, [{ title: "Someone Else's Intern", tags: ["design"] }]);
  const own = (await (await t.fetch("/api/internships?mine=true", { headers: member.headers })).json()).internships;
  const byTitle = (title: string) => own.find((i: { title: string }) => i.title === title).id;
  const hide = await t.json("PUT", `/api/internships/${byTitle("Design Intern")}`, {
    body: { isActive: false },
    headers: admin.headers,
  });
  assertEquals(hide.status, 200);
  const del = await t.json("DELETE", `/api/internships/${byTitle("Python Developer")}`, { headers: member.headers });
  assertEquals(del.status, 200);

  const res = await t.fetch("/api/internships?mine=true&limit=2", { headers: member.headers });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.pagination, { limit: 2, offset: 0, total: 4, hasMore: true });
  const all = (await (await t.fetch("/api/internships?mine=true", { headers: member.headers })).json()).internships;
  assertEquals(body.internships, all.slice(0, 2));
  assertEquals(
    all.map((i: { title: string }) => i.title),
    own.map((i: { title: string }) => i.title).filter((title: string) => title !== "Python Developer"),
  );
  assert(
    all.every((i: { userId: string; user: { id: string } }) => i.userId === member.user.id && i.user.id === i.userId),
  );
  assertEquals(all.find((i: { title: string }) => i.title === "Design Intern").isActive, false);

  assertEquals(await titles(t, "?mine=true&tags=design", member.headers), ["Design Intern"]);
  assertEquals(await titles(t, "?mine=true&search=data", member.headers), [
    "Data Analyst Intern",
    "Unstated Type Intern",
  ]);
  assertEquals(await titles(t, "?mine=true&includeDeleted=true", member.headers), [
    "Data Analyst Intern",
    "Design Intern",
    "Marketing Intern",
    "Unstated Type Intern",
  ]);
  assertEquals(await titles(t, "?mine=true", other.headers), ["Someone Else's Intern"]);
  assertEquals(await titles(t, "?mine=true", admin.headers), []);
  assertEquals(await titles(t, "?mine=false"), [
    "Data Analyst Intern",
    "Marketing Intern",
    "Someone Else's Intern",
    "Unstated Type Intern",
  ]);
});

Deno.test("GET /api/internships?mine=true without a session is 401", async () => {
  await using t = await createTestApp();
  await seeded(t);
  const res = await t.fetch("/api/internships?mine=true");
  assertEquals(res.status, 401);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  assertEquals(typeof (await res.json()).error, "string");
});

Deno.test("a cached public list page changes at once after a create, an update and a soft delete", async () => {
  await using t = await createTestApp();
  const { member } = await seeded(t);
  const before = await titles(t, "?search=intern");
  assertEquals(await titles(t, "?search=intern"), before);
  const [created] = await postInternships(t, member, [{ title: "Fresh Robotics Intern" }]);
  assertEquals(await titles(t, "?search=intern"), [...before, "Fresh Robotics Intern"].sort());
  const put = await t.json(
    "PUT",
    `/api/internships/${created.id}`,
    { body: { title: "Renamed Robotics Intern" }, headers: member.headers },
  );
  assertEquals(put.status, 200);
  assertEquals(await titles(t, "?search=robotics"), ["Renamed Robotics Intern"]);
  const del = await t.json("DELETE", `/api/internships/${created.id}`, { headers: member.headers });
  assertEquals(del.status, 200);
  assertEquals(await titles(t, "?search=robotics"), []);
});

Deno.test("paging through a filter: every page and total follow writes; filters differing in visibility or owner do not share matches", async () => {
  await using t = await createTestApp();
  const { member, admin } = await seeded(t);
  const pages = async (query: string, count: number, headers?: Record<string, string>) => {
    const titles: string[] = [];
    let total = -1;
    for (let offset = 0; offset < count; offset++) {
      const res = await t.fetch(`/api/internships${query}&limit=1&offset=${offset}`, { headers });
      assertEquals(res.status, 200, query);
      const body = await res.json();
      titles.push(...body.internships.map((i: { title: string }) => i.title));
      total = body.pagination.total;
    }
    return { titles, total };
  };
  const both = ["Data Analyst Intern", "Design Intern"];
  const first = await pages("?tags=data,design", 2);
  assertEquals({ titles: first.titles.toSorted(), total: first.total }, { titles: both, total: 2 });
  assertEquals(await pages("?tags=design,data", 2), first);

  const [created] = await postInternships(t, member, [{ title: "Design Systems Intern", tags: ["design"] }]);
  assertEquals(await pages("?tags=data,design", 3), { titles: ["Design Systems Intern", ...first.titles], total: 3 });
  const hide = await t.json("PUT", `/api/internships/${created.id}`, {
    body: { isActive: false },
    headers: admin.headers,
  });
  assertEquals(hide.status, 200);
  assertEquals(await pages("?tags=design,data", 3), first);

  assertEquals((await pages("?tags=data,design&includeInactive=true", 1, admin.headers)).total, 3);
  assertEquals((await pages("?tags=data,design&mine=true", 1, member.headers)).total, 3);
  assertEquals((await pages("?tags=data,design&mine=true", 1, admin.headers)).total, 0);
  assertEquals((await pages("?tags=data,design", 1)).total, 2);
});
