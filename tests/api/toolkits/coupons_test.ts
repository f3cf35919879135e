import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm } from "@/tests/helpers/app.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import {
  CouponCreateSchema,
  createCoupon,
  deleteCoupon,
  getCouponRecord,
  updateCoupon,
} from "@/lib/coupons/coupons.ts";
import { signedPayment } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkit, checkout, openShop } from "@/tests/fixtures/toolkits.ts";

/** The sentence a taken code gets at its field. */
const CODE_TAKEN = {
  field: "code",
  message: "Another coupon has this code: choose a different one.",
  messageKey: "fields.couponCodeTaken",
};

Deno.test("admin coupons: create stores the code upper case with defaults, search by code, patch, delete", async () => {
  await using shop = await openShop();
  const admin = shop.admin.headers;
  const coupon = await addCoupon(shop, { code: "welcome10", discountType: "fixed", discountValue: 10.5 });
  assertEquals({ ...coupon, id: "", createdAt: "", updatedAt: "" }, {
    id: "",
    code: "WELCOME10",
    discountType: "fixed",
    discountValue: 10.5,
    isActive: true,
    expiresAt: null,
    perUserLimit: 1,
    usageLimit: null,
    toolkitIds: null,
    usedCount: 0,
    createdAt: "",
    updatedAt: "",
  });
  await addCoupon(shop, { code: "DIWALI50", discountValue: 50 });
  const found = await (await shop.t.fetch("/api/admin/coupons?search=welc", { headers: admin })).json();
  assertEquals(found.coupons.map((c: { code: string }) => c.code), ["WELCOME10"]);
  const all = await (await shop.t.fetch("/api/admin/coupons", { headers: admin })).json();
  assertEquals(all.coupons.length, 2);
  const patched = await shop.t.json(
    "PATCH",
    `/api/admin/coupons/${coupon.id}`,
    { body: { isActive: false, code: "Hello" }, headers: admin },
  );
  assertEquals(patched.status, 200);
  const { coupon: after } = await patched.json();
  assertEquals([after.isActive, after.code, after.discountValue], [false, "HELLO", 10.5]);
  assertEquals((await shop.t.json("DELETE", `/api/admin/coupons/${coupon.id}`, { headers: admin })).status, 200);
  assertEquals((await shop.t.json("DELETE", `/api/admin/coupons/${coupon.id}`, { headers: admin })).status, 404);
  const user = await createTestUser(shop.t);
  assertEquals((await shop.t.fetch("/api/admin/coupons", { headers: user.headers })).status, 403);
  assertEquals((await shop.t.json("POST", "/api/admin/coupons", { body: { code: "X" } })).status, 401);
});

Deno.test("admin coupons: a duplicate code in any case is 400 'Coupon code already exists'; bad values are 400", async () => {
  await using shop = await openShop();
  const first = await addCoupon(shop, { code: "SAVE20" });
  const dup = await shop.t.json("POST", "/api/admin/coupons", {
    body: {
      code: "save20",
      discountType: "fixed",
      discountValue: 5,
    },
    headers: shop.admin.headers,
  });
  assertEquals([dup.status, await dup.json()], [400, { error: "Coupon code already exists", fields: [CODE_TAKEN] }]);
  const other = await addCoupon(shop, { code: "OTHER" });
  const rename = await shop.t.json("PATCH", `/api/admin/coupons/${other.id}`, {
    body: { code: "Save20" },
    headers: shop.admin.headers,
  });
  assertEquals([rename.status, await rename.json()], [400, {
    error: "Coupon code already exists",
    fields: [CODE_TAKEN],
  }]);
  for (
    const bad of [
      { discountValue: 101 },
      { discountValue: 0 },
      { discountType: "bogus" },
      { code: "a b" },
      { perUserLimit: 0 },
      { expiresAt: "tomorrow" },
    ]
  ) {
    const res = await shop.t.json("POST", "/api/admin/coupons", {
      body: {
        code: "NEWCODE",
        discountType: "percentage",
        discountValue: 10,
        ...bad,
      },
      headers: shop.admin.headers,
    });
    assertEquals(res.status, 400, JSON.stringify(bad));
  }
  const overPercent = await shop.t.json(
    "PATCH",
    `/api/admin/coupons/${first.id}`,
    { body: { discountValue: 150 }, headers: shop.admin.headers },
  );
  assertEquals(overPercent.status, 400);
});

