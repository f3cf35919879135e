/**
 * Reject with a reason, resubmit (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"), at 360 px: an
 * admin rejects a student's opportunity with a reason in the queue; the student reads the reason on the
 * opportunity's page (which, like the admin's, offers neither "Apply or learn more" nor "Add to calendar" until it is
 * published), edits it without JavaScript and submits it again; it is back in the admin's queue, marked as a
 * resubmission. The form marks its optional fields, with and without JavaScript. With JavaScript, an edit sent after an admin approved it meanwhile says so in words.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  assertAccessibleWithoutScript,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import type { Page } from "playwright-core";
import { getOpportunity } from "@/lib/opportunities/opportunities.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

const REASON = "Add the organizer and a link to the official page.";

/** How many of "Apply or learn more" and "Add to calendar" the page offers. */
function applyLinks(page: Page): Promise<number> {
  return page.getByRole("link", { name: /^(Apply or learn more|Add to calendar)/ }).count();
}

/** The form's optional fields, each labelled so (the service's schema leaves them out); the rest are not. */
async function assertOptionalMarked(page: Page): Promise<void> {
  for (const label of ["Location", "Organizer", "Link to apply or learn more", "Description"]) {
    await page.getByLabel(`${label} (optional)`, { exact: true }).waitFor();
  }
  for (const label of ["Title", "Type", "Starts", "Ends"]) await page.getByLabel(label, { exact: true }).waitFor();
}

Deno.test("an admin rejects with a reason; the student reads it, edits and submits again", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const res = await t.json("POST", "/api/opportunities", {
    body: {
      title: "Campus Hack",
      type: "hackathon",
      startDate: `${NEXT_YEAR}-03-01`,
      endDate: `${NEXT_YEAR}-03-02`,
      link: "https://hack.example.org",
    },
    headers: student.headers,
  });
  const { id } = (await res.json()).opportunity;
  await using browser = await openBrowser();

  const adminContext = await phoneContext(browser);
  await signInBrowser(adminContext, t.origin, admin);
  const queue = await adminContext.newPage();
  await openHydrated(queue, `${t.origin}/admin/opportunities`);
  await queue.getByRole("button", { name: "Reject Campus Hack" }).click();
  await queue.getByLabel("Reason for the submitter of Campus Hack").fill(REASON);
  await assertAccessible(queue, "the reject reason at 360 px");
  await queue.getByRole("button", { name: /^Reject with this reason\W+Campus Hack$/ }).click();
  await queue.getByText("Campus Hack rejected.").waitFor({ state: "attached" });

  const studentContext = await phoneContext(browser, { javaScriptEnabled: false });
  await signInBrowser(studentContext, t.origin, student);
  const page = await studentContext.newPage();
  await page.goto(`${t.origin}/opportunities/${id}`);
  await page.getByText("This opportunity was not approved").waitFor();
  await page.getByText(`The reviewer's reason: ${REASON}`).waitFor();
  assertEquals(await applyLinks(page), 0, "a rejected opportunity is not offered to apply");
  await assertAccessibleWithoutScript(page, "a rejected opportunity at 360 px");
  const adminView = await adminContext.newPage();
  await adminView.goto(`${t.origin}/opportunities/${id}`);
  await adminView.getByText("Rejected", { exact: true }).waitFor();
  assertEquals(await applyLinks(adminView), 0, "nor to an admin");
  await assertAccessible(adminView, "a rejected opportunity, as an admin reads it at 360 px");
  await page.getByRole("link", { name: "Edit it and submit it again" }).click();
  await page.waitForURL((u) => u.pathname === `/opportunities/${id}/edit`);
  await page.getByText(REASON).waitFor();
  await assertOptionalMarked(page);
  await page.getByLabel("Ends").fill(`${NEXT_YEAR}-02-01`);
  await page.getByRole("button", { name: "Submit for review again" }).click();
  await page.locator("#endDate-error").waitFor();
  await assertAccessibleWithoutScript(page, "the edit form with an error at 360 px");
  await page.getByLabel("Ends").fill(`${NEXT_YEAR}-03-02`);
  await page.getByLabel("Organizer").fill("COEP Tech");
  await page.getByLabel("Link to apply or learn more").fill("https://coep.example.org/hack");
  await page.getByRole("button", { name: "Submit for review again" }).click();
  await page.waitForURL((u) => u.pathname === `/opportunities/${id}` && u.searchParams.has("resubmitted"));
  await page.getByText("Submitted again").waitFor();
  assertEquals(await applyLinks(page), 0, "one awaiting review is not offered to apply either");
  const stored = await getOpportunity(t.kv, id, admin.user);
  assertEquals([stored.isActive, stored.isVerified, stored.organizer], [true, false, "COEP Tech"]);

  await queue.reload();
  await queue.getByText(`Resubmitted after rejection: ${REASON}`).waitFor();

  // With JavaScript, an edit sent after an admin approved it meanwhile is refused in words, what was typed kept.
  const scripted = await phoneContext(browser);
  await signInBrowser(scripted, t.origin, student);
  const editing = await scripted.newPage();
  await openHydrated(editing, `${t.origin}/opportunities/${id}/edit`);
  await assertOptionalMarked(editing);
  await assertAccessible(editing, "the edit form with JavaScript at 360 px");
  const approved = await t.json("PATCH", `/api/admin/opportunities/${id}`, {
    body: { action: "approve" },
    headers: admin.headers,
  });
  assertEquals(approved.status, 200);
  await editing.getByLabel("Organizer").fill("COEP Technological University");
  await editing.getByRole("button", { name: "Submit for review again" }).click();
  await editing.getByText("An admin reviewed this opportunity while you were editing it").waitFor();
  assertEquals(await editing.getByLabel("Organizer").inputValue(), "COEP Technological University");
  assertEquals((await getOpportunity(t.kv, id, admin.user)).organizer, "COEP Tech", "nothing saved");
  await editing.goto(`${t.origin}/opportunities/${id}`);
  assertEquals(await applyLinks(editing), 2, "published: apply and add to calendar");
});
