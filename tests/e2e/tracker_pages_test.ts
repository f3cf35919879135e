/**
 * The tracker's pages of applications in Chromium on a 360 px phone, without JavaScript (docs/decisions.md,
 * Applications, "The tracker follows"): 25 applications show the newest 20 and "Older applications", a plain link to
 * the other 5 with "Newest applications" back, in English and in Hindi; a withdrawal on the older page comes back to it.
 * With nothing saved, the saved list says so without the hint about its controls. axe passes on every page.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessibleWithoutScript as assertAccessible,
  openBrowser,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { assertFitsPhone, phoneContext } from "@/tests/helpers/phone.ts";
import { applicant } from "@/tests/fixtures/applications.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { applyTo } from "@/lib/applications/applications.ts";

Deno.test("25 applications: the tracker shows 20, the older 5 by a plain link, and comes back after a withdrawal", async () => {
  await using t = await createTestApp({ listen: true });
  const owner = await createTestUser(t, "member");
  const listings = await createInternships(
    t.kv,
    owner.user,
    Array.from(
      { length: 25 },
      (_, i) => internshipInput({ title: `Intern ${i}`, applyMode: "platform", deadline: "2099-12-31" }),
    ),
  );
  const student = await applicant(t, "Keen Student");
  for (const listing of listings) {
    await applyTo(t.kv, { internshipId: listing.id, applicant: student.user, body: { answers: [], coverNote: "Hi" } });
  }
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const sent = page.locator("section[aria-labelledby='applications-heading'] > ul > li");

  await page.goto(`${t.origin}/me/tracker`);
  assertEquals(await sent.count(), 20);
  assertEquals(await page.getByRole("link", { name: "Newest applications" }).count(), 0);
  await page.getByText("Nothing saved yet.").waitFor();
  assertEquals(
    await page.getByText("Change a status or a note").count(),
    0,
    "no hint for controls an empty list lacks",
  );
  await assertFitsPhone(page, "the newest applications");
  await assertAccessible(page, "the newest applications");

  await page.getByRole("link", { name: "Older applications" }).click();
  await page.getByRole("link", { name: "Newest applications" }).waitFor();
  assertEquals(await sent.count(), 5);
  assertEquals(await page.getByRole("link", { name: "Older applications" }).count(), 0, "the oldest page ends");
  const titles = await sent.locator("h3").allInnerTexts();
  await assertFitsPhone(page, "the older applications");
  await assertAccessible(page, "the older applications");

  const olderUrl = page.url();
  await sent.first().getByText("Withdraw application").click();
  await sent.first().getByRole("button", { name: "Yes, withdraw" }).click();
  await page.getByText("Your application is withdrawn: the poster no longer sees your answers, cover note or resume.")
    .waitFor();
  assertEquals(await sent.locator("h3").allInnerTexts(), titles, "back on the same page");
  assert(page.url().includes("applications-from="), page.url());

  const hindi = new URL(olderUrl);
  hindi.searchParams.set("lang", "hi");
  await page.goto(hindi.href);
  await page.getByRole("link", { name: "सबसे नए आवेदन" }).waitFor();
  await assertFitsPhone(page, "the older applications in Hindi");
  await assertAccessible(page, "the older applications in Hindi");
  await page.getByRole("link", { name: "सबसे नए आवेदन" }).click();
  await page.getByRole("link", { name: "पुराने आवेदन" }).waitFor();
  assertEquals(await sent.count(), 20);
});
