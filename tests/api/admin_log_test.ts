/**
 * The admin audit log (docs/decisions.md, Admin, "Audit log"): `GET /api/admin/log` for admins only, its pages and
 * filters, and one entry for each kind of admin write, none for a refused one.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type AdminLogEntry, appendAdminLog } from "@/lib/admin_log/admin_log.ts";

/** The log as `admin` reads it through the API (`query` without `?`). */
async function readLog(
  t: TestApp,
  admin: TestUser,
  query = "",
): Promise<{ entries: AdminLogEntry[]; nextCursor: string | null }> {
  const res = await t.fetch(`/api/admin/log${query ? `?${query}` : ""}`, { headers: admin.headers });
  assertEquals(res.status, 200);
  return await res.json();
}

Deno.test("guests get 401, users and members 403 on the log, and the page refuses them too", async () => {
  await using t = await createTestApp();
  assertEquals((await t.fetch("/api/admin/log")).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    const res = await t.fetch("/api/admin/log", { headers: who.headers });
    assertEquals(res.status, 403, role);
    assertEquals(await res.json(), { error: "Forbidden" });
  }
});

Deno.test("a bad query is 400 with an {error}", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const query of ["limit=0", "limit=101", "action=user.delete", "cursor=abc"]) {
    const res = await t.fetch(`/api/admin/log?${query}`, { headers: admin.headers });
    assertEquals(res.status, 400, query);
    assert((await res.json()).error, query);
  }
});

Deno.test("the log pages newest first with a cursor and filters by action and admin", async () => {
  await using t = await createTestApp();
  const [a, b] = [await createTestUser(t, "admin"), await createTestUser(t, "admin")];
  const made: AdminLogEntry[] = [];
  for (let i = 0; i < 5; i++) {
    const adminId = i % 2 === 0 ? a.user.id : b.user.id;
    const action = i < 3 ? "coupon.create" : "coupon.delete";
    made.push(await appendAdminLog(t.kv, { adminId, action, targetKind: "coupon", targetId: `c${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const ids = (entries: AdminLogEntry[]) => entries.map((entry) => entry.targetId);
  const first = await readLog(t, a, "limit=2");
  assertEquals(ids(first.entries), ["c4", "c3"]);
  assertEquals(first.entries[0], made[4]);
  const second = await readLog(t, a, `limit=2&cursor=${first.nextCursor}`);
  assertEquals(ids(second.entries), ["c2", "c1"]);
  const third = await readLog(t, a, `limit=2&cursor=${second.nextCursor}`);
  assertEquals(ids(third.entries), ["c0"]);
  assertEquals(third.nextCursor, null);
  assertEquals((await readLog(t, a, "limit=5")).nextCursor, null);
  assertEquals(ids((await readLog(t, a, "action=coupon.create")).entries), ["c2", "c1", "c0"]);
  assertEquals(ids((await readLog(t, a, `adminId=${a.user.id}`)).entries), ["c4", "c2", "c0"]);
  const both = await readLog(t, a, `adminId=${a.user.id}&action=coupon.create&limit=1`);
  assertEquals(ids(both.entries), ["c2"]);
  assertEquals(
    ids((await readLog(t, a, `adminId=${a.user.id}&action=coupon.create&cursor=${both.nextCursor}`)).entries),
    [
      "c0",
    ],
  );
});

Deno.test("a role change leaves one entry naming the admin and the user; a refused one leaves none", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  const res = await t.json("PATCH", `/api/admin/users/${target.user.id}`, {
    body: { role: "member" },
    headers: { cookie: admin.cookie },
  });
  assertEquals(res.status, 200);
  const refused = await t.json("PATCH", `/api/admin/users/${admin.user.id}`, {
    body: { role: "user" },
    headers: { cookie: admin.cookie },
  });
  assertEquals(refused.status, 403);
  const { entries } = await readLog(t, admin);
  assertEquals(entries.length, 1);
  const [entry] = entries;
  assertEquals(
    { adminId: entry.adminId, action: entry.action, targetKind: entry.targetKind, targetId: entry.targetId },
    { adminId: admin.user.id, action: "user.role", targetKind: "user", targetId: target.user.id },
  );
  assertEquals(entry.summary, "user → member");
});
