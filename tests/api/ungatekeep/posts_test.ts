import { assert, assertEquals, assertMatch, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { NotFoundError } from "@/lib/errors.ts";
import {
  createPost as storePost,
  getPost,
  listFeed,
  listPostsForAdmin,
  SEARCH_TEXT_CHARS,
  SEARCHED_POSTS,
} from "@/lib/ungatekeep/posts.ts";
import { createUser } from "@/lib/users/users.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { type KvReads, kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { FeedQuerySchema, MAX_CONTENT_LENGTH, PostCreateSchema } from "@/lib/ungatekeep/schema.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { createPost, postBody, uploadedId } from "@/tests/fixtures/posts.ts";

/** How many lists of `reads` read keys whose first part is `part`. */
const listsOf = (reads: KvReads, part: string) =>
  reads.lists.filter(({ selector }) => ("prefix" in selector ? selector.prefix : selector.start)[0] === part).length;

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Six live posts (one pinned and oldest), one draft, one scheduled for next week. */
async function seedFeed(t: TestApp, admin: TestUser) {
  const live = [];
  for (let i = 1; i <= 5; i++) live.push(await createPost(t, admin, { title: `Post ${i}`, publishedAt: ago(i) }));
  const pinned = await createPost(t, admin, {
    title: "Pinned",
    isPinned: true,
    publishedAt: ago(30),
    tag: "resources",
  });
  const draft = await createPost(t, admin, { title: "Draft", isPublished: false });
  const scheduled = await createPost(t, admin, {
    title: "Scheduled",
    publishedAt: new Date(Date.now() + 7 * DAY).toISOString(),
  });
  return { live, pinned, draft, scheduled };
}

Deno.test("GET /api/ungatekeep: a signed-in user sees pinned first, then newest first; drafts and scheduled posts are invisible", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  await seedFeed(t, admin);
  for (const role of ["user", "member", "admin"] as const) {
    const who = await createTestUser(t, role);
    const res = await t.fetch("/api/ungatekeep", { headers: who.headers });
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.posts.map((p: { title: string }) => p.title), [
      "Pinned",
      "Post 1",
      "Post 2",
      "Post 3",
      "Post 4",
      "Post 5",
    ]);
    assertEquals(body.total, 6);
    assertEquals(body.hiddenCount, 0);
  }
});

Deno.test("GET /api/ungatekeep: a guest gets the first 3 posts for any offset/limit and hiddenCount = total − 3", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  await seedFeed(t, admin);
  for (const query of ["", "?offset=3&limit=10", "?limit=1"]) {
    const body = await (await t.fetch(`/api/ungatekeep${query}`)).json();
    assertEquals(body.posts.map((p: { title: string }) => p.title), ["Pinned", "Post 1", "Post 2"]);
    assertEquals(body.total, 6);
    assertEquals(body.hiddenCount, 3);
  }
});

Deno.test("GET /api/ungatekeep: hiddenCount is never negative with fewer than 3 posts", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  await createPost(t, admin);
  const body = await (await t.fetch("/api/ungatekeep")).json();
  assertEquals([body.posts.length, body.total, body.hiddenCount], [1, 1, 0]);
});

Deno.test("GET /api/ungatekeep: each post carries excerpt (two non-empty lines, plain text) and creator; a read by id the sanitized HTML", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  await createPost(t, admin, {
    content: "## Big **news**\n\nWe [launched](https://example.com) today.\n\nThird line.",
  });
  const [post] = (await (await t.fetch("/api/ungatekeep")).json()).posts;
  assertEquals(post.excerpt, "Big news\nWe launched today.");
  assertEquals(post.creator, { id: admin.user.id, name: "Asha Admin", image: null });
  assertEquals("contentHtml" in post, false, "the feed's cards show the excerpt: no post is rendered for a list");
  const { post: read } = await (await t.fetch(`/api/ungatekeep/${post.id}`)).json();
  assertEquals([read.excerpt, read.creator], [post.excerpt, post.creator]);
  assertMatch(
    read.contentHtml,
    /<a href="https:\/\/example.com" rel="noopener noreferrer" target="_blank">launched<\/a>/,
  );
});

