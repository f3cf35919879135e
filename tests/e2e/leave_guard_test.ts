/**
 * Leaving a typed form in Chromium on a 360 px phone (docs/decisions.md, Islands, "Leaving a typed form"): a student who
 * typed an answer on the apply form (also once it came back refused with it), a tracker note the network failed to save,
 * or a comment not posted, and taps a link, is asked first by the browser; staying keeps what they typed, as on the
 * opportunity form, the profile, onboarding, a report, the admin's post editor with an image added or removed and an
 * admin's suspension reason. A form only looked at, one sent, a note saved, a comment posted, an opportunity submitted,
 * a profile saved, a post created, the account deleted and a suspension sent leave without a question.
 */
import { Buffer } from "node:buffer";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated, signInBrowser, type TestBrowser } from "@/tests/helpers/browser.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { fillOpportunityForm } from "@/tests/fixtures/opportunities.ts";
import { addToolkitWithLessons, buy } from "@/tests/fixtures/toolkits.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { gradientPng } from "@/lib/demo/images.ts";
import { saveItem } from "@/lib/saved/saved.ts";
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";
import type { Locator, Page } from "playwright-core";

/** The opportunity form's link back to the list. */
const ALL_OPPORTUNITIES = translatorFor("en")("opportunities.detail.all");

/** A hydrated phone page of `url` signed in as `who`, with the questions the browser asked (each one declined). */
async function phonePage(browser: TestBrowser, t: TestApp, who: TestUser, url: string) {
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, who);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  await openHydrated(page, `${t.origin}${url}`);
  return { page, asked };
}

/** The link named `name` on `page`. */
const link = (page: Page, name: string): Locator => page.getByRole("link", { name, exact: true });

/** Taps `away` and waits for the page at `path` (no question asked, or it would stay). */
async function leaveBy(page: Page, t: TestApp, away: Locator, path: string): Promise<void> {
  await away.click();
  await page.waitForURL(`${t.origin}${path}`);
}

/** Taps `away` and waits for the browser's question before leaving, which is declined. */
async function askedOnLeaving(page: Page, away: Locator, asked: string[]): Promise<void> {
  const before = asked.length;
  const question = page.waitForEvent("dialog");
  await away.click();
  await question;
  assertEquals(asked.slice(before), ["beforeunload"]);
}

Deno.test("the apply form asks before leaving with an answer typed; looked at, or sent, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await applicant(t, "Sara Student");
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  await using browser = await openBrowser();
  const apply = `/internships/${internship.id}/apply`;
  const { page, asked } = await phonePage(browser, t, student, apply);
  const answer = page.getByLabel("1. Why do you want this internship?");

  await answer.click();
  await leaveBy(page, t, link(page, "← Data Intern"), `/internships/${internship.id}`);
  assertEquals(asked, [], "nothing typed: no question");

  await openHydrated(page, `${t.origin}${apply}`);
  await answer.fill("I want to learn how real data teams work.");
  await askedOnLeaving(page, link(page, "← Data Intern"), asked);
  assertEquals(new URL(page.url()).pathname, apply, "staying keeps the page");
  assertEquals(await answer.inputValue(), "I want to learn how real data teams work.");

  await page.getByRole("button", { name: "Send application" }).click();
  await page.waitForURL(`${t.origin}/internships/${internship.id}?applied=1`);
  assertEquals(asked, ["beforeunload"], "sending the form is no leaving");
});

Deno.test("the apply form sent back with words typed asks before leaving; sent again, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await applicant(t, "Sara Student");
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  await using browser = await openBrowser();
  const apply = `/internships/${internship.id}/apply`;
  const { page, asked } = await phonePage(browser, t, student, apply);
  const en = translatorFor("en");
  const cover = page.getByLabel(en("applications.form.coverNoteLabel"));

  // The required answer left empty: the page comes back with the cover note as it was typed, not sent.
  await cover.fill("I built two dashboards for my college fest.");
  await page.getByRole("button", { name: "Send application" }).click();
  await page.getByText(en("applications.form.correct")).waitFor();
  await askedOnLeaving(page, link(page, "← Data Intern"), asked);
  assertEquals(await cover.inputValue(), "I built two dashboards for my college fest.", "staying keeps the note");

  await page.getByLabel("1. Why do you want this internship?").fill("I want to learn how real data teams work.");
  await page.getByRole("button", { name: "Send application" }).click();
  await page.waitForURL(`${t.origin}/internships/${internship.id}?applied=1`);
  assertEquals(asked, ["beforeunload"], "sending it again is no leaving");
});

