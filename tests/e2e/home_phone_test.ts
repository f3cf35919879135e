/**
 * The signed-in home page on a 360 px phone (docs/decisions.md, Student space, "The home page"): the first screen
 * shows what is new for the student, their saved listing closing tomorrow, then the new match of their alert, then
 * "For you", in that order, instead of a greeting and two buttons. A guest's "How it works" says both ways to apply
 * (here with a résumé, or on the organization's own page), in English and Hindi, and the footer's links are at least
 * 44 px tall.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { createAlert } from "@/lib/alerts/alerts.ts";
import { istToday } from "@/lib/dates.ts";
import { layoutDefects, PHONE, phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("on a phone the signed-in home shows closing saved items, alert matches, then For you", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Priya Sharma" });
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
  const day = (n: number) => istToday(new Date(Date.now() + n * 86_400_000));
  const [soon, later] = await postInternships(t, member, [
    { title: "Closes Tomorrow Intern", hiringOrganization: "Tata Trusts", deadline: day(1) },
    { title: "Closes Next Month Intern", deadline: day(30) },
  ]);
  for (const listing of [soon, later]) {
    const saved = await t.json("PUT", `/api/me/saved/internships/${listing.id}`, {
      body: {},
      headers: student.headers,
    });
    assertEquals(saved.status, 200);
    await saved.body?.cancel();
  }
  // Made a minute before the listings: news counts the listings made at or after the alert.
  await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "robotics" }, frequency: "daily" },
    now: new Date(Date.now() - 60_000),
  });
  await postInternships(t, member, [
    { title: "Robotics Intern", hiringOrganization: "Ather Energy" },
    { title: "Pune Data Analyst Intern", tags: ["data"], location: "Pune" },
  ]);

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/`);

  const closing = page.getByRole("region", { name: "Closing soon" });
  const alerts = page.getByRole("region", { name: "New for your alerts" });
  const forYou = page.getByRole("region", { name: "For you", exact: true });
  assertEquals(await closing.getByRole("listitem").count(), 1, "only the item closing within a week");
  await closing.getByText("Closes Tomorrow Intern").waitFor();
  await closing.getByText("Closes tomorrow · Tata Trusts").waitFor();
  await alerts.getByRole("link", { name: "1 new: Internships: search robotics" }).waitFor();
  await alerts.getByRole("link", { name: "Robotics Intern" }).waitFor();
  await forYou.getByRole("link", { name: "Pune Data Analyst Intern" }).waitFor();

  const top = async (region: typeof closing) => (await region.boundingBox())!.y;
  const [closingTop, alertsTop, forYouTop] = [await top(closing), await top(alerts), await top(forYou)];
  assert(closingTop < alertsTop && alertsTop < forYouTop, `order: ${closingTop}, ${alertsTop}, ${forYouTop}`);
  const heading = await closing.getByRole("heading").boundingBox();
  assert(heading && heading.y + heading.height <= PHONE.height, `"Closing soon" is on the first screen: ${heading?.y}`);
  const item = await closing.getByRole("listitem").boundingBox();
  assert(item && item.y + item.height <= PHONE.height, "the closing item is on the first screen");
  await assertAccessible(page, "signed-in home at 360 px");
});

Deno.test("on a phone a guest's 'How it works' says both ways to apply and the footer's links take a thumb", async () => {
  await using t = await createTestApp({ listen: true });
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const steps = [
    ["/", "How it works", "apply as it says: here with your résumé, or on the organization’s own page."],
    ["/?lang=hi", "यह कैसे काम करता है", "जैसा उसमें लिखा है वैसे आवेदन करें: यहीं अपने रिज़्यूमे के साथ, या संस्था के अपने पेज पर।"],
  ];
  for (const [path, heading, words] of steps) {
    await page.goto(`${t.origin}${path}`);
    const how = page.getByRole("region", { name: heading });
    await how.getByText(words, { exact: false }).waitFor();
    assertEquals(await layoutDefects(page), [], path);
    const footerLinks = page.getByRole("navigation", { name: path === "/" ? "Footer" : "फ़ुटर" }).getByRole("link");
    for (const link of await footerLinks.all()) {
      const box = await link.boundingBox();
      assert(box && box.height >= 44, `${path}: footer link "${await link.textContent()}" is ${box?.height} px tall`);
    }
    await assertAccessible(page, `guest home ${path} at 360 px`);
  }
});
