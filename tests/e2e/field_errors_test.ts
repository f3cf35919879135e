/**
 * Forms say what is wrong in words a person can act on, beside the field it concerns, all the
 * problems of a submit at once: never a field path ("maxStipend: …") or zod's wording ("Too
 * small: expected string…"). Each form here gets input that passes its browser checks and is
 * refused by the server, so the sentence shown is the one the server's answer carries.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

/** Developer wording: a camelCase name before a colon, or zod's default messages. */
const DEVELOPER_WORDING = /\b[a-z]+[A-Z]\w*:|Too (small|big)|[Ee]xpected (string|number|a date)|Invalid input/;

/** Fails when the page shows developer wording anywhere. */
async function assertPlainWords(page: Page, label: string): Promise<void> {
  const text = await page.locator("main").innerText();
  assert(!DEVELOPER_WORDING.test(text), `${label} shows developer wording: ${text.match(DEVELOPER_WORDING)?.[0]}`);
}

/** The error sentence shown under the field labelled `label`. */
async function fieldError(page: Page, label: string): Promise<string> {
  const id = await page.getByLabel(label, { exact: true }).getAttribute("id");
  const error = page.locator(`#${id}-error`);
  await error.waitFor();
  return (await error.textContent()) ?? "";
}

Deno.test("forms show the server's refusals as plain sentences at their fields", async (t) => {
  await using app = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const student = await createTestUser(app, "user");
  const admin = await createTestUser(app, "admin");
  await using browser = await openBrowser();

  const studentContext = await browser.newContext();
  await signInBrowser(studentContext, app.origin, student);
  const page = await studentContext.newPage();
  page.setDefaultTimeout(30_000);

  await t.step("profile: every invalid field at once", async () => {
    await openHydrated(page, `${app.origin}/profile`);
    await page.getByLabel("Date of birth").fill("2999-01-01");
    await page.getByLabel("Contact number").fill("12345");
    await page.getByRole("button", { name: "Save profile" }).click();
    assertEquals(await fieldError(page, "Date of birth"), "Enter a real date from 1900 up to today.");
    assertEquals(
      await fieldError(page, "Contact number"),
      "Enter a 10-digit mobile number, like 98765 43210.",
    );
    await assertPlainWords(page, "profile");
    await assertAccessible(page, "profile with errors");
  });

  await t.step("opportunity: a link the server refuses", async () => {
    await openHydrated(page, `${app.origin}/opportunities/new`);
    await page.getByLabel("Title").fill("Campus Hack");
    await page.getByLabel("Type").selectOption("hackathon");
    await page.getByLabel("Starts").fill(`${NEXT_YEAR}-05-10`);
    await page.getByLabel("Ends").fill(`${NEXT_YEAR}-05-11`);
    await page.getByLabel("Link to apply or learn more").fill("http://localhost");
    await page.getByRole("button", { name: "Submit opportunity" }).click();
    assertEquals(
      await fieldError(page, "Link to apply or learn more (optional)"),
      "Enter a full web address starting with https://.",
    );
    await assertPlainWords(page, "opportunity form");
  });

  await t.step("internship filters: a maximum below the minimum", async () => {
    await openHydrated(page, `${app.origin}/internships`);
    await page.getByLabel("Minimum", { exact: true }).fill("5000");
    await page.getByLabel("Maximum", { exact: true }).fill("1000");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("The maximum stipend must not be below the minimum.").waitFor();
    await assertPlainWords(page, "internship filters");
  });

  const adminContext = await browser.newContext();
  await signInBrowser(adminContext, app.origin, admin);
  const adminPage = await adminContext.newPage();
  adminPage.setDefaultTimeout(30_000);

  await t.step("toolkit: a cover image the server refuses", async () => {
    await openHydrated(adminPage, `${app.origin}/admin/toolkits/new`);
    await adminPage.getByLabel("Title").fill("Interview Playbook");
    await adminPage.getByLabel("Description").fill("Everything for a first interview.");
    await adminPage.getByLabel("Price (₹)").fill("499");
    await adminPage.getByLabel("Cover image URL (optional)").fill("cover.png");
    await adminPage.getByRole("button", { name: "Create toolkit" }).click();
    assertEquals(
      await fieldError(adminPage, "Cover image URL (optional)"),
      "Enter a web address starting with https://, or a path on this site.",
    );
    await assertPlainWords(adminPage, "toolkit form");
  });

  await t.step("coupon: a value the server refuses", async () => {
    await openHydrated(adminPage, `${app.origin}/admin/coupons`);
    await adminPage.getByLabel("Code", { exact: true }).fill("HALF");
    await adminPage.getByLabel("Percent off").fill("0");
    await adminPage.getByRole("button", { name: "Create coupon" }).click();
    await adminPage.getByText("Enter more than 0.").waitFor();
    await assertPlainWords(adminPage, "coupon form");
  });
});
