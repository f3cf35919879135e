/**
 * Admin content that cannot work is refused with a sentence in `{error}`: an http video (blocked
 * on the https site), a coupon that has expired before it was created, an original price
 * below the price (on create, and on an update that leaves the two so), and a lesson too long
 * for its KV value (at `content`, never a 500).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { EXPIRED_AT_CREATION } from "@/lib/coupons/coupons.ts";
import { EXPIRY_PASSED as EXPIRY_PASSED_KEY } from "@/lib/browser/coupon_checks.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { ORIGINAL_PRICE_BELOW_PRICE } from "@/lib/toolkits/catalog.ts";
import { ARTICLE_MAX } from "@/lib/toolkits/limits.ts";
import { REFUSALS } from "@/lib/refusals.ts";

const HTTP_VIDEO = "Use an https address: an http video does not play on an https site";
/** The server's sentence for an expiry that has passed: the same the coupon form says before sending. */
const EXPIRY_PASSED = translatorFor("en")(EXPIRY_PASSED_KEY);

async function createToolkit(t: TestApp, admin: TestUser, fields: Record<string, unknown> = {}): Promise<Response> {
  return await t.json(
    "POST",
    "/api/admin/toolkits",
    {
      body: { title: "Aptitude", description: "Sets", price: 499, ...fields },
      headers: {
        ...admin.headers,
      },
    },
  );
}

/** The messages of a 400 answer, whether `{error: string}` or `{error: [issues]}`. */
async function refusal(res: Response): Promise<string[]> {
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("content-type"), "application/json");
  const { error } = await res.json();
  return typeof error === "string" ? [error] : error.map((issue: { message: string }) => issue.message);
}

Deno.test("an http video is refused for a toolkit and for a lesson; https is kept", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  assertEquals(await refusal(await createToolkit(t, admin, { videoUrl: "http://videos.example.com/intro.mp4" })), [
    HTTP_VIDEO,
  ]);
  const created = await createToolkit(t, admin, { videoUrl: "https://videos.example.com/intro.mp4" });
  assertEquals(created.status, 201);
  const toolkit = await created.json();
  assertEquals(toolkit.videoUrl, "https://videos.example.com/intro.mp4");
  const update = await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, {
    body: { videoUrl: "http://x.example.com/v" },
    headers: {
      ...admin.headers,
    },
  });
  assertEquals(await refusal(update), [HTTP_VIDEO]);

  const lesson = { toolkitId: toolkit.id, title: "Intro", type: "video", cdnVideoUrl: "http://cdn.example.com/1.mp4" };
  assertEquals(
    await refusal(await t.json("POST", "/api/admin/toolkit-content-items", { body: lesson, headers: admin.headers })),
    [
      HTTP_VIDEO,
    ],
  );
  const good = await t.json("POST", "/api/admin/toolkit-content-items", {
    body: {
      ...lesson,
      cdnVideoUrl: "https://cdn.example.com/1.mp4",
    },
    headers: admin.headers,
  });
  assertEquals(good.status, 201);
  const { contentItem } = await good.json();
  const patch = await t.json("PATCH", `/api/admin/toolkit-content-items/${contentItem.id}`, {
    body: {
      cdnVideoUrl: "http://cdn.example.com/2.mp4",
    },
    headers: admin.headers,
  });
  assertEquals(await refusal(patch), [HTTP_VIDEO]);
});