Deno.test("coupon errors come in their documented order with status 400 and its exact messages", async () => {
  await using shop = await openShop();
  const kit = await addToolkit(shop);
  const otherKit = await addToolkit(shop, { title: "Other" });
  const user = await createTestUser(shop.t);
  const error = async (code: string, who = user, toolkitId = kit.id) => {
    const { status, body } = await checkout(shop, who, toolkitId, code);
    assertEquals(status, 400, JSON.stringify(body));
    return body.error;
  };
  assertEquals(await error("NOPE"), "Invalid coupon code");
  await addCoupon(shop, { code: "ONLYOTHER", toolkitIds: [otherKit.id] });
  assertEquals(await error("ONLYOTHER"), "Invalid coupon code");
  // Inactive and expired: "not active" wins, as it comes first.
  await addCoupon(shop, { code: "OFFEXPIRED", isActive: false, expiresAt: "2020-01-01T00:00:00Z" });
  assertEquals(await error("OFFEXPIRED"), "Coupon is not active");
  await addCoupon(shop, { code: "EXPIRED", expiresAt: "2020-01-01T00:00:00Z", usageLimit: 1 });
  assertEquals(await error("expired"), "Coupon has expired");
  // Per-user limit before the total limit: the user's one use is also the coupon's last.
  await addCoupon(shop, { code: "ONCE", usageLimit: 1, perUserLimit: 1 });
  const first = await checkout(shop, user, otherKit.id, "ONCE");
  assertEquals(first.status, 200);
  assertEquals(await error("ONCE"), "You have already used this coupon");
  const stranger = await createTestUser(shop.t);
  assertEquals(await error("ONCE", stranger), "Coupon usage limit reached");
  // Coupon checks before "already purchased".
  const paid = await checkout(shop, stranger, kit.id);
  await shop.t.json("POST", `/api/toolkits/${kit.id}/verify`, {
    body: signedPayment(paid.body.order.id),
    headers: stranger.headers,
  });
  assertEquals(await error("NOPE", stranger), "Invalid coupon code");
  assertEquals(await error("ONCE", stranger), "Coupon usage limit reached");
  const again = await checkout(shop, stranger, kit.id);
  assertEquals([again.status, again.body], [400, { error: "Toolkit already purchased" }]);
});

Deno.test("discounts: 20 % of 499 is 99.8 off, 399.2 to pay, 39920 paise; fixed is capped at the price; 100 % is free; ₹1 minimum", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 499 });
  await addCoupon(shop, { code: "TWENTY", discountValue: 20 });
  const twenty = await checkout(shop, user, kit.id, "twenty");
  assertEquals(twenty.status, 200);
  assertEquals([twenty.body.discountAmount, twenty.body.finalPrice, twenty.body.order.amount], [99.8, 399.2, 39920]);
  assertEquals([twenty.body.purchase.amountPaid, twenty.body.order.currency, twenty.body.free], [39920, "INR", false]);
  assertEquals(shop.fake.orders.at(-1)!.amount, 39920);

  const big = await addToolkit(shop, { price: 300 });
  await addCoupon(shop, { code: "FLAT500", discountType: "fixed", discountValue: 500 });
  const capped = await checkout(shop, user, big.id, "FLAT500");
  assertEquals([capped.body.discountAmount, capped.body.finalPrice, capped.body.free], [300, 0, true]);
  assert(!("order" in capped.body));

  const cheap = await addToolkit(shop, { price: 10 });
  await addCoupon(shop, { code: "NINEFIFTY", discountType: "fixed", discountValue: 9.5 });
  const orders = shop.fake.orders.length;
  const minimum = await checkout(shop, user, cheap.id, "NINEFIFTY");
  assertEquals(minimum.status, 200, JSON.stringify(minimum.body));
  assertEquals([minimum.body.discountAmount, minimum.body.finalPrice, minimum.body.order.amount], [9, 1, 100]);
  assertEquals(shop.fake.orders.length, orders + 1);
});

