/**
 * The installable, offline platform in Chromium at 360 px (docs/decisions.md, Installable and offline): Chromium finds
 * nothing stopping an install; with the network gone a page visited before opens with its "may be out of date"
 * notice, the tracker and a lesson kept offline (never visited, its hint saying signing out removes it) open, a page
 * never visited shows the offline page naming what is kept, each page once and without the site's name, in the
 * language the pages last came in (Hindi after a Hindi page, also after signing out); after signing out nothing of the
 * person is shown; a session without "Keep me signed in" is told Keep offline needs it. The module's one Chromium runs
 * on a profile on disk (Chromium does not offer installing from an incognito context, which every new context is), and
 * each test opens its page in it on an origin of its own.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { assertAccessible, CHROMIUM, hydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { addCoupon, addToolkitWithLessons, checkout } from "@/tests/fixtures/toolkits.ts";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { createSession } from "@/lib/auth/sessions.ts";

/** A toolkit of two article lessons that `student` owns (a 100 % coupon), and its lesson ids. */
async function ownedToolkit(t: TestApp, student: TestUser): Promise<{ id: string; lessons: string[] }> {
  const shop = { t, admin: await createTestUser(t, "admin") };
  const { toolkit, lessons } = await addToolkitWithLessons(shop, {
    title: "Offline Playbook",
    description: "Read anywhere",
    price: 199,
    lessons: [
      { title: "First steps", content: "<p>Read me on the train</p>" },
      { title: "Second wind", content: "<p>Kept</p>" },
    ],
  });
  await addCoupon(shop, { code: "FREEOFF", discountType: "percentage", discountValue: 100 });
  const bought = await checkout(shop, student, toolkit.id, "FREEOFF");
  assertEquals(bought.status, 200, JSON.stringify(bought.body));
  return { id: toolkit.id, lessons: lessons.map((lesson) => lesson.id) };
}

/** The module's Chromium: one persistent context at 360 px, launched by the first test, closed after the last. */
let phone: Promise<{ context: BrowserContext; profile: string }> | undefined;

/** A page of its own in the module's Chromium, signed out; closed and back online when disposed. */
async function phonePage(): Promise<{ context: BrowserContext; page: Page } & AsyncDisposable> {
  phone ??= (async () => {
    const profile = await Deno.makeTempDir();
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    return { context, profile };
  })();
  const { context } = await phone;
  await context.clearCookies();
  const page = await context.newPage();
  return {
    context,
    page,
    async [Symbol.asyncDispose]() {
      await context.setOffline(false);
      await page.close();
    },
  };
}

Deno.test.afterAll(async () => {
  const opened = await phone?.catch(() => undefined);
  phone = undefined;
  if (!opened) return;
  await opened.context.close();
  await Deno.remove(opened.profile, { recursive: true });
});

/** Waits until the service worker controls `page`. */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the service worker has saved `path` in one of its caches. */
async function saved(page: Page, path: string): Promise<void> {
  await page.waitForFunction(async (url) => (await caches.match(url)) !== undefined, path);
}