Deno.test("an original price below the price is refused on create and on update", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  assertEquals(await refusal(await createToolkit(t, admin, { price: 499, originalPrice: 399 })), [
    ORIGINAL_PRICE_BELOW_PRICE,
  ]);
  const created = await createToolkit(t, admin, { price: 499, originalPrice: 999 });
  assertEquals(created.status, 201);
  const toolkit = await created.json();
  const raise = await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, {
    body: { price: 1499 },
    headers: admin.headers,
  });
  assertEquals(await refusal(raise), [ORIGINAL_PRICE_BELOW_PRICE]);
  const lower = await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, {
    body: { originalPrice: 99 },
    headers: admin.headers,
  });
  assertEquals(await refusal(lower), [ORIGINAL_PRICE_BELOW_PRICE]);
  const both = await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, {
    body: { price: 1499, originalPrice: 1999 },
    headers: {
      ...admin.headers,
    },
  });
  assertEquals(both.status, 200);
  const equal = await t.json("PUT", `/api/admin/toolkits/${toolkit.id}`, {
    body: { originalPrice: 1499 },
    headers: admin.headers,
  });
  assertEquals(equal.status, 200);
  const stored = await equal.json();
  assertEquals([stored.price, stored.originalPrice], [1499, 1499]);
});

Deno.test("a coupon that has already expired is refused at creation; a future expiry is kept", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const base = { discountType: "percentage", discountValue: 10 };
  const past = new Date(Date.now() - 60_000).toISOString();
  const expired = await t.json("POST", "/api/admin/coupons", {
    body: { ...base, code: "LATE10", expiresAt: past },
    headers: {
      ...admin.headers,
    },
  });
  assertEquals(await expired.clone().json().then((body) => body.fields), [
    { field: "expiresAt", message: EXPIRY_PASSED, messageKey: "fields.expiryPassed" },
  ]);
  assertEquals(await refusal(expired), [EXPIRED_AT_CREATION]);
  const list = await (await t.fetch("/api/admin/coupons", { headers: admin.headers })).json();
  assertEquals(list.coupons, []);
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const ok = await t.json("POST", "/api/admin/coupons", {
    body: { ...base, code: "SOON10", expiresAt: future },
    headers: admin.headers,
  });
  assertEquals(ok.status, 201);
});

Deno.test("a lesson too long for its KV value is 400 at content, in any script; the longest one fits and can be edited", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const toolkit = await (await createToolkit(t, admin)).json();
  const add = (content: string) =>
    t.json("POST", "/api/admin/toolkit-content-items", {
      body: { toolkitId: toolkit.id, title: "पाठ", type: "article", content },
      headers: admin.headers,
    });
  const en = translatorFor("en");
  const tooMany = { field: "content", message: en("fields.maxChars", { max: ARTICLE_MAX }) };
  for (const content of ["<p>" + "a".repeat(70_000) + "</p>", "<p>" + "नमस्ते ".repeat(5_000) + "</p>"]) {
    const res = await add(content);
    assertEquals(res.status, 400, content.slice(0, 10));
    const body = await res.json();
    assertEquals(body.fields.map(({ field, message }: { field: string; message: string }) => ({ field, message })), [
      tooMany,
    ]);
  }
  const tooLong = [{ field: "content", message: en("fields.lessonTooLong"), messageKey: "fields.lessonTooLong" }];
  // Within ARTICLE_MAX, but sanitizing writes each "&" as "&amp;": the stored lesson would not fit.
  const grows = await add("&".repeat(ARTICLE_MAX));
  assertEquals((await grows.clone().json()).fields, tooLong);
  assertEquals(await refusal(grows), [REFUSALS.lessonTooLong]);

  const longest = await add("न".repeat(ARTICLE_MAX));
  assertEquals(longest.status, 201);
  const { contentItem } = await longest.json();
  assertEquals(contentItem.content.length, ARTICLE_MAX);
  const patch = (body: Record<string, unknown>) =>
    t.json("PATCH", `/api/admin/toolkit-content-items/${contentItem.id}`, { body, headers: admin.headers });
  assertEquals((await patch({ title: "न".repeat(200), isPreview: true })).status, 200);
  const edit = await patch({ content: "&".repeat(ARTICLE_MAX) });
  assertEquals((await edit.clone().json()).fields, tooLong);
  assertEquals(edit.status, 400);
  const kept = await (await t.fetch(`/api/admin/toolkits/${toolkit.id}/content`, { headers: admin.headers }))
    .json();
  assertEquals(kept.contentItems.map((item: { content: string }) => item.content), ["न".repeat(ARTICLE_MAX)]);
});
