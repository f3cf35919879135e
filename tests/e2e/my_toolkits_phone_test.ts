/**
 * "My toolkits" on a phone: the payment history's rows stack, so every column (the status among them) is on the
 * screen rather than scrolled off it, and the page passes the axe-core check.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { assertFitsPhone, PHONE, phoneContext } from "@/tests/helpers/phone.ts";
import { addCoupon, addToolkit } from "@/tests/fixtures/toolkits.ts";

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
