/**
 * "My toolkits" on a phone: the payment history table, wider than the screen, scrolls inside a
 * region that a keyboard can reach, and the page passes the axe-core check.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { addCoupon, addToolkit } from "@/tests/fixtures/toolkits.ts";

Deno.test("My toolkits on a 360 px phone passes axe, its payments table scrolling in a focusable region", async () => {
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
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/toolkits/mine`);
  const region = page.getByRole("region", { name: "Payment history" });
  await region.getByRole("cell", { name: "Paid" }).waitFor();
  assert(await region.evaluate((el) => el.scrollWidth > el.clientWidth), "the table fits: nothing to check");
  await region.focus();
  await page.keyboard.press("ArrowRight");
  await assertAccessible(page, "/toolkits/mine on a phone");
});
