import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestUser } from "@/tests/helpers/app.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import { addLesson, addToolkit, checkout, openShop } from "@/tests/fixtures/toolkits.ts";

Deno.test("POST /api/toolkits: an admin creates an inactive toolkit, unset optional fields null, with creatorName", async () => {
  await using shop = await openShop();
  const res = await shop.t.json("POST", "/api/toolkits", {
    body: {
      title: "Interview Kit",
      description: "Practice",
      price: 299.5,
    },
    headers: shop.admin.headers,
  });
  assertEquals(res.status, 201);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  const toolkit = await res.json();
  assertMatch(toolkit.id, /^[0-9a-f-]{36}$/);
  assertEquals({ ...toolkit, id: "", createdAt: "", updatedAt: "" }, {
    id: "",
    title: "Interview Kit",
    description: "Practice",
    price: 299.5,
    originalPrice: null,
    coverImageUrl: null,
    videoUrl: null,
    contentUrl: null,
    category: null,
    highlights: null,
    totalDuration: null,
    lessonCount: 0,
    isActive: false,
    showSaleBadge: null,
    userId: shop.admin.user.id,
    creatorName: "Asha Admin",
    createdAt: "",
    updatedAt: "",
  });
});

Deno.test("POST /api/toolkits: guests get 401, users and members 403, bad input 400 with issues", async () => {
  await using shop = await openShop();
  const body = { title: "X", description: "Y", price: 10 };
  assertEquals((await shop.t.json("POST", "/api/toolkits", { body })).status, 401);
  for (const role of ["user", "member"] as const) {
    const user = await createTestUser(shop.t, role);
    assertEquals((await shop.t.json("POST", "/api/toolkits", { body, headers: user.headers })).status, 403);
  }
  for (
    const bad of [{}, { ...body, price: -1 }, { ...body, price: 10.001 }, { ...body, price: 10_000_001 }, {
      ...body,
      price: "10",
    }, { ...body, coverImageUrl: "javascript:alert(1)" }]
  ) {
    const res = await shop.t.json("POST", "/api/toolkits", { body: bad, headers: shop.admin.headers });
    assertEquals(res.status, 400, JSON.stringify(bad));
    assert(Array.isArray((await res.json()).error));
  }
  assertEquals(
    (await shop.t.json("GET", "/api/admin/toolkits", { headers: shop.admin.headers }).then((r) => r.json())).toolkits,
    [],
  );
});

Deno.test("GET /api/toolkits lists active toolkits only, newest first; inactive ones are 404 except for admins", async () => {
  await using shop = await openShop();
  const older = await addToolkit(shop, { title: "Older" });
  await new Promise((r) => setTimeout(r, 2));
  const newer = await addToolkit(shop, { title: "Newer" });
  const draft = await addToolkit(shop, { title: "Draft", isActive: false });
  const list = await (await shop.t.fetch("/api/toolkits")).json();
  assertEquals(list.map((t: { id: string }) => t.id), [newer.id, older.id]);
  assertEquals(list[0].creatorName, "Asha Admin");
  const user = await createTestUser(shop.t);
  for (const headers of [undefined, user.headers]) {
    const res = await shop.t.fetch(`/api/toolkits/${draft.id}`, { headers });
    assertEquals(res.status, 404);
    assertEquals(await res.json(), { error: "Toolkit not found" });
  }
  assertEquals((await shop.t.fetch(`/api/toolkits/${draft.id}`, { headers: shop.admin.headers })).status, 200);
  assertEquals((await shop.t.fetch(`/api/toolkits/${crypto.randomUUID()}`)).status, 404);
});

Deno.test("admin toolkits: search by title, PUT toggles isActive and showSaleBadge, unknown id 404, non-admins refused", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop, { title: "Data Analyst Starter", isActive: false });
  await addToolkit(shop, { title: "Resume Basics", isActive: false });
  const found = await (await shop.t.fetch("/api/admin/toolkits?search=analyst", { headers: shop.admin.headers }))
    .json();
  assertEquals(found.toolkits.map((t: { id: string }) => t.id), [kit.id]);
  const res = await shop.t.json("PUT", `/api/admin/toolkits/${kit.id}`, {
    body: {
      isActive: true,
      showSaleBadge: true,
      originalPrice: 999,
      price: 499,
    },
    headers: shop.admin.headers,
  });
  assertEquals(res.status, 200);
  const updated = await res.json();
  assertEquals([updated.isActive, updated.showSaleBadge, updated.originalPrice, updated.title], [
    true,
    true,
    999,
    "Data Analyst Starter",
  ]);
  assertEquals(
    (await shop.t.json("PUT", `/api/admin/toolkits/${crypto.randomUUID()}`, { body: {}, headers: shop.admin.headers }))
      .status,
    404,
  );
  const user = await createTestUser(shop.t);
  assertEquals((await shop.t.fetch("/api/admin/toolkits", { headers: user.headers })).status, 403);
  assertEquals((await shop.t.fetch("/api/admin/toolkits")).status, 401);
  assertEquals((await shop.t.json("DELETE", `/api/admin/toolkits/${kit.id}`, { headers: user.headers })).status, 403);
});

