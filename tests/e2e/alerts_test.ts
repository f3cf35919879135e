/**
 * Alerts in Chromium (docs/decisions.md, Alerts): a student filters the internships, chooses "Alert me", finds the
 * alert on `/me/alerts` in words, pauses it, changes its frequency and edits its filters (a refused one at its field), then deletes it in the island's dialog; the feed link carries the same filters; a
 * guest's "Alert me" leads to sign in. Every page passes the axe-core check, on a 360 px phone.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";
import { listAlerts } from "@/lib/alerts/alerts.ts";

Deno.test("a student saves the shown filters as an alert, then pauses and re-times it on /me/alerts", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await using browser = await openBrowser();
  const guest = await browser.newPage();
  await openHydrated(guest, `${t.origin}/opportunities?type=hackathon`);
  const signIn = await guest.getByRole("link", { name: "Alert me about new matches" }).getAttribute("href");
  assertEquals(signIn, `/sign-in?${new URLSearchParams({ callbackURL: "/opportunities?type=hackathon" })}`);

  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/internships?search=data&location=Pune`);
  const feed = await page.getByRole("main").getByRole("link", { name: "RSS feed" }).getAttribute("href");
  assertEquals(feed, "/internships/rss.xml?location=Pune&search=data");
  await page.getByRole("button", { name: "Alert me about new matches" }).click();
  await page.getByText("Alert saved").waitFor();
  await assertAccessible(page, "/internships after Alert me");
  const [alert] = await listAlerts(t.kv, student.user.id);
  assertEquals([alert.kind, alert.query], ["internships", { location: "Pune", search: "data" }]);

  await page.getByRole("link", { name: "Manage your alerts" }).click();
  await page.waitForURL(/\/me\/alerts$/);
  await openHydrated(page, page.url());
  await page.getByRole("heading", { name: "Internships: location Pune, search data" }).waitFor();
  await assertAccessible(page, "/me/alerts");
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByRole("button", { name: "Resume" }).waitFor();
  await page.getByLabel("Frequency").selectOption("weekly");
  await page.getByText("Paused · Weekly").waitFor();
  const [stored] = await listAlerts(t.kv, student.user.id);
  assertEquals([stored.isActive, stored.frequency], [false, "weekly"]);

  // Every filter the alert holds is edited in place; a filter the list refuses is refused at its field.
  await page.getByRole("checkbox", { name: "Hybrid" }).check();
  await page.getByLabel("Tags").fill("python");
  await page.getByLabel("Minimum stipend (₹ a month)").fill("20000");
  await page.getByLabel("Maximum stipend (₹ a month)").fill("5000");
  await page.getByRole("button", { name: "Save filters" }).click();
  const maximum = page.getByLabel("Maximum stipend (₹ a month)");
  await page.getByText("The maximum stipend must not be below the minimum.").waitFor();
  assertEquals(await maximum.getAttribute("aria-invalid"), "true");
  await assertAccessible(page, "/me/alerts with a refused filter");
  assertEquals((await listAlerts(t.kv, student.user.id))[0].query, { location: "Pune", search: "data" });
  await maximum.fill("30000");
  await page.getByRole("button", { name: "Save filters" }).click();
  await page.getByRole("heading", { name: /work type Hybrid/ }).waitFor();
  assertEquals(await maximum.getAttribute("aria-invalid"), null);
  const [edited] = await listAlerts(t.kv, student.user.id);
  assertEquals(edited.query, {
    types: "hybrid",
    tags: "python",
    location: "Pune",
    search: "data",
    minStipend: 20000,
    maxStipend: 30000,
  });
  await assertAccessible(page, "/me/alerts after editing the filters");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 360, `the page fits the phone: ${width}`);

  // Hydrated, the Delete link opens the island's dialog instead of the page's confirmation.
  const before = page.url();
  await page.getByRole("link", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this alert?" });
  await dialog.waitFor();
  assertEquals(page.url(), before, "the link's page is not opened");
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("You have no alerts", { exact: false }).waitFor();
  assertEquals(await listAlerts(t.kv, student.user.id), []);
});
