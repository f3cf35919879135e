import { assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { seedToolkits } from "@/lib/demo/toolkits.ts";
import { listCoupons } from "@/lib/coupons/coupons.ts";
import { listActiveToolkits, listToolkitsForAdmin } from "@/lib/toolkits/catalog.ts";
import { ownedToolkits } from "@/lib/toolkits/learning.ts";
import { createUser } from "@/lib/users/users.ts";

Deno.test("demo toolkits: three active and one draft, three coupons, a student who owns one with two lessons done; a second run adds nothing", async () => {
  using kv = await Deno.openKv(":memory:");
  const admin = await createUser(kv, { name: "Admin", email: "a@example.com", emailVerified: true, role: "admin" });
  const student = await createUser(kv, { name: "Sara", email: "s@example.com", emailVerified: true, role: "user" });
  await seedToolkits(kv, admin, student);
  await seedToolkits(kv, admin, student);
  assertEquals((await listToolkitsForAdmin(kv)).length, 4);
  assertEquals((await listActiveToolkits(kv)).length, 3);
  const coupons = await listCoupons(kv);
  assertEquals(coupons.map((c) => [c.code, c.usedCount]).sort(), [["FLAT100", 0], ["FREEPASS", 1], ["WELCOME20", 0]]);
  const owned = await ownedToolkits(kv, student);
  assertEquals(owned.map((o) => [o.toolkit.title, o.completedCount]), [["Resume That Gets Read", 2]]);
});

Deno.test("demo toolkits have cover images: PNG uploads served at /api/files/{id}", async () => {
  await using t = await createTestApp();
  const admin = await createUser(t.kv, { name: "Admin", email: "a@example.com", emailVerified: true, role: "admin" });
  const student = await createUser(t.kv, { name: "Sara", email: "s@example.com", emailVerified: true, role: "user" });
  await seedToolkits(t.kv, admin, student);
  for (const toolkit of await listToolkitsForAdmin(t.kv)) {
    assertMatch(toolkit.coverImageUrl ?? "", /^\/api\/files\/[\w-]+$/, toolkit.title);
    const res = await t.fetch(toolkit.coverImageUrl!);
    assertEquals([res.status, res.headers.get("content-type")], [200, "image/png"], toolkit.title);
    await res.body?.cancel();
  }
});