Deno.test("a tracker note the network failed to save asks before leaving; saved, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const [listing] = await addInternships(t, member, [{
    title: "Data Intern",
    hiringOrganization: "Data Co",
    link: "https://jobs.example.com/apply",
    deadline: "2099-12-31",
  }]);
  await saveItem(t.kv, { userId: student.user.id, kind: "internships", id: listing.id, change: { note: undefined } });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, "/me/tracker");
  const note = page.getByLabel("Note");

  await note.fill("Call HR on Monday");
  await page.route("**/api/me/saved/**", (route) => route.abort("internetdisconnected"));
  await page.getByRole("button", { name: "Save note for Data Intern" }).click();
  await page.getByRole("status").getByText(/^Could not save/).waitFor();
  await page.unrouteAll();
  await askedOnLeaving(page, link(page, "Data Intern"), asked);
  assertEquals(await note.inputValue(), "Call HR on Monday", "staying keeps the note");

  await page.getByRole("button", { name: "Save note for Data Intern" }).click();
  await page.getByRole("status").getByText("Saved the note for “Data Intern”.").waitFor();
  await leaveBy(page, t, link(page, "Data Intern"), `/internships/${listing.id}`);
  assertEquals(asked, ["beforeunload"], "a saved note leaves without a question");
});

Deno.test("a comment typed and not posted asks before leaving; posted, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const post = await createPost(t, admin, { title: "How I got my first internship" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, `/ungatekeep/${post.id}`);
  const box = page.getByLabel("Add a comment");

  await box.fill("Which topics did the OA cover?");
  await askedOnLeaving(page, link(page, "← All posts"), asked);
  assertEquals(await box.inputValue(), "Which topics did the OA cover?", "staying keeps the comment");

  await page.getByRole("button", { name: "Post comment" }).click();
  await page.getByText("Comment posted.").waitFor();
  await leaveBy(page, t, link(page, "← All posts"), "/ungatekeep");
  assertEquals(asked, ["beforeunload"], "a posted comment leaves without a question");
});

Deno.test("the opportunity form asks before leaving with a title typed; submitted, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, "/opportunities/new");

  await page.getByLabel("Title").fill("Campus Climate Ideathon");
  await askedOnLeaving(page, link(page, ALL_OPPORTUNITIES), asked);
  assertEquals(await page.getByLabel("Title").inputValue(), "Campus Climate Ideathon", "staying keeps the form");

  await fillOpportunityForm(page, "Campus Climate Ideathon");
  await page.getByRole("button", { name: "Submit opportunity" }).click();
  await page.waitForURL(`${t.origin}/opportunities/mine?submitted=1`);
  assertEquals(asked, ["beforeunload"], "the island leaving after its save is no leaving");
});

Deno.test("the profile asks before leaving with a change not saved; saved, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, "/profile");
  const privacy = page.locator("main a[href='/privacy']");

  await page.getByLabel("College or institute").fill("COEP Pune");
  await askedOnLeaving(page, privacy, asked);
  assertEquals(await page.getByLabel("College or institute").inputValue(), "COEP Pune", "staying keeps the change");

  await page.getByRole("button", { name: "Save profile" }).click();
  await page.getByText("Your profile has been saved.").waitFor();
  await leaveBy(page, t, privacy, "/privacy");
  assertEquals(asked, ["beforeunload"], "a saved profile leaves without a question");
});

Deno.test("deleting the account with a profile change not saved leaves without a question; leaving otherwise asks", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, "/profile");

  await page.getByLabel("College or institute").fill("COEP Pune");
  await askedOnLeaving(page, page.locator("main a[href='/privacy']"), asked);

  await page.getByRole("button", { name: "Delete my account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByLabel("Your e-mail address").fill(student.user.email);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(`${t.origin}/?accountDeleted=1`);
  assertEquals(asked, ["beforeunload"], "the deleted account's profile is not asked about");
});

