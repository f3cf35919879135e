import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { KvObjectStore } from "@/lib/files/kv_store.ts";
import { paddedPng } from "@/lib/demo/images.ts";
import { PNG, upload, uploadedId } from "@/tests/fixtures/posts.ts";
import { REFUSALS } from "@/lib/refusals.ts";

const FIVE_MB = 5 * 1024 * 1024;

Deno.test("POST /api/admin/uploads: an admin uploads a PNG, 201 {id, url}; GET serves it with type, ETag and long caching", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await upload(t, admin, PNG, "application/octet-stream");
  assertEquals(res.status, 201);
  const { id, url } = await res.json();
  assertMatch(id, /^[0-9a-f-]{36}$/);
  assertEquals(url, `/api/files/${id}`);
  const file = await t.fetch(url);
  assertEquals(file.status, 200);
  assertEquals(file.headers.get("content-type"), "image/png");
  assertMatch(file.headers.get("cache-control") ?? "", /max-age=31536000/);
  assertMatch(file.headers.get("etag") ?? "", /^"[0-9a-f]{64}"$/);
  assertEquals(new Uint8Array(await file.arrayBuffer()), PNG);
});

Deno.test("GET /api/files/{id}: If-None-Match with the ETag is 304 without a body", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { url } = await (await upload(t, admin, PNG)).json();
  const etag = (await t.fetch(url)).headers.get("etag")!;
  const again = await t.fetch(url, { headers: { "if-none-match": etag } });
  assertEquals(again.status, 304);
  assertEquals(again.headers.get("etag"), etag);
  assertEquals(await again.text(), "");
  const other = await t.fetch(url, { headers: { "if-none-match": '"other"' } });
  assertEquals(other.status, 200);
  await other.body?.cancel();
});

Deno.test("POST /api/admin/uploads: JPEG, WebP and GIF are recognised by their bytes and served with their own type", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const samples: [string, number[]][] = [
    ["image/jpeg", [0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]],
    ["image/gif", [...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0, 0, 0, 0]],
    ["image/webp", [...new TextEncoder().encode("RIFF"), 36, 0, 0, 0, ...new TextEncoder().encode("WEBPVP8 "), 0, 0]],
  ];
  for (const [type, head] of samples) {
    const bytes = new Uint8Array(64);
    bytes.set(head);
    const res = await upload(t, admin, bytes, "image/png");
    assertEquals(res.status, 201, type);
    const file = await t.fetch((await res.json()).url);
    assertEquals(file.headers.get("content-type"), type);
    await file.body?.cancel();
  }
});

Deno.test("POST /api/admin/uploads: a text file declared image/png is refused with 400", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await upload(t, admin, new TextEncoder().encode("just some text, not a picture"), "image/png");
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "File must be a PNG, JPEG, WebP or GIF image" });
});

Deno.test("POST /api/admin/uploads: an SVG (script-capable) is refused even when declared as an image", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const res = await upload(t, admin, svg, "image/svg+xml");
  assertEquals(res.status, 400);
});

Deno.test("POST /api/admin/uploads: exactly 5 MB is accepted, 5 MB + 1 byte is 413", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const ok = await upload(t, admin, paddedPng(PNG, FIVE_MB));
  assertEquals(ok.status, 201);
  const { url } = await ok.json();
  assertEquals((await t.fetch(url)).headers.get("content-length"), String(FIVE_MB));
  const tooBig = await upload(t, admin, paddedPng(PNG, FIVE_MB + 1));
  assertEquals(tooBig.status, 413);
  assertEquals(await tooBig.json(), { error: REFUSALS.imageTooLarge });
});

Deno.test("POST /api/admin/uploads: a body far over the limit is 413 before the handler reads it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await upload(t, admin, paddedPng(PNG, FIVE_MB + 200 * 1024));
  assertEquals(res.status, 413);
  assertEquals(await res.json(), { error: REFUSALS.imageTooLarge }, "the file's limit, as the form states it");
});

Deno.test("POST /api/admin/uploads: without a file field 400; guest 401; user and member 403", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const empty = await t.fetch("/api/admin/uploads", { method: "POST", headers: admin.headers, body: new FormData() });
  assertEquals(empty.status, 400);
  const json = await t.json("POST", "/api/admin/uploads", { body: { file: "x" }, headers: admin.headers });
  assertEquals(json.status, 400);
  const form = () => {
    const f = new FormData();
    f.set("file", new Blob([PNG as Uint8Array<ArrayBuffer>], { type: "image/png" }), "a.png");
    return f;
  };
  assertEquals((await t.fetch("/api/admin/uploads", { method: "POST", body: form() })).status, 401);
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    const res = await t.fetch("/api/admin/uploads", { method: "POST", headers: who.headers, body: form() });
    assertEquals(res.status, 403);
  }
});

