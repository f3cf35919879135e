/**
 * Trust in the browser (docs/decisions.md, Trust): a student reports a listing on a 360 px phone with JavaScript off;
 * the admin resolves it on the reports page and the student's bell shows the outcome; a member posting a listing that
 * asks for a "registration fee" is told on its page that it is held, and why, and that students cannot see it yet (in
 * English and Hindi); an admin on a phone reads the newest reporters' own words on a report card, and pressing Resolve
 * before choosing what to do is told so at that card's form, the note kept; the new pages pass axe, and the
 * claimer verifies an organization with the claim link page's Verify button; right after, before the unlink job, a
 * stranger's listing under its name shows no seal on a phone (its page, `verifiedOnly`, the organization's page).
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  hydrated,
  openBrowser,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { assertNoSidewaysScroll, PHONE_CONTEXT, phoneContext } from "@/tests/helpers/phone.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { people } from "@/tests/fixtures/people.ts";

Deno.test("a student reports a listing on a phone without JavaScript; the admin resolves it; the bell tells the student", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const listing = await postInternship(t, member, {
    title: "Too Good To Be True Intern",
    hiringOrganization: "Shady Co",
  });
  await using browser = await openBrowser();

  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const phone = await context.newPage();
  phone.setDefaultTimeout(30_000);
  await phone.goto(`${t.origin}/internships/${listing.id}`);
  await assertNoSidewaysScroll(phone);
  await phone.getByText("Report this internship").click();
  await phone.getByLabel("It asks for money (a fee or a deposit)").check();
  await phone.getByLabel("Details (needed for Something else)").fill("They asked me to pay ₹999 on a call.");
  await assertAccessibleWithoutScript(phone, "the internship page with the report form open");
  await phone.getByRole("button", { name: "Send report" }).click();
  await phone.getByRole("heading", { name: "Thank you for reporting" }).waitFor();
  await assertNoSidewaysScroll(phone);
  await assertAccessibleWithoutScript(phone, "the report thanks page");
  await phone.getByRole("link", { name: "Go back" }).click();
  await phone.waitForURL(`${t.origin}/internships/${listing.id}`);

  const adminPage = await browser.newPage();
  await signInBrowser(adminPage.context(), t.origin, admin);
  await adminPage.goto(`${t.origin}/admin/reports`);
  await adminPage.getByRole("link", { name: "Too Good To Be True Intern at Shady Co" }).waitFor();
  assert(await adminPage.getByText("asks for money 1").isVisible());
  await assertAccessible(adminPage, "/admin/reports");
  await adminPage.getByRole("link", { name: "Too Good To Be True Intern at Shady Co" }).click();
  await adminPage.getByText("They asked me to pay ₹999 on a call.").waitFor();
  assert(await adminPage.getByText("By Sara Student").isVisible());
  await assertAccessible(adminPage, "/admin/reports/internship/{id}");
  await adminPage.getByLabel("Hide it from students").check();
  await adminPage.getByLabel("Note to the reporters and the owner (optional)").fill("Fees are never allowed.");
  await adminPage.getByRole("button", { name: "Resolve" }).click();
  await adminPage.getByText("Resolved 1 report.").waitFor();

  const bell = await browser.newPage(PHONE_CONTEXT);
  await signInBrowser(bell.context(), t.origin, student);
  await bell.goto(`${t.origin}/`);
  await hydrated(bell);
  const button = bell.getByRole("button", { name: /Notifications/ });
  await bell.getByTestId("unread-count").waitFor();
  assertEquals(await bell.getByTestId("unread-count").innerText(), "1", "the bell counts one unread notification");
  await button.click();
  await bell.getByText("Your report was reviewed").waitFor();
  assert(await bell.getByText(/hid it: students no longer see it/).first().isVisible());
  const gone = await phone.goto(`${t.origin}/internships/${listing.id}`);
  assertEquals(gone?.status(), 410, "the hidden listing is gone for the student");
  assert(
    await phone.getByRole("heading", { name: "An admin hid this listing" }).isVisible(),
    "and says why",
  );
});

Deno.test("a member posting a listing that asks for a registration fee is told it is held, and why", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await using browser = await openBrowser();
  const page = await browser.newPage(PHONE_CONTEXT);
  page.setDefaultTimeout(30_000);
  await signInBrowser(page.context(), t.origin, member);
  await page.goto(`${t.origin}/internships/new`);
  await hydrated(page);
  await page.getByLabel("Title").fill("Data Entry Intern");
  await page.getByLabel("Hiring organization").fill("QuickEarn Solutions");
  await page.getByLabel("Application link", { exact: true }).fill("https://quickearn.example.com/apply");
  await page.getByLabel("Description").fill("Selected candidates pay a Registration  Fee of ₹499 for the work kit.");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.getByText("This internship is held for review").waitFor();
  const notice = await page.getByText("This internship is held for review").locator("..").textContent();
  assert(notice?.includes("Asks applicants to pay") && notice.includes("“registration fee”"), notice ?? "");
  assert(await page.getByText("Held for review").first().isVisible(), "the badge says it is held");
  // The posted notice does not call it the page students see: they cannot see it yet.
  const posted = await page.getByRole("status").filter({ hasText: "Your internship is posted" }).innerText();
  assert(posted.includes("Students cannot see it yet: the notice below says why."), posted);
  assertEquals(await page.getByText("This is the page students see").count(), 0);
  const postedUrl = page.url();
  assert(postedUrl.endsWith("?posted=1"), postedUrl);
  await assertNoSidewaysScroll(page);
  await assertAccessible(page, "a held internship's page, for its owner");
  await page.goto(`${t.origin}/internships/mine`);
  await page.getByText("Hidden from students until an admin checks it.").waitFor();
  await assertAccessible(page, "My internships with a held listing");
  await page.goto(`${postedUrl}&lang=hi`);
  await page.getByText("छात्र इसे अभी नहीं देख सकते: वजह नीचे लिखी है।").waitFor();
  assertEquals(await page.getByText("छात्र यही पेज देखते हैं").count(), 0);
  await assertNoSidewaysScroll(page);
  await assertAccessible(page, "a held internship's page, for its owner, in Hindi");
});

Deno.test("an admin on a phone reads the newest reporters' own words on a report card, in English and Hindi", async () => {
  await using t = await createTestApp({ listen: true });
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member, { title: "Words Intern", hiringOrganization: "Talk Co" });
  const written = [
    "The oldest words.",
    '<img src=x onerror="window.__xss=1">They asked for a deposit.',
    "The stipend said on the call was half the listed one, and they would not put it in writing anywhere.",
    "प्रोजेक्ट के लिए ₹500 माँगे।",
  ];
  for (const details of written) {
    const reporter = await createTestUser(t, "user");
    const sent = await t.json("POST", "/api/reports", {
      body: { kind: "internship", id: listing.id, reason: "misleading", details },
      headers: reporter.headers,
    });
    assertEquals(sent.status, 201);
  }
  await using browser = await openBrowser();
  const phone = await browser.newPage(PHONE_CONTEXT);
  await signInBrowser(phone.context(), t.origin, admin);
  await phone.goto(`${t.origin}/admin/reports`);
  const card = phone.getByRole("listitem").filter({ hasText: "Words Intern at Talk Co" });
  const words = card.getByRole("region", { name: "What reporters wrote, newest first" });
  assertEquals(await words.locator("blockquote").allInnerTexts(), [...written].reverse().slice(0, 3));
  assertEquals(await phone.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined, "words stay text");
  await assertNoSidewaysScroll(phone);
  await assertAccessible(phone, "/admin/reports with reporters' words at 360 px");
  await card.getByRole("link", { name: "Words Intern at Talk Co" }).click();
  await phone.getByText("The oldest words.").waitFor();

  await phone.goto(`${t.origin}/admin/reports?lang=hi`);
  await phone.getByRole("region", { name: "रिपोर्ट करने वालों ने क्या लिखा, सबसे नया पहले" }).getByText(
    "प्रोजेक्ट के लिए ₹500 माँगे।",
  )
    .waitFor();
  await assertNoSidewaysScroll(phone);
  await assertAccessible(phone, "/admin/reports with reporters' words in Hindi at 360 px");

  // Resolve pressed before choosing what to do: the list comes back, said at the card's form, the note as typed.
  const hi = translatorFor("hi");
  const hiCard = phone.getByRole("listitem").filter({ hasText: "Talk Co में Words Intern" });
  const note = hiCard.getByLabel(hi("admin.reports.resolveNote"));
  await note.fill("कंपनी से बात की: स्टाइपेंड सही है।");
  await hiCard.getByRole("button", { name: hi("admin.reports.resolve") }).click();
  await hiCard.getByRole("group", { name: hi("admin.reports.resolveLegend") }).and(
    phone.locator(`[aria-describedby$="-action-error"]`),
  ).waitFor();
  assert(await hiCard.getByText(hi("admin.reports.problemAction")).isVisible(), "said at the card's form");
  assertEquals(await note.inputValue(), "कंपनी से बात की: स्टाइपेंड सही है।", "the note is kept");
  await assertNoSidewaysScroll(phone);
  await assertAccessible(phone, "/admin/reports with a form sent without its action, in Hindi at 360 px");
});

Deno.test("the new pages pass axe: organization, claim link, moderation, admin organizations, report form", async () => {
  await using t = await createTestApp({ listen: true });
  const { admin, member, student } = await people(t);
  const listing = await postInternship(t, member, { title: "Axe Intern", hiringOrganization: "Axe Labs" });
  const organizationId = listing.organization!.id;
  await postInternship(t, member, { title: "Held Intern", description: "security deposit of Rs 2000" });
  await t.json("PATCH", `/api/admin/organizations/${organizationId}`, {
    body: { website: "https://axelabs.in", about: "We test things." },
    headers: admin.headers,
  });
  await using browser = await openBrowser();
  const studentPage = await browser.newPage(PHONE_CONTEXT);
  await signInBrowser(studentPage.context(), t.origin, student);
  for (const path of ["/organizations/axe-labs", `/report?kind=internship&id=${listing.id}&back=%2Finternships`]) {
    await studentPage.goto(`${t.origin}${path}`);
    await assertNoSidewaysScroll(studentPage);
    await assertAccessible(studentPage, path);
  }
  const claimed = await t.json("POST", "/api/organizations/axe-labs/claim", {
    body: { email: "hr@axelabs.in" },
    headers: student.headers,
  });
  assertEquals(claimed.status, 202);
  await t.settled();
  const link = new URL(t.mails.at(-1)!.link).pathname;
  await studentPage.goto(`${t.origin}${link}`);
  await assertNoSidewaysScroll(studentPage);
  await assertAccessible(studentPage, "the claim link's page with its Verify button");
  await studentPage.getByRole("button", { name: "Verify Axe Labs" }).click();
  await studentPage.getByRole("heading", { name: "Axe Labs is verified" }).waitFor();
  const guest = await browser.newPage(PHONE_CONTEXT);
  await guest.goto(`${t.origin}${link}`);
  await assertAccessible(guest, "a used claim link's page");
  await guest.goto(`${t.origin}/internships?verifiedOnly=true&paidOnly=true`);
  await hydrated(guest);
  await assertAccessible(guest, "/internships with the trust filters");
  const adminPage = await browser.newPage();
  await signInBrowser(adminPage.context(), t.origin, admin);
  for (
    const path of ["/admin/moderation", "/admin/organizations", `/admin/organizations/${organizationId}`]
  ) {
    await adminPage.goto(`${t.origin}${path}`);
    await assertAccessible(adminPage, path);
  }
  assert(await adminPage.getByLabel("Website").inputValue() === "https://axelabs.in");
});

Deno.test("right after a claim, a stranger's listing under the name shows no seal on a phone; the claimer's does", async () => {
  await using t = await createTestApp({ listen: true });
  const { admin, member: stranger } = await people(t);
  const hr = await createTestUser(t, "member", { name: "Ira Seal" });
  const theirs = await postInternship(t, stranger, { title: "Stranger Intern", hiringOrganization: "Seal Labs" });
  const own = await postInternship(t, hr, { title: "Seal Labs Intern", hiringOrganization: "Seal Labs" });
  await t.json("PATCH", `/api/admin/organizations/${theirs.organization!.id}`, {
    body: { website: "https://seallabs.in" },
    headers: admin.headers,
  });
  const claimed = await t.json("POST", "/api/organizations/seal-labs/claim", {
    body: { email: "ira@seallabs.in" },
    headers: hr.headers,
  });
  assertEquals(claimed.status, 202);
  await t.settled();
  await using browser = await openBrowser();
  const hrPage = await browser.newPage(PHONE_CONTEXT);
  await signInBrowser(hrPage.context(), t.origin, hr);
  await hrPage.goto(`${t.origin}${new URL(t.mails.at(-1)!.link).pathname}`);
  await hrPage.getByRole("button", { name: "Verify Seal Labs" }).click();
  await hrPage.getByRole("heading", { name: "Seal Labs is verified" }).waitFor();

  // The organizations-unlink job has not run: the stranger's listing reads as it will leave it.
  const guest = await browser.newPage(PHONE_CONTEXT);
  const seal = guest.getByText("Verified: the organization is verified");
  await guest.goto(`${t.origin}/internships/${theirs.id}`);
  await guest.getByRole("heading", { name: "Stranger Intern" }).waitFor();
  assertEquals(await seal.count(), 0, "no seal on the stranger's listing");
  assert(await guest.getByText("Organization not verified").isVisible());
  await assertNoSidewaysScroll(guest);
  await assertAccessible(guest, "a stranger's listing under a name just claimed");
  await guest.goto(`${t.origin}/internships/${own.id}`);
  await guest.getByRole("heading", { name: "Seal Labs Intern" }).waitFor();
  assertEquals(await seal.count(), 1, "the claimer's own listing keeps it");
  await guest.goto(`${t.origin}/internships?verifiedOnly=true`);
  await hydrated(guest);
  await guest.getByRole("link", { name: "Seal Labs Intern" }).first().waitFor();
  assertEquals(await guest.getByText("Stranger Intern").count(), 0, "verifiedOnly leaves the stranger's out");
  await assertNoSidewaysScroll(guest);
  await assertAccessible(guest, "/internships?verifiedOnly=true right after a claim");
  await guest.goto(`${t.origin}/organizations/seal-labs`);
  await guest.getByText("Seal Labs Intern").first().waitFor();
  assertEquals(await guest.getByText("Stranger Intern").count(), 0, "nor is it on the organization's page");
});
