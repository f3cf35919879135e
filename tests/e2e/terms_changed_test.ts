/**
 * Terms changed after applying in Chromium (docs/decisions.md, Applications, "Terms changed after applying"): on a
 * 360 px phone, a listing posted and not edited says no update date; its edit form tells the poster that applicants
 * are told of such changes; once its poster lowers the stipend and brings the deadline forward, the listing page says
 * "Updated on …" beside "Posted by", in English and in Hindi, and after the `listing-changes` job the applicant's
 * notifications page names what changed; a listing renamed after applying shows, in the applicant's tracker row, its
 * title and organization as they were → as they are, and the notification names both. axe passes on every page.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { assertFitsPhone, phoneContext } from "@/tests/helpers/phone.ts";
import { people } from "@/tests/fixtures/people.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { formatDate, istToday } from "@/lib/dates.ts";

Deno.test("a listing changed after applying: 'Updated on' beside 'Posted by', and the applicant's notification", async () => {
  await using t = await createTestApp({ listen: true });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, {
    title: "Data Intern",
    hiringOrganization: "Acme Hire",
    stipend: 12000,
    deadline: "2099-01-20",
  });
  const sara = await applicant(t, "Sara Shah");
  await applyTo(t, sara, internship);
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, sara);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);

  await openHydrated(page, `${t.origin}/internships/${internship.id}`);
  const footer = page.locator("main footer");
  await footer.getByText("Posted by").waitFor();
  assertEquals(await footer.getByText("Updated on").count(), 0, "a listing not edited says no update");

  const poster = await phoneContext(browser);
  await signInBrowser(poster, t.origin, member);
  const form = await poster.newPage();
  form.setDefaultTimeout(30_000);
  await openHydrated(form, `${t.origin}/internships/${internship.id}/edit`);
  await form.getByText("Students who applied here are told when you lower the stipend").waitFor();
  await assertFitsPhone(form, "the edit form");
  await assertAccessible(form, "the edit form");

  const res = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: { stipend: 6000, deadline: "2098-12-05" },
    headers: member.headers,
  });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  const today = istToday();
  await openHydrated(page, `${t.origin}/internships/${internship.id}`);
  await footer.getByText(`Updated on ${formatDate(today)}`).waitFor();
  await assertFitsPhone(page, "the updated listing");
  await assertAccessible(page, "the updated listing");
  await openHydrated(page, `${t.origin}/internships/${internship.id}?lang=hi`);
  await footer.getByText(`${formatDate(today, "hi")} को अपडेट किया गया`).waitFor();
  await assertFitsPhone(page, "the updated listing in Hindi");
  await assertAccessible(page, "the updated listing in Hindi");

  assertEquals((await runJob(findJob("listing-changes")!, t.services)).told, 1);
  await openHydrated(page, `${t.origin}/me/notifications?lang=en`);
  const list = page.locator("main");
  await list.getByRole("link", { name: "Acme Hire changed Data Intern after you applied" }).waitFor();
  assert(await list.getByText(/₹12,000 a month is now ₹6,000 a month/).isVisible(), "the stipend's change is named");
  await assertFitsPhone(page, "the notifications");
  await assertAccessible(page, "the notifications");
});

Deno.test("a listing renamed after applying: the tracker row shows old → new, and the notification names it", async () => {
  await using t = await createTestApp({ listen: true });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "SDE Intern", hiringOrganization: "Google" });
  const sara = await applicant(t, "Sara Shah");
  const sent = await applyTo(t, sara, internship);
  const res = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: { title: "Sales Associate", hiringOrganization: "Gooogle Jobs" },
    headers: member.headers,
  });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  assertEquals((await runJob(findJob("listing-changes")!, t.services)).told, 1);

  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, sara);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await openHydrated(page, `${t.origin}/me/tracker?lang=en`);
  const row = page.locator(`#application-${sent.id}`);
  await row.getByRole("link", { name: "Sales Associate" }).waitFor();
  const appliedUnder = row.getByRole("region", { name: "You applied under:" });
  assertEquals(
    await appliedUnder.locator("dl").innerText(),
    "Title: SDE Intern → now Sales Associate\nHiring organization: Google → now Gooogle Jobs",
  );
  await assertFitsPhone(page, "the tracker");
  await assertAccessible(page, "the tracker");
  await openHydrated(page, `${t.origin}/me/tracker?lang=hi`);
  await row.getByText("Google → अब Gooogle Jobs").waitFor();
  await assertFitsPhone(page, "the tracker in Hindi");
  await assertAccessible(page, "the tracker in Hindi");

  await openHydrated(page, `${t.origin}/me/notifications?lang=en`);
  const list = page.locator("main");
  await list.getByRole("link", { name: "Gooogle Jobs changed Sales Associate after you applied" }).waitFor();
  assert(await list.getByText("Organization: Google is now Gooogle Jobs.").isVisible(), "the rename is named");
  await assertFitsPhone(page, "the notifications");
  await assertAccessible(page, "the notifications");
});
