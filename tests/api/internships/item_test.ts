import { assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";

const NOT_FOUND = { error: "Internship not found" };

Deno.test("GET /api/internships/{id}: anyone reads an active internship with its owner", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Owner One" });
  const [created] = await postInternships(t, member, [{ title: "Readable", tags: ["a"] }]);
  const res = await t.fetch(`/api/internships/${created.id}`);
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.internship, created);
  assertEquals(body.internship.user, { id: member.user.id, name: "Owner One", image: null, role: "member" });
});

Deno.test("GET /api/internships/{id}: unknown, deleted, and inactive (to all but admins, the owner included) are 404", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const other = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [inactive, deleted] = await postInternships(t, member, [{ title: "Inactive" }, { title: "Deleted" }]);
  assertEquals(
    (await t.json("PUT", `/api/internships/${inactive.id}`, { body: { isActive: false }, headers: admin.headers }))
      .status,
    200,
  );
  assertEquals((await t.json("DELETE", `/api/internships/${deleted.id}`, { headers: member.headers })).status, 200);

  for (const path of [`/api/internships/${crypto.randomUUID()}`, "/api/internships/not-a-uuid"]) {
    const res = await t.fetch(path);
    assertEquals(res.status, 404);
    assertEquals(await res.json(), NOT_FOUND);
  }
  for (const headers of [undefined, member.headers, admin.headers]) {
    const res = await t.fetch(`/api/internships/${deleted.id}`, { headers });
    assertEquals(res.status, 404);
    assertEquals(await res.json(), NOT_FOUND);
  }
  for (const headers of [undefined, other.headers, member.headers]) {
    const res = await t.fetch(`/api/internships/${inactive.id}`, { headers });
    assertEquals(res.status, 404);
    assertEquals(await res.json(), NOT_FOUND);
  }
  {
    const res = await t.fetch(`/api/internships/${inactive.id}`, { headers: admin.headers });
    assertEquals(res.status, 200);
    assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
    const { internship } = await res.json();
    assertEquals([internship.id, internship.isActive], [inactive.id, false]);
  }
});

Deno.test("PUT /api/internships/{id}: the owner changes only the fields given", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [created] = await postInternships(t, member, [{ title: "Before", stipend: 5000, location: "Pune" }]);
  await new Promise((resolve) => setTimeout(resolve, 2));
  const res = await t.json(
    "PUT",
    `/api/internships/${created.id}`,
    { body: { title: "After", location: null, tags: ["New"] }, headers: member.headers },
  );
  assertEquals(res.status, 200);
  const { success, internship } = await res.json();
  assertEquals(success, true);
  assertEquals(internship.title, "After");
  assertEquals(internship.location, null);
  assertEquals(internship.tags, ["New"]);
  assertEquals(internship.stipend, 5000);
  assertEquals(internship.createdAt, created.createdAt);
  assertEquals(internship.updatedAt > created.updatedAt, true);
  assertEquals(internship.user.id, member.user.id);
  const read = await (await t.fetch(`/api/internships/${created.id}`)).json();
  assertEquals(read.internship, internship);
  const found = await (await t.fetch("/api/internships?search=after&location=pune")).json();
  assertEquals(found.pagination.total, 0);
  assertEquals((await (await t.fetch("/api/internships?tags=new")).json()).pagination.total, 1);
});

Deno.test("PUT /api/internships/{id}: a non-owner member and a user get 403, a guest 401, nothing changes", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const other = await createTestUser(t, "member");
  const user = await createTestUser(t, "user");
  const [created] = await postInternships(t, owner, [{ title: "Mine" }]);
  for (const who of [other, user]) {
    const res = await t.json("PUT", `/api/internships/${created.id}`, {
      body: { title: "Stolen" },
      headers: who.headers,
    });
    assertEquals(res.status, 403);
    assertEquals(typeof (await res.json()).error, "string");
  }
  const guest = await t.json("PUT", `/api/internships/${created.id}`, { body: { title: "Stolen" } });
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
  assertEquals((await (await t.fetch(`/api/internships/${created.id}`)).json()).internship.title, "Mine");
});

