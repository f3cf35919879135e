/**
 * The internship pages in Chromium: a guest filters by type and stipend (the URL follows and
 * the back button restores), searches and opens a result; a member posts one (field errors
 * first), edits it and deletes it after confirming; an admin verifies one; the home page shows
 * the latest ones; on a phone the filters are folded above the results (and open without
 * JavaScript too). Every page passes the axe-core check.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, hydrated, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { PHONE, PHONE_CONTEXT, phoneContext } from "@/tests/helpers/phone.ts";
import { getInternship, type InternshipView } from "@/lib/internships/internships.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";

const TYPES = ["remote", "hybrid", "onsite"] as const;

/**
 * 30 listings: role i (0–28) is `TYPES[i % 3]` with stipend `i × 1000` (null when i % 5 is 0),
 * plus one hybrid quantum-computing role for the search. Remote with stipend ≥ 15,000: 18, 21, 24, 27;
 * hybrid or on-site with stipend ≤ 10,000: 1, 2, 4, 7, 8.
 */
async function seed(t: TestApp, owner: TestUser): Promise<InternshipView[]> {
  const items = Array.from({ length: 29 }, (_, i) => ({
    title: `Role ${i} Intern`,
    hiringOrganization: `Company ${i}`,
    link: `https://company${i}.example.com/apply`,
    type: TYPES[i % 3],
    stipend: i % 5 === 0 ? null : i * 1000,
    tags: [i % 2 === 0 ? "engineering" : "marketing"],
    location: i % 2 === 0 ? "Bengaluru" : "Delhi",
    deadline: "2099-12-31",
  }));
  items.push({
    title: "Quantum Computing Research Intern",
    hiringOrganization: "Qubit Labs",
    link: "https://qubit.example.com/careers",
    type: "hybrid",
    stipend: 40000,
    tags: ["research"],
    location: "Hyderabad",
    deadline: "2099-12-31",
  });
  return await addInternships(t, owner, items);
}

async function cardTitles(page: Page): Promise<string[]> {
  return await page.locator("#results-heading ~ ul article h3").allTextContents();
}

Deno.test("a guest filters by type and stipend, searches, and opens a result", async () => {
  await using t = await createTestApp({ listen: true });
  await seed(t, await createTestUser(t, "member"));
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await openHydrated(page, `${t.origin}/internships`);
  await page.getByText("Showing 1–10 of 30 internships").waitFor();
  await assertAccessible(page, "/internships");

  await page.getByLabel("Remote").check();
  await page.waitForURL(/\/internships\?types=remote$/);
  await page.getByText("Showing 1–10 of 10 internships").waitFor();

  await page.getByLabel("Minimum").fill("15000");
  await page.waitForURL(/\/internships\?types=remote&minStipend=15000$/);
  await page.getByText("Showing 1–4 of 4 internships").waitFor();
  assertEquals((await cardTitles(page)).sort(), [
    "Role 18 Intern",
    "Role 21 Intern",
    "Role 24 Intern",
    "Role 27 Intern",
  ]);
  await assertAccessible(page, "/internships filtered");

  await page.goBack();
  await page.waitForURL(/\/internships\?types=remote$/);
  await page.getByText("Showing 1–10 of 10 internships").waitFor();
  assertEquals(await page.getByLabel("Minimum").inputValue(), "");

  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await page.waitForURL(/\/internships$/);
  await page.getByRole("searchbox", { name: "Search" }).fill("quantum research");
  await page.waitForURL(/\/internships\?search=quantum\+research$/);
  await page.getByText("Showing 1–1 of 1 internship").waitFor();
  assertEquals(await cardTitles(page), ["Quantum Computing Research Intern"]);

  await page.getByRole("searchbox", { name: "Search" }).fill("no such thing");
  await page.getByText("No internships match these filters.").waitFor();
  await assertAccessible(page, "/internships empty");
  await page.getByRole("searchbox", { name: "Search" }).fill("quantum");
  await page.getByText("Showing 1–1 of 1 internship").waitFor();

  await page.getByRole("link", { name: "Quantum Computing Research Intern", exact: true }).click();
  await page.waitForURL(/\/internships\/[0-9a-f-]{36}$/);
  await page.getByRole("heading", { level: 1, name: "Quantum Computing Research Intern" }).waitFor();
  const apply = page.getByRole("link", { name: /Apply on qubit\.example\.com/ });
  assertEquals(await apply.getAttribute("rel"), "noopener noreferrer nofollow");
  assertEquals(await apply.getAttribute("target"), "_blank");
  assert(await page.getByText("₹40,000 a month").isVisible());
  await assertAccessible(page, "internship detail");
});

