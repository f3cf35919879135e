import { assert, assertEquals } from "../../helpers/assert.ts";
import { createTestApp, createTestUser } from "../../helpers/app.ts";
import { opportunityBody, submit, titles } from "./helpers.ts";

Deno.test("POST /api/opportunities: a user's submission awaits review, with postedBy and 201", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user", { name: "Uma User" });
  const res = await t.json(
    "POST",
    "/api/opportunities",
    opportunityBody({ isVerified: true, userId: "x" }),
    user.headers,
  );
  assertEquals(res.status, 201);
  const { success, opportunity } = await res.json();
  assertEquals(success, true);
  assertEquals(opportunity.isVerified, false);
  assertEquals(opportunity.isActive, true);
  assertEquals(opportunity.userId, user.user.id);
  assertEquals(opportunity.postedBy, { id: user.user.id, name: "Uma User", role: "user" });
  assertEquals(opportunity.type, "hackathon");
  assertEquals(opportunity.startDate, "2030-03-01");
  assert(opportunity.createdAt && opportunity.updatedAt);
  assertEquals(await titles(t, "/api/opportunities"), []);
});

Deno.test("POST /api/opportunities: a member's and an admin's submissions are published at once", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  assertEquals((await submit(t, member, { title: "By member" })).isVerified, true);
  assertEquals((await submit(t, admin, { title: "By admin" })).isVerified, true);
  assertEquals(await titles(t, "/api/opportunities"), ["By admin", "By member"]);
});

Deno.test("POST /api/opportunities: a guest gets 401 and nothing is stored", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", "/api/opportunities", opportunityBody());
  assertEquals(res.status, 401);
  assertEquals(typeof (await res.json()).error, "string");
  const admin = await createTestUser(t, "admin");
  const queue = await (await t.fetch("/api/admin/opportunities?status=all", { headers: admin.headers })).json();
  assertEquals(queue.pagination.total, 0);
});

Deno.test("POST /api/opportunities: unknown type, end before start, missing title, bad dates and links are 400 issues", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const cases: [Record<string, unknown>, string][] = [
    [{ type: "workshop" }, "type"],
    [{ startDate: "2030-03-05", endDate: "2030-03-04" }, "endDate"],
    [{ title: undefined }, "title"],
    [{ title: "   " }, "title"],
    [{ startDate: "2030-02-30" }, "startDate"],
    [{ endDate: "03/04/2030" }, "endDate"],
    [{ link: "ftp://files.example.com" }, "link"],
    [{ link: "javascript:alert(1)" }, "link"],
    [{ description: undefined }, "description"],
    [{ location: undefined }, "location"],
  ];
  for (const [fields, path] of cases) {
    const res = await t.json("POST", "/api/opportunities", opportunityBody(fields), member.headers);
    assertEquals(res.status, 400, JSON.stringify(fields));
    const { error } = await res.json();
    assert(Array.isArray(error), JSON.stringify(fields));
    assertEquals(error[0].path[0], path, JSON.stringify(fields));
  }
  assertEquals(await titles(t, "/api/opportunities"), []);
});

Deno.test("POST /api/opportunities: one-day events, no link and no organizer are accepted", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const o = await submit(t, member, { startDate: "2030-01-01", endDate: "2030-01-01", link: "", organizer: undefined });
  assertEquals(o.link, null);
  assertEquals(o.organizer, null);
});

Deno.test("POST /api/opportunities: malformed JSON is 400 Invalid JSON body", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const res = await t.fetch("/api/opportunities", {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: "{nope",
  });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "Invalid JSON body" });
});