Deno.test("PUT /api/internships/{id}: isVerified and isActive are admin-only; an owner gets 403 and nothing changes", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [created] = await postInternships(t, owner, [{ title: "Check me" }]);
  for (const patch of [{ isVerified: true }, { isActive: false }, { title: "Sneaky", isVerified: true }]) {
    const res = await t.json("PUT", `/api/internships/${created.id}`, { body: patch, headers: owner.headers });
    assertEquals(res.status, 403);
    assertEquals(typeof (await res.json()).error, "string");
  }
  const unchanged = (await (await t.fetch(`/api/internships/${created.id}`)).json()).internship;
  assertEquals([unchanged.title, unchanged.isVerified, unchanged.updatedAt], ["Check me", false, created.updatedAt]);
  const res = await t.json(
    "PUT",
    `/api/internships/${created.id}`,
    { body: { isVerified: true, title: "Checked" }, headers: admin.headers },
  );
  assertEquals(res.status, 200);
  const { internship } = await res.json();
  assertEquals([internship.isVerified, internship.title, internship.userId], [true, "Checked", owner.user.id]);
});

Deno.test("PUT /api/internships/{id}: invalid values are 400 with issues; unknown and deleted ids 404", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const [created, removed] = await postInternships(t, owner, [{ title: "Valid" }, { title: "Removed" }]);
  for (const patch of [{ link: "notaurl" }, { type: "space" }, { title: "" }, { isActive: "yes" }, { stipend: -3 }]) {
    const res = await t.json("PUT", `/api/internships/${created.id}`, { body: patch, headers: owner.headers });
    assertEquals(res.status, 400, JSON.stringify(patch));
    assertEquals((await res.json()).error[0].path[0], Object.keys(patch)[0]);
  }
  const unknown = await t.json("PUT", `/api/internships/${crypto.randomUUID()}`, {
    body: { title: "X" },
    headers: owner.headers,
  });
  assertEquals(unknown.status, 404);
  assertEquals(await unknown.json(), NOT_FOUND);
  await t.json("DELETE", `/api/internships/${removed.id}`, { headers: owner.headers });
  const gone = await t.json("PUT", `/api/internships/${removed.id}`, { body: { title: "X" }, headers: owner.headers });
  assertEquals(gone.status, 404);
  await gone.body?.cancel();
});

Deno.test("DELETE /api/internships/{id}: owner soft-deletes, second delete is 404, admin sees deletedAt", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [created] = await postInternships(t, owner, [{ title: "Short-lived" }]);
  const res = await t.json("DELETE", `/api/internships/${created.id}`, { headers: owner.headers });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { success: true });
  const again = await t.json("DELETE", `/api/internships/${created.id}`, { headers: owner.headers });
  assertEquals(again.status, 404);
  assertEquals(await again.json(), NOT_FOUND);
  const list = await (await t.fetch("/api/internships?includeDeleted=true", { headers: admin.headers })).json();
  assertMatch(list.internships[0].deletedAt, /^\d{4}-\d{2}-\d{2}T/);
  assertEquals((await (await t.fetch("/api/internships")).json()).pagination.total, 0);
});

Deno.test("DELETE /api/internships/{id}: non-owner 403, guest 401, admin may delete anyone's", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const other = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [created] = await postInternships(t, owner, [{ title: "Keep" }]);
  const forbidden = await t.json("DELETE", `/api/internships/${created.id}`, { headers: other.headers });
  assertEquals(forbidden.status, 403);
  await forbidden.body?.cancel();
  const guest = await t.json("DELETE", `/api/internships/${created.id}`);
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
  assertEquals((await t.fetch(`/api/internships/${created.id}`)).status, 200);
  const byAdmin = await t.json("DELETE", `/api/internships/${created.id}`, { headers: admin.headers });
  assertEquals(byAdmin.status, 200);
  await byAdmin.body?.cancel();
  const gone = await t.fetch(`/api/internships/${created.id}`);
  assertEquals(gone.status, 404);
  await gone.body?.cancel();
});

Deno.test("internship routes answer 405 for other methods", async () => {
  await using t = await createTestApp();
  const res = await t.json("PATCH", "/api/internships", { body: {} });
  assertEquals(res.status, 405);
  assertEquals(await res.json(), { error: "Method not allowed" });
});