Deno.test("GET /api/ungatekeep: tag filters, with its own total; paging works for a signed-in user", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  await seedFeed(t, admin);
  const tagged = await (await t.fetch("/api/ungatekeep?tag=resources", { headers: user.headers })).json();
  assertEquals(tagged.posts.map((p: { title: string }) => p.title), ["Pinned"]);
  assertEquals(tagged.total, 1);
  const page = await (await t.fetch("/api/ungatekeep?offset=2&limit=2", { headers: user.headers })).json();
  assertEquals(page.posts.map((p: { title: string }) => p.title), ["Post 2", "Post 3"]);
  assertEquals(page.total, 6);
});

Deno.test("GET /api/ungatekeep: bad tag, limit or offset give the zod issue array", async () => {
  await using t = await createTestApp();
  for (const query of ["tag=news", "limit=0", "limit=101", "offset=-1", "limit=abc"]) {
    const res = await t.fetch(`/api/ungatekeep?${query}`);
    assertEquals(res.status, 400, query);
    assert(Array.isArray((await res.json()).error));
  }
});

Deno.test("a scheduled post appears by itself once its time has come, with no job run", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const at = new Date(Date.now() + 200);
  const soon = await createPost(t, admin, { title: "Soon", publishedAt: at.toISOString() });
  // Read at explicit times around its moment, so a slow machine cannot pass the moment before the first read.
  const before = new Date(at.getTime() - 1);
  const viewer = user.user;
  const query = FeedQuerySchema.parse({});
  assertEquals(await listFeed(t.kv, { query, viewer, now: before }), { posts: [], total: 0, hiddenCount: 0 });
  await assertRejects(() => getPost(t.kv, { id: soon.id, viewer, now: before }), NotFoundError);
  const atFeed = await listFeed(t.kv, { query, viewer, now: at });
  assertEquals([atFeed.posts.map((p) => p.title), atFeed.total], [["Soon"], 1]);
  assertEquals((await getPost(t.kv, { id: soon.id, viewer, now: at })).title, "Soon");
  // And over HTTP, at the service's own clock, once that clock has passed the moment.
  while (Date.now() <= at.getTime()) await new Promise((r) => setTimeout(r, at.getTime() + 1 - Date.now()));
  const body = await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json();
  assertEquals(body.posts.map((p: { title: string }) => p.title), ["Soon"]);
  assertEquals(body.total, 1);
  assertEquals((await t.fetch(`/api/ungatekeep/${soon.id}`, { headers: user.headers })).status, 200);
});

Deno.test("GET /api/ungatekeep/{id}: a guest reads the first 3, gets 401 beyond; a signed-in user reads any live post", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const { live, pinned } = await seedFeed(t, admin);
  for (const post of [pinned, live[0], live[1]]) {
    const res = await t.fetch(`/api/ungatekeep/${post.id}`);
    assertEquals(res.status, 200);
    assertEquals((await res.json()).post.id, post.id);
  }
  const hidden = await t.fetch(`/api/ungatekeep/${live[4].id}`);
  assertEquals(hidden.status, 401);
  assertEquals(await hidden.json(), { error: "Sign in to read this post" });
  const res = await t.fetch(`/api/ungatekeep/${live[4].id}`, { headers: user.headers });
  assertEquals(res.status, 200);
  assertEquals((await res.json()).post.title, "Post 5");
});

Deno.test("GET /api/ungatekeep/{id}: drafts, scheduled posts and unknown ids are 404 for everyone, admins included", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { draft, scheduled } = await seedFeed(t, admin);
  for (const id of [draft.id, scheduled.id, crypto.randomUUID()]) {
    for (const headers of [{}, admin.headers]) {
      const res = await t.fetch(`/api/ungatekeep/${id}`, { headers });
      assertEquals(res.status, 404);
      assertEquals(await res.json(), { error: "Post not found" });
    }
  }
});

