/**
 * The toolkits marketplace in Chromium: an admin uploads a cover (a file that is no image refused at the field),
 * creates and activates a toolkit with two lessons
 * and a coupon; a student applies the coupon (discount and final price shown before paying),
 * pays through a stand-in for Razorpay Checkout.js (the real script cannot load here: the test
 * serves one under its URL by route interception, signing the payment as Razorpay would), lands
 * on the lesson viewer, marks a lesson complete and sees the progress bar move. A declined payment
 * shows the failure and a retry that pays. Every page passes the axe-core check.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, hydrated, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { signedPayment, startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";
import { PNG } from "@/tests/fixtures/posts.ts";
import { getToolkitRecord } from "@/lib/toolkits/catalog.ts";
import { CHECKOUT_SCRIPT } from "@/islands/ToolkitCheckout.tsx";

/**
 * Checkout.js stand-in: opening the window asks the test how the payment goes; it "pays" at once
 * and hands the signed fields to the page's handler, or reports a failed payment.
 */
const CHECKOUT_STAND_IN = `
window.Razorpay = function (options) {
  var failed = function () {};
  this.on = function (name, handler) { if (name === "payment.failed") failed = handler; };
  this.open = function () {
    window.__payOrder(options.order_id, options.amount).then(function (result) {
      if (result.error) failed({ error: { description: result.error } });
      else options.handler(result);
    });
  };
};`;

