/**
 * A student on a 360 px phone with JavaScript off finishes onboarding (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): the wizard is one plain form with every step; a wrong answer comes back beside its field with the other
 * answers kept; once fixed, the answers are saved and the page named by `callbackURL` opens. On a slow phone whose
 * script arrives late, what was chosen in the plain form carries over into the wizard.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessibleWithoutScript, hydrated, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

Deno.test("without JavaScript (or before it) a student finishes onboarding on a phone", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const student = await createTestUser(t, "user", { name: "Kavya Iyer" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await page.goto(`${t.origin}/onboarding?callbackURL=${encodeURIComponent("/internships?types=remote")}`);
  await assertAccessibleWithoutScript(page, "onboarding without JavaScript at 360 px");

  await page.getByLabel("I am a student").check();
  await page.getByLabel("State", { exact: true }).check();
  await page.getByLabel("Your city").fill("Maharashtra");
  await page.getByLabel("Undergraduate").check();
  await page.getByLabel("What do you study?").selectOption("Other");
  await page.getByRole("checkbox", { name: "Internships" }).check();
  await page.getByLabel("Data & AI").check();
  await page.getByRole("button", { name: "Finish" }).click();

  await page.getByText("Name your field of study, at most 100 characters.").waitFor();
  assertEquals(await page.getByLabel("Your field of study").getAttribute("aria-invalid"), "true");
  assertEquals(await page.getByLabel("Data & AI").isChecked(), true, "the answers are kept");
  assertEquals(await page.getByLabel("State", { exact: true }).isChecked(), true);
  assertEquals(await getOnboardingProfile(t.kv, student.user.id), null);
  await assertAccessibleWithoutScript(page, "onboarding with a problem without JavaScript at 360 px");

  await page.getByLabel("Your field of study").fill("Agriculture");
  await page.getByRole("button", { name: "Finish" }).click();
  await page.waitForURL((u) => u.pathname === "/internships" && u.searchParams.get("types") === "remote");
  const profile = await getOnboardingProfile(t.kv, student.user.id);
  assertEquals(
    profile && [
      profile.persona,
      profile.locationType,
      profile.locationValue,
      profile.educationLevel,
      profile.fieldOfStudy,
      profile.fieldOther,
      profile.opportunityInterests,
      profile.domainPreferences,
    ],
    ["student", "state", "Maharashtra", "Undergraduate", "Other", "Agriculture", ["internships"], ["Data & AI"]],
  );

  // JavaScript on, arriving late: the answers given in the plain form are the wizard's.
  const late = await createTestUser(t, "user", { name: "Rohan Das" });
  const slow = await phoneContext(browser);
  await signInBrowser(slow, t.origin, late);
  const early = await slow.newPage();
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await early.route(/\.js(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await early.goto(`${t.origin}/onboarding`, { waitUntil: "commit" });
  await early.getByLabel("I am a student").check();
  await early.getByLabel("Your city").fill("Kochi");
  release();
  await hydrated(early);
  await early.getByRole("button", { name: "Next" }).click();
  await early.getByRole("heading", { name: "Location" }).waitFor();
  assertEquals(await early.getByLabel("Your city").inputValue(), "Kochi");
});