Deno.test("the admin post list reads its index and the page's posts, not every post; old posts are indexed once", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const made = [];
  for (let i = 0; i < 12; i++) {
    const publishedAt = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    made.push(
      await createPost(t, admin, {
        title: `Post ${i}`,
        isPublished: true,
        publishedAt,
        tag: i % 3 ? "announcement" : "resources",
      }),
    );
  }
  const reads = kvReads();
  const kv = recordingReads(t.kv, reads);
  const query = { limit: 3, offset: 0 };
  const page = await listPostsForAdmin(kv, query);
  assertEquals(page.posts.map((p) => p.title), ["Post 11", "Post 10", "Post 9"]);
  assertEquals(page.pagination, { limit: 3, offset: 0, total: 12, hasMore: true });
  assertEquals(listsOf(reads, "ungatekeep_posts"), 0, "no post read to list");
  assertEquals(reads.keys.filter((key) => key[0] === "ungatekeep_posts").length, 3);
  const tagged = await listPostsForAdmin(kv, { ...query, tag: "resources" });
  assertEquals([tagged.posts.map((p) => p.title), tagged.pagination.total], [["Post 9", "Post 6", "Post 3"], 4]);
  const moved = await t.json("PATCH", `/api/admin/ungatekeep/${made[0].id}`, {
    body: { publishedAt: new Date(Date.UTC(2026, 1, 1)).toISOString() },
    headers: admin.headers,
  });
  assertEquals(moved.status, 200);
  assertEquals((await listPostsForAdmin(kv, query)).posts.map((p) => p.title), ["Post 0", "Post 11", "Post 10"]);
  assertEquals(
    (await t.json("DELETE", `/api/admin/ungatekeep/${made[11].id}`, { headers: admin.headers })).status,
    200,
  );
  assertEquals((await listPostsForAdmin(kv, query)).pagination.total, 11, "a deleted post leaves the index");
  // As an earlier version stored them: records without their index entries, and the first pass done.
  for (const prefix of ["ungatekeep_admin", "ungatekeep_admin_search"]) {
    for await (const { key } of t.kv.list({ prefix: [prefix] })) await t.kv.delete(key);
  }
  await t.kv.set(["ungatekeep_meta", "admin_index"], { after: made[10].id, done: true });
  assertEquals((await listPostsForAdmin(kv, query)).pagination.total, 0);
  assertEquals((await listPostsForAdmin(kv, { ...query, search: "post" })).pagination.total, 0);
  assertEquals(await runJob(findJob("posts-admin-index")!, t.services), { job: "posts-admin-index", indexed: 11 });
  assertEquals((await listPostsForAdmin(kv, query)).posts.map((p) => p.title), ["Post 0", "Post 10", "Post 9"]);
  assertEquals((await listPostsForAdmin(kv, { ...query, search: "post" })).pagination.total, 11);
  assertEquals(await runJob(findJob("posts-admin-index")!, t.services), { job: "posts-admin-index", indexed: 0 });
});

Deno.test("GET /api/admin/ungatekeep: drafts and scheduled posts included; search and tag filter; 401 guest, 403 user and member", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  await seedFeed(t, admin);
  const all = await (await t.fetch("/api/admin/ungatekeep", { headers: admin.headers })).json();
  assertEquals(all.posts.length, 8);
  assertEquals(all.pagination.total, 8);
  assertEquals(all.posts[0].title, "Scheduled");
  assert(all.posts.some((p: { title: string }) => p.title === "Draft"));
  assert(all.posts.every((p: object) => !("contentHtml" in p) && "excerpt" in p), "listed as the feed lists them");
  const found = await (await t.fetch("/api/admin/ungatekeep?search=DRAFT", { headers: admin.headers })).json();
  assertEquals(found.posts.map((p: { title: string }) => p.title), ["Draft"]);
  const tagged = await (await t.fetch("/api/admin/ungatekeep?tag=resources", { headers: admin.headers })).json();
  assertEquals(tagged.posts.map((p: { title: string }) => p.title), ["Pinned"]);
  assertEquals((await t.fetch("/api/admin/ungatekeep")).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    assertEquals((await t.fetch("/api/admin/ungatekeep", { headers: who.headers })).status, 403);
    assertEquals(
      (await t.json("POST", "/api/admin/ungatekeep", { body: postBody(), headers: who.headers })).status,
      403,
    );
  }
});