Deno.test("a 100 % coupon makes the purchase free: paid at once, no gateway order, the toolkit unlocked, the use counted", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 799 });
  const coupon = await addCoupon(shop, { code: "FREEKIT", discountValue: 100, usageLimit: 3 });
  const { status, body } = await checkout(shop, user, kit.id, "FREEKIT");
  assertEquals(status, 200);
  assertEquals([body.success, body.free, body.discountAmount, body.finalPrice], [true, true, 799, 0]);
  assertEquals(body.toolkit, { id: kit.id, title: kit.title, price: 799 });
  assertEquals([body.purchase.paymentStatus, body.purchase.amountPaid, body.purchase.couponId], ["paid", 0, coupon.id]);
  assertEquals(shop.fake.orders, []);
  const detail = await (await shop.t.fetch(`/api/toolkits/${kit.id}`, { headers: user.headers })).json();
  assertEquals(detail.hasPurchased, true);
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons[0].usedCount, 1);
  // My toolkits does not call it paid: nothing was.
  const mine = await (await shop.t.fetch("/toolkits/mine", { headers: user.headers })).text();
  assert(mine.includes(">Free: nothing was paid<") && !mine.includes(">Paid<"), "a free purchase is not called paid");
});

Deno.test("a coupon that takes nothing off is not used up: typed on a free toolkit, the student keeps it", async () => {
  await using shop = await openShop();
  const user = await createTestUser(shop.t);
  const free = await addToolkit(shop, { price: 0, title: "Free Starter" });
  const paid = await addToolkit(shop, { price: 499 });
  const one = await addToolkit(shop, { price: 1, title: "One Rupee Notes" });
  await addCoupon(shop, { code: "WELCOME20", discountValue: 20, perUserLimit: 1 });
  // Typed on a free toolkit (the coupon form is on every toolkit's page): the toolkit is theirs, nothing was off.
  const started = await checkout(shop, user, free.id, "WELCOME20");
  assertEquals([started.status, started.body.free, started.body.discountAmount], [200, true, 0]);
  assertEquals(started.body.purchase.couponId, null);
  // On ₹1 the ₹1 minimum leaves nothing off either.
  const minimum = await checkout(shop, user, one.id, "WELCOME20");
  assertEquals([minimum.status, minimum.body.discountAmount, minimum.body.purchase.couponId], [200, 0, null]);
  const { coupons } = await (await shop.t.fetch("/api/admin/coupons", { headers: shop.admin.headers })).json();
  assertEquals(coupons[0].usedCount, 0);
  // Their one use is still theirs for the toolkit it takes ₹99.80 off.
  const discounted = await checkout(shop, user, paid.id, "WELCOME20");
  assertEquals(discounted.status, 200, JSON.stringify(discounted.body));
  assertEquals([discounted.body.discountAmount, discounted.body.finalPrice], [99.8, 399.2]);
  // A code that is not valid is still refused on a free toolkit.
  const other = await createTestUser(shop.t);
  const wrong = await checkout(shop, other, free.id, "NOSUCHCODE");
  assertEquals([wrong.status, wrong.body], [400, { error: "Invalid coupon code" }]);
});

