import { assertEquals } from "../../helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "../../helpers/app.ts";
import { idsByStatus, storedCounts } from "../../../lib/opportunities/store.ts";
import { review, submit, titles } from "./helpers.ts";

async function queue(t: TestApp, admin: TestUser, query = "") {
  const res = await t.fetch(`/api/admin/opportunities${query}`, { headers: admin.headers });
  assertEquals(res.status, 200, query);
  return await res.json();
}

Deno.test("Review states: pending hidden from the public and in the queue; approved public and out of the queue; rejected kept under status=rejected", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const a = await submit(t, user, { title: "To approve" });
  const r = await submit(t, user, { title: "To reject" });
  await submit(t, user, { title: "Left pending" });
  let body = await queue(t, admin);
  assertEquals(body.opportunities.map((o: { title: string }) => o.title), ["Left pending", "To reject", "To approve"]);
  assertEquals(body.counts, { pending: 3, approved: 0, rejected: 0, all: 3 });
  assertEquals(body.pagination, { limit: 50, offset: 0, total: 3, hasMore: false });

  const approved = await review(t, admin, a.id, "approve");
  assertEquals([approved.isVerified, approved.isActive], [true, true]);
  const rejected = await review(t, admin, r.id, "reject");
  assertEquals(rejected.isActive, false);

  assertEquals(await titles(t, "/api/opportunities"), ["To approve"]);
  body = await queue(t, admin, "?status=pending");
  assertEquals(body.opportunities.map((o: { title: string }) => o.title), ["Left pending"]);
  assertEquals(body.counts, { pending: 1, approved: 1, rejected: 1, all: 3 });
  assertEquals((await queue(t, admin, "?status=approved")).opportunities.map((o: { id: string }) => o.id), [a.id]);
  assertEquals((await queue(t, admin, "?status=rejected")).opportunities.map((o: { id: string }) => o.id), [r.id]);
  assertEquals((await queue(t, admin, "?status=all")).pagination.total, 3);
  assertEquals(await storedCounts(t.kv), { pending: 1, approved: 1, rejected: 1 });
});

Deno.test("PATCH /api/admin/opportunities/{id}: response body, idempotent repeat, unknown id 404, bad action 400", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user", { name: "Uma" });
  const admin = await createTestUser(t, "admin");
  const o = await submit(t, user);
  const res = await t.json("PATCH", `/api/admin/opportunities/${o.id}`, { action: "approve" }, admin.headers);
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.success, true);
  assertEquals(body.opportunity.postedBy, { id: user.user.id, name: "Uma", role: "user" });
  const again = await review(t, admin, o.id, "approve");
  assertEquals(again.updatedAt, body.opportunity.updatedAt);
  assertEquals((await queue(t, admin, "?status=all")).counts, { pending: 0, approved: 1, rejected: 0, all: 1 });

  const unknown = await t.json(
    "PATCH",
    `/api/admin/opportunities/${crypto.randomUUID()}`,
    { action: "approve" },
    admin.headers,
  );
  assertEquals(unknown.status, 404);
  assertEquals(await unknown.json(), { error: "Opportunity not found" });
  for (const bad of [{ action: "publish" }, {}, { action: null }]) {
    const r = await t.json("PATCH", `/api/admin/opportunities/${o.id}`, bad, admin.headers);
    assertEquals(r.status, 400, JSON.stringify(bad));
    await r.body?.cancel();
  }
});

Deno.test("Admin opportunities API: 401 for a guest, 403 for a user and a member", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "user");
  const member = await createTestUser(t, "member");
  const o = await submit(t, owner);
  for (const [who, status] of [[undefined, 401], [owner, 403], [member, 403]] as const) {
    const list = await t.fetch("/api/admin/opportunities", { headers: who?.headers });
    assertEquals(list.status, status);
    await list.body?.cancel();
    const patch = await t.json("PATCH", `/api/admin/opportunities/${o.id}`, { action: "approve" }, who?.headers);
    assertEquals(patch.status, status);
    await patch.body?.cancel();
  }
  const admin = await createTestUser(t, "admin");
  assertEquals((await queue(t, admin)).counts.pending, 1);
});

