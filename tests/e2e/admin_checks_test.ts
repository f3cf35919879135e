/**
 * The admin toolkit and coupon forms in Chromium: what cannot work is refused at its field (an
 * original price below the price, an http video, a coupon expiry that has passed), odd values
 * are pointed out, times are shown and entered in IST, and moving a lesson keeps the keyboard
 * focus on it.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { hydrated, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";

Deno.test("admin forms refuse what cannot work, point out odd values and keep focus on a moved lesson", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/admin/toolkits/new`);
  await page.getByLabel("Title").fill("Case Interviews");
  await page.getByLabel("Description").fill("Frameworks and drills.");
  await page.getByLabel("Price (₹)").fill("499");
  await page.getByLabel("Original price (₹, optional)").fill("499");
  await page.getByText("The original price equals the price, so no discount is shown.").waitFor();
  await page.getByLabel("Original price (₹, optional)").fill("399");
  await page.getByLabel("Promo video URL (optional)").fill("http://videos.example.com/promo.mp4");
  await page.getByRole("button", { name: "Create toolkit" }).click();
  await page.getByText("The original price must not be below the price.").waitFor();
  await page.getByText("Use an https address: an http video does not play on an https site.").waitFor();
  const { toolkits } = await (await t.fetch("/api/admin/toolkits", { headers: admin.headers })).json();
  assertEquals(toolkits, []);
  await page.getByLabel("Original price (₹, optional)").fill("999");
  await page.getByLabel("Promo video URL (optional)").fill("https://videos.example.com/promo.mp4");
  await page.getByRole("button", { name: "Create toolkit" }).click();
  await page.waitForURL(/\/admin\/toolkits\/[0-9a-f-]{36}\?created=1$/);
  await hydrated(page);
  await page.getByText("Students can't see this toolkit yet").waitFor();
  await page.getByLabel("Active (shown in the marketplace)").check();
  await page.getByRole("button", { name: "Save toolkit" }).click();
  await page.getByText("The toolkit was saved.").waitFor();
  assert(!await page.getByText("Students can't see this toolkit yet").isVisible(), "gone once saved active");

  for (const title of ["One", "Two", "Three"]) {
    await page.getByLabel("Lesson title").last().fill(title);
    await page.getByLabel("Article (HTML)").last().fill(`<p>${title}</p>`);
    await page.getByRole("button", { name: "Add lesson" }).click();
    await page.getByText(`Lesson “${title}” added.`).waitFor();
  }
  await page.getByLabel("Lesson title").last().fill("Four");
  await page.getByLabel("Type").last().selectOption("video");
  await page.getByLabel("Video URL").last().fill("http://cdn.example.com/4.mp4");
  await page.getByRole("button", { name: "Add lesson" }).click();
  await page.getByText("Use an https address: an http video does not play on an https site.").waitFor();

  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
  // The announcement can render a moment before the focus is restored: wait for it, then check it.
  const focusSettles = (text: string) =>
    page.waitForFunction((want) => document.activeElement?.textContent === want, text, { timeout: 5_000 })
      .catch(() => {});
  await page.getByRole("button", { name: /^Down\W+One$/ }).focus();
  await page.keyboard.press("Enter");
  await page.getByText("“One” moved to position 2.").waitFor();
  await focusSettles("Down: One");
  assertEquals(await focused(), "Down: One");
  await page.keyboard.press("Enter");
  await page.getByText("“One” moved to position 3.").waitFor();
  await focusSettles("Up: One");
  assertEquals(await focused(), "Up: One", "at the end, the focus goes to the other button");

  await openHydrated(page, `${t.origin}/admin/coupons`);
  await page.getByLabel("Code", { exact: true }).fill("HALFDAY");
  await page.getByLabel("Percent off").fill("95");
  await page.getByText("95 % off leaves almost nothing to pay.").waitFor();
  await page.getByLabel("Expires (IST, optional)").fill("2020-01-01T10:00");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.getByText("This date has already passed").waitFor();
  await page.getByLabel("Expires (IST, optional)").fill("2099-03-01T09:30");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.getByText("Coupon HALFDAY created.").waitFor();
  assert(await page.getByRole("cell", { name: "1 Mar 2099, 9:30 am IST" }).isVisible());
  const { coupons } = await (await t.fetch("/api/admin/coupons", { headers: admin.headers })).json();
  assertEquals(coupons[0].expiresAt, "2099-03-01T04:00:00.000Z");
});
