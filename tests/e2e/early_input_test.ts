/**
 * What a person types (or the browser autofills) before a page's script arrives survives
 * hydration: the island's scripts are held back in these tests until the form is filled, as on a
 * slow connection, and the submit after hydration sends what was typed. A plain form tapped before hydration is
 * marked busy, and a second tap sends nothing until the answer, or until a bound has passed after Stop (docs/decisions.md,
 * Islands, "Busy plain forms").
 */
import type { Page } from "playwright-core";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { hydrated, openBrowser, signInBrowser } from "@/tests/helpers/browser.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { phoneContext } from "@/tests/helpers/phone.ts";

/**
 * Opens `url` with every script held back; resolves to the function that lets them through.
 * The page's HTML is shown (its fields can be filled) but no island has hydrated yet.
 */
async function openBeforeHydration(page: Page, url: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route(/\.js(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector("main form");
  assertEquals(await page.evaluate(() => document.documentElement.dataset.hydrated), undefined);
  return async () => {
    release();
    await hydrated(page);
  };
}

Deno.test("sign-up filled before hydration submits what was typed", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  await using browser = await openBrowser();
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);

  const hydrate = await openBeforeHydration(page, `${t.origin}/sign-up`);
  await page.getByLabel("Name").fill("Early Bird");
  await page.getByLabel("E-mail").fill("early@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await hydrate();
  assertEquals(await page.getByLabel("Name").inputValue(), "Early Bird");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((u) => u.pathname === "/check-inbox");
  assertEquals(new URL(page.url()).searchParams.get("email"), "early@example.com");
});

Deno.test("sign-in filled before hydration signs in", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const user = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);

  const hydrate = await openBeforeHydration(page, `${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Keep me signed in").uncheck();
  await hydrate();
  assertEquals(await page.getByLabel("Password").inputValue(), PASSWORD);
  assertEquals(await page.getByLabel("Keep me signed in").isChecked(), false);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  const cookie = (await page.context().cookies()).find((c) => c.name === "session");
  assertEquals(cookie?.expires, -1, "not kept: a browser-session cookie");
});

Deno.test("an internship search typed before hydration is applied, not erased", async () => {
  await using t = await createTestApp({ listen: true });
  const owner = await createTestUser(t, "member");
  const item = (title: string, type: "remote" | "hybrid") => ({
    title,
    hiringOrganization: "Acme",
    link: "https://acme.example.com/jobs",
    type,
    deadline: "2099-12-31",
  });
  await addInternships(t, owner, [
    item("Quantum Research Intern", "hybrid"),
    item("Sales Intern", "remote"),
  ]);
  await using browser = await openBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(30_000);

  const hydrate = await openBeforeHydration(page, `${t.origin}/internships`);
  await page.getByRole("searchbox", { name: "Search" }).fill("quantum");
  await page.getByRole("checkbox", { name: "Hybrid" }).check();
  await hydrate();
  assertEquals(await page.getByRole("searchbox", { name: "Search" }).inputValue(), "quantum");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForURL((u) => u.searchParams.get("search") === "quantum");
  assertEquals(new URL(page.url()).searchParams.getAll("types"), ["hybrid"]);
  await page.getByText("Showing 1–1 of 1 internship").waitFor();
  assertEquals(await page.getByRole("searchbox", { name: "Search" }).inputValue(), "quantum");
  assertEquals(await page.getByRole("checkbox", { name: "Hybrid" }).isChecked(), true);
});

Deno.test("a reaction tapped again before its answer is sent once, also once the island hydrated", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const created = await t.json("POST", "/api/admin/ungatekeep", {
    body: { title: "How I got my first internship", content: "Apply early.", tag: "resources", isPublished: true },
    headers: admin.headers,
  });
  assertEquals(created.status, 201);
  const { post } = await created.json();
  await using browser = await openBrowser();
  // The service worker would answer the post out of the routes' sight.
  const context = await phoneContext(browser, { serviceWorkers: "block" });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);

  // The discussion island's script and the answer to the form's post are each held until let through, as on a slow
  // connection; the boot module and the module every page runs arrive.
  let hydrate!: () => void;
  const islandHeld = new Promise<void>((resolve) => hydrate = resolve);
  await page.route(/\/island-PostDiscussion-[^/]*\.js(\?|$)/, async (route) => {
    await islandHeld;
    await route.continue();
  });
  let answer!: () => void;
  const answerHeld = new Promise<void>((resolve) => answer = resolve);
  await page.route(`${t.origin}/ungatekeep/${post.id}`, async (route) => {
    if (route.request().method() === "POST") await answerHeld;
    await route.continue();
  });
  const writes: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET") writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  // While a post is under way Chromium evaluates nothing in the page (no `evaluate`, no locator), though its scripts
  // run: so the page reports its clicks, the submits no handler stopped before the window's, a form turning busy and
  // the islands hydrating, in their order.
  const seen: string[] = [];
  const waiters: { what: string; count: number; resolve: () => void }[] = [];
  await page.exposeFunction("reportToTest", (what: string) => {
    seen.push(what);
    for (const waiter of waiters) {
      if (seen.filter((s) => s === waiter.what).length >= waiter.count) waiter.resolve();
    }
  });
  const seenTimes = (what: string, count: number) =>
    new Promise<void>((resolve) => {
      waiters.push({ what, count, resolve });
      if (seen.filter((s) => s === what).length >= count) resolve();
    });
  await page.addInitScript(() => {
    const report = (globalThis as unknown as { reportToTest: (what: string) => void }).reportToTest;
    addEventListener("click", () => report("click"));
    addEventListener("submit", () => report("submit"));
    new MutationObserver((changes) => {
      for (const { target, attributeName } of changes) {
        const element = target as Element;
        if (attributeName === "aria-busy" && element.getAttribute("aria-busy") === "true") report("busy");
        if (attributeName === "data-hydrated" && element === document.documentElement) report("hydrated");
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["aria-busy", "data-hydrated"] });
  });

  await page.goto(`${t.origin}/ungatekeep/${post.id}`, { waitUntil: "domcontentloaded" });
  const button = page.locator("#reactions form").first().getByRole("button");
  const box = (await button.boundingBox())!;
  const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
  const tap = (where: { x: number; y: number; width: number; height: number }) =>
    page.touchscreen.tap(where.x + where.width / 2, where.y + where.height / 2);
  await tap(box);
  await tap(box);
  hydrate();
  await seenTimes("hydrated", 1);
  await tap(box);
  await tap(heading); // its click is reported after whatever the tap before it did
  await seenTimes("click", 4);
  assertEquals(seen, ["click", "submit", "busy", "click", "hydrated", "click", "click"]);
  assertEquals(writes, [`POST /ungatekeep/${post.id}`], "the later taps sent nothing, the hydrated island's neither");

  answer();
  await page.waitForURL((u) => u.hash === "#reactions");
  await hydrated(page);
  const busyForms = () => page.evaluate(() => document.querySelectorAll("form[aria-busy]").length);
  assertEquals(await busyForms(), 0, "the answer's page is not busy");
  assertEquals(await page.locator("#reactions button[aria-pressed=true]").count(), 1, "the reaction is on");
  // Hydrated, the island answers a tap itself, with no reload and no busy form.
  await button.tap();
  await page.locator("#reactions button[aria-pressed=true]").waitFor({ state: "detached" });
  assertEquals(await busyForms(), 0);
  assertEquals(writes.length, 2, "one request of the island's");
});

Deno.test("a busy form whose send was stopped can be sent again once its bound has passed, not at once", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const created = await t.json("POST", "/api/admin/ungatekeep", {
    body: { title: "Stopped on the train", content: "Apply early.", tag: "resources", isPublished: true },
    headers: admin.headers,
  });
  assertEquals(created.status, 201);
  const { post } = await created.json();
  await using browser = await openBrowser();
  const context = await phoneContext(browser, { serviceWorkers: "block" });
  await signInBrowser(context, t.origin, student);
  const page = await context.newPage();
  // The discussion island never hydrates (a slow phone's plain form); the first post's answer never comes.
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route(/\/island-PostDiscussion-[^/]*\.js(\?|$)/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  const writes: string[] = [];
  await page.route(`${t.origin}/ungatekeep/${post.id}`, async (route) => {
    if (route.request().method() === "POST") {
      writes.push("POST");
      if (writes.length === 1) return await held.then(() => route.abort()).catch(() => {});
    }
    await route.continue();
  });
  await page.clock.install();
  await page.goto(`${t.origin}/ungatekeep/${post.id}`, { waitUntil: "domcontentloaded" });
  const button = page.locator("#reactions form").first().getByRole("button");
  const posted = page.waitForRequest((request) => request.method() === "POST");
  await button.tap();
  await posted;
  // The person presses Stop: the page stays, its form busy.
  await (await context.newCDPSession(page)).send("Page.stopLoading");
  const busy = () => page.evaluate(() => document.querySelector("#reactions form[aria-busy=true]") !== null);
  assertEquals(await busy(), true);
  await button.tap();
  assertEquals(await busy(), true, "a quick second tap still sends nothing");
  await page.clock.runFor(20_000);
  assertEquals(await busy(), false, "unmarked once the bound has passed");
  await button.tap();
  await page.waitForURL((u) => u.hash === "#reactions");
  assertEquals(writes, ["POST", "POST"], "sent again, once");
  release();
});
