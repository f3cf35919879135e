/**
 * Opportunities in Chromium: a user submits one and sees it awaiting review under "My
 * submissions"; the admin approves it from the review queue without a reload; it then appears
 * in the public list and its page offers "Add to calendar". Once closed, its page at 360 px offers neither the calendar
 * entry nor the link, in English and Hindi. axe-core checks every page.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, hydrated, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { fillOpportunityForm, submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { assertFitsPhone, phoneContext } from "@/tests/helpers/phone.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

Deno.test("a user submits an opportunity, the admin approves it from the queue, and it is published", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const user = await createTestUser(t, "user", { name: "Sara Student" });
  const admin = await createTestUser(t, "admin");

  const userContext = await browser.newContext();
  await signInBrowser(userContext, t.origin, user);
  const page = await userContext.newPage();
  await page.goto(`${t.origin}/opportunities`);
  await page.getByText("No opportunities found").waitFor();
  await assertAccessible(page, "opportunities: empty");
  await page.getByRole("link", { name: "Submit an opportunity" }).click();
  await page.waitForURL(`${t.origin}/opportunities/new`);
  await hydrated(page);
  await page.getByText("An admin reviews it first").waitFor();
  await page.getByRole("button", { name: "Submit opportunity" }).click();
  await page.getByText("Enter a title.").waitFor();
  await assertAccessible(page, "opportunities: submit form with errors");
  await fillOpportunityForm(page, "Campus Climate Ideathon");
  await page.getByRole("button", { name: "Submit opportunity" }).click();
  await page.waitForURL(`${t.origin}/opportunities/mine?submitted=1`);
  await page.getByText("Your opportunity was submitted.").waitFor();
  const card = page.getByRole("article").filter({ hasText: "Campus Climate Ideathon" });
  await card.getByText("Awaiting review").waitFor();
  await assertAccessible(page, "opportunities: my submissions");

  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, t.origin, admin);
  const adminPage = await adminContext.newPage();
  await openHydrated(adminPage, `${t.origin}/admin/opportunities`);
  await adminPage.getByRole("tab", { name: "Awaiting review (1)" }).waitFor();
  await adminPage.getByRole("heading", { name: "Campus Climate Ideathon" }).waitFor();
  await assertAccessible(adminPage, "admin opportunities: queue");
  await adminPage.getByRole("button", { name: "Approve Campus Climate Ideathon" }).click();
  await adminPage.getByRole("tab", { name: "Awaiting review (0)" }).waitFor();
  await adminPage.getByText("Nothing here.").waitFor();
  await adminPage.getByRole("tab", { name: "Published (1)" }).click();
  await adminPage.getByRole("heading", { name: "Campus Climate Ideathon" }).waitFor();

  await page.goto(`${t.origin}/opportunities`);
  await page.getByRole("link", { name: "Campus Climate Ideathon", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Campus Climate Ideathon" }).waitFor();
  await assertAccessible(page, "opportunity page");
  const calendar = page.getByRole("link", { name: "Add to calendar" });
  assertEquals(await calendar.getAttribute("href"), `${new URL(page.url()).pathname}/calendar.ics`);
  await page.goto(`${t.origin}/opportunities/mine`);
  await page.getByRole("article").filter({ hasText: "Campus Climate Ideathon" }).getByText("Published").waitFor();
});

Deno.test("on a 360 px phone, in English and Hindi, a closed opportunity offers no calendar entry", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const closed = await submitOpportunity(t, admin, {
    title: "Winter Hack",
    startDate: "2024-01-10",
    endDate: "2024-01-12",
    link: "https://hack.example.com/register",
  });
  await using browser = await openBrowser();
  const page = await (await phoneContext(browser)).newPage();
  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    await page.goto(`${t.origin}/opportunities/${closed.id}?lang=${lang}`);
    await page.getByRole("heading", { level: 1, name: "Winter Hack" }).waitFor();
    await page.getByText(tr("opportunities.timing.closed"), { exact: true }).first().waitFor();
    assertEquals(await page.getByRole("link", { name: tr("opportunities.detail.calendar") }).count(), 0, lang);
    assertEquals(await page.locator('a[href$="/calendar.ics"]').count(), 0, `${lang}: no calendar link`);
    await assertFitsPhone(page, `a closed opportunity, ${lang}`);
    await assertAccessible(page, `a closed opportunity at 360 px, ${lang}`);
  }
});
