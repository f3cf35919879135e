import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";

Deno.test("POST /api/internships: a member creates one internship, 201 with defaults set by creation", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const res = await t.json(
    "POST",
    "/api/internships",
    {
      body: internshipBody({
        type: "remote",
        timing: "part_time",
        tags: ["Python", "SQL"],
        stipend: 15000,
        deadline: "2030-01-31",
        isVerified: true,
        isActive: false,
        userId: "someone-else",
        id: "chosen-id",
        createdAt: "2000-01-01T00:00:00.000Z",
        deletedAt: "2000-01-01T00:00:00.000Z",
      }),
      headers: member.headers,
    },
  );
  assertEquals(res.status, 201);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.count, 1);
  const data = body.data;
  assertMatch(data.id, /^[0-9a-f-]{36}$/);
  assertEquals(data.isVerified, false);
  assertEquals(data.isActive, true);
  assertEquals(data.userId, member.user.id);
  assertEquals(data.deletedAt, null);
  assert(data.createdAt > "2020");
  assertEquals(data.createdAt, data.updatedAt);
  assertEquals(data.tags, ["Python", "SQL"]);
  assertEquals(data.description, null);
  assertEquals(data.user, { id: member.user.id, name: member.user.name, image: null, role: "member" });
});

Deno.test("POST /api/internships: an admin may create; a batch returns an array", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json(
    "POST",
    "/api/internships",
    { body: [internshipBody(), internshipBody({ title: "Second" })], headers: admin.headers },
  );
  assertEquals(res.status, 201);
  const body = await res.json();
  assertEquals(body.count, 2);
  assertEquals(body.data.map((i: { title: string }) => i.title), ["Backend Intern", "Second"]);
  const list = await (await t.fetch("/api/internships")).json();
  assertEquals(list.pagination.total, 2);
});

Deno.test("POST /api/internships: guest 401, user role 403, nothing created", async () => {
  await using t = await createTestApp();
  const guest = await t.json("POST", "/api/internships", { body: internshipBody() });
  assertEquals(guest.status, 401);
  assertEquals(await guest.json(), { error: "Unauthorized" });
  const user = await createTestUser(t, "user");
  const forbidden = await t.json("POST", "/api/internships", { body: internshipBody(), headers: user.headers });
  assertEquals(forbidden.status, 403);
  assertEquals(typeof (await forbidden.json()).error, "string");
  assertEquals((await (await t.fetch("/api/internships")).json()).pagination.total, 0);
});

Deno.test("POST /api/internships: missing required fields give the zod issue array", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const res = await t.json("POST", "/api/internships", { body: { description: "no title" }, headers: member.headers });
  assertEquals(res.status, 400);
  const { error, fields } = await res.json();
  assert(Array.isArray(error));
  assertEquals(error.map((i: { path: string[] }) => i.path[0]).sort(), ["hiringOrganization", "link", "title"]);
  for (const issue of error) {
    assertEquals(Object.keys(issue).sort(), ["code", "message", "path"], "an issue never echoes the input");
    assertEquals(typeof issue.code, "string");
    assertEquals(typeof issue.message, "string");
  }
  assertEquals(fields.find((f: { field: string }) => f.field === "title"), {
    field: "title",
    message: "Fill in this field.",
    messageKey: "fields.required",
  });
});

Deno.test("POST /api/internships: bad link, type, timing, stipend, deadline and tags are refused", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const bad: [string, unknown][] = [
    ["link", "not a url"],
    ["link", "javascript:alert(1)"],
    ["link", "ftp://example.com/file"],
    ["link", "http://"],
    ["type", "office"],
    ["timing", "weekends"],
    ["stipend", -1],
    ["stipend", "5000"],
    ["stipend", 1e12],
    ["deadline", "2030-02-30"],
    ["deadline", "tomorrow"],
    ["tags", "python"],
    ["tags", Array.from({ length: 21 }, (_, i) => `t${i}`)],
    ["title", ""],
    ["title", "x".repeat(201)],
    ["description", "x".repeat(5001)],
    ["hiringOrganization", 42],
  ];
  for (const [field, value] of bad) {
    const res = await t.json("POST", "/api/internships", {
      body: internshipBody({ [field]: value }),
      headers: member.headers,
    });
    assertEquals(res.status, 400, `${field}=${JSON.stringify(value)}`);
    const { error } = await res.json();
    assertEquals(error[0].path[0], field);
  }
  assertEquals((await (await t.fetch("/api/internships")).json()).pagination.total, 0);
});