Deno.test("content items: lessonCount follows the number of lessons; order by orderIndex; a video needs cdnVideoUrl; unknown toolkit 404", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop, { lessonCount: 12 });
  assertEquals(kit.lessonCount, 12);
  const first = await addLesson(shop, kit.id, { title: "One" });
  const second = await addLesson(shop, kit.id, {
    title: "Two",
    type: "video",
    content: "ignored",
    cdnVideoUrl: "https://cdn.example.com/v.mp4",
  });
  assertEquals([first.orderIndex, second.orderIndex, second.content], [0, 1, null]);
  const admin = shop.admin.headers;
  const readCount = async () => (await (await shop.t.fetch(`/api/toolkits/${kit.id}`)).json()).toolkit.lessonCount;
  assertEquals(await readCount(), 2);
  assertEquals(
    (await shop.t.json("PUT", `/api/admin/toolkits/${kit.id}`, { body: { lessonCount: 40 }, headers: admin }).then((
      r,
    ) => r.json()))
      .lessonCount,
    2,
  );
  const patched = await shop.t.json("PATCH", `/api/admin/toolkit-content-items/${first.id}`, {
    body: { orderIndex: 5 },
    headers: admin,
  });
  assertEquals(patched.status, 200);
  const content = await (await shop.t.fetch(`/api/admin/toolkits/${kit.id}/content`, { headers: admin })).json();
  assertEquals(content.contentItems.map((i: { title: string }) => i.title), ["Two", "One"]);
  const noVideo = await shop.t.json("POST", "/api/admin/toolkit-content-items", {
    body: {
      toolkitId: kit.id,
      title: "V",
      type: "video",
    },
    headers: admin,
  });
  assertEquals([noVideo.status, await noVideo.json()], [400, { error: "A video needs cdnVideoUrl" }]);
  const unknown = await shop.t.json("POST", "/api/admin/toolkit-content-items", {
    body: {
      toolkitId: crypto.randomUUID(),
      title: "X",
      type: "article",
    },
    headers: admin,
  });
  assertEquals(unknown.status, 404);
  assertEquals(
    (await shop.t.json("DELETE", `/api/admin/toolkit-content-items/${second.id}`, { headers: admin })).status,
    200,
  );
  assertEquals(await readCount(), 1);
  assertEquals(
    (await shop.t.json("DELETE", `/api/admin/toolkit-content-items/${second.id}`, { headers: admin })).status,
    404,
  );
  assertEquals(
    (await shop.t.json("PATCH", `/api/admin/toolkit-content-items/nope`, { body: { title: "x" }, headers: admin }))
      .status,
    404,
  );
});

Deno.test("article HTML is sanitized on write: no scripts, handlers, javascript: links, foreign iframes", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const item = await addLesson(shop, kit.id, {
    content: `<h2 onclick="steal()">Intro</h2><script>alert(1)</script><p>Hi <a href="javascript:alert(1)">x</a>` +
      `<a href="https://example.com">ok</a></p><img src="https://cdn.example.com/a.png" onerror="x()">` +
      `<iframe src="https://evil.example/embed"></iframe><iframe src="https://www.youtube-nocookie.com/embed/abc" title="Demo"></iframe>` +
      `<style>body{}</style>`,
  });
  const html = item.content!;
  for (const banned of ["<script", "onclick", "onerror", "javascript:", "evil.example", "<style"]) {
    assert(!html.includes(banned), `${banned} survived: ${html}`);
  }
  assert(html.includes('<iframe src="https://www.youtube-nocookie.com/embed/abc"'));
  assert(html.includes('<a href="https://example.com" rel="noopener noreferrer nofollow">ok</a>'));
  const patched = await shop.t.json("PATCH", `/api/admin/toolkit-content-items/${item.id}`, {
    body: {
      content: "<p onmouseover=x()>New</p>",
    },
    headers: shop.admin.headers,
  });
  assertEquals((await patched.json()).contentItem.content, "<p>New</p>");
});

