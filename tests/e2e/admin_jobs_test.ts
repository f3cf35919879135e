/**
 * `/admin/jobs` on a 360 px phone (docs/decisions.md, Background work, "Last runs"): without JavaScript an admin runs
 * a job with its "Run now" form and reads what the run did on the page it comes back to, or its error; that page, and
 * the list with a failure and the `JOBS=off` note on it, fit the phone and pass axe, with JavaScript and without.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { assertFitsPhone, phoneContext } from "@/tests/helpers/phone.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";

Deno.test("an admin on a phone runs a job without JavaScript and reads what it did, or its error", async () => {
  await using t = await createTestApp({ listen: true, env: { JOBS: "off" } });
  const admin = await createTestUser(t, "admin");
  const deletions = findJob("account-deletions")!;
  const run = deletions.run;
  await runJob(deletions, t.services);
  await using browser = await openBrowser();
  const plain = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(plain, t.origin, admin);
  const page = await plain.newPage();
  await page.goto(`${t.origin}/admin/jobs`);
  await page.getByText("Scheduled runs are off here").waitFor();
  await assertAccessibleWithoutScript(page, "/admin/jobs without JavaScript");

  await page.getByRole("button", { name: "Run now: close-listings" }).click();
  await page.waitForURL(/\/admin\/jobs\?ran=close-listings&at=/);
  const ran = page.url();
  const told = page.getByRole("status").filter({ hasText: "close-listings ran" });
  await told.getByText("Internships: 0").waitFor();
  assert((await told.textContent())?.includes("by hand"), "a run by hand");
  await assertAccessibleWithoutScript(page, "/admin/jobs after a run, without JavaScript");

  deletions.run = () => Promise.reject(new Error(`The store did not answer: ${"a long detail ".repeat(30)}`));
  try {
    await page.getByRole("button", { name: "Run now: account-deletions" }).click();
    await page.waitForURL(/\/admin\/jobs\?ran=account-deletions&at=/);
  } finally {
    deletions.run = run;
  }
  const failed = page.url();
  const alert = page.getByRole("alert").filter({ hasText: "account-deletions failed" });
  await alert.getByText(/^Error: The store did not answer/).waitFor();
  const card = page.locator("#job-account-deletions");
  assertEquals(await card.getByText("Last failure").count(), 1, "newer than its last success: on its card");
  await assertAccessibleWithoutScript(page, "/admin/jobs after a failed run, without JavaScript");
  await plain.close();

  const scripted = await phoneContext(browser);
  await signInBrowser(scripted, t.origin, admin);
  const tab = await scripted.newPage();
  for (const url of [`${t.origin}/admin/jobs`, ran, failed]) {
    await tab.goto(url);
    await tab.locator("#job-account-deletions").getByText("Last failure").waitFor();
    const label = new URL(url).search || "/admin/jobs";
    await assertFitsPhone(tab, label);
    await assertAccessible(tab, label);
  }
  await scripted.close();
});
