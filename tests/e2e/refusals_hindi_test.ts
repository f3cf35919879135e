/**
 * A domain's refusal in an island, read in Hindi (docs/decisions.md, Languages, "Refusals on pages"): the API answers
 * the refusal's English sentence, and the island that called it shows the sentence in the page's language from its
 * `text`, as a page would. The last admin deleting their account, and a member deleting an internship that was deleted
 * meanwhile in another tab; axe clean with the refusal shown. The platform's own refusals, a write that kept losing
 * races (503) and a path that is gone (404), in the settings island in both languages.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { getSettings } from "@/lib/settings/settings.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";

const hi = translatorFor("hi");

Deno.test("the last admin deleting their account reads why not in Hindi, in the account island", async () => {
  await using t = await createTestApp({ listen: true });
  const admin = await createTestUser(t, "admin");
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, admin);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/profile?lang=hi`);
  await page.getByRole("button", { name: hi("profile.delete.button") }).click();
  const dialog = page.getByRole("dialog", { name: hi("profile.delete.title") });
  await dialog.getByLabel(hi("profile.delete.email")).fill(admin.user.email);
  await dialog.getByRole("button", { name: hi("profile.delete.button") }).click();
  await dialog.getByText(hi("common.refusal.lastAdmin"), { exact: true }).waitFor();
  await assertAccessible(page, "/profile in Hindi with the last admin's refusal");
  assertEquals((await getUserByEmail(t.kv, admin.user.email))?.id, admin.user.id, "the account is still there");
});

Deno.test("a member deleting an internship deleted meanwhile reads that it was not found in Hindi", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const internship = await postInternship(t, member, { title: "Data Analyst Intern" });
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, member);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/internships/mine?lang=hi`);
  const gone = await t.fetch(`/api/internships/${internship.id}`, { method: "DELETE", headers: member.headers });
  assert(gone.ok, `deleted in another tab: ${gone.status}`);
  await gone.body?.cancel();

  await page.getByRole("button", { name: "Data Analyst Intern डिलीट करें" }).click();
  const dialog = page.getByRole("dialog", { name: hi("internships.delete.title") });
  await dialog.getByRole("button", { name: hi("common.yesDelete") }).click();
  await dialog.getByText(hi("common.refusal.internshipNotFound"), { exact: true }).waitFor();
  await assertAccessible(page, "/internships/mine in Hindi with the refusal");
});

Deno.test("a save lost to busy writers, or sent to a path that is gone, says so in the page's language", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  const before = await getSettings(t.kv, student.user.id);
  await using browser = await openBrowser();
  const context = await phoneContext(browser);
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const api = `${t.origin}/api/me/settings`;
  for (const lang of ["hi", "en"] as const) {
    const tr = translatorFor(lang);
    await openHydrated(page, `${t.origin}/me/settings?lang=${lang}`);
    const name = new RegExp(`^${tr("me.channels.email")}\\s*: ${tr("notifications.type.deadline_reminder")}$`);
    const reminders = page.getByRole("checkbox", { name });
    const status = page.getByRole("status");

    // What the server answers after 30 s of races lost to other writers (`retrying`), too long to wait for here.
    await page.route(
      api,
      (route) =>
        route.fulfill({ status: 503, headers: { "retry-after": "1" }, json: { error: PLATFORM_REFUSALS.busy } }),
    );
    await reminders.click(); // not `uncheck`: the refused switch may turn back before a check of its state
    await status.getByText(tr("me.channels.notSaved", { error: tr("common.errors.busy") }), { exact: true }).waitFor();
    assert(await reminders.isChecked(), "the switch turned back");
    await page.unroute(api);

    // A path the server no longer has (a page older than a deploy), answered by the server itself.
    await page.route(api, (route) => route.continue({ url: `${api}-gone` }));
    await reminders.click();
    await status.getByText(tr("me.channels.notSaved", { error: tr("common.errors.notFound") }), { exact: true })
      .waitFor();
    await page.unroute(api);
  }
  assertEquals(await getSettings(t.kv, student.user.id), before, "nothing was saved");
});
