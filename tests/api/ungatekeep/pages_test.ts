import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm } from "@/tests/helpers/app.ts";
import { getPostForAdmin } from "@/lib/ungatekeep/posts.ts";
import { createPost, uploadedId } from "@/tests/fixtures/posts.ts";
import { listBanners } from "@/lib/ungatekeep/banners.ts";
import { hiddenFields, page } from "@/tests/fixtures/html.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";

const cards = (html: string) => html.match(/href="\/ungatekeep\/[0-9a-f-]{36}"/g)?.length ?? 0;

Deno.test("/ungatekeep: a guest sees 3 cards and a prompt with the hidden count; a user sees every card", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const image = await uploadedId(t, admin);
  for (let i = 0; i < 7; i++) await createPost(t, admin, { title: `Post ${i}`, images: i === 0 ? [image] : [] });
  await t.json("POST", "/api/admin/banners", {
    body: { title: "Welcome banner", linkUrl: "/internships" },
    headers: admin.headers,
  });
  const guest = await t.fetch("/ungatekeep");
  assertEquals(guest.status, 200);
  const html = await guest.text();
  assertEquals(cards(html), 3);
  assertMatch(html, /4 more posts are hidden/);
  assertMatch(html, /Welcome banner/);
  const user = await createTestUser(t, "user");
  const signedIn = await (await t.fetch("/ungatekeep", { headers: user.headers })).text();
  assertEquals(cards(signedIn), 7);
  assert(!signedIn.includes("more posts are hidden"));
});

Deno.test("/ungatekeep/{id}: the post with its link card; a guest beyond the preview is sent to sign in; a draft is 404 except for admins", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const old = await createPost(t, admin, { title: "Old", publishedAt: "2024-01-01T00:00:00.000Z" });
  for (let i = 0; i < 3; i++) await createPost(t, admin, { title: `New ${i}` });
  const linked = await createPost(t, admin, {
    title: "Linked",
    content: "**Bold** text",
    linkUrl: "https://example.com/x",
    linkTitle: "Example",
  });
  const draft = await createPost(t, admin, { title: "Draft", isPublished: false });
  const page = await (await t.fetch(`/ungatekeep/${linked.id}`)).text();
  assertMatch(page, /<strong>Bold<\/strong>/);
  assertMatch(page, /href="https:\/\/example.com\/x" target="_blank" rel="noopener noreferrer nofollow"/);
  const hidden = await t.fetch(`/ungatekeep/${old.id}`, { redirect: "manual" });
  assertEquals(hidden.status, 302);
  assertMatch(hidden.headers.get("location") ?? "", /^\/sign-in\?callbackURL=/);
  assertEquals((await t.fetch(`/ungatekeep/${draft.id}`)).status, 404);
  const preview = await t.fetch(`/ungatekeep/${draft.id}`, { headers: admin.headers });
  assertEquals(preview.status, 200);
  assertMatch(await preview.text(), /Only admins see this post/);
});

Deno.test("admin pages: posts table, editor and banners render for admins, 403 for users", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const post = await createPost(t, admin, { title: "Editable" });
  for (const path of ["/admin/ungatekeep", "/admin/ungatekeep/new", `/admin/ungatekeep/${post.id}`, "/admin/banners"]) {
    const res = await t.fetch(path, { headers: admin.headers });
    assertEquals(res.status, 200, path);
    await res.body?.cancel();
    const denied = await t.fetch(path, { headers: user.headers });
    assertEquals(denied.status, 403, path);
    await denied.body?.cancel();
  }
  const saved = await (await t.fetch(`/admin/ungatekeep?saved=${post.id}`, { headers: admin.headers })).text();
  assert(saved.includes("“Editable” is saved."), "the list says which post was saved");
  assert(
    saved.includes(`<a href="/ungatekeep/${post.id}" class="font-medium underline">View the post</a>`),
    "its link",
  );
  const unknown = await (await t.fetch("/admin/ungatekeep?saved=nothing", { headers: admin.headers })).text();
  assert(!unknown.includes("is saved."), "no notice for a post that is not there");
});