Deno.test("GET /api/files/{id}: unknown and malformed ids are 404", async () => {
  await using t = await createTestApp();
  const res = await t.fetch(`/api/files/${crypto.randomUUID()}`);
  assertEquals(res.status, 404);
  assertEquals(await res.json(), { error: "File not found" });
  assertEquals((await t.fetch("/api/files/not-an-id")).status, 404);
});

Deno.test("object store: a file whose upload was interrupted is never served, and the sweep removes its chunks", async () => {
  await using t = await createTestApp();
  const store = t.services.files as KvObjectStore;
  let release!: (reason: Error) => void;
  const stalled = new Promise<never>((_, reject) => release = reject);
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ < 20) controller.enqueue(paddedPng(PNG, 60_000));
      else await stalled;
    },
  });
  const putting = store.put(stream, "image/png").catch((error) => error);
  let id: string | undefined;
  for (let i = 0; i < 100 && id === undefined; i++) {
    await new Promise((r) => setTimeout(r, 10));
    id = (await store.pendingIds())[0];
  }
  assert(id, "the upload is under way");
  while (await store.chunkCount(id) < 16) await new Promise((r) => setTimeout(r, 10));
  assertEquals((await t.fetch(`/api/files/${id}`)).status, 404);
  assertEquals(await store.metadata(id), null);
  assertEquals(await store.sweepOrphans(new Date(Date.now() + 1000)), 1);
  assertEquals(await store.chunkCount(id), 0);
  release(new Error("connection lost"));
  assert((await putting) instanceof Error);
  assertEquals((await t.fetch(`/api/files/${id}`)).status, 404);
});

Deno.test("object store: a put whose stream fails leaves no chunks and no pending marker", async () => {
  await using t = await createTestApp();
  const store = new KvObjectStore(t.kv);
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ < 10) controller.enqueue(new Uint8Array(60_000));
      else controller.error(new Error("client went away"));
    },
  });
  const error = await store.put(stream, "image/png").catch((e) => e);
  assert(error instanceof Error);
  let keys = 0;
  for await (const _ of t.kv.list({ prefix: [] })) keys++;
  assertEquals(keys, 0);
});

Deno.test("object store: delete removes the metadata and every chunk", async () => {
  await using t = await createTestApp();
  const store = new KvObjectStore(t.kv);
  const meta = await store.put(paddedPng(PNG, 1_000_000), "image/png");
  assertEquals(await store.chunkCount(meta.id), 17);
  await store.delete(meta.id);
  assertEquals(await store.get(meta.id), null);
  assertEquals(await store.chunkCount(meta.id), 0);
});

Deno.test("an upload a banner and posts share is deleted only when no banner or post names it any more", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const imageId = await uploadedId(t, admin);
  const status = async () => {
    const res = await t.fetch(`/api/files/${imageId}`);
    await res.body?.cancel();
    return res.status;
  };
  const made = await t.json("POST", "/api/admin/banners", {
    body: { title: "Banner", orderIndex: 1, imageId },
    headers: admin.headers,
  });
  const { banner } = await made.json();
  const posts = [];
  for (const title of ["First", "Second"]) {
    const res = await t.json("POST", "/api/admin/ungatekeep", {
      body: { title, content: "hello", tag: "resources", images: [imageId], isPublished: true },
      headers: admin.headers,
    });
    assertEquals(res.status, 201);
    posts.push((await res.json()).post);
  }
  const dropped = await t.json("PATCH", `/api/admin/banners/${banner.id}`, {
    body: { imageId: null },
    headers: admin.headers,
  });
  assertEquals(dropped.status, 200);
  await dropped.body?.cancel();
  assertEquals(await status(), 200, "the posts still show it");
  const deleted = await t.json("DELETE", `/api/admin/ungatekeep/${posts[0].id}`, { headers: admin.headers });
  assertEquals(deleted.status, 200);
  await deleted.body?.cancel();
  assertEquals(await status(), 200, "the second post still shows it");
  const edited = await t.json("PATCH", `/api/admin/ungatekeep/${posts[1].id}`, {
    body: { images: [] },
    headers: admin.headers,
  });
  assertEquals(edited.status, 200);
  await edited.body?.cancel();
  assertEquals(await status(), 404, "nothing names it any more");
});

