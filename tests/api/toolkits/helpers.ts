/** Shared setup of the toolkit API tests: an app on the fake Razorpay, an admin, and quick creators through the API. */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type FakeRazorpay, startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import type { Toolkit } from "@/lib/toolkits/schema.ts";
import type { ContentItem } from "@/lib/toolkits/schema.ts";
import type { Coupon } from "@/lib/coupons/coupons.ts";

/** A test app wired to a fake gateway, with an admin. Dispose both with `await using`. */
export interface Shop extends AsyncDisposable {
  t: TestApp;
  fake: FakeRazorpay;
  admin: TestUser;
}

/**
 * Starts the fake gateway and an app pointed at it (`payments: false` leaves the keys unset; `smtpUrl` sends the
 * app's mails to an SMTP server such as `tests/fakes/smtp.ts`).
 */
export async function openShop(
  options: { payments?: boolean; gatewayTimeoutMs?: number; smtpUrl?: string } = {},
): Promise<Shop> {
  const fake = startFakeRazorpay();
  const t = await createTestApp({
    env: { ...options.payments === false ? {} : fake.env, ...options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {} },
    gatewayTimeoutMs: options.gatewayTimeoutMs,
  });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  return {
    t,
    fake,
    admin,
    async [Symbol.asyncDispose]() {
      await t.close();
      await fake.close();
    },
  };
}

/** Creates a toolkit as the admin (active unless `isActive: false`), returns it. */
export async function addToolkit(shop: Shop, fields: Record<string, unknown> = {}): Promise<Toolkit> {
  const { isActive = true, ...rest } = fields;
  const res = await shop.t.json("POST", "/api/admin/toolkits", {
    body: {
      title: "Resume Toolkit",
      description: "Write a resume that gets read.",
      price: 499,
      ...rest,
    },
    headers: shop.admin.headers,
  });
  assertEquals(res.status, 201);
  const created: Toolkit = await res.json();
  if (!isActive) return created;
  const put = await shop.t.json("PUT", `/api/admin/toolkits/${created.id}`, {
    body: { isActive: true },
    headers: shop.admin.headers,
  });
  assertEquals(put.status, 200);
  return await put.json();
}

/** Adds a lesson to a toolkit as the admin. */
export async function addLesson(
  shop: Shop,
  toolkitId: string,
  fields: Record<string, unknown> = {},
): Promise<ContentItem> {
  const res = await shop.t.json("POST", "/api/admin/toolkit-content-items", {
    body: {
      toolkitId,
      title: "Lesson",
      type: "article",
      content: "<p>Secret lesson body</p>",
      ...fields,
    },
    headers: shop.admin.headers,
  });
  assertEquals(res.status, 201);
  return (await res.json()).contentItem;
}

/** Creates a coupon as the admin. */
export async function addCoupon(shop: Shop, fields: Record<string, unknown>): Promise<Coupon> {
  // A coupon cannot be created expired: one with a past expiry is created, then moved there.
  const { expiresAt, ...rest } = fields;
  const past = typeof expiresAt === "string" && Date.parse(expiresAt) <= Date.now();
  const res = await shop.t.json("POST", "/api/admin/coupons", {
    body: {
      code: "SAVE20",
      discountType: "percentage",
      discountValue: 20,
      ...rest,
      ...(past ? {} : { expiresAt }),
    },
    headers: shop.admin.headers,
  });
  assertEquals(res.status, 201, JSON.stringify(await res.clone().json()));
  const { coupon } = await res.json();
  if (!past) return coupon;
  const moved = await shop.t.json("PATCH", `/api/admin/coupons/${coupon.id}`, {
    body: { expiresAt },
    headers: shop.admin.headers,
  });
  assertEquals(moved.status, 200, JSON.stringify(await moved.clone().json()));
  return (await moved.json()).coupon;
}

/** What a checkout answered: status and parsed JSON body. */
// deno-lint-ignore no-explicit-any
export type Answer = { status: number; body: any };

/** Starts checkout of a toolkit as `user`; returns status and body. */
export async function checkout(
  shop: Shop,
  user: TestUser,
  toolkitId: string,
  couponCode?: string,
): Promise<Answer> {
  const res = await shop.t.json("POST", `/api/toolkits/${toolkitId}`, {
    body: couponCode ? { couponCode } : {},
    headers: user.headers,
  });
  return { status: res.status, body: await res.json() };
}