Deno.test("Chromium finds no installability errors: manifest, icons and service worker pass", async () => {
  await using t = await createTestApp({ listen: true });
  await using tab = await phonePage();
  const { context, page } = tab;
  await page.goto(`${t.origin}/`);
  await controlled(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  assertEquals(installabilityErrors, []);
  const { errors } = await cdp.send("Page.getAppManifest");
  assertEquals(errors, []);
});

Deno.test("offline: visited pages with a notice, the tracker and kept lessons open, others get the offline page in the reader's language", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "Meera Offline" });
  const toolkit = await ownedToolkit(t, student);
  await using tab = await phonePage();
  const { context, page } = tab;
  await signInBrowser(context, t.origin, student);

  await page.goto(`${t.origin}/`);
  await controlled(page);
  await page.goto(`${t.origin}/internships`);
  await saved(page, "/internships");
  await saved(page, "/me/tracker");

  await page.goto(`${t.origin}/toolkits/${toolkit.id}/learn/${toolkit.lessons[0]}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Keep offline" }).click();
  await page.getByText("2 lessons saved on this device").waitFor();
  await page.getByText("Signing out removes them from this device.").waitFor();
  await assertAccessible(page, "lesson page with Keep offline");

  await context.setOffline(true);
  await page.goto(`${t.origin}/internships`);
  const notice = page.getByRole("status").filter({ hasText: "may be out of date" });
  await notice.waitFor();
  assert((await notice.textContent())!.includes("IST"), "the notice says when the copy was saved");
  await assertAccessible(page, "a saved copy with its notice");

  await page.goto(`${t.origin}/me/tracker`);
  await page.getByRole("heading", { name: "My applications" }).waitFor();
  await notice.waitFor();
  await hydrated(page); // never opened online here: its islands were kept with it

  await page.goto(`${t.origin}/toolkits/${toolkit.id}/learn/${toolkit.lessons[1]}`);
  await page.getByRole("heading", { name: "Second wind" }).waitFor();
  await page.getByText("Kept").first().waitFor();

  await page.goto(`${t.origin}/opportunities`);
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  const kept = page.getByRole("region", { name: "Lessons kept offline" });
  await kept.getByRole("link", { name: /Second wind/ }).waitFor();
  await assertAccessible(page, "the offline page");

  // Signing out clears what the phone kept: offline again, the tracker is not shown.
  await context.setOffline(false);
  await page.goto(`${t.origin}/terms`);
  await page.locator("form[action='/sign-out'] button").first().evaluate((button: HTMLButtonElement) => button.click());
  await page.waitForURL(`${t.origin}/`);
  assertEquals(await page.evaluate(async () => (await caches.keys()).filter((name) => !name.startsWith("shell-"))), []);
  await controlled(page);
  await page.goto(`${t.origin}/privacy`);
  await saved(page, "/privacy");
  await context.setOffline(true);
  await page.goto(`${t.origin}/me/tracker`);
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  const text = await page.locator("body").innerText();
  assert(!text.includes("Meera Offline") && !text.includes("Second wind"), text);

  // Someone who reads in Hindi gets the offline page in Hindi: the worker follows the language pages last came in.
  await context.setOffline(false);
  await page.goto(`${t.origin}/privacy?lang=hi`);
  await page.waitForFunction(async () => await (await caches.match("/offline-state/lang"))?.text() === "hi");
  await page.waitForFunction(async () => (await (await caches.match("/privacy"))?.text())?.includes('<html lang="hi"'));
  await context.setOffline(true);
  await page.goto(`${t.origin}/opportunities`);
  await page.getByRole("heading", { name: "आप ऑफ़लाइन हैं" }).waitFor();
  assertEquals(await page.locator("html").getAttribute("lang"), "hi");
  await page.getByRole("region", { name: "पहले खोले गए पेज" }).getByRole("link").first().waitFor();
  await page.getByText(/^सेव किया गया: \d+ [\u0900-\u097F]+ \d{4}/).first().waitFor();
  await assertAccessible(page, "the offline page in Hindi");
});

Deno.test("offline on a Hindi phone: each page listed once without the site's name; still Hindi after signing out", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  await using tab = await phonePage();
  const { context, page } = tab;
  await signInBrowser(context, t.origin, student);
  await page.goto(`${t.origin}/privacy?lang=hi`);
  await controlled(page);
  await page.goto(`${t.origin}/`);
  await saved(page, "/");
  const first = await page.evaluate(async () => (await caches.match("/"))?.headers.get("offline-saved-at") ?? "");
  // The same page asked for with ?lang=: saved again, under whichever key the worker gives it.
  await page.goto(`${t.origin}/?lang=hi`);
  await page.waitForFunction(async (before) => {
    const copies = await Promise.all(["/", "/?lang=hi"].map((url) => caches.match(url)));
    return copies.some((res) => (res?.headers.get("offline-saved-at") ?? "") > before);
  }, first);
  await page.goto(`${t.origin}/privacy`);
  await page.waitForFunction(async () => (await (await caches.match("/privacy"))?.text())?.includes('<html lang="hi"'));

  await context.setOffline(true);
  await page.goto(`${t.origin}/opportunities`);
  const visited = page.getByRole("region", { name: "पहले खोले गए पेज" }).getByRole("link");
  await visited.first().waitFor();
  const titles = await visited.allInnerTexts();
  assert(titles.includes("गोपनीयता नीति"), titles.join(" | "));
  assertEquals(titles.filter((title) => title.includes("Career Community")), [], "no title repeats the site's name");
  assertEquals(new Set(titles).size, titles.length, `each page once: ${titles.join(" | ")}`);

  // Signing out wipes what the worker remembered; the next one learns the language from the page, not the browser's.
  await context.setOffline(false);
  await page.goto(`${t.origin}/terms`);
  await page.locator("form[action='/sign-out'] button").first().evaluate((button: HTMLButtonElement) => button.click());
  await page.waitForURL(`${t.origin}/`);
  await controlled(page);
  await page.waitForFunction(async () => await (await caches.match("/offline-state/lang"))?.text() === "hi");
  await context.setOffline(true);
  await page.goto(`${t.origin}/opportunities`);
  await page.getByRole("heading", { name: "आप ऑफ़लाइन हैं" }).waitFor();
  await page.getByText("इस डिवाइस पर अभी कुछ भी सेव नहीं है।").waitFor();
});

Deno.test("offline: a kept lesson that now answers 404 (its toolkit deleted) leaves the phone", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user");
  const toolkit = await ownedToolkit(t, student);
  await using tab = await phonePage();
  const { context, page } = tab;
  await signInBrowser(context, t.origin, student);
  const lesson = `${t.origin}/toolkits/${toolkit.id}/learn/${toolkit.lessons[0]}`;
  await page.goto(`${t.origin}/`);
  await controlled(page);
  await page.goto(lesson);
  await hydrated(page);
  await page.getByRole("button", { name: "Keep offline" }).click();
  await page.getByText("2 lessons saved on this device").waitFor();

  const admin = await createTestUser(t, "admin");
  const deleted = await t.fetch(`/api/admin/toolkits/${toolkit.id}`, { method: "DELETE", headers: admin.headers });
  assertEquals(deleted.status, 200);
  assertEquals((await page.goto(lesson))?.status(), 404);
  await page.waitForFunction(async (url) => (await caches.match(url)) === undefined, lesson);

  await context.setOffline(true);
  await page.goto(lesson);
  await page.getByRole("heading", { name: "You are offline" }).waitFor();
  const kept = page.getByRole("region", { name: "Lessons kept offline" });
  await kept.getByRole("link", { name: /Second wind/ }).waitFor();
  assertEquals(await kept.getByRole("link", { name: /First steps/ }).count(), 0);
});

Deno.test("a session without 'Keep me signed in': Keep offline says it needs it instead of offering its button", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t, "user", { name: "Ravi Passing" });
  const toolkit = await ownedToolkit(t, student);
  const { token } = await createSession(t.kv, student.user.id, { persistent: false });
  await using tab = await phonePage();
  const { context, page } = tab;
  await signInBrowser(context, t.origin, { cookie: `session=${token}` });
  await page.goto(`${t.origin}/toolkits/${toolkit.id}/learn/${toolkit.lessons[0]}`);
  await hydrated(page);
  await page.getByText("Lessons stay on this device only when you sign in with “Keep me signed in” ticked.").waitFor();
  assertEquals(await page.getByRole("button", { name: "Keep offline" }).count(), 0);
  await assertAccessible(page, "a lesson page of a session not remembered");
});
