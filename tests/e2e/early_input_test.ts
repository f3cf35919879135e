/**
 * What a person types (or the browser autofills) before a page's script arrives survives
 * hydration: the island's scripts are held back in these tests until the form is filled, as on a
 * slow connection, and the submit after hydration sends what was typed.
 */
import type { Page } from "playwright-core";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { hydrated, openBrowser } from "@/tests/helpers/browser.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";

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
