/**
 * Recommendations and notifications in Chromium (docs/decisions.md, Recommendations; docs/decisions.md,
 * Notifications): a student whose onboarding says "Data & AI" in Pune sees a Pune data internship first under "For
 * you", with its reason, on the home page and on `/internships` (not while a search is on); the header bell shows 1
 * after an admin approves the student's opportunity, and the panel and `/me/notifications` list it. Every page passes
 * the axe-core check, on a phone too.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";
import { addInternships, type Listing } from "@/tests/fixtures/internships.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

const listing = (fields: Partial<Listing>) => ({
  hiringOrganization: "Acme",
  link: "https://jobs.example.com/apply",
  ...fields,
});

Deno.test("a Data & AI student in Pune sees a Pune data internship first under For you, with its reason", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Priya" });
  await saveOnboardingProfile(t.kv, student.user.id, {
    persona: "student",
    locationType: "city",
    locationValue: "Pune",
    educationLevel: "Undergraduate",
    fieldOfStudy: "Science",
    fieldOther: null,
    opportunityInterests: ["internships"],
    domainPreferences: ["Data & AI"],
    struggles: [],
  });
  await addInternships(t, member, [
    listing({ title: "Pune Data Analyst Intern", tags: ["data"], location: "Pune" }),
  ]);
  await addInternships(t, member, [
    listing({ title: "Delhi Sales Intern", tags: ["sales"], location: "Delhi" }),
  ]);
  await addInternships(t, member, [
    listing({ title: "Mumbai Design Intern", tags: ["design"], location: "Mumbai" }),
  ]);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  for (const path of ["/", "/internships"]) {
    await openHydrated(page, `${t.origin}${path}`);
    const forYou = page.getByRole("region", { name: "For you" });
    const first = forYou.getByRole("article").first();
    assertEquals(await first.getByRole("heading").innerText(), "Pune Data Analyst Intern");
    const why = await first.locator("p", { hasText: "Why:" }).innerText();
    assert(why.includes("Matches your interest in Data & AI") && why.includes("In Pune"), why);
    assertEquals(await forYou.getByRole("article").count(), 1, "only matches are shown");
    await assertAccessible(page, `${path} with For you`);
  }
  // A search loaded in place shows its results first: For you goes while it is on, and comes back with the plain list.
  const forYou = page.getByRole("region", { name: "For you" });
  await page.getByRole("searchbox", { name: "Search" }).fill("sales");
  await page.waitForURL(/search=sales/);
  await forYou.waitFor({ state: "hidden" });
  await page.getByRole("searchbox", { name: "Search" }).fill("");
  await page.waitForURL(/\/internships$/);
  await forYou.waitFor({ state: "visible" });
});

Deno.test("the bell shows 1 after an admin approves the student's opportunity, and lists it", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Rahul" });
  const res = await t.json("POST", "/api/opportunities", {
    body: {
      title: "Campus Ideathon",
      type: "ideathon",
      startDate: `${NEXT_YEAR}-03-01`,
      endDate: `${NEXT_YEAR}-03-02`,
    },
    headers: student.headers,
  });
  const { opportunity } = await res.json();
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/`);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await bell.waitFor();
  assertEquals(await page.getByTestId("unread-count").count(), 0);

  const review = await t.json(
    "PATCH",
    `/api/admin/opportunities/${opportunity.id}`,
    { body: { action: "approve" }, headers: admin.headers },
  );
  assertEquals(review.status, 200);
  await openHydrated(page, `${t.origin}/`);
  await page.getByTestId("unread-count").waitFor();
  assertEquals(await page.getByTestId("unread-count").innerText(), "1");
  await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
  const panel = page.locator("#notification-panel");
  await panel.getByText("Your opportunity was approved").waitFor();
  await assertAccessible(page, "home with the bell open, 360 px");
  const box = await panel.boundingBox();
  assert(box !== null && box.x >= 0 && box.x + box.width <= 360, `the panel fits the phone: ${JSON.stringify(box)}`);

  await panel.getByRole("link", { name: "See all notifications" }).click();
  await page.waitForURL(/\/me\/notifications$/);
  await openHydrated(page, page.url());
  const title = page.getByRole("link", { name: "Your opportunity was approved" });
  await title.waitFor();
  // A notification's title is its link: drawn as one (underlined), not as plain bold text.
  assertEquals(await title.evaluate((link) => getComputedStyle(link).textDecorationLine), "underline");
  await assertAccessible(page, "/me/notifications");
  await page.getByRole("button", { name: "Mark all read" }).first().click();
  await page.getByText("No unread notifications.").waitFor();
  await openHydrated(page, `${t.origin}/me/settings`);
  await assertAccessible(page, "/me/settings");
  assertEquals(await page.getByTestId("unread-count").count(), 0);
});