Deno.test("GET /api/admin/opportunities: search within a status, pagination, bad status or limit 400", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  for (let i = 1; i <= 5; i++) await submit(t, user, { title: `Robotics Cup ${i}`, type: "competition" });
  await submit(t, user, { title: "Fintech Hackathon" });
  assertEquals((await queue(t, admin, "?search=ROBOTICS")).pagination.total, 5);
  const page = await queue(t, admin, "?search=robotics&limit=2&offset=2");
  assertEquals(page.opportunities.map((o: { title: string }) => o.title), ["Robotics Cup 3", "Robotics Cup 2"]);
  assertEquals(page.pagination, { limit: 2, offset: 2, total: 5, hasMore: true });
  assertEquals(page.counts, { pending: 6, approved: 0, rejected: 0, all: 6 });
  assertEquals((await queue(t, admin, "?status=approved&search=robotics")).pagination.total, 0);
  for (const query of ["?status=draft", "?limit=101", "?offset=-3"]) {
    const res = await t.fetch(`/api/admin/opportunities${query}`, { headers: admin.headers });
    assertEquals(res.status, 400, query);
    await res.body?.cancel();
  }
});

Deno.test("Concurrent approve and reject of one submission leave exactly one state with matching indexes", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const admins = await Promise.all([createTestUser(t, "admin"), createTestUser(t, "admin")]);
  for (let round = 0; round < 5; round++) {
    const o = await submit(t, user, { title: `Race ${round}` });
    const results = await Promise.all([
      t.json("PATCH", `/api/admin/opportunities/${o.id}`, { action: "approve" }, admins[0].headers),
      t.json("PATCH", `/api/admin/opportunities/${o.id}`, { action: "reject" }, admins[1].headers),
      t.json("PATCH", `/api/admin/opportunities/${o.id}`, { action: "approve" }, admins[1].headers),
    ]);
    for (const res of results) {
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
    const stored = await (await t.fetch(`/api/opportunities/${o.id}`, { headers: admins[0].headers })).json();
    const state = !stored.opportunity.isActive ? "rejected" : stored.opportunity.isVerified ? "approved" : "pending";
    assertEquals(state === "pending", false);
    const inIndex = await Promise.all(
      (["pending", "approved", "rejected"] as const).map(async (s) => (await idsByStatus(t.kv, s)).includes(o.id)),
    );
    assertEquals(inIndex, [false, state === "approved", state === "rejected"]);
    const publicIds = (await (await t.fetch("/api/opportunities?limit=100")).json()).opportunities.map((
      x: { id: string },
    ) => x.id);
    assertEquals(publicIds.includes(o.id), state === "approved");
  }
  const counts = await storedCounts(t.kv);
  const body = await queue(t, admins[0], "?status=all");
  assertEquals(body.counts, { ...counts, all: 5 });
  assertEquals(counts.pending, 0);
  for (const s of ["pending", "approved", "rejected"] as const) {
    assertEquals((await idsByStatus(t.kv, s)).length, counts[s]);
  }
});

Deno.test("Concurrent submissions all land in the queue and the counts", async () => {
  await using t = await createTestApp();
  const users = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, "user")));
  const admin = await createTestUser(t, "admin");
  await Promise.all(users.flatMap((u, i) => [1, 2, 3].map((n) => submit(t, u, { title: `S ${i}-${n}` }))));
  const body = await queue(t, admin);
  assertEquals(body.pagination.total, 12);
  assertEquals(body.counts.pending, 12);
  assertEquals((await storedCounts(t.kv)).pending, 12);
});

Deno.test("The read model picks up another process's writes to the same KV", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite3" });
  try {
    const { submitOpportunity, listOpportunities } = await import("../../../lib/opportunities/opportunities.ts");
    const { createUser } = await import("../../../lib/users/users.ts");
    const kvA = await Deno.openKv(path);
    const kvB = await Deno.openKv(path);
    try {
      const member = await createUser(kvA, { name: "M", email: "m@example.com", emailVerified: true, role: "member" });
      const query = { type: undefined, search: [], limit: 10, offset: 0, mine: false };
      assertEquals((await listOpportunities(kvB, query, null)).pagination.total, 0);
      await submitOpportunity(kvA, member, {
        title: "Shared",
        description: "d",
        location: "l",
        type: "grant",
        startDate: "2030-01-01",
        endDate: "2030-01-02",
        link: null,
        organizer: null,
      });
      assertEquals((await listOpportunities(kvB, query, null)).opportunities.map((o) => o.title), ["Shared"]);
    } finally {
      kvA.close();
      kvB.close();
    }
  } finally {
    await Deno.remove(path);
  }
});