Deno.test("a toolkit cover upload goes when the cover is replaced or the toolkit deleted, unless something names it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const [first, second, shared] = [await uploadedId(t, admin), await uploadedId(t, admin), await uploadedId(t, admin)];
  const status = async (id: string) => {
    const res = await t.fetch(`/api/files/${id}`);
    await res.body?.cancel();
    return res.status;
  };
  const answer = async (res: Response, expected = 200) => {
    assertEquals(res.status, expected, await res.clone().text());
    return await res.json();
  };
  const cover = (id: string) => `/api/files/${id}`;
  const toolkit = async (coverImageUrl: string) =>
    await answer(
      await t.json("POST", "/api/admin/toolkits", {
        body: { title: "Resume Toolkit", description: "Read.", price: 499, coverImageUrl },
        headers: admin.headers,
      }),
      201,
    );
  const put = async (id: string, coverImageUrl: string | null) =>
    await answer(await t.json("PUT", `/api/admin/toolkits/${id}`, { body: { coverImageUrl }, headers: admin.headers }));

  const kit = await toolkit(cover(first));
  await put(kit.id, cover(second));
  assertEquals([await status(first), await status(second)], [404, 200], "the replaced upload is gone");
  await put(kit.id, cover(second));
  assertEquals(await status(second), 200, "the same cover again keeps it");
  await put(kit.id, "https://cdn.example.com/cover.png");
  assertEquals(await status(second), 404, "a cover elsewhere drops the upload");

  const [one, two] = [await toolkit(cover(shared)), await toolkit(cover(shared))];
  await put(one.id, null);
  assertEquals(await status(shared), 200, "the other toolkit's cover still names it");
  const { banner } = await answer(
    await t.json("POST", "/api/admin/banners", {
      body: { title: "Banner", orderIndex: 1, imageId: shared },
      headers: admin.headers,
    }),
    201,
  );
  const dropped = await t.json("PATCH", `/api/admin/banners/${banner.id}`, {
    body: { imageId: null },
    headers: admin.headers,
  });
  assertEquals(dropped.status, 200);
  await dropped.body?.cancel();
  assertEquals(await status(shared), 200, "a banner's clean-up counts the cover as a use");
  await answer(await t.json("DELETE", `/api/admin/toolkits/${two.id}`, { headers: admin.headers }));
  assertEquals(await status(shared), 404, "nothing names it any more");
});

Deno.test("a cover given as the site's own address and an image in a lesson count as uses of the upload", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const [pasted, inLesson, inLessonByAddress] = [
    await uploadedId(t, admin),
    await uploadedId(t, admin),
    await uploadedId(t, admin),
  ];
  const status = async (id: string) => {
    const res = await t.fetch(`/api/files/${id}`);
    await res.body?.cancel();
    return res.status;
  };
  const send = async (method: string, path: string, body: Record<string, unknown>, expected = 200) => {
    const res = await t.json(method, path, { body, headers: admin.headers });
    assertEquals(res.status, expected, await res.clone().text());
    return await res.json();
  };
  const own = (id: string) => `${t.origin}/api/files/${id}`;
  const kit = await send("POST", "/api/admin/toolkits", {
    title: "Resume Toolkit",
    description: "Read.",
    price: 499,
    coverImageUrl: own(pasted),
  }, 201);
  assertEquals(kit.coverImageUrl, `/api/files/${pasted}`, "kept as the upload's path");
  // A banner drops the same upload: the cover still names it.
  const { banner } = await send("POST", "/api/admin/banners", { title: "Banner", orderIndex: 1, imageId: pasted }, 201);
  await send("PATCH", `/api/admin/banners/${banner.id}`, { imageId: null });
  assertEquals(await status(pasted), 200, "the cover given by its full address still shows it");

  // Lessons show two uploads, one by its path and one by the site's address; covers that named them are replaced.
  const { contentItem } = await send("POST", "/api/admin/toolkit-content-items", {
    toolkitId: kit.id,
    title: "Lesson",
    type: "article",
    content: `<p>Look:</p><img src="/api/files/${inLesson}" alt="A resume"><img src="${
      own(inLessonByAddress)
    }" alt="Another">`,
  }, 201);
  assert(contentItem.content.includes(`src="/api/files/${inLessonByAddress}"`), contentItem.content);
  for (const id of [inLesson, inLessonByAddress]) {
    await send("PUT", `/api/admin/toolkits/${kit.id}`, { coverImageUrl: own(id) });
  }
  await send("PUT", `/api/admin/toolkits/${kit.id}`, { coverImageUrl: null });
  assertEquals([await status(inLesson), await status(inLessonByAddress)], [200, 200], "the lesson still shows both");
  assertEquals(await status(pasted), 404, "the replaced cover's upload, named by nothing else, is gone");
  // Once the lesson no longer shows it, dropping it elsewhere deletes it.
  await send("PATCH", `/api/admin/toolkit-content-items/${contentItem.id}`, { content: "<p>No images.</p>" });
  await send("PUT", `/api/admin/toolkits/${kit.id}`, { coverImageUrl: `/api/files/${inLesson}` });
  await send("PUT", `/api/admin/toolkits/${kit.id}`, { coverImageUrl: null });
  assertEquals(await status(inLesson), 404);
});
