/**
 * Ways to buy a toolkit in Chromium: a free preview lesson ends with the way to the toolkit's checkout, and on a site
 * without payment keys the toolkit page says that payments are not available instead of offering a payment that fails
 * (a 100 % coupon still unlocks it, and the lesson then says that nothing was paid, on a phone in Hindi with and
 * without JavaScript, after a mistyped code refused at its field). The local demo's checkout (`deno task
 * demo:payments`: the fake gateway and its Checkout.js stand-in) pays.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  hydrated,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { layoutDefects, phoneContext } from "@/tests/helpers/phone.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";

async function toolkitWithPreview(t: TestApp) {
  const admin = await createTestUser(t, "admin");
  const { toolkit, lessons } = await addToolkitWithLessons({ t, admin }, {
    title: "Salary Negotiation",
    description: "Scripts and numbers",
    price: 249,
    lessons: [
      { title: "Why negotiate", content: "<p>Why negotiate body</p>", isPreview: true },
      { title: "The script", content: "<p>The script body</p>", isPreview: false },
    ],
  });
  return { admin, toolkit, lessons };
}

Deno.test("a free preview lesson ends with a way to buy the toolkit", async () => {
  await using t = await createTestApp({ listen: true });
  const { toolkit, lessons } = await toolkitWithPreview(t);
  await using browser = await openBrowser();
  const page = await browser.newPage();
  await page.goto(`${t.origin}/toolkits/${toolkit.id}/learn/${lessons[0].id}`);
  const offer = page.getByRole("complementary", { name: "That was a free preview of Salary Negotiation" });
  assert(await offer.getByText("Get all 2 lessons for ₹249").isVisible());
  await assertAccessible(page, "preview lesson");
  await offer.getByRole("link", { name: "Get the toolkit" }).click();
  await page.waitForURL(`${t.origin}/toolkits/${toolkit.id}#buy-heading`);
  await page.getByRole("link", { name: "Sign in to buy" }).waitFor();
});

Deno.test("without payment keys the toolkit page says payments are not available; a 100 % coupon still works", async () => {
  await using t = await createTestApp({ listen: true });
  const { admin, toolkit } = await toolkitWithPreview(t);
  await addCoupon({ t, admin }, { code: "GIFT100", discountType: "percentage", discountValue: 100 });
  const student = await createTestUser(t);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  await page.getByText("Payments are not available").waitFor();
  assertEquals(await page.getByRole("button", { name: /^Buy for/ }).count(), 0);
  assertEquals(await page.getByText("The payment did not go through").count(), 0);
  await assertAccessible(page, "toolkit page without payments");

  await page.getByLabel("Coupon code (optional)").fill("gift100");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?free=1$/);
  await hydrated(page);
  await page.getByText("Why negotiate body").waitFor();
});

Deno.test("on a 360 px phone in Hindi, a 100 % coupon says nothing was paid, with and without JavaScript", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const { admin, toolkit } = await toolkitWithPreview(t);
  await addCoupon({ t, admin }, { code: "GIFT100", discountType: "percentage", discountValue: 100, usageLimit: 5 });
  await using browser = await openBrowser();
  for (const javaScriptEnabled of [true, false]) {
    const student = await createTestUser(t);
    const context = await phoneContext(browser, { javaScriptEnabled });
    await signInBrowser(context, t.origin, student);
    const page = await context.newPage();
    const kind = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
    if (javaScriptEnabled) await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}?lang=hi`);
    else await page.goto(`${t.origin}/toolkits/${toolkit.id}?lang=hi`);
    // A mistyped code is refused at its field, as typed; nothing was being bought, so nothing says "Not bought".
    const code = page.getByLabel("कूपन कोड (ज़रूरी नहीं)");
    await code.fill("gift10");
    await page.getByRole("button", { name: "लगाएँ" }).click();
    await page.locator("#coupon-code-error").getByText("यह कूपन कोड मौजूद नहीं है।").waitFor();
    assertEquals(await code.inputValue(), "gift10", kind);
    assertEquals(await code.getAttribute("aria-invalid"), "true", kind);
    assertEquals(await page.getByText("ख़रीदा नहीं गया").count(), 0, kind);
    if (javaScriptEnabled) await assertAccessible(page, `coupon refused ${kind}`);
    else await assertAccessibleWithoutScript(page, `coupon refused ${kind}`);
    await code.fill("gift100");
    await page.getByRole("button", { name: "लगाएँ" }).click();
    if (javaScriptEnabled) await page.getByText("आपके कूपन से पूरी क़ीमत कवर हो गई, इसलिए कोई पेमेंट नहीं करना है।").waitFor();
    await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?free=1$/);
    const notice = page.getByRole("status").filter({ hasText: "टूलकिट अब आपका है" });
    await notice.getByText("कोई पेमेंट नहीं हुआ").waitFor();
    await notice.getByRole("link", { name: "मेरे टूलकिट" }).waitFor();
    assertEquals(await page.getByText("पेमेंट मिल गया").count(), 0, kind);
    assertEquals(await layoutDefects(page), [], kind);
    if (javaScriptEnabled) await assertAccessible(page, `free lesson ${kind}`);
    else await assertAccessibleWithoutScript(page, `free lesson ${kind}`);
    await context.close();
  }
});

Deno.test("the local demo's checkout: the fake gateway's Checkout.js stand-in pays, opens the lessons, and the payment can be refunded", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: { ...fake.env, RAZORPAY_CHECKOUT_URL: fake.checkoutUrl } });
  const { admin, toolkit } = await toolkitWithPreview(t);
  const student = await createTestUser(t);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.accept("");
  });
  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  await page.getByRole("button", { name: "Buy for ₹249" }).click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);
  await page.getByText("Why negotiate body").waitFor();
  await page.getByRole("status").filter({ hasText: "Payment received" }).getByRole("link", { name: "My toolkits" })
    .waitFor();
  assertEquals(dialogs.length, 1);
  assert(dialogs[0].startsWith("Fake Razorpay (local demo): pay ₹249.00 for Salary Negotiation?"), dialogs[0]);
  assertEquals(fake.orders.map((o) => o.amount), [24900]);
  // The gateway knows the payment the stand-in made, so the admin can refund it.
  assertEquals(fake.payments.map((p) => [p.order_id, p.status]), [[fake.orders[0].id, "captured"]]);
  const { purchases } = await (await t.fetch("/api/admin/purchases", { headers: admin.headers })).json();
  const refunded = await t.json("POST", `/api/admin/purchases/${purchases[0].id}/refund`, {
    body: {},
    headers: admin.headers,
  });
  assertEquals(refunded.status, 200, await refunded.clone().text());
  assertEquals(fake.refunds.map((r) => [r.payment_id, r.amount]), [[fake.payments[0].id, 24900]]);
});

Deno.test("on a phone, a site that issues tax invoices asks the buyer's state before paying and invoices that state", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({
    listen: true,
    env: {
      ...fake.env,
      RAZORPAY_CHECKOUT_URL: fake.checkoutUrl,
      SELLER_STATE: "Karnataka",
      SELLER_GSTIN: "29ABCDE1234F1Z5",
    },
  });
  const { toolkit } = await toolkitWithPreview(t);
  const student = await createTestUser(t);
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  page.on("dialog", (dialog) => dialog.accept(""));
  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  const buy = page.getByRole("button", { name: "Buy for ₹249" });
  await buy.click();
  await page.getByText("Choose your state or union territory.").waitFor();
  assertEquals(fake.orders.length, 0);
  await assertAccessible(page, "toolkit page asking the buyer's state");
  await page.getByLabel("Your state (for the GST invoice)").selectOption("Kerala");
  await buy.click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);
  const { purchases } = await (await t.fetch("/api/purchases", { headers: student.headers })).json();
  const invoice = await (await t.fetch(purchases[0].receiptUrl, { headers: student.headers })).text();
  assert(invoice.includes("Place of supply: Kerala (32)") && invoice.includes("IGST 18 %"), invoice);
});
