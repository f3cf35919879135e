import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { seedToolkits } from "@/lib/demo/toolkits.ts";
import { listCoupons } from "@/lib/coupons/coupons.ts";
import { listActiveToolkits, listToolkitsForAdmin } from "@/lib/toolkits/catalog.ts";
import { ownedToolkits } from "@/lib/toolkits/learning.ts";
import { createUser } from "@/lib/users/users.ts";

Deno.test("demo toolkits: three active and one draft, four coupons, a student who owns one with two lessons done; a second run adds nothing", async () => {
  using kv = await Deno.openKv(":memory:");
  const admin = await createUser(kv, { name: "Admin", email: "a@example.com", emailVerified: true, role: "admin" });
  const student = await createUser(kv, { name: "Sara", email: "s@example.com", emailVerified: true, role: "user" });
  await seedToolkits(kv, admin, student);
  await seedToolkits(kv, admin, student);
  assertEquals((await listToolkitsForAdmin(kv)).length, 4);
  assertEquals((await listActiveToolkits(kv)).length, 3);
  const coupons = await listCoupons(kv);
  assertEquals(coupons.map((c) => [c.code, c.usedCount]).sort(), [
    ["DIWALI50", 0],
    ["FLAT100", 0],
    ["FREEPASS", 1],
    ["WELCOME20", 0],
  ]);
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

Deno.test("the demo's expired coupon is refused as expired at checkout, and the admin's coupon list says it expired", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await seedToolkits(t.kv, admin.user, student.user);
  const [toolkit] = await listActiveToolkits(t.kv);
  const refused = await t.json("POST", `/api/toolkits/${toolkit.id}`, {
    body: { couponCode: "diwali50" },
    headers: student.headers,
  });
  assertEquals([refused.status, await refused.json()], [400, { error: "Coupon has expired" }]);
  const diwali = (await listCoupons(t.kv, "DIWALI50"))[0];
  assertEquals([diwali.isActive, Date.parse(diwali.expiresAt!) < Date.now()], [true, true]);

  /** The admin list's row of `code`, its words, in `lang`. */
  const row = async (code: string, lang = "en") => {
    const html = await (await t.fetch(`/admin/coupons?lang=${lang}`, { headers: admin.headers })).text();
    return [...htmlDocument(html).querySelectorAll("tbody tr")].find((tr) => tr.textContent?.includes(code))
      ?.textContent ?? "";
  };
  for (const lang of ["en", "hi"] as const) {
    const say = translatorFor(lang);
    const expired = say("admin.coupons.expired", { date: say.dateTime(diwali.expiresAt!) });
    const words = await row("DIWALI50", lang);
    assert(words.includes(expired), `${lang}: ${words}`);
  }
  const welcome = await row("WELCOME20");
  assert(welcome.includes("Never") && !welcome.includes("Expired"), welcome);
});