Deno.test("POST /api/admin/ungatekeep: 201 {post}; a draft has no publishedAt; title, content and tag are required", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json(
    "POST",
    "/api/admin/ungatekeep",
    { body: postBody({ isPublished: false, userId: "x", id: "y" }), headers: admin.headers },
  );
  assertEquals(res.status, 201);
  const { post } = await res.json();
  assertMatch(post.id, /^[0-9a-f-]{36}$/);
  assertEquals([post.isPublished, post.publishedAt, post.isPinned, post.userId], [false, null, false, admin.user.id]);
  assertEquals([post.images, post.linkUrl, post.linkTitle, post.linkImage], [[], null, null, null]);
  const bad = await t.json("POST", "/api/admin/ungatekeep", { body: { content: "x" }, headers: admin.headers });
  assertEquals(bad.status, 400);
  const paths = (await bad.json()).error.map((i: { path: string[] }) => i.path[0]).sort();
  assertEquals(paths, ["tag", "title"]);
  const malformed = await t.fetch("/api/admin/ungatekeep", {
    method: "POST",
    headers: { ...admin.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(malformed.status, 400);
  assertEquals(await malformed.json(), { error: "Invalid JSON body" });
});

Deno.test("POST /api/admin/ungatekeep: a given publishedAt, past or future, is kept; published without one gets now", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const past = "2024-01-02T03:04:05.000Z";
  assertEquals((await createPost(t, admin, { publishedAt: past })).publishedAt, past);
  const future = "2099-01-01T00:00:00.000Z";
  assertEquals((await createPost(t, admin, { publishedAt: future })).publishedAt, future);
  const before = new Date().toISOString();
  const now = (await createPost(t, admin)).publishedAt;
  assert(now >= before && now <= new Date().toISOString());
});

Deno.test("PUT and PATCH publish a draft without publishedAt (it gets the moment of publishing), unpublish it, pin it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const draft = await createPost(t, admin, { isPublished: false, title: "Draft" });
  const older = await createPost(t, admin, { title: "Older", publishedAt: ago(2) });
  const before = new Date().toISOString();
  const published = await t.json("PATCH", `/api/admin/ungatekeep/${draft.id}`, {
    body: { isPublished: true },
    headers: admin.headers,
  });
  assertEquals(published.status, 200);
  const { post } = await published.json();
  assertEquals(post.isPublished, true);
  assert(post.publishedAt >= before);
  assertEquals(post.title, "Draft");
  let feed = await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json();
  assertEquals(feed.posts.map((p: { title: string }) => p.title), ["Draft", "Older"]);
  await t.json("PUT", `/api/admin/ungatekeep/${older.id}`, { body: { isPinned: true }, headers: admin.headers });
  feed = await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json();
  assertEquals(feed.posts.map((p: { title: string }) => p.title), ["Older", "Draft"]);
  const unpublished = await t.json("PUT", `/api/admin/ungatekeep/${draft.id}`, {
    body: { isPublished: false },
    headers: admin.headers,
  });
  assertEquals((await unpublished.json()).post.isPublished, false);
  feed = await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json();
  assertEquals([feed.posts.length, feed.total], [1, 1]);
  assertEquals((await t.fetch(`/api/ungatekeep/${draft.id}`, { headers: user.headers })).status, 404);
});

Deno.test("PATCH /api/admin/ungatekeep/{id}: unknown id 404; bad field 400; concurrent pin toggles keep the counts right", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const missing = await t.json(
    "PATCH",
    `/api/admin/ungatekeep/${crypto.randomUUID()}`,
    { body: { isPinned: true }, headers: admin.headers },
  );
  assertEquals(missing.status, 404);
  assertEquals(await missing.json(), { error: "Post not found" });
  const post = await createPost(t, admin);
  assertEquals(
    (await t.json("PATCH", `/api/admin/ungatekeep/${post.id}`, { body: { tag: "news" }, headers: admin.headers }))
      .status,
    400,
  );
  await Promise.all(
    Array.from(
      { length: 10 },
      (_, i) =>
        t.json("PATCH", `/api/admin/ungatekeep/${post.id}`, {
          body: {
            isPinned: i % 2 === 0,
            tag: i % 3 ? "resources" : "announcement",
          },
          headers: admin.headers,
        }),
    ),
  );
  const feed = await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json();
  assertEquals([feed.posts.length, feed.total], [1, 1]);
  const tags = await Promise.all(
    ["announcement", "resources", "company_experience"].map(async (tag) =>
      (await (await t.fetch(`/api/ungatekeep?tag=${tag}`, { headers: user.headers })).json()).total
    ),
  );
  assertEquals(tags.reduce((a, b) => a + b, 0), 1);
});