Deno.test("POST /api/internships: deadline accepts YYYY-MM-DD and ISO 8601 timestamps", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  for (const deadline of ["2030-06-30", "2030-06-30T18:00:00Z", "2030-06-30T18:00:00+05:30"]) {
    const res = await t.json("POST", "/api/internships", {
      body: internshipBody({ deadline }),
      headers: member.headers,
    });
    assertEquals(res.status, 201, deadline);
    assertEquals((await res.json()).data.deadline, deadline);
  }
});

Deno.test("POST /api/internships: a batch is all-or-nothing and issues carry the item index", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const res = await t.json(
    "POST",
    "/api/internships",
    {
      body: [internshipBody(), internshipBody({ link: "nope" }), internshipBody(), internshipBody({ type: "moon" })],
      headers: member.headers,
    },
  );
  assertEquals(res.status, 400);
  const { error } = await res.json();
  assertEquals(error.map((i: { path: string[] }) => i.path), [["1", "link"], ["3", "type"]]);
  assertEquals((await (await t.fetch("/api/internships")).json()).pagination.total, 0);
});

Deno.test("POST /api/internships: a batch of 100 is accepted, 101 and an empty batch are 400", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const over = await t.json(
    "POST",
    "/api/internships",
    { body: Array.from({ length: 101 }, () => internshipBody()), headers: member.headers },
  );
  assertEquals(over.status, 400);
  assertEquals((await over.json()).error[0].code, "too_big");
  const empty = await t.json("POST", "/api/internships", { body: [], headers: member.headers });
  assertEquals(empty.status, 400);
  const ok = await t.json(
    "POST",
    "/api/internships",
    { body: Array.from({ length: 100 }, (_, i) => internshipBody({ title: `Intern ${i}` })), headers: member.headers },
  );
  assertEquals(ok.status, 201);
  assertEquals((await ok.json()).count, 100);
  assertEquals((await (await t.fetch("/api/internships?limit=1")).json()).pagination.total, 100);
});

Deno.test("POST /api/internships: malformed JSON and non-object bodies are 400", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const malformed = await t.fetch("/api/internships", {
    method: "POST",
    headers: { ...member.headers, "content-type": "application/json" },
    body: "{not json",
  });
  assertEquals(malformed.status, 400);
  assertEquals(await malformed.json(), { error: "Invalid JSON body" });
  for (const body of ["text", 42, null, [1, 2]]) {
    const res = await t.json("POST", "/api/internships", { body, headers: member.headers });
    assertEquals(res.status, 400, JSON.stringify(body));
    assert(Array.isArray((await res.json()).error));
  }
});

Deno.test("POST /api/internships: concurrent creates all land", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) =>
        t.json("POST", "/api/internships", {
          body: internshipBody({ title: `Concurrent ${i}` }),
          headers: member.headers,
        }),
    ),
  );
  assertEquals(results.map((r) => r.status), Array(20).fill(201));
  await Promise.all(results.map((r) => r.body?.cancel()));
  assertEquals((await (await t.fetch("/api/internships")).json()).pagination.total, 20);
});

Deno.test("POST /api/internships: listings with many distinct words never block later creates or updates", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  let next = 0;
  // ~1,250 distinct three-character words: a small record with a large search vocabulary.
  const description = () =>
    Array.from({ length: 1250 }, () => {
      const n = next++;
      return alphabet[n % 36] + alphabet[Math.floor(n / 36) % 36] + alphabet[Math.floor(n / 1296) % 36];
    }).join(" ");
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await t.json(
      "POST",
      "/api/internships",
      { body: internshipBody({ title: `Wordy ${i}`, description: description() }), headers: member.headers },
    );
    assertEquals(res.status, 201, `create ${i}`);
    ids.push((await res.json()).data.id);
  }
  for (const id of ids.slice(0, 3)) {
    const res = await t.json("PUT", `/api/internships/${id}`, {
      body: { description: description() },
      headers: member.headers,
    });
    assertEquals(res.status, 200, `update ${id}`);
    await res.body?.cancel();
  }
  const search = await t.fetch(`/api/internships?search=wordy&limit=100`);
  assertEquals((await search.json()).internships.map((i: { id: string }) => i.id).sort(), [...ids].sort());
  for await (const entry of t.kv.list<Uint8Array>({ prefix: ["internships_index"] })) {
    assert(entry.value.byteLength < 65536);
  }
});