Deno.test("POST /admin/banners: a file that is no image, a bad order and an unknown banner get the page with the refusal; nothing is stored", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const post = async (fields: Record<string, string | File>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    const res = await t.fetch("/admin/banners", {
      method: "POST",
      body,
      headers: { ...admin.headers, accept: "text/html" },
    });
    return { status: res.status, html: await res.text() };
  };
  const notImage = await post({
    intent: "add",
    title: "Exam season",
    linkUrl: "",
    image: new File(["not an image"], "notes.png", { type: "image/png" }),
  });
  assertEquals(notImage.status, 400);
  assertMatch(notImage.html, /File must be a PNG, JPEG, WebP or GIF image\./);
  assertMatch(notImage.html, /value="Exam season"/);
  assertEquals((await listBanners(t.kv, false)).length, 0);

  const added = await post({ intent: "add", title: "Exam season", linkUrl: "/internships" });
  assertEquals(added.status, 303);
  const [banner] = await listBanners(t.kv, false);
  const badOrder = await post({ intent: "update", id: banner.id, orderIndex: "-2", isActive: "true" });
  assertEquals(badOrder.status, 400);
  assertMatch(badOrder.html, /Write the order as a whole number, 0 or more\./);
  const unknown = await post({ intent: "update", id: "no-such-banner", orderIndex: "1", isActive: "true" });
  assertEquals(unknown.status, 404);
  assertMatch(unknown.html, /Banner not found\./);
  assertEquals((await listBanners(t.kv, false)).map((b) => [b.orderIndex, b.isActive]), [[0, true]]);
});

Deno.test("/admin/ungatekeep: a row form drawn before another admin's change saves and logs only its own switch", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const other = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Exam tips" });
  const before = await getPostForAdmin(t.kv, post.id);
  const drawn = hiddenFields((await page(t, "/admin/ungatekeep", admin)).html);
  assertEquals(
    [drawn.was_isPublished, drawn.was_isPinned],
    [String(before.isPublished), String(before.isPinned)],
    "the row as drawn",
  );
  const pin = await t.json("PATCH", `/api/admin/ungatekeep/${post.id}`, {
    body: { isPinned: !before.isPinned },
    headers: other.headers,
  });
  assertEquals(pin.status, 200);
  await pin.body?.cancel();
  const row = {
    intent: "update",
    id: post.id,
    was_isPublished: drawn.was_isPublished,
    was_isPinned: drawn.was_isPinned,
  };
  const ticked = (on: boolean) => on ? "true" : "";
  const saved = await postForm(t, admin, "/admin/ungatekeep", {
    ...row,
    isPublished: ticked(!before.isPublished),
    isPinned: ticked(before.isPinned),
  });
  assertEquals([saved.status, saved.headers.get("location")], [303, `/admin/ungatekeep?updated=${post.id}`]);
  const after = await getPostForAdmin(t.kv, post.id);
  assertEquals([after.isPublished, after.isPinned], [!before.isPublished, !before.isPinned], "the pin stays");
  const unchanged = await postForm(t, admin, "/admin/ungatekeep", {
    ...row,
    isPublished: ticked(before.isPublished),
    isPinned: ticked(before.isPinned),
  });
  assertEquals(unchanged.status, 303, "nothing changed: back, with no write");
  const logged = await listAdminLog(t.kv, adminLogQuerySchema.parse({ action: "post.update" }));
  const mine = logged.entries.filter((entry) => entry.adminId === admin.user.id).map((entry) => entry.summary);
  assertEquals(mine, [`Exam tips: isPublished: ${!before.isPublished}`], "the log says what this admin changed, once");
  assertEquals((await getPostForAdmin(t.kv, post.id)).isPinned, !before.isPinned);
});

Deno.test("/admin/ungatekeep saves a row's switches and deletes a post with plain forms; a refusal in the page's words", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "Exam tips" });
  const saved = await postForm(t, admin, "/admin/ungatekeep", { intent: "update", id: post.id, isPinned: "true" });
  assertEquals([saved.status, saved.headers.get("location")], [303, `/admin/ungatekeep?updated=${post.id}`]);
  const view = await getPostForAdmin(t.kv, post.id);
  assertEquals([view.isPublished, view.isPinned], [false, true], "an unticked box is false");
  const hindi = await (await t.fetch(`/admin/ungatekeep?updated=${post.id}&lang=hi`, { headers: admin.headers }))
    .text();
  assert(hindi.includes("“Exam tips” सेव हो गई।"));
  const asked = await (await t.fetch(`/admin/ungatekeep?delete=${post.id}`, { headers: admin.headers })).text();
  assert(asked.includes('id="delete-post"') && asked.includes("“Exam tips” and its images"));
  const deleted = await postForm(t, admin, "/admin/ungatekeep", { intent: "delete", id: post.id });
  assertEquals([deleted.status, deleted.headers.get("location")], [303, "/admin/ungatekeep?deleted=1"]);
  const gone = await postForm(t, admin, "/admin/ungatekeep", { intent: "update", id: post.id }, {
    "accept-language": "hi-IN,hi;q=0.9",
  });
  assertEquals(gone.status, 404);
  assert((await gone.text()).includes("पोस्ट नहीं मिली"), "the refusal in Hindi");
  const bad = await postForm(t, admin, "/admin/ungatekeep", { intent: "publish", id: post.id });
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
});