Deno.test("free purchases work without gateway keys; paid checkout then answers 503 'Payments are not configured'", async () => {
  await using shop = await openShop({ payments: false });
  const user = await createTestUser(shop.t);
  const kit = await addToolkit(shop, { price: 99 });
  const paid = await checkout(shop, user, kit.id);
  assertEquals([paid.status, paid.body], [503, { error: "Payments are not configured" }]);
  await addCoupon(shop, { code: "ALLFREE", discountValue: 100 });
  const free = await checkout(shop, user, kit.id, "ALLFREE");
  assertEquals([free.status, free.body.free, free.body.key], [200, true, ""]);
  const { purchases } = await (await shop.t.fetch("/api/purchases", { headers: user.headers })).json();
  assertEquals(purchases.map((p: { paymentStatus: string }) => p.paymentStatus), ["paid"]);
});

Deno.test("coupon edits at once: each lost race is tried again, none refused, and a delete after them goes through", async () => {
  // Every KV call takes a few ms, as far from KV's primary: edits that start together read the same version.
  await using t = await createTestApp({ kvLatencyMs: 5 });
  const coupon = await createCoupon(
    t.kv,
    CouponCreateSchema.parse({ code: "RACE10", discountType: "percentage", discountValue: 10 }),
  );
  const edits = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) => updateCoupon(t.kv, { id: coupon.id, patch: { discountValue: 10 + i } })),
  );
  assertEquals(edits.filter((edit) => edit.status === "rejected"), []);
  const stored = await getCouponRecord(t.kv, coupon.id);
  assert(stored && stored.discountAmount >= 10 && stored.discountAmount < 40, "one of the edits is stored");
  const both = await Promise.allSettled([
    ...Array.from({ length: 15 }, () => updateCoupon(t.kv, { id: coupon.id, patch: { isActive: false } })),
    deleteCoupon(t.kv, coupon.id),
  ]);
  const refusals = both.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
  assert(refusals.every((reason) => reason.includes("Coupon not found")), refusals.join("; "));
  assertEquals(await getCouponRecord(t.kv, coupon.id), null);
});

Deno.test("/admin/coupons creates, saves and deletes with plain forms; refusals at the field or on the page, in its words", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const fields = { intent: "create", code: "SAVE20", discountType: "percentage", discountValue: "20" };
  const first = await (await t.fetch("/admin/coupons", { headers: admin.headers })).text();
  assert(first.includes('method="post"') && first.includes('name="intent" value="create"'));
  const made = await postForm(t, admin, "/admin/coupons", {
    ...fields,
    usageLimit: "",
    perUserLimit: "",
    expiresAt: "",
  });
  assertEquals(made.status, 303);
  const id = new URL(made.headers.get("location")!, t.origin).searchParams.get("created")!;
  const page = await (await t.fetch(`/admin/coupons?created=${id}&lang=hi`, { headers: admin.headers })).text();
  assert(page.includes("SAVE20"), "the new coupon's notice and row");
  const twice = await postForm(t, admin, "/admin/coupons", fields, { "accept-language": "hi-IN,hi;q=0.9" });
  assertEquals(twice.status, 400);
  const twicePage = await twice.text();
  const taken = translatorFor("hi")("fields.couponCodeTaken");
  assert(
    twicePage.includes('id="coupon-code-error"') && twicePage.includes(taken),
    "the code taken, at its field, in Hindi",
  );
  const bad = await postForm(t, admin, "/admin/coupons", { ...fields, code: "NEW", discountValue: "lots" });
  assertEquals(bad.status, 400);
  assert((await bad.text()).includes('id="coupon-discountValue-error"'));
  const off = await postForm(t, admin, "/admin/coupons", { intent: "update", id });
  assertEquals(off.headers.get("location"), `/admin/coupons?saved=${id}`);
  const offPage = await (await t.fetch(`/admin/coupons?saved=${id}`, { headers: admin.headers })).text();
  assert(offPage.includes("Coupon SAVE20 deactivated."));
  const gone = await postForm(t, admin, "/admin/coupons", { intent: "delete", id });
  assertEquals(gone.headers.get("location"), "/admin/coupons?deleted=1");
  const again = await postForm(t, admin, "/admin/coupons", { intent: "delete", id });
  assertEquals(again.status, 404);
  await again.body?.cancel();
});
