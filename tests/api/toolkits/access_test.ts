import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { setLessonCompleted } from "@/lib/toolkits/progress.ts";
import { addCoupon, addLesson, addToolkit, openShop } from "@/tests/fixtures/toolkits.ts";

Deno.test("every admin toolkit and coupon endpoint: 401 for guests, 403 for users and members, nothing changed", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const lesson = await addLesson(shop, kit.id);
  const coupon = await addCoupon(shop, { code: "GUARDED" });
  const endpoints: [string, string, unknown][] = [
    ["GET", "/api/admin/toolkits", undefined],
    ["POST", "/api/admin/toolkits", { title: "X", description: "Y", price: 1 }],
    ["PUT", `/api/admin/toolkits/${kit.id}`, { isActive: false }],
    ["DELETE", `/api/admin/toolkits/${kit.id}`, undefined],
    ["GET", `/api/admin/toolkits/${kit.id}/content`, undefined],
    ["POST", "/api/admin/toolkit-content-items", { toolkitId: kit.id, title: "X", type: "article" }],
    ["PATCH", `/api/admin/toolkit-content-items/${lesson.id}`, { title: "Changed" }],
    ["DELETE", `/api/admin/toolkit-content-items/${lesson.id}`, undefined],
    ["GET", "/api/admin/coupons", undefined],
    ["POST", "/api/admin/coupons", { code: "NEWONE", discountType: "fixed", discountValue: 1 }],
    ["PATCH", `/api/admin/coupons/${coupon.id}`, { isActive: false }],
    ["DELETE", `/api/admin/coupons/${coupon.id}`, undefined],
    ["POST", "/api/toolkits", { title: "X", description: "Y", price: 1 }],
  ];
  const user = await createTestUser(shop.t, "user");
  const member = await createTestUser(shop.t, "member");
  for (const [method, path, body] of endpoints) {
    assertEquals((await shop.t.json(method, path, { body })).status, 401, `${method} ${path} as guest`);
    for (const who of [user, member]) {
      assertEquals(
        (await shop.t.json(method, path, { body, headers: who.headers })).status,
        403,
        `${method} ${path} as ${who.user.role}`,
      );
    }
  }
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: shop.admin.headers })).json();
  assertEquals([detail.toolkit.isActive, detail.contentItems.length, detail.contentItems[0].title], [
    true,
    1,
    "Lesson",
  ]);
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons.map((c: { code: string; isActive: boolean }) => [c.code, c.isActive]), [["GUARDED", true]]);
  const { toolkits } = await (await shop.t.fetch("/api/admin/toolkits", { headers: shop.admin.headers })).json();
  assertEquals(toolkits.length, 1);
});

Deno.test("session endpoints: guests get 401 on checkout, verify, progress and purchases; unknown methods 405", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  for (
    const [method, path] of [
      ["POST", `/api/toolkits/${kit.id}`],
      ["POST", `/api/toolkits/${kit.id}/verify`],
      ["POST", `/api/toolkits/${kit.id}/progress`],
      ["GET", "/api/purchases"],
    ]
  ) {
    const res = await shop.t.json(method, path, { body: method === "GET" ? undefined : {} });
    assertEquals([res.status, await res.json()], [401, { error: "Unauthorized" }], `${method} ${path}`);
  }
  const res = await shop.t.json("DELETE", `/api/toolkits/${kit.id}`, { headers: shop.admin.headers });
  assertEquals(res.status, 405);
  assertEquals((await shop.t.fetch("/api/webhooks/razorpay")).status, 405);
});

Deno.test("lessons marked complete at once: each lost race is tried again, every lesson recorded", async () => {
  // Every KV call takes a few ms, as far from KV's primary: marks that start together read the same progress.
  await using t = await createTestApp({ kvLatencyMs: 5 });
  const itemIds = Array.from({ length: 20 }, (_, i) => `lesson-${i}`);
  const marks = await Promise.allSettled(
    itemIds.map((itemId) =>
      setLessonCompleted(t.kv, { toolkitId: "kit", userId: "learner", itemId, completed: true, itemIds })
    ),
  );
  assertEquals(marks.filter((mark) => mark.status === "rejected"), []);
  const last = await setLessonCompleted(t.kv, {
    toolkitId: "kit",
    userId: "learner",
    itemId: "lesson-0",
    completed: true,
    itemIds,
  });
  assertEquals(last, itemIds);
});