Deno.test("images: at most 5 uploaded ids; a 6th, or an id that is not an upload, is 400", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push(await uploadedId(t, admin));
  const five = await createPost(t, admin, { images: ids.slice(0, 5) });
  assertEquals(five.images, ids.slice(0, 5));
  const six = await t.json("POST", "/api/admin/ungatekeep", {
    body: postBody({ images: ids }),
    headers: admin.headers,
  });
  assertEquals(six.status, 400);
  const sixPatch = await t.json("PATCH", `/api/admin/ungatekeep/${five.id}`, {
    body: { images: ids },
    headers: admin.headers,
  });
  assertEquals(sixPatch.status, 400);
  const unknown = crypto.randomUUID();
  const res = await t.json("POST", "/api/admin/ungatekeep", {
    body: postBody({ images: [ids[0], unknown] }),
    headers: admin.headers,
  });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "Unknown image" });
});

Deno.test("images an update drops are deleted after the commit; kept ones stay; a failed delete is logged, the edit kept", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const admin = await createTestUser(t, "admin");
  const [a, b, c] = [await uploadedId(t, admin), await uploadedId(t, admin), await uploadedId(t, admin)];
  const post = await createPost(t, admin, { images: [a, b] });
  const patch = (body: Record<string, unknown>) =>
    t.json("PATCH", `/api/admin/ungatekeep/${post.id}`, { body, headers: admin.headers });
  const served = async (ids: string[]) =>
    await Promise.all(ids.map(async (id) => (await t.fetch(`/api/files/${id}`)).status));
  assertEquals((await patch({ title: "Renamed", isPinned: true })).status, 200);
  assertEquals(await served([a, b]), [200, 200]);
  assertEquals((await patch({ images: [b, c] })).status, 200);
  assertEquals(await served([a, b, c]), [404, 200, 200]);
  assertEquals(await (t.services.files as KvObjectStore).chunkCount(a), 0, "its bytes are gone from KV");

  t.services.files.delete = () => Promise.reject(new Error("object store down"));
  const res = await t.json("PUT", `/api/admin/ungatekeep/${post.id}`, { body: { images: [] }, headers: admin.headers });
  assertEquals([res.status, (await res.json()).post.images], [200, []]);
  const logged = logLines.filter((line) => line.includes("post image not deleted"));
  assertEquals(logged.length, 2);
  assert(logged.every((line) => line.includes(post.id)) && logged.some((line) => line.includes(c)), logged.join());
});

