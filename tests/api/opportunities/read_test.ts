import { assertEquals } from "../../helpers/assert.ts";
import { createTestApp, createTestUser } from "../../helpers/app.ts";
import { review, submit, titles } from "./helpers.ts";

Deno.test("GET /api/opportunities: published only, newest first, pagination as for internships", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Mira" });
  const user = await createTestUser(t, "user");
  for (const title of ["First", "Second", "Third"]) await submit(t, member, { title });
  await submit(t, user, { title: "Pending one" });
  const res = await t.fetch("/api/opportunities?limit=2");
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.opportunities.map((o: { title: string }) => o.title), ["Third", "Second"]);
  assertEquals(body.pagination, { limit: 2, offset: 0, total: 3, hasMore: true });
  assertEquals(body.opportunities[0].postedBy, { id: member.user.id, name: "Mira", role: "member" });
  const next = await (await t.fetch("/api/opportunities?limit=2&offset=2")).json();
  assertEquals(next.opportunities.map((o: { title: string }) => o.title), ["First"]);
  assertEquals(next.pagination, { limit: 2, offset: 2, total: 3, hasMore: false });
  assertEquals((await (await t.fetch("/api/opportunities")).json()).pagination.limit, 10);
});

Deno.test("GET /api/opportunities: type and search (every word, any case, title/description/location/organizer) combine", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  await submit(t, member, { title: "AI Hackathon", type: "hackathon", location: "Pune" });
  await submit(t, member, { title: "Research Grant", type: "grant", description: "Funding for AI research" });
  await submit(t, member, { title: "Pitch Ideathon", type: "ideathon", organizer: "Startup Cell" });
  await submit(t, member, { title: "Code Competition", type: "competition" });
  assertEquals(await titles(t, "/api/opportunities?type=grant"), ["Research Grant"]);
  assertEquals(await titles(t, "/api/opportunities?search=ai"), ["Research Grant", "AI Hackathon"]);
  assertEquals(await titles(t, "/api/opportunities?q=AI%20pune"), ["AI Hackathon"]);
  assertEquals(await titles(t, "/api/opportunities?search=startup%20CELL"), ["Pitch Ideathon"]);
  assertEquals(await titles(t, "/api/opportunities?type=hackathon&search=research"), []);
  assertEquals(await titles(t, "/api/opportunities?type=competition&search=code"), ["Code Competition"]);
});

Deno.test("GET /api/opportunities: bad type, limit or offset is 400 with the issue array", async () => {
  await using t = await createTestApp();
  for (const query of ["type=workshop", "limit=0", "limit=101", "limit=x", "offset=-1", "mine=yes"]) {
    const res = await t.fetch(`/api/opportunities?${query}`);
    assertEquals(res.status, 400, query);
    assertEquals(Array.isArray((await res.json()).error), true, query);
  }
});

Deno.test("GET /api/opportunities?mine=true: the caller's own in every state; 401 for a guest", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const other = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const a = await submit(t, user, { title: "Approved mine" });
  const r = await submit(t, user, { title: "Rejected mine" });
  await submit(t, user, { title: "Pending mine" });
  await submit(t, other, { title: "Not mine" });
  await review(t, admin, a.id, "approve");
  await review(t, admin, r.id, "reject");
  assertEquals(await titles(t, "/api/opportunities?mine=true", user), [
    "Pending mine",
    "Rejected mine",
    "Approved mine",
  ]);
  assertEquals(await titles(t, "/api/opportunities?mine=true&search=rejected", user), ["Rejected mine"]);
  const guest = await t.fetch("/api/opportunities?mine=true");
  assertEquals(guest.status, 401);
});

Deno.test("GET /api/opportunities/{id}: pending visible to owner and admins only; unknown id 404", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "user", { name: "Owen" });
  const stranger = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const o = await submit(t, owner);
  const notFound = { error: "Opportunity not found" };
  for (const who of [undefined, stranger]) {
    const res = await t.fetch(`/api/opportunities/${o.id}`, { headers: who?.headers });
    assertEquals(res.status, 404);
    assertEquals(await res.json(), notFound);
  }
  for (const who of [owner, admin]) {
    const res = await t.fetch(`/api/opportunities/${o.id}`, { headers: who.headers });
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.success, true);
    assertEquals(body.opportunity.id, o.id);
    assertEquals(body.opportunity.postedBy, { id: owner.user.id, name: "Owen", role: "user" });
  }
  const unknown = await t.fetch(`/api/opportunities/${crypto.randomUUID()}`);
  assertEquals(unknown.status, 404);
  assertEquals(await unknown.json(), notFound);
});

Deno.test("GET /api/opportunities/{id}: approved is public; rejected is hidden again except from owner and admins", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const o = await submit(t, owner);
  await review(t, admin, o.id, "approve");
  assertEquals((await t.fetch(`/api/opportunities/${o.id}`)).status, 200);
  await review(t, admin, o.id, "reject");
  const guest = await t.fetch(`/api/opportunities/${o.id}`);
  assertEquals(guest.status, 404);
  await guest.body?.cancel();
  assertEquals((await t.fetch(`/api/opportunities/${o.id}`, { headers: owner.headers })).status, 200);
  assertEquals((await t.fetch(`/api/opportunities/${o.id}`, { headers: admin.headers })).status, 200);
});

Deno.test("GET /api/opportunities: postedBy follows the poster's current name and role", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Old Name" });
  await submit(t, member);
  const { updateUser } = await import("../../../lib/users/users.ts");
  await updateUser(t.kv, member.user.id, { name: "New Name", role: "admin" });
  const body = await (await t.fetch("/api/opportunities")).json();
  assertEquals(body.opportunities[0].postedBy, { id: member.user.id, name: "New Name", role: "admin" });
});
