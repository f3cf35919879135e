/**
 * "My toolkits" on a phone: the payment history's rows stack, so every column (the status among them) is on the
 * screen rather than scrolled off it, and the page passes the axe-core check. A refund request under a payment's status
 * leaves the status on the line of its label, in English and Hindi, and so does a refund's line under a refunded one.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { assertFitsPhone, PHONE, phoneContext } from "@/tests/helpers/phone.ts";
import type { Page } from "playwright-core";
import { addCoupon, addToolkit, addToolkitWithLessons, buy } from "@/tests/fixtures/toolkits.ts";
import { refundProcessedDelivery, startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

Deno.test("My toolkits on a 360 px phone stacks its payments table, every column on the screen", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const toolkit = await addToolkit({ t, admin }, {
    title: "The Complete Guide to Product Management Interviews at Indian Startups",
    description: "Cases",
    price: 299,
  });
  await addCoupon({ t, admin }, { code: "FREEPM", discountType: "percentage", discountValue: 100 });
  const bought = await t.json("POST", `/api/toolkits/${toolkit.id}`, {
    body: { couponCode: "FREEPM" },
    headers: student.headers,
  });
  assertEquals(bought.status, 200);

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/toolkits/mine`);
  const region = page.getByRole("region", { name: "Payment history" });
  const status = region.getByRole("cell", { name: "Paid" });
  await status.waitFor();
  const box = await status.boundingBox();
  assert(box && box.x + box.width <= PHONE.width, `the status is on the screen: ${JSON.stringify(box)}`);
  await assertFitsPhone(page, "/toolkits/mine");
  await assertAccessible(page, "/toolkits/mine on a phone");
});

Deno.test("on a 360 px phone, a refund request under a payment leaves its status beside the Status label", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "SQL for Analyst Interviews",
    description: "Joins and windows",
    price: 799,
    lessons: ["Joins"],
  });
  const { purchaseId } = await buy({ t, fake }, student, toolkit.id);
  const asked = await t.json("POST", `/api/purchases/${purchaseId}/refund-request`, {
    body: { reason: "Wrong toolkit" },
    headers: student.headers,
  });
  assertEquals(asked.status, 200);
  await asked.body?.cancel();

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    await page.goto(`${t.origin}/toolkits/mine?lang=${lang}`);
    const row = page.locator(`#purchase-${purchaseId}`);
    await row.getByText(tr("toolkits.refundRequest.next")).waitFor();
    await assertStatusBesideLabel(page, purchaseId, lang, "paid");
    await assertFitsPhone(page, `/toolkits/mine with a refund request, ${lang}`);
    await assertAccessible(page, `/toolkits/mine with a refund request on a phone, ${lang}`);
  }
});

Deno.test("on a 360 px phone, a refunded payment's status stays beside its label above the refund's line", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "Salary Negotiation for Freshers",
    description: "Scripts",
    price: 299,
    lessons: ["Your number"],
  });
  const { purchaseId, orderId, payment } = await buy({ t, fake }, student, toolkit.id);
  // A part at the gateway's dashboard, then the admin's refund of the rest: "₹199 refunded on …, ₹299 in all".
  const part = await fake.refundInDashboard(payment.id, 10000);
  const told = await t.fetch("/api/webhooks/razorpay", {
    method: "POST",
    ...refundProcessedDelivery(part, { orderId }),
  });
  assertEquals(told.status, 200);
  await told.body?.cancel();
  const refunded = await t.json("POST", `/api/admin/purchases/${purchaseId}/refund`, {
    body: {},
    headers: admin.headers,
  });
  assertEquals(refunded.status, 200);
  await refunded.body?.cancel();

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  for (const lang of ["en", "hi"] as const) {
    await page.goto(`${t.origin}/toolkits/mine?lang=${lang}`);
    await page.locator(`#purchase-${purchaseId}`).waitFor();
    await assertStatusBesideLabel(page, purchaseId, lang, "refunded");
    await assertFitsPhone(page, `/toolkits/mine with a refund, ${lang}`);
  }
});

/** Asserts that purchase `purchaseId`'s status (`status`, in `lang`) is drawn on its Status label's line, after it. */
async function assertStatusBesideLabel(page: Page, purchaseId: string, lang: "en" | "hi", status: "paid" | "refunded") {
  const tr = translatorFor(lang);
  const [label, shown] = await page.locator(`#purchase-${purchaseId}`).evaluate((tr, words) => {
    // The label's box and the status's words' own box (a text node: the cell may hold more beside it).
    const walker = document.createTreeWalker(tr, NodeFilter.SHOW_TEXT);
    const boxes: Record<string, DOMRect> = {};
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      if (!words.includes(text) || boxes[text]) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      boxes[text] = range.getBoundingClientRect();
    }
    return words.map((word) => boxes[word] && { x: boxes[word].x, y: boxes[word].y, width: boxes[word].width });
  }, [tr("toolkits.mine.status"), tr(`toolkits.mine.status.${status}`)]);
  assert(label && shown, "the Status label and the status are drawn");
  assertEquals(Math.round(shown.y), Math.round(label.y), `${lang}: the status is on its label's line`);
  assert(shown.x > label.x + label.width, `${lang}: the status is beside its label`);
}
