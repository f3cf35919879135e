/**
 * Onboarding answers show on the profile right away: a student who picks opportunities and
 * domains in the wizard finds them ticked among the profile's interests.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";

Deno.test("a student's onboarding interests are ticked on the profile after onboarding", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/onboarding`);
  const next = () => page.getByRole("button", { name: "Next" }).click();
  assertEquals(await page.getByText(/^Step \d/).count(), 0, "no step count before the path is known");
  await page.getByLabel("I am a student looking for internships and opportunities").check();
  await page.getByText("Step 1 of 7").waitFor();
  await next();
  await page.getByLabel("Your city").fill("Bengaluru");
  await next();
  await page.getByLabel("Undergraduate").check();
  await next();
  await page.getByLabel("What do you study?").selectOption("Design");
  await next();
  await page.getByLabel("Hackathons", { exact: true }).check();
  await next();
  await page.getByLabel("Data & AI").check();
  await next();
  await page.getByRole("button", { name: "Finish" }).click();
  // With no page to return to, onboarding ends on the home page's "For you".
  await page.waitForURL(/\/\?onboarded=1#for-you$/);
  await openHydrated(page, `${t.origin}/profile`);

  const fields = page.getByRole("group", { name: "Fields you are interested in" });
  const opportunities = page.getByRole("group", { name: "Opportunities you are interested in" });
  assert(await fields.getByLabel("Data & AI").isChecked());
  assert(await opportunities.getByLabel("Hackathons").isChecked());
  assert(!(await opportunities.getByLabel("Grants").isChecked()));
});