Deno.test("a shared filtered link and the paginated list load in the browser", async () => {
  await using t = await createTestApp({ listen: true });
  await seed(t, await createTestUser(t, "member"));
  await using browser = await openBrowser();
  const page = await browser.newPage();
  await openHydrated(page, `${t.origin}/internships?types=hybrid,onsite&maxStipend=10000`);
  assert(await page.getByLabel("Hybrid").isChecked());
  assert(await page.getByLabel("On-site").isChecked());
  assert(!(await page.getByLabel("Remote").isChecked()));
  await page.getByText("Showing 1–5 of 5 internships").waitFor();

  await openHydrated(page, `${t.origin}/internships`);
  await page.getByRole("link", { name: "Next" }).click();
  await page.waitForURL(/\/internships\?offset=10$/);
  await page.getByText("Showing 11–20 of 30 internships").waitFor();
  await page.getByRole("link", { name: "Previous" }).click();
  await page.waitForURL(/\/internships$/);
  await page.getByText("Showing 1–10 of 30 internships").waitFor();
});

Deno.test("on a phone the filters are folded so the first result is on the first screen", async () => {
  await using t = await createTestApp({ listen: true });
  await seed(t, await createTestUser(t, "member"));
  await using browser = await openBrowser();
  const page = await browser.newPage(PHONE_CONTEXT);
  await openHydrated(page, `${t.origin}/internships?types=remote`);
  // On the 360 px phone the first card's title, organization and stipend are on the first screen (the whole card, on a
  // taller phone: internships_phone_test.ts).
  const first = page.locator("#results-heading ~ ul article").first();
  const [card, stipend] = [await first.boundingBox(), await first.locator("dd").first().boundingBox()];
  assert(
    card && stipend && card.y >= 0 && stipend.y + stipend.height <= PHONE.height,
    `first card at ${JSON.stringify(card)}, its stipend at ${JSON.stringify(stipend)}`,
  );
  assert(!(await page.getByLabel("Remote").isVisible()), "the filters are open on a phone");
  const summary = page.locator("summary", { hasText: "Filters" });
  assertEquals((await summary.innerText()).replace(/\s+/g, " ").trim(), "Filters 1 active");
  await assertAccessible(page, "/internships on a phone");

  await summary.click();
  await page.getByLabel("Hybrid").check();
  await page.waitForURL(/\/internships\?types=remote%2Chybrid$/);
  await page.getByText("Showing 1–10 of 21 internships").waitFor();
  assertEquals((await summary.innerText()).replace(/\s+/g, " ").trim(), "Filters 2 active");
  await assertAccessible(page, "/internships on a phone, filters open");

  const noScript = await phoneContext(browser, { javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`${t.origin}/internships`);
  await plain.locator("summary", { hasText: "Filters" }).click();
  await plain.getByLabel("On-site").check();
  await plain.getByRole("button", { name: "Apply filters" }).click();
  await plain.waitForURL(/\/internships\?types=onsite&/);
  await plain.getByText("Showing 1–9 of 9 internships").waitFor();
  await noScript.close();
});

Deno.test("the home page shows the latest internships and leads to the full list", async () => {
  await using t = await createTestApp({ listen: true });
  await seed(t, await createTestUser(t, "member"));
  await using browser = await openBrowser();
  for (const options of [{ viewport: { width: 1280, height: 800 } }, PHONE_CONTEXT]) {
    const page = await browser.newPage(options);
    await page.goto(`${t.origin}/`);
    const latest = page.getByRole("region", { name: "Latest internships" });
    assertEquals(await latest.getByRole("article").count(), 6);
    await assertAccessible(page, `home at ${options.viewport!.width}px`);
    await latest.getByRole("link", { name: "See all internships" }).click();
    await page.waitForURL(`${t.origin}/internships`);
    await page.getByText("Showing 1–10 of 30 internships").waitFor();
    await page.close();
  }
});

Deno.test("a member posts an internship, edits it and deletes it", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/internships/new`);
  await assertAccessible(page, "/internships/new");
  await page.getByLabel("Application link", { exact: true }).fill("not a link");
  await page.getByLabel("Monthly stipend (₹)").fill("15k");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.getByText("Please correct the highlighted fields").waitFor();
  for (const field of ["Title", "Hiring organization", "Application link", "Monthly stipend (₹)"]) {
    assertEquals(await page.getByLabel(field, { exact: true }).getAttribute("aria-invalid"), "true", field);
  }
  assertEquals(await page.evaluate(() => document.activeElement?.id), "internship-title", "the first field in error");
  assertEquals(
    await page.locator("#internship-title-error").innerText(),
    "Enter a title, at most 200 characters.",
    "an empty title is asked for, not told its length",
  );
  assertEquals(
    await page.locator("#internship-link-error").innerText(),
    "Enter the application link as a full web address starting with https:// or http://.",
  );
  await assertAccessible(page, "/internships/new with errors");

  await page.getByLabel("Title", { exact: true }).fill("Backend Engineering Intern");
  await page.getByLabel("Hiring organization").fill("Chai Systems");
  await page.getByLabel("Application link", { exact: true }).fill("https://chai.example.com/jobs/backend");
  await page.getByLabel("Work type").selectOption("remote");
  await page.getByLabel("Timing").selectOption("part_time");
  await page.getByLabel("Monthly stipend (₹)").fill("18000");
  await page.getByLabel("Location").fill("Chennai");
  await page.getByLabel("Application deadline").fill("2020-06-30");
  await page.getByLabel("Tags").fill("go, postgres");
  await page.getByLabel("Description").fill("Write APIs in Go.");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.locator("#internship-deadline-error").waitFor();
  assertEquals(
    await page.locator("#internship-deadline-error").innerText(),
    "This day has passed, so students could no longer apply. Choose today or a later day.",
    "a deadline already past is refused, not posted closed",
  );
  await page.getByLabel("Application deadline").fill("2099-06-30");
  await page.getByRole("button", { name: "Post internship" }).click();
  await page.waitForURL(/\/internships\/[0-9a-f-]{36}\?posted=1$/);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  await page.getByText("Your internship is posted").waitFor();
  await page.getByRole("heading", { level: 1, name: "Backend Engineering Intern" }).waitFor();
  assert(await page.getByText("₹18,000 a month").isVisible());
  assert(await page.getByRole("definition").filter({ hasText: "Part-time" }).isVisible());
  await assertAccessible(page, "posted internship");

  // Its owner has Edit in the apply box, in place of Apply, and under Manage.
  assert(!await page.getByRole("link", { name: /^Apply/ }).count(), "no Apply for the owner");
  await page.getByRole("region", { name: "Manage" }).getByRole("link", { name: "Edit Backend Engineering Intern" })
    .click();
  await page.waitForURL(`${t.origin}/internships/${id}/edit`);
  await hydrated(page);
  await assertAccessible(page, "edit page");
  await page.getByLabel("Title", { exact: true }).fill("Backend Engineering Intern (Go)");
  await page.getByLabel("Monthly stipend (₹)").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(`${t.origin}/internships/${id}?saved=1`);
  await page.getByText("Your changes are saved").waitFor();
  await page.getByRole("heading", { level: 1, name: "Backend Engineering Intern (Go)" }).waitFor();
  const edited = await getInternship(t.kv, { id, viewer: null, audience: "api" });
  assertEquals([edited.title, edited.stipend, edited.location, edited.tags], [
    "Backend Engineering Intern (Go)",
    null,
    "Chennai",
    ["go", "postgres"],
  ]);

  await openHydrated(page, `${t.origin}/internships/mine`);
  await page.getByRole("heading", { level: 2, name: "Backend Engineering Intern (Go)" }).waitFor();
  await assertAccessible(page, "/internships/mine");
  await page.getByRole("button", { name: "Delete Backend Engineering Intern (Go)" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this internship?" });
  await dialog.waitFor();
  await assertAccessible(page, "delete confirmation");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Delete Backend Engineering Intern (Go)" }).click();
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await page.getByText("You have not posted any internships yet.").waitFor();
  const res = await t.fetch(`/api/internships/${id}`);
  assertEquals(res.status, 404);
  await res.body?.cancel();
});

Deno.test("an admin verifies and deactivates an internship from its page and reactivates it from the admin list", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const internship = (await seed(t, await createTestUser(t, "member"))).at(-1)!;
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/internships/${internship.id}`);
  await page.getByLabel("Verified", { exact: true }).check();
  await page.getByText("Marked as verified.").waitFor();
  await page.getByLabel("Active (listed publicly)").uncheck();
  await page.getByText("Listing deactivated.").waitFor();
  await assertAccessible(page, "admin controls");
  const saved = await getInternship(t.kv, { id: internship.id, viewer: admin.user, audience: "api" });
  assertEquals([saved.isVerified, saved.isActive], [true, false]);

  await openHydrated(page, `${t.origin}/admin/internships?search=${encodeURIComponent(internship.title)}`);
  await page.getByText("Showing 1–1 of 1 internship").waitFor();
  await assertAccessible(page, "/admin/internships");
  await page.getByLabel("Active (listed publicly)").check();
  await page.getByText("Listing is active again.").waitFor();
  assertEquals((await getInternship(t.kv, { id: internship.id, viewer: null, audience: "api" })).isActive, true);
});