Deno.test("onboarding asks before leaving with an answer given; untouched, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const nisha = await createTestUser(t, "user", { name: "Nisha New" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, nisha, "/onboarding");
  const home = page.locator("header a[href='/']").first();

  await leaveBy(page, t, home, "/");
  assertEquals(asked, [], "nothing answered: no question");

  await openHydrated(page, `${t.origin}/onboarding`);
  await page.getByLabel("I am a student looking for internships and opportunities").check();
  await askedOnLeaving(page, home, asked);
  await page.getByText("Step 1 of 7").waitFor();
});

Deno.test("a report with its details typed asks before leaving the listing; sent, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const [listing] = await addInternships(t, member, [{ title: "Data Intern", hiringOrganization: "Data Co" }]);
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, student, `/internships/${listing.id}`);
  const all = page.locator("main a[href='/internships']").first();

  await page.getByText("Report this internship").click();
  await page.getByLabel("Details (needed for Something else)").fill("They asked me to pay a training fee.");
  await askedOnLeaving(page, all, asked);
  assertEquals(
    await page.getByLabel("Details (needed for Something else)").inputValue(),
    "They asked me to pay a training fee.",
    "staying keeps the details",
  );

  await page.getByLabel("It asks for money (a fee or a deposit)").check();
  await page.getByRole("button", { name: "Send report" }).click();
  await page.waitForURL(/\/report\?sent=1/);
  assertEquals(asked, ["beforeunload"], "sending the report is no leaving");
});

Deno.test("the poster's move form asks before leaving with an applicant ticked or sent back; moved, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await applicant(t, "Sara Student");
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  await applyTo(t, student, internship);
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, member, `/internships/${internship.id}/applicants`);
  const back = link(page, "← Data Intern");

  await page.getByLabel("Select Sara Student").check();
  await askedOnLeaving(page, back, asked);
  assertEquals(await page.getByLabel("Select Sara Student").isChecked(), true, "staying keeps the choice");

  const message = page.getByLabel("Message to the applicants (optional)");
  await message.fill("Great answers! We will call you on Monday.");
  await page.getByRole("button", { name: "Move selected" }).click();
  await page.locator("#move-status-error").waitFor();
  await askedOnLeaving(page, back, asked);
  assertEquals(await message.inputValue(), "Great answers! We will call you on Monday.", "sent back, it still asks");

  await page.getByLabel("New status", { exact: true }).selectOption("shortlisted");
  await page.getByRole("button", { name: "Move selected" }).click();
  await page.getByText("1 application moved; the applicant is told.").waitFor();
  await leaveBy(page, t, back, `/internships/${internship.id}`);
  assertEquals(asked, ["beforeunload", "beforeunload"], "moving the applications is no leaving");
});

Deno.test("the admin's new coupon and new banner ask before leaving; added, they do not", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, admin, "/admin/coupons");
  const home = page.locator("header a[href='/']").first();

  await page.getByLabel("Code", { exact: true }).fill("HALFDAY");
  await askedOnLeaving(page, home, asked);
  assertEquals(await page.getByLabel("Code", { exact: true }).inputValue(), "HALFDAY", "staying keeps the coupon");
  await page.getByLabel("Percent off").fill("50");
  await page.getByRole("button", { name: "Create coupon" }).click();
  await page.getByText("Coupon HALFDAY created.").waitFor();
  await leaveBy(page, t, home, "/");
  assertEquals(asked, ["beforeunload"], "a created coupon leaves without a question");

  await openHydrated(page, `${t.origin}/admin/banners`);
  await page.getByLabel("Title").fill("Summer internships");
  await askedOnLeaving(page, home, asked);
  await page.getByRole("button", { name: "Add banner" }).click();
  await page.getByText("“Summer internships” added.").waitFor();
  await leaveBy(page, t, home, "/");
  assertEquals(asked, ["beforeunload", "beforeunload"], "an added banner leaves without a question");
});