Deno.test("DELETE /api/admin/ungatekeep/{id}: the post is gone for good and its images are deleted from the object store", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  const images = [await uploadedId(t, admin), await uploadedId(t, admin)];
  const post = await createPost(t, admin, { images });
  assertEquals((await t.fetch(`/api/files/${images[0]}`)).status, 200);
  const res = await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { success: true });
  for (const id of images) {
    assertEquals((await t.fetch(`/api/files/${id}`)).status, 404);
    assertEquals(await (t.services.files as KvObjectStore).chunkCount(id), 0);
  }
  assertEquals((await t.fetch(`/api/ungatekeep/${post.id}`, { headers: user.headers })).status, 404);
  assertEquals((await (await t.fetch("/api/ungatekeep", { headers: user.headers })).json()).total, 0);
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${post.id}`, { headers: admin.headers })).status, 404);
});

Deno.test("XSS: scripts, event handlers and javascript:/data: URLs in markdown are neutralized; such link fields are refused", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const content = [
    "Hello <script>alert(1)</script>",
    '<img src="x" onerror="alert(1)"> [a](javascript:alert(1)) [b](JaVaScRiPt:alert(2)) ![c](data:image/svg+xml;base64,PHN2Zz4=)',
    '<a href="data:text/html,<script>alert(3)</script>">d</a> <iframe src="https://evil.example"></iframe> <div style="x" onclick="y">e</div>',
  ].join("\n\n");
  const post = await createPost(t, admin, { content });
  assert(!/<script|onerror|onclick|javascript:|data:|<iframe|style=/i.test(post.contentHtml), post.contentHtml);
  assert(!/<script/i.test(post.excerpt));
  for (const field of ["linkUrl", "linkImage"]) {
    for (const url of ["javascript:alert(1)", " JAVASCRIPT:alert(1)", "data:text/html,hi", "//evil.example/x"]) {
      const res = await t.json("POST", "/api/admin/ungatekeep", {
        body: postBody({ [field]: url }),
        headers: admin.headers,
      });
      assertEquals(res.status, 400, `${field} ${url}`);
      const patch = await t.json("PATCH", `/api/admin/ungatekeep/${post.id}`, {
        body: { [field]: url },
        headers: admin.headers,
      });
      assertEquals(patch.status, 400, `${field} ${url}`);
    }
  }
  const ok = await createPost(t, admin, {
    linkUrl: "https://example.com/a",
    linkTitle: "Example",
    linkImage: "https://example.com/a.png",
  });
  assertEquals([ok.linkUrl, ok.linkTitle, ok.linkImage], [
    "https://example.com/a",
    "Example",
    "https://example.com/a.png",
  ]);
});

Deno.test("POST /api/admin/ungatekeep/preview: renders sanitized markdown for admins only", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json(
    "POST",
    "/api/admin/ungatekeep/preview",
    { body: { content: "**hi** <script>x</script>" }, headers: admin.headers },
  );
  assertEquals(await res.json(), { html: "<p><strong>hi</strong> </p>\n" });
  const user = await createTestUser(t, "user");
  assertEquals(
    (await t.json("POST", "/api/admin/ungatekeep/preview", { body: { content: "x" }, headers: user.headers })).status,
    403,
  );
});

Deno.test("a guest filtering by tag gets the first 3 of that tag and may open them; a 4th of the tag stays 401", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const resources = [];
  for (let i = 1; i <= 4; i++) {
    resources.push(await createPost(t, admin, { title: `Resource ${i}`, tag: "resources", publishedAt: ago(10 + i) }));
  }
  for (let i = 1; i <= 3; i++) await createPost(t, admin, { title: `News ${i}`, publishedAt: ago(i) });
  const body = await (await t.fetch("/api/ungatekeep?tag=resources")).json();
  assertEquals(body.posts.map((p: { title: string }) => p.title), ["Resource 1", "Resource 2", "Resource 3"]);
  assertEquals([body.total, body.hiddenCount], [4, 1]);
  assertEquals((await t.fetch(`/api/ungatekeep/${resources[2].id}`)).status, 200);
  assertEquals((await t.fetch(`/api/ungatekeep/${resources[3].id}`)).status, 401);
});

Deno.test("post size: content is counted as KV stores it, so no mix of scripts passes the check and fails the write", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const send = (method: string, path: string, body: Record<string, unknown>) =>
    t.json(method, path, { body, headers: admin.headers });
  const fieldsOf = async (res: Response) => {
    assertEquals(res.status, 400);
    return (await res.json()).fields.map(({ field, message }: { field: string; message: string }) => ({
      field,
      message,
    }));
  };
  const en = translatorFor("en");
  const tooMany = [{ field: "content", message: en("fields.maxChars", { max: MAX_CONTENT_LENGTH }) }];
  // Under the old 40,000 UTF-8 bytes, each was a 500: one rupee sign, or a Hinglish post.
  for (const content of ["a".repeat(39_000) + " ₹", "Interview tips. ".repeat(1875) + "नमस्ते ".repeat(500)]) {
    assertEquals(await fieldsOf(await send("POST", "/api/admin/ungatekeep", postBody({ content }))), tooMany);
  }
  const longest = "न".repeat(MAX_CONTENT_LENGTH);
  const post = await createPost(t, admin, { content: longest });
  assertEquals(post.content, longest);
  // With every other text at its longest in Hindi, the record would not fit: refused at content, never a 500.
  const hindiUrl = "https://example.com/" + "न".repeat(2000);
  const long = { title: "न".repeat(200), linkUrl: hindiUrl, linkTitle: "न".repeat(200), linkImage: hindiUrl };
  const tooLong = [{ field: "content", message: en("fields.postTooLong") }];
  assertEquals(
    await fieldsOf(await send("POST", "/api/admin/ungatekeep", postBody({ content: longest, ...long }))),
    tooLong,
  );
  assertEquals(await fieldsOf(await send("PATCH", `/api/admin/ungatekeep/${post.id}`, long)), tooLong);

  // A post stored under the old bound (40,000 characters of ASCII fit) can still be pinned; its text cannot grow.
  const key = ["ungatekeep_posts", post.id];
  const stored = (await t.services.kv.get<Record<string, unknown>>(key)).value!;
  await t.services.kv.set(key, { ...stored, content: "a".repeat(40_000) });
  assertEquals((await send("PATCH", `/api/admin/ungatekeep/${post.id}`, { isPinned: true })).status, 200);
  assertEquals(await fieldsOf(await send("PATCH", `/api/admin/ungatekeep/${post.id}`, { linkTitle: "More" })), tooLong);
});

Deno.test("the admin post search matches the title and the content's start, and reads only the page's posts", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const filler = (n: number) => "Interview tips. ".repeat(Math.ceil(n / 16)).slice(0, n);
  for (let i = 0; i < 30; i++) {
    const content = i === 0
      ? `${filler(SEARCH_TEXT_CHARS - 20)} early WORD ${filler(1000)} late word`
      : `${filler(3000)} Needle ${i}`;
    const publishedAt = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    await createPost(t, admin, { title: i % 2 ? `Odd Post ${i}` : `Even Post ${i}`, content, publishedAt });
  }
  const reads = kvReads();
  const kv = recordingReads(t.kv, reads);
  const odd = await listPostsForAdmin(kv, { limit: 5, offset: 5, search: "ODD post" });
  assertEquals(odd.posts.map((p) => p.title), [19, 17, 15, 13, 11].map((i) => `Odd Post ${i}`));
  assertEquals(odd.pagination, { limit: 5, offset: 5, total: 15, hasMore: true });
  assertEquals(reads.keys.filter((key) => key[0] === "ungatekeep_posts").length, 5, "the page's posts only");
  assertEquals(listsOf(reads, "ungatekeep_posts"), 0);
  assertEquals((await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "early word" })).pagination.total, 1);
  assertEquals(
    (await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "late" })).pagination.total,
    0,
    "past the start",
  );
  assertEquals((await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "needle" })).pagination.total, 0);
  // An edit changes what the search finds.
  const first = (await listPostsForAdmin(kv, { limit: 1, offset: 0, search: "early" })).posts[0];
  const edit = { title: "Renamed needle", content: "Short now" };
  assertEquals(
    (await t.json("PATCH", `/api/admin/ungatekeep/${first.id}`, { body: edit, headers: admin.headers })).status,
    200,
  );
  assertEquals((await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "early" })).pagination.total, 0);
  assertEquals((await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "needle" })).posts.map((p) => p.id), [
    first.id,
  ]);
  assertEquals((await t.json("DELETE", `/api/admin/ungatekeep/${first.id}`, { headers: admin.headers })).status, 200);
  assertEquals((await listPostsForAdmin(kv, { limit: 5, offset: 0, search: "needle" })).pagination.total, 0);
});

Deno.test("the admin post search looks through the newest 1,000 posts and says so", async () => {
  using kv = await Deno.openKv(":memory:");
  const files = new KvObjectStore(kv);
  const author = await createUser(kv, { name: "Admin", email: "admin@example.in", emailVerified: true, role: "admin" });
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const write = (title: string, i: number) =>
    storePost(kv, { files, author, input: PostCreateSchema.parse(postBody({ title, publishedAt: at(i) })) });
  await write("The oldest needle", 0);
  for (let i = 1; i <= SEARCHED_POSTS; i++) await write(`Post ${i}${i === SEARCHED_POSTS ? " needle" : ""}`, i);
  const found = await listPostsForAdmin(kv, { limit: 50, offset: 0, search: "needle" });
  assertEquals(found.posts.map((p) => p.title), [`Post ${SEARCHED_POSTS} needle`]);
  assertEquals([found.pagination.total, found.searchedNewest], [1, SEARCHED_POSTS]);
  const plain = await listPostsForAdmin(kv, { limit: 1, offset: 0 });
  assertEquals([plain.pagination.total, plain.searchedNewest], [SEARCHED_POSTS + 1, null]);
  const resources = await listPostsForAdmin(kv, { limit: 1, offset: 0, search: "post", tag: "resources" });
  assertEquals([resources.pagination.total, resources.searchedNewest], [0, null], "none of that tag");
});