Deno.test("GET /api/toolkits/{id}: locked lesson bodies are null for guests and non-buyers; preview lessons open; buyers and admins see all", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  await addLesson(shop, kit.id, { title: "Preview", content: "<p>Free part</p>", isPreview: true });
  await addLesson(shop, kit.id, { title: "Locked", content: "<p>Paid secret</p>" });
  await addLesson(shop, kit.id, {
    title: "Locked video",
    type: "video",
    cdnVideoUrl: "https://cdn.example.com/secret.mp4",
  });
  const user = await createTestUser(shop.t);
  for (const headers of [undefined, user.headers]) {
    const res = await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers });
    const text = await res.text();
    assert(!text.includes("Paid secret") && !text.includes("secret.mp4"), text);
    const body = JSON.parse(text);
    assertEquals(body.hasPurchased, false);
    assertEquals(body.completedItemIds, []);
    assertEquals(body.contentItems.map((i: { title: string; content: string | null }) => [i.title, i.content]), [
      ["Preview", "<p>Free part</p>"],
      ["Locked", null],
      ["Locked video", null],
    ]);
  }
  const admin = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: shop.admin.headers })).json();
  assertEquals(admin.contentItems[2].cdnVideoUrl, "https://cdn.example.com/secret.mp4");
  const bought = await checkout(shop, user, kit.id);
  assertEquals(bought.status, 200);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(bought.body.order.id),
    headers: user.headers,
  });
  const buyer = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: user.headers })).json();
  assertEquals(buyer.hasPurchased, true);
  assertEquals(buyer.contentItems[1].content, "<p>Paid secret</p>");
  assertEquals(buyer.contentItems[2].cdnVideoUrl, "https://cdn.example.com/secret.mp4");
});

Deno.test("a toolkit's contentUrl reaches its buyers and admins only; the catalogue's list never carries it", async () => {
  await using shop = await openShop();
  const secret = "https://material.example.com/paid-page";
  const kit = await addToolkit(shop, { contentUrl: secret });
  const user = await createTestUser(shop.t);
  for (const headers of [undefined, user.headers, shop.admin.headers]) {
    const list = await (await shop.t.fetch("/api/toolkits", { headers })).text();
    assert(!list.includes(secret), "the list");
  }
  for (const headers of [undefined, user.headers]) {
    const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers })).json();
    assertEquals(detail.toolkit.contentUrl, null);
  }
  const admin = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: shop.admin.headers })).json();
  assertEquals(admin.toolkit.contentUrl, secret);
  const bought = await checkout(shop, user, kit.id);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(bought.body.order.id),
    headers: user.headers,
  });
  const buyer = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: user.headers })).json();
  assertEquals([buyer.hasPurchased, buyer.toolkit.contentUrl], [true, secret]);
});

Deno.test("DELETE /api/admin/toolkits/{id}: lessons and progress go, purchase records stay and grant nothing", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const lesson = await addLesson(shop, kit.id);
  const user = await createTestUser(shop.t);
  const bought = await checkout(shop, user, kit.id);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(bought.body.order.id),
    headers: user.headers,
  });
  const progress = await shop.t.json("POST", `/api/toolkits/${kit.id}/progress`, {
    body: {
      contentItemId: lesson.id,
      completed: true,
    },
    headers: user.headers,
  });
  assertEquals((await progress.json()).completedItemIds, [lesson.id]);
  const res = await shop.t.json("DELETE", `/api/admin/toolkits/${kit.id}`, { headers: shop.admin.headers });
  assertEquals([res.status, await res.json()], [200, { success: true }]);
  assertEquals((await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: user.headers })).status, 404);
  assertEquals(
    (await shop.t.json("DELETE", `/api/admin/toolkits/${kit.id}`, { headers: shop.admin.headers })).status,
    404,
  );
  const leftovers = [];
  for (const prefix of [["toolkit_items", kit.id], ["toolkit_item_owner"], ["toolkit_progress", kit.id]]) {
    for await (const entry of shop.t.kv.list({ prefix })) leftovers.push(entry.key);
  }
  assertEquals(leftovers, []);
  const { purchases } = await (await shop.t.fetch("/api/purchases", { headers: user.headers })).json();
  assertEquals(purchases.length, 1);
  assertEquals([purchases[0].paymentStatus, purchases[0].toolkit], ["paid", null]);
  const again = await shop.t.json("POST", `/api/toolkits/${kit.id}/progress`, {
    body: {
      contentItemId: lesson.id,
      completed: true,
    },
    headers: user.headers,
  });
  assertEquals(again.status, 404);
});

Deno.test("a toolkit price is 0 or at least ₹1: a price the gateway would raise to ₹1 is refused on create and update", async () => {
  await using shop = await openShop();
  const body = { title: "Tiny Kit", description: "Cheap" };
  for (const price of [0.01, 0.5, 0.99]) {
    const res = await shop.t.json("POST", "/api/admin/toolkits", {
      body: { ...body, price },
      headers: shop.admin.headers,
    });
    assertEquals(res.status, 400, `price ${price}`);
    await res.body?.cancel();
  }
  const kit = await addToolkit(shop, { price: 1 });
  const put = await shop.t.json("PUT", `/api/admin/toolkits/${kit.id}`, {
    body: { price: 0.5 },
    headers: shop.admin.headers,
  });
  assertEquals(put.status, 400);
  await put.body?.cancel();
  const user = await createTestUser(shop.t);
  const started = await checkout(shop, user, kit.id);
  assertEquals([started.body.finalPrice, started.body.order.amount], [1, 100]);
  assertEquals((await addToolkit(shop, { price: 0 })).price, 0);
});