Deno.test("the admin's post editor asks before leaving with an image added or removed and not saved", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, admin, "/admin/ungatekeep/new");
  const home = page.locator("header a[href='/']").first();
  const photo = page.getByAltText("Uploaded image photo.png");

  const png = gradientPng({ width: 64, height: 32, from: [20, 40, 200], to: [240, 120, 20] });
  await page.getByLabel("Add images").setInputFiles({
    name: "photo.png",
    mimeType: "image/png",
    buffer: Buffer.from(png),
  });
  await photo.waitFor();
  await askedOnLeaving(page, home, asked);
  assertEquals(await photo.count(), 1, "staying keeps the image");

  await page.getByLabel("Title", { exact: true }).fill("Resume tips");
  await page.getByLabel("Tag", { exact: true }).selectOption("resources");
  await page.getByLabel("Content (markdown)").fill("Keep it to one page.");
  await page.getByRole("button", { name: "Create post" }).click();
  await page.waitForURL((u) => u.pathname === "/admin/ungatekeep" && u.searchParams.has("saved"));
  assertEquals(asked, ["beforeunload"], "a created post leaves without a question");

  await openHydrated(page, `${t.origin}/admin/ungatekeep/${new URL(page.url()).searchParams.get("saved")}`);
  await page.getByRole("button", { name: /^Remove / }).click();
  await askedOnLeaving(page, home, asked);
  assertEquals(await page.getByRole("img", { name: /^Uploaded image / }).count(), 0, "staying keeps it removed");
});

Deno.test("the admin's suspension reason asks before leaving; suspended, or lifted, it does not", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await createTestUser(t, "user", { name: "Tara Pillai" });
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, admin, "/admin/users");
  const home = page.locator("header a[href='/']").first();

  await page.getByText("Suspend… Tara Pillai").click();
  await page.getByLabel("Reason").fill("Spam links in every comment");
  await askedOnLeaving(page, home, asked);
  assertEquals(await page.getByLabel("Reason").inputValue(), "Spam links in every comment", "staying keeps it");
  await page.getByRole("button", { name: "Suspend Tara Pillai" }).click();
  await page.getByText("The account is suspended.").waitFor();
  // Lifted, the row draws its suspend form again, untouched: no question either.
  await page.getByRole("button", { name: "Lift suspension Tara Pillai" }).click();
  await page.getByText("The suspension is lifted.").waitFor();
  await leaveBy(page, t, home, "/");
  assertEquals(asked, ["beforeunload"], "a suspension sent, then lifted, leaves without a question");
});

Deno.test("the admin's refund reason typed and not sent asks before leaving; refunded, it does not", async () => {
  await using fake = startFakeRazorpay();
  await using t = await createTestApp({ listen: true, env: fake.env });
  const admin = await createTestUser(t, "admin", { name: "Asha Admin" });
  const buyer = await createTestUser(t, "user", { name: "Rohan Mehta" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, { title: "SQL for Analysts", lessons: ["Joins"] });
  await buy({ t, fake }, buyer, toolkit.id);
  await using browser = await openBrowser();
  const { page, asked } = await phonePage(browser, t, admin, "/admin");
  await openHydrated(page, `${t.origin}/admin/purchases`);
  const refund = page.getByRole("button", { name: "Refund Rohan Mehta's purchase" });
  const dialog = page.getByRole("dialog", { name: "Refund this payment?" });
  const reason = dialog.getByLabel("Reason (optional)");

  await refund.click();
  await reason.fill("The buyer paid twice for the same toolkit.");
  const question = page.waitForEvent("dialog");
  void page.goBack().catch(() => {});
  await question;
  assertEquals(asked, ["beforeunload"]);
  assertEquals(await reason.inputValue(), "The buyer paid twice for the same toolkit.", "staying keeps the reason");

  await dialog.getByRole("button", { name: /^Refund ₹/ }).click();
  await page.getByRole("status").filter({ hasText: /^Refunded ₹/ }).waitFor();
  await page.goBack();
  await page.waitForURL(`${t.origin}/admin`);
  assertEquals(asked, ["beforeunload"], "a refund sent leaves without a question");
});
