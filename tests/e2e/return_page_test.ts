/**
 * The page a guest came from survives signing up, verifying the e-mail, signing in, social
 * sign-in and onboarding: "Sign in to buy" on a toolkit ends on that toolkit in every way in.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { hydrated, openBrowser, openHydrated } from "@/tests/helpers/browser.ts";
import { lastMailTo } from "@/tests/api/auth/helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { socialSetup } from "@/tests/api/auth/social_helpers.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import type { Page } from "playwright-core";

/** An active toolkit; returns its page's path. */
async function toolkitPage(t: TestApp): Promise<string> {
  const admin = await createTestUser(t, "admin");
  const { id } = await addToolkit({ t, admin }, { title: "Resume Lab", description: "CVs", price: 99 });
  return `/toolkits/${id}`;
}

/** Finishes the onboarding wizard as a society member (the shortest way through). */
async function finishOnboarding(page: Page): Promise<void> {
  await hydrated(page);
  await page.getByLabel("I represent a student society or club").check();
  await page.getByRole("button", { name: "Finish" }).click();
}

Deno.test("Sign in to buy → create an account → verify → onboarding ends on the toolkit", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const toolkit = await toolkitPage(t);
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await page.goto(`${t.origin}${toolkit}`);
  await page.getByRole("link", { name: "Sign in to buy" }).click();
  await page.getByRole("link", { name: "Create an account" }).click();
  await hydrated(page);
  await page.getByLabel("Name").fill("Meera Nair");
  await page.getByLabel("E-mail").fill("meera@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/check-inbox/);

  await page.goto((await lastMailTo(t, "meera@example.com")).link);
  await page.waitForURL((u) => u.pathname === "/onboarding");
  await finishOnboarding(page);
  await page.waitForURL(`${t.origin}${toolkit}`);
  await page.getByRole("heading", { name: "Get this toolkit" }).waitFor();
});

Deno.test("Sign in to buy → sign in (onboarding due) → onboarding ends on the toolkit", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const toolkit = await toolkitPage(t);
  const user = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await page.goto(`${t.origin}${toolkit}`);
  await page.getByRole("link", { name: "Sign in to buy" }).click();
  await hydrated(page);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  await finishOnboarding(page);
  await page.waitForURL(`${t.origin}${toolkit}`);

  // Already onboarded: signing in again goes straight back.
  await page.context().clearCookies();
  await page.goto(`${t.origin}${toolkit}`);
  await page.getByRole("link", { name: "Sign in to buy" }).click();
  await hydrated(page);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${t.origin}${toolkit}`);
});

Deno.test("Sign in to buy → Continue with Google (new account) → onboarding ends on the toolkit", async () => {
  await using s = await socialSetup({ listen: true, env: { RATE_LIMITS: "off" } });
  s.google.identity = { sub: "g-return", email: "ravi@example.com", email_verified: true, name: "Ravi Kumar" };
  const toolkit = await toolkitPage(s.t);
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await page.goto(`${s.t.origin}${toolkit}`);
  await page.getByRole("link", { name: "Sign in to buy" }).click();
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  await finishOnboarding(page);
  await page.waitForURL(`${s.t.origin}${toolkit}`);
  assertEquals(new URL(page.url()).pathname, toolkit);
});

Deno.test("a signed-out /onboarding?callbackURL= keeps its return page through sign-in", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const toolkit = await toolkitPage(t);
  const user = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await page.goto(`${t.origin}/onboarding?callbackURL=${encodeURIComponent(toolkit)}`);
  await openHydrated(page, page.url());
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  await finishOnboarding(page);
  await page.waitForURL(`${t.origin}${toolkit}`);
});