Deno.test("an admin publishes a toolkit with a coupon; a student buys it with the coupon and learns", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  await using browser = await openBrowser();

  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, t.origin, admin);
  const adminPage = await adminContext.newPage();
  await openHydrated(adminPage, `${t.origin}/admin/toolkits/new`);
  await assertAccessible(adminPage, "/admin/toolkits/new");
  await adminPage.getByLabel("Title").fill("Interview Playbook");
  await adminPage.getByLabel("Description").fill("Everything for your first technical interview.");
  await adminPage.getByLabel("Price (₹)").fill("499");
  await adminPage.getByLabel("Original price (₹, optional)").fill("999");
  await adminPage.getByLabel("Highlights (one per line)").fill("Mock questions\nSalary talk");
  const cover = adminPage.getByLabel("Cover image URL (optional)");
  const chooseCover = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = adminPage.waitForEvent("filechooser");
    await adminPage.getByRole("button", { name: "Upload a cover image" }).click();
    await (await chooser).setFiles(file);
  };
  await chooseCover({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await adminPage.locator(`#${await cover.getAttribute("id")}-error`)
    .getByText("File must be a PNG, JPEG, WebP or GIF image.").waitFor();
  await chooseCover({ name: "cover.png", mimeType: "image/png", buffer: Buffer.from(PNG) });
  await adminPage.getByText("“cover.png” is the cover now. Save the toolkit to keep it.").waitFor();
  const coverPath = await cover.inputValue();
  assertMatch(coverPath, /^\/api\/files\/[0-9a-f-]{36}$/);
  await adminPage.locator(`img[src="${coverPath}"]`).waitFor();
  await adminPage.getByLabel("Active (shown in the marketplace)").check();
  await adminPage.getByRole("button", { name: "Create toolkit" }).click();
  await adminPage.waitForURL(/\/admin\/toolkits\/[0-9a-f-]{36}\?created=1$/);
  await hydrated(adminPage);
  await adminPage.getByText("“Interview Playbook” is created. Add its lessons below.").waitFor();
  assert(!await adminPage.getByText("Students can't see this toolkit yet").isVisible(), "it was created active");
  const toolkitId = new URL(adminPage.url()).pathname.split("/").at(-1)!;
  assertEquals((await getToolkitRecord(t.kv, toolkitId))?.coverImageUrl, coverPath);
  for (const [title, body] of [["Welcome", "<p>Hello learner</p>"], ["Deep dive", "<p>The deep part</p>"]]) {
    await adminPage.getByLabel("Lesson title").last().fill(title);
    await adminPage.getByLabel("Article (HTML)").last().fill(body);
    await adminPage.getByRole("button", { name: "Add lesson" }).click();
    await adminPage.getByText(`Lesson “${title}” added.`).waitFor();
  }
  await assertAccessible(adminPage, "toolkit editor");

  await openHydrated(adminPage, `${t.origin}/admin/coupons`);
  await adminPage.getByLabel("Code", { exact: true }).fill("save20");
  await adminPage.getByLabel("Percent off").fill("20");
  await adminPage.getByLabel("Usage limit (empty: unlimited)").fill("10");
  await adminPage.getByRole("button", { name: "Create coupon" }).click();
  await adminPage.getByText("Coupon SAVE20 created.").waitFor();
  assert(await adminPage.getByRole("cell", { name: "0 / 10" }).isVisible());
  await assertAccessible(adminPage, "/admin/coupons");
  await openHydrated(adminPage, `${t.origin}/admin/toolkits`);
  await adminPage.getByRole("switch", { name: "Active: Interview Playbook" }).waitFor();
  assert(await adminPage.getByRole("switch", { name: "Active: Interview Playbook" }).isChecked());
  await assertAccessible(adminPage, "/admin/toolkits");

  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  await context.route(
    CHECKOUT_SCRIPT,
    (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: CHECKOUT_STAND_IN }),
  );
  const paidOrders: { orderId: string; amount: number }[] = [];
  await context.exposeFunction("__payOrder", (orderId: string, amount: number) => {
    paidOrders.push({ orderId, amount });
    return signedPayment(orderId);
  });
  const page = await context.newPage();
  await page.goto(`${t.origin}/toolkits`);
  await assertAccessible(page, "/toolkits");
  await page.getByRole("link", { name: "Interview Playbook" }).click();
  await page.waitForURL(`${t.origin}/toolkits/${toolkitId}`);
  await hydrated(page);
  assert(await page.getByText("Locked", { exact: true }).first().isVisible());
  assert(!(await page.content()).includes("The deep part"));
  await assertAccessible(page, "toolkit page");

  await page.getByLabel("Coupon code (optional)").fill("save20");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText("You pay").waitFor();
  assert(await page.getByText("−₹99.80").isVisible());
  assert(await page.getByText("₹399.20", { exact: true }).isVisible());
  await assertAccessible(page, "toolkit page with coupon");
  await page.getByRole("button", { name: "Buy for ₹399.20" }).click();
  await page.waitForURL(/\/toolkits\/[0-9a-f-]{36}\/learn\/[0-9a-f-]{36}\?paid=1$/);
  await hydrated(page);
  assertEquals(paidOrders.map((o) => o.amount), [39920]);
  await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();
  assert(await page.getByText("Hello learner").isVisible());
  const bar = page.getByRole("progressbar");
  assertEquals(await bar.getAttribute("aria-valuenow"), "0");
  await assertAccessible(page, "lesson viewer");

  await page.getByRole("button", { name: "Mark as complete" }).click();
  await page.getByText("1 of 2 lessons complete (50 %)").waitFor();
  assertEquals(await bar.getAttribute("aria-valuenow"), "50");
  await page.getByRole("link", { name: "Next lesson →" }).click();
  await page.getByRole("heading", { level: 1, name: "Deep dive" }).waitFor();
  await page.goto(`${t.origin}/toolkits/mine`);
  await page.getByText("1 of 2 lessons complete").waitFor();
  await assertAccessible(page, "/toolkits/mine");

  await openHydrated(adminPage, `${t.origin}/admin/coupons`);
  await adminPage.getByRole("cell", { name: "1 / 10" }).waitFor();
});

Deno.test("a declined payment shows the failure with a retry; Try again reopens the payment, which pays and opens the lessons", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const student = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "Aptitude Drill",
    description: "Daily sets",
    price: 149,
    lessons: [{ title: "Set one", content: "<p>Question 1</p>" }],
  });
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  await context.route(
    CHECKOUT_SCRIPT,
    (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: CHECKOUT_STAND_IN }),
  );
  let attempts = 0;
  await context.exposeFunction(
    "__payOrder",
    (orderId: string) => ++attempts === 1 ? { error: "Your card was declined." } : signedPayment(orderId),
  );
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  await page.getByRole("button", { name: "Buy for ₹149" }).click();
  await page.getByText("The payment did not go through").waitFor();
  assert(await page.getByText("Your card was declined.").isVisible());
  await assertAccessible(page, "toolkit page, payment failed");
  await page.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);
  await page.getByText("Question 1").waitFor();
  assertEquals(attempts, 2);
  assertEquals(fake.orders.length, 1, "the retry pays the same order");
  const { purchases } = await (await t.fetch("/api/purchases", { headers: student.headers })).json();
  assertEquals(purchases.map((p: { paymentStatus: string }) => p.paymentStatus), ["paid"]);
});
