/**
 * The student space in Chromium (docs/decisions.md, Student space): a student saves two internships from the list,
 * moves one to "applied" on the tracker and sees both there (also after a reload); a guest's "Save" leads to sign in
 * and, back on the page signed in, saves the listing; a status of many items shows 20 and a "Show more" link; a save past the limit, of a listing deleted meanwhile, lost to busy
 * writers or past the per-person limit (with when to try again) says why, and only a failed fetch asks to check the
 * connection. Every page passes the axe-core check.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import {
  assertAccessible,
  openAccountMenu,
  openBrowser,
  openHydrated,
  signInBrowser,
} from "@/tests/helpers/browser.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { listSaved, saveItem } from "@/lib/saved/saved.ts";
import { istToday } from "@/lib/dates.ts";
import { MAX_SAVED } from "@/lib/saved/schema.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";

const hi = translatorFor("hi");

const listing = (title: string, deadline: string) => ({
  title,
  hiringOrganization: `${title} Co`,
  link: "https://jobs.example.com/apply",
  deadline,
});

Deno.test("a student saves two internships, moves one to applied, and sees both on the tracker (saving said)", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Sara Student" });
  const soon = istToday(new Date(Date.now() + 3 * 86_400_000));
  await addInternships(t, member, [listing("Data Intern", "2099-12-31")]);
  await addInternships(t, member, [listing("Design Intern", soon)]);
  await addInternships(t, member, [listing("Ops Intern", "2099-12-31")]);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/internships`);
  for (const title of ["Data Intern", "Design Intern"]) {
    const button = page.getByRole("button", { name: `Save ${title}` });
    await button.click();
    await page.getByRole("button", { name: `Saved ${title}` }).waitFor();
    assertEquals(await page.getByRole("button", { name: `Saved ${title}` }).getAttribute("aria-pressed"), "true");
  }
  assertEquals(await page.getByRole("button", { name: "Save Ops Intern" }).getAttribute("aria-pressed"), "false");
  await assertAccessible(page, "/internships with saved cards");

  await openAccountMenu(page);
  await page.getByRole("link", { name: "My applications" }).click();
  await page.waitForURL(/\/me\/tracker$/);
  await openHydrated(page, `${t.origin}/me/tracker`);
  const saved = page.getByRole("region", { name: /^Saved/ });
  await saved.getByRole("link", { name: "Data Intern", exact: true }).waitFor();
  await saved.getByRole("link", { name: "Design Intern", exact: true }).waitFor();
  assert(await saved.getByText(/⚠ Closes in 3 days/).isVisible(), "the warning of the listing closing soon");
  await assertAccessible(page, "/me/tracker");

  await page.getByLabel("Status").first().waitFor();
  const dataRow = page.locator("li", { has: page.getByRole("heading", { name: "Data Intern" }) });
  await dataRow.getByLabel("Status").selectOption("applied");
  await page.getByRole("status").getByText("Moved “Data Intern” to Applied.").waitFor();
  const applied = page.getByRole("region", { name: /^Applied/ });
  await applied.getByRole("link", { name: "Data Intern", exact: true }).waitFor();
  const appliedRow = page.locator("li", { has: page.getByRole("heading", { name: "Data Intern" }) });
  await appliedRow.getByLabel("Note").fill("Sent through the careers page");
  // A slow connection: the answer is held until the page has said the note is being saved.
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route("**/api/me/saved/**", async (route) => {
    await held;
    await route.continue();
  });
  await appliedRow.getByRole("button", { name: "Save note for Data Intern" }).click();
  await page.getByRole("status").getByText("Saving “Data Intern”…").waitFor();
  release();
  await page.getByRole("status").getByText("Saved the note for “Data Intern”.").waitFor();
  await page.unrouteAll();

  await page.reload();
  await openHydrated(page, `${t.origin}/me/tracker`);
  assertEquals(await page.getByRole("region", { name: /^Applied/ }).getByRole("heading").allTextContents(), [
    "Applied (1)",
    "Data Intern",
  ]);
  assertEquals(await page.getByRole("region", { name: /^Saved/ }).getByRole("heading").allTextContents(), [
    "Saved (1)",
    "Design Intern",
  ]);
  const reloadedRow = page.locator("li", { has: page.getByRole("heading", { name: "Data Intern" }) });
  assertEquals(await reloadedRow.getByLabel("Note").inputValue(), "Sent through the careers page");
  const items = (await listSaved(t.kv, student.user.id, {})).items;
  assertEquals(items.map((item) => [item.listing?.title, item.status]).sort(), [
    ["Data Intern", "applied"],
    ["Design Intern", "saved"],
  ]);
});

Deno.test("a tracker of 22 saved items shows 20 and a Show more link; a move changes the counts", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listings = await addInternships(
    t,
    member,
    Array.from({ length: 22 }, (_, i) => listing(`Intern ${String(i).padStart(2, "0")}`, "2099-12-31")),
  );
  for (const { id } of listings) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await saveItem(t.kv, { userId: student.user.id, kind: "internships", id, change: { note: undefined } });
  }
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/me/tracker`);
  const saved = page.getByRole("region", { name: /^Saved/ });
  assertEquals(await saved.getByRole("listitem").count(), 20);
  assertEquals(await saved.getByRole("heading", { level: 2 }).textContent(), "Saved (22)");
  await assertAccessible(page, "/me/tracker with a Show more link");

  const newest = page.locator("li", { has: page.getByRole("heading", { name: "Intern 21" }) });
  await newest.getByLabel("Status").selectOption("applied");
  await page.getByRole("status").getByText("Moved “Intern 21” to Applied.").waitFor();
  assertEquals(await saved.getByRole("heading", { level: 2 }).textContent(), "Saved (21)");
  assertEquals(
    await page.getByRole("region", { name: /^Applied/ }).getByRole("heading", { level: 2 }).textContent(),
    "Applied (1)",
  );

  await saved.getByRole("link", { name: "Show 2 more of Saved" }).click();
  await page.waitForURL(/\/me\/tracker\?show-saved=40#tracker-internships-/);
  assertEquals(await saved.getByRole("listitem").count(), 21);
  assertEquals(await saved.getByRole("link", { name: /^Show/ }).count(), 0);
  await saved.getByRole("link", { name: "Intern 00", exact: true }).waitFor();
});

Deno.test("a guest's Save leads to sign in and back, where the listing is saved", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [internship] = await addInternships(t, member, [listing("Cloud Intern", "2099-12-31")]);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();

  await openHydrated(page, `${t.origin}/internships/${internship.id}`);
  await page.getByRole("link", { name: "Save Cloud Intern" }).click();
  await page.waitForURL(/\/sign-in\?/);
  const callback = new URL(page.url()).searchParams.get("callbackURL");
  assertEquals(callback, `/internships/${internship.id}?save=internships%3A${internship.id}`);
  await assertAccessible(page, "/sign-in from Save");

  await signInBrowser(context, t.origin, student);
  await openHydrated(page, `${t.origin}${callback}`);
  await page.getByRole("button", { name: "Saved Cloud Intern" }).waitFor();
  assertEquals(new URL(page.url()).search, "");
  assertEquals((await listSaved(t.kv, student.user.id, {})).items.map((item) => item.id), [internship.id]);
});

Deno.test("a save past the limit says why in the button's place, in Hindi", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  await addInternships(t, member, [listing("Data Intern", "2099-12-31")]);
  await t.kv.set(["saved_count", student.user.id], MAX_SAVED);
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/internships?lang=hi`);
  await page.getByRole("button", { name: `${hi("internships.save.save")} Data Intern` }).click();
  await page.getByRole("alert").getByText(hi("common.refusal.tooManySaved"), { exact: true }).waitFor();
  assertEquals((await listSaved(t.kv, student.user.id, {})).items, []);
});

Deno.test("a save of a listing deleted meanwhile says it is no longer available, in both languages", async () => {
  await using t = await createTestApp({ listen: true });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const internships = await addInternships(t, member, [
    listing("Data Intern", "2099-12-31"),
    listing("Design Intern", "2099-12-31"),
  ]);
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  for (const [lang, internship] of [["hi", internships[0]], ["en", internships[1]]] as const) {
    const tr = translatorFor(lang);
    await openHydrated(page, `${t.origin}/internships?lang=${lang}`);
    const gone = await t.fetch(`/api/internships/${internship.id}`, { method: "DELETE", headers: member.headers });
    assert(gone.ok, `deleted in another tab: ${gone.status}`);
    await gone.body?.cancel();
    await page.getByRole("button", { name: `${tr("internships.save.save")} ${internship.title}` }).click();
    await page.getByRole("alert").getByText(tr("internships.save.gone"), { exact: true }).waitFor();
  }
  assertEquals((await listSaved(t.kv, student.user.id, {})).items, []);
});

Deno.test("a save refused as busy or too many says so and when to try again; only a failed fetch blames the connection", async () => {
  // A fixed rate-limit clock 5.5 minutes into a window of the `saved` limit: its refusals say 270 s, "in 5 minutes".
  const rule = PERSON_LIMITS.saved;
  const at = Date.now() - (Date.now() % rule.windowMs) + 330_000;
  await using t = await createTestApp({ listen: true, rateLimitClock: () => at });
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const [internship] = await addInternships(t, member, [listing("Data Intern", "2099-12-31")]);
  for (let i = 0; i < rule.limit; i++) await t.services.rateLimits.hit(rule, `user:${student.user.id}`);
  await using browser = await openBrowser();
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  const api = `${t.origin}/api/me/saved/internships/${internship.id}`;
  const inFiveMinutes = { hi: "5 मिनट में", en: "in 5 minutes" };
  for (const lang of ["hi", "en"] as const) {
    const tr = translatorFor(lang);
    await openHydrated(page, `${t.origin}/internships?lang=${lang}`);
    const save = page.getByRole("button", { name: `${tr("internships.save.save")} ${internship.title}` });
    const says = (words: string) => page.getByRole("alert").getByText(words, { exact: true }).waitFor();

    // What the server answers after 30 s of races lost to other writers, too long to wait for here.
    await page.route(api, (route) => route.fulfill({ status: 503, json: { error: PLATFORM_REFUSALS.busy } }));
    await save.click();
    await says(tr("common.errors.busy"));
    await page.unroute(api);
    // A limit that names no time (no `Retry-After`), and a fetch that fails (offline).
    await page.route(api, (route) => route.fulfill({ status: 429, json: { error: PLATFORM_REFUSALS.tooMany } }));
    await save.click();
    await says(tr("common.errors.tooMany"));
    await page.unroute(api);
    await page.route(api, (route) => route.abort("internetdisconnected"));
    await save.click();
    await says(tr("internships.save.notSaved"));
    await page.unroute(api);

    // The server's own refusal past the per-person limit.
    await save.click();
    await says(tr("internships.save.wait", { when: inFiveMinutes[lang] }));
  }
  assertEquals((await listSaved(t.kv, student.user.id, {})).items, []);
});
