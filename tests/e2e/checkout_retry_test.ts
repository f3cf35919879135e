/**
 * Checkout on a 360 px phone (docs/decisions.md, Toolkits and payments, "A coupon survives a reload"): a coupon applied
 * before a reload is still applied after it and its order is the one paid; after a declined card "Try again" opens
 * the payment window again on the same order. Without JavaScript the coupon form works: a 100 % coupon unlocks the
 * toolkit. A payment made after another tab paid the toolkit is told as owed back, not as the toolkit bought.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { addCoupon, addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";

/** The ₹250 toolkit "Salary Negotiation" with one lesson, added by a new admin. */
async function salaryNegotiation(t: TestApp) {
  const admin = await createTestUser(t, "admin");
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "Salary Negotiation",
    price: 250,
    lessons: [{ title: "The script", content: "<p>The script body</p>" }],
  });
  return { admin, toolkit };
}

Deno.test("a coupon survives a reload, and Try again after a declined card pays the same order", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: { ...fake.env, RAZORPAY_CHECKOUT_URL: fake.checkoutUrl } });
  const { admin, toolkit } = await salaryNegotiation(t);
  await addCoupon({ t, admin }, { code: "WELCOME20", discountType: "percentage", discountValue: 20 });
  const student = await createTestUser(t);
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const answers = ["decline", ""];
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.accept(answers.shift() ?? "");
  });

  await openHydrated(page, `${t.origin}/toolkits/${toolkit.id}`);
  await page.getByLabel("Coupon code (optional)").fill("welcome20");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText("Coupon WELCOME20").waitFor();

  await page.reload();
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  await page.getByText("Coupon WELCOME20").waitFor();
  assertEquals(await page.getByLabel("Coupon code (optional)").inputValue(), "WELCOME20");
  await assertAccessible(page, "toolkit page with a coupon kept after a reload");
  await page.getByRole("button", { name: "Buy for ₹200" }).click();
  await page.getByText("The payment did not go through").waitFor();
  await page.getByText("Your card was declined.").waitFor();
  await assertAccessible(page, "a declined payment at 360 px");
  await page.getByRole("button", { name: "Try again" }).click();
  await page.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);
  await page.getByText("The script body").waitFor();

  assertEquals(dialogs.length, 2, "Try again opened the payment window");
  assert(dialogs.every((d) => d.includes("₹200.00")), dialogs.join("\n"));
  assertEquals(fake.orders.map((o) => o.amount), [20000], "one order, made when the coupon was applied");
  assertEquals(fake.payments.map((p) => p.status), ["failed", "captured"]);
});

Deno.test("a payment made after another tab paid the toolkit says it will be refunded, in English and Hindi", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: { ...fake.env, RAZORPAY_CHECKOUT_URL: fake.checkoutUrl } });
  const { toolkit } = await salaryNegotiation(t);
  await using browser = await openBrowser();
  for (
    const { lang, buy, tryAgain, told } of [
      { lang: "en", buy: "Buy for ₹250", tryAgain: "Try again", told: "This payment will be refunded" },
      { lang: "hi", buy: "₹250 में ख़रीदें", tryAgain: "फिर से कोशिश करें", told: "यह पेमेंट आपको वापस किया जाएगा" },
    ]
  ) {
    const student = await createTestUser(t);
    const context = await phoneContext(browser);
    await signInBrowser(context, t.origin, student);
    const [first, second] = [await context.newPage(), await context.newPage()];
    const answers = ["decline", "", ""];
    for (const page of [first, second]) page.on("dialog", (dialog) => dialog.accept(answers.shift() ?? ""));

    // The first tab's card is declined; the second tab checks out again, on the same purchase, and pays.
    await openHydrated(first, `${t.origin}/toolkits/${toolkit.id}?lang=${lang}`);
    await first.getByRole("button", { name: buy }).click();
    await first.getByRole("button", { name: tryAgain }).waitFor();
    await openHydrated(second, `${t.origin}/toolkits/${toolkit.id}?lang=${lang}`);
    await second.getByRole("button", { name: buy }).click();
    await second.waitForURL(/\/learn\/[0-9a-f-]{36}\?paid=1$/);

    // Then the first tab's Try again pays its own order too: a second payment for one toolkit, owed back.
    await first.getByRole("button", { name: tryAgain }).click();
    await first.getByText(told).waitFor();
    await assertAccessible(first, `a second payment told, ${lang}`);
    const { purchases } = await (await t.fetch("/api/purchases", { headers: student.headers })).json();
    assertEquals(purchases.length, 1);
    assertEquals(purchases[0].paymentStatus, "paid");
    const record = (await t.kv.get<PurchaseRecord>(["purchases", purchases[0].id])).value!;
    assertEquals(record.extraPayments?.map((p) => p.reason), ["already paid"], "the second payment is owed back");
    assert(first.url().includes(`/toolkits/${toolkit.id}?`), `the first tab stays on the toolkit: ${first.url()}`);
  }
});

Deno.test("without JavaScript a 100 % coupon applied on the toolkit page unlocks it", async () => {
  await using t = await createTestApp({ listen: true });
  const { admin, toolkit } = await salaryNegotiation(t);
  await addCoupon({ t, admin }, { code: "GIFT100", discountType: "percentage", discountValue: 100 });
  const student = await createTestUser(t);
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/toolkits/${toolkit.id}`);
  await assertAccessibleWithoutScript(page, "toolkit page without JavaScript");
  await page.getByLabel("Coupon code (optional)").fill("gift100");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.waitForURL(/\/learn/);
  const { purchases } = await (await t.fetch("/api/purchases", { headers: student.headers })).json();
  assertEquals(purchases.map((p: { paymentStatus: string }) => p.paymentStatus), ["paid"]);
});
