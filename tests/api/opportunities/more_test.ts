/**
 * More rules of the opportunities API (docs/decisions.md, Opportunities): `mine=true` over every state, the read
 * rule of a rejected submission, the admin queue's search and paging with unchanged counts, an
 * idempotent repeat review, concurrent submissions, `postedBy` following the poster, and a second
 * process on the same KV seeing a submission.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { openKv } from "@/lib/kv.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { listOpportunities, OpportunityQuerySchema, submitOpportunity } from "@/lib/opportunities/opportunities.ts";
import { createUser, updateUser } from "@/lib/users/users.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

const BODY = {
  title: "Campus Hackathon",
  description: "Build something in 36 hours",
  location: "Bengaluru",
  type: "hackathon",
  startDate: `${NEXT_YEAR}-03-01`,
  endDate: `${NEXT_YEAR}-03-02`,
  link: "https://hack.example.com",
  organizer: "Example Society",
};

async function submit(t: TestApp, who: TestUser, fields: Record<string, unknown> = {}) {
  await new Promise((resolve) => setTimeout(resolve, 2));
  const res = await t.json("POST", "/api/opportunities", { body: { ...BODY, ...fields }, headers: who.headers });
  assertEquals(res.status, 201);
  return (await res.json()).opportunity;
}

async function review(t: TestApp, admin: TestUser, id: string, action: string) {
  const res = await t.json("PATCH", `/api/admin/opportunities/${id}`, { body: { action }, headers: admin.headers });
  assertEquals(res.status, 200);
  return (await res.json()).opportunity;
}

async function list(t: TestApp, path: string, who?: TestUser) {
  const res = await t.fetch(path, { headers: who?.headers });
  assertEquals(res.status, 200, path);
  return await res.json();
}

const titles = (body: { opportunities: { title: string }[] }) => body.opportunities.map((o) => o.title);

Deno.test("mine=true lists the caller's own in every state, newest first, searchable, nobody else's", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const other = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const approved = await submit(t, user, { title: "Approved mine" });
  const rejected = await submit(t, user, { title: "Rejected mine" });
  await submit(t, user, { title: "Pending mine" });
  await submit(t, other, { title: "Not mine" });
  await review(t, admin, approved.id, "approve");
  await review(t, admin, rejected.id, "reject");
  assertEquals(titles(await list(t, "/api/opportunities?mine=true", user)), [
    "Pending mine",
    "Rejected mine",
    "Approved mine",
  ]);
  assertEquals(titles(await list(t, "/api/opportunities?mine=true&search=REJECTED", user)), ["Rejected mine"]);
  assertEquals(titles(await list(t, "/api/opportunities")), ["Not mine", "Approved mine"]);
});

Deno.test("a published opportunity rejected later leaves the public list; guests get 404, owner and admins still read it", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t);
  const stranger = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const o = await submit(t, owner);
  await review(t, admin, o.id, "approve");
  assertEquals(titles(await list(t, "/api/opportunities")), ["Campus Hackathon"]);
  await review(t, admin, o.id, "reject");
  assertEquals(titles(await list(t, "/api/opportunities")), []);
  for (const [who, status] of [[undefined, 404], [stranger, 404], [owner, 200], [admin, 200]] as const) {
    const res = await t.fetch(`/api/opportunities/${o.id}`, { headers: who?.headers });
    assertEquals(res.status, status);
    await res.body?.cancel();
  }
  const { counts } = await list(t, "/api/admin/opportunities?status=rejected", admin);
  assertEquals(counts, { pending: 0, approved: 0, rejected: 1, all: 1 });
});

Deno.test("the admin queue searches within a status and pages (default limit 50); counts ignore the search", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const admin = await createTestUser(t, "admin");
  for (let i = 1; i <= 5; i++) await submit(t, user, { title: `Robotics Cup ${i}`, type: "competition" });
  await submit(t, user, { title: "Fintech Ideathon", type: "ideathon" });
  const all = await list(t, "/api/admin/opportunities?search=robotics", admin);
  assertEquals(all.pagination, { limit: 50, offset: 0, total: 5, hasMore: false });
  const page = await list(t, "/api/admin/opportunities?search=robotics&limit=2&offset=2", admin);
  assertEquals(titles(page), ["Robotics Cup 3", "Robotics Cup 2"]);
  assertEquals(page.pagination, { limit: 2, offset: 2, total: 5, hasMore: true });
  assertEquals(page.counts, { pending: 6, approved: 0, rejected: 0, all: 6 });
  assertEquals((await list(t, "/api/admin/opportunities?status=approved&search=robotics", admin)).pagination.total, 0);
  for (const bad of ["limit=101", "limit=0", "offset=-3"]) {
    const res = await t.fetch(`/api/admin/opportunities?${bad}`, { headers: admin.headers });
    assertEquals(res.status, 400, bad);
    await res.body?.cancel();
  }
});

Deno.test("reviewing twice with the same action changes nothing the second time", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t);
  const admin = await createTestUser(t, "admin");
  const o = await submit(t, user);
  const first = await review(t, admin, o.id, "reject");
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await review(t, admin, o.id, "reject");
  assertEquals(second.updatedAt, first.updatedAt);
  assertEquals((await list(t, "/api/admin/opportunities?status=all", admin)).counts, {
    pending: 0,
    approved: 0,
    rejected: 1,
    all: 1,
  });
});

Deno.test("concurrent submissions from several users all land in the queue and its counts", async () => {
  await using t = await createTestApp();
  const users = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t)));
  const admin = await createTestUser(t, "admin");
  await Promise.all(users.flatMap((u, i) => [1, 2, 3].map((n) => submit(t, u, { title: `S ${i}-${n}` }))));
  const queue = await list(t, "/api/admin/opportunities?limit=100", admin);
  assertEquals(queue.pagination.total, 12);
  assertEquals(new Set(titles(queue)).size, 12);
  assertEquals(queue.counts.pending, 12);
  for (const u of users) assertEquals((await list(t, "/api/opportunities?mine=true", u)).pagination.total, 3);
});

Deno.test("postedBy carries the poster's current name and role", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { name: "Old Name" });
  const o = await submit(t, member);
  await updateUser(t.kv, member.user.id, { name: "New Name", role: "admin" });
  const expected = { id: member.user.id, name: "New Name", role: "admin" };
  assertEquals((await list(t, "/api/opportunities")).opportunities[0].postedBy, expected);
  assertEquals((await list(t, `/api/opportunities/${o.id}`)).opportunity.postedBy, expected);
});

Deno.test("a second process on the same KV sees a submission published by the first", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite3" });
  // Opened as the platform opens a KV file: a commit meeting the other handle's lock is tried again.
  const kvA = await openKv(path);
  const kvB = await openKv(path);
  try {
    const member = await createUser(kvA, { name: "M", email: "m@example.com", emailVerified: true, role: "member" });
    const query = OpportunityQuerySchema.parse({});
    assertEquals((await listOpportunities(kvB, query, null)).pagination.total, 0);
    await submitOpportunity(kvA, member, {
      title: "Shared",
      description: "d",
      location: "l",
      type: "grant",
      startDate: `${NEXT_YEAR}-01-01`,
      endDate: `${NEXT_YEAR}-01-02`,
      link: null,
      organizer: null,
    });
    const deadline = Date.now() + 3_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = (await listOpportunities(kvB, query, null)).opportunities.map((o) => o.title);
      if (seen.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assertEquals(seen, ["Shared"]);
  } finally {
    kvA.close();
    kvB.close();
    await Deno.remove(path);
  }
});
