import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { uploadedId } from "@/tests/fixtures/posts.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

Deno.test("banners: admin CRUD; GET /api/banners lists only active ones by orderIndex", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const imageId = await uploadedId(t, admin);
  const create = (body: Record<string, unknown>) =>
    t.json("POST", "/api/admin/banners", { body, headers: admin.headers });
  const res = await create({ title: "Second", orderIndex: 2, imageId, linkUrl: "/internships" });
  assertEquals(res.status, 201);
  const { banner } = await res.json();
  assertEquals([banner.title, banner.isActive, banner.imageId, banner.linkUrl], [
    "Second",
    true,
    imageId,
    "/internships",
  ]);
  await create({ title: "First", orderIndex: 1, linkUrl: "https://example.com" });
  const hidden = (await (await create({ title: "Hidden", isActive: false })).json()).banner;
  const pub = await (await t.fetch("/api/banners")).json();
  assertEquals(pub.banners.map((b: { title: string }) => b.title), ["First", "Second"]);
  const all = await (await t.fetch("/api/admin/banners", { headers: admin.headers })).json();
  assertEquals(all.banners.map((b: { title: string }) => b.title), ["Hidden", "First", "Second"]);
  const patched = await t.json(
    "PATCH",
    `/api/admin/banners/${hidden.id}`,
    { body: { isActive: true, orderIndex: 5 }, headers: admin.headers },
  );
  assertEquals(patched.status, 200);
  assertEquals((await patched.json()).banner.isActive, true);
  assertEquals((await (await t.fetch("/api/banners")).json()).banners.length, 3);
  const deleted = await t.json("DELETE", `/api/admin/banners/${banner.id}`, { headers: admin.headers });
  assertEquals(await deleted.json(), { success: true });
  assertEquals((await t.fetch(`/api/files/${imageId}`)).status, 404);
  assertEquals((await t.json("DELETE", `/api/admin/banners/${banner.id}`, { headers: admin.headers })).status, 404);
  assertEquals(
    (await t.json("PATCH", `/api/admin/banners/${banner.id}`, { body: { title: "x" }, headers: admin.headers })).status,
    404,
  );
});

Deno.test("banners: javascript:, data: and protocol-relative links, an unknown image and a missing title are 400", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const linkUrl of ["javascript:alert(1)", "data:text/html,x", "//evil.example", "/\\evil.example"]) {
    const res = await t.json("POST", "/api/admin/banners", { body: { title: "x", linkUrl }, headers: admin.headers });
    assertEquals(res.status, 400, linkUrl);
    assertEquals((await res.json()).fields, [{
      field: "linkUrl",
      message: translatorFor("en")("fields.linkOrPath"),
      messageKey: "fields.linkOrPath",
    }], "a sentence at the link field");
  }
  const unknown = await t.json(
    "POST",
    "/api/admin/banners",
    { body: { title: "x", imageId: crypto.randomUUID() }, headers: admin.headers },
  );
  assertEquals(unknown.status, 400);
  const untitled = await t.json("POST", "/api/admin/banners", { body: {}, headers: admin.headers });
  assert(Array.isArray((await untitled.json()).error));
});

Deno.test("banners: guest 401 and user/member 403 on the admin endpoints; the public list is open", async () => {
  await using t = await createTestApp();
  assertEquals((await t.fetch("/api/admin/banners")).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    assertEquals((await t.fetch("/api/admin/banners", { headers: who.headers })).status, 403);
    assertEquals(
      (await t.json("POST", "/api/admin/banners", { body: { title: "x" }, headers: who.headers })).status,
      403,
    );
  }
  assertEquals(await (await t.fetch("/api/banners")).json(), { banners: [] });
});

Deno.test("banners: an image replaced or removed is deleted after the change; a failed delete is logged, the edit kept", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const admin = await createTestUser(t, "admin");
  const [first, second, third] = [await uploadedId(t, admin), await uploadedId(t, admin), await uploadedId(t, admin)];
  const patch = (id: string, body: Record<string, unknown>) =>
    t.json("PATCH", `/api/admin/banners/${id}`, { body, headers: admin.headers });
  const served = async (imageId: string) => (await t.fetch(`/api/files/${imageId}`)).status;
  const { banner } = await (await t.json("POST", "/api/admin/banners", {
    body: { title: "Summer", imageId: first },
    headers: admin.headers,
  })).json();
  assertEquals((await patch(banner.id, { title: "Summer internships" })).status, 200);
  assertEquals(await served(first), 200, "a change that keeps the image keeps its file");
  assertEquals((await patch(banner.id, { imageId: second })).status, 200);
  assertEquals([await served(first), await served(second)], [404, 200], "the replaced image is gone");
  assertEquals((await patch(banner.id, { imageId: null })).status, 200);
  assertEquals(await served(second), 404, "the removed image is gone");

  assertEquals((await patch(banner.id, { imageId: third })).status, 200);
  const store = t.services.files;
  store.delete = () => Promise.reject(new Error("object store down"));
  const res = await patch(banner.id, { imageId: null });
  assertEquals([res.status, (await res.json()).banner.imageId], [200, null]);
  const logged = logLines.filter((line) => line.includes("banner image not deleted"));
  assertEquals(logged.length, 1);
  assert(logged[0].includes(third) && logged[0].includes(banner.id), logged[0]);
});
