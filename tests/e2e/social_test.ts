/**
 * Social sign-in in a real browser (Chromium) against the fake OpenID Connect provider: "Continue
 * with Google" lands a new user on onboarding, which keeps the page they were heading for, and
 * the same person coming back lands on that page; the profile's "Connected accounts" removes a second provider. Pages
 * visited are checked with axe-core.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { assertAccessible, openAccountMenu, openBrowser } from "@/tests/helpers/browser.ts";
import { socialSetup } from "@/tests/api/auth/social_helpers.ts";
import { getUserByEmail } from "@/lib/users/users.ts";

Deno.test("Continue with Google lands a new user on onboarding and a returning user on the callback page", async () => {
  await using s = await socialSetup({ listen: true });
  s.google.identity = {
    sub: "g-e2e",
    email: "priya@example.com",
    email_verified: true,
    name: "Priya Sharma",
    picture: "https://lh3.example.com/priya.png",
  };
  await using browser = await openBrowser();
  const page = await browser.newPage();

  await page.goto(`${s.t.origin}/sign-up`);
  await page.getByRole("link", { name: "Continue with LinkedIn" }).waitFor();
  await assertAccessible(page, "sign-up with social buttons");

  await page.goto(`${s.t.origin}/sign-in?callbackURL=%2Finternships`);
  await assertAccessible(page, "sign-in with social buttons");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(`${s.t.origin}/onboarding?callbackURL=%2Finternships`);
  await page.getByRole("heading", { name: "Welcome, Priya Sharma" }).waitFor();
  const user = await getUserByEmail(s.t.kv, "priya@example.com");
  assertEquals(user?.emailVerified, true);

  await openAccountMenu(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(`${s.t.origin}/`);
  await page.goto(`${s.t.origin}/sign-in?callbackURL=%2Finternships`);
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(`${s.t.origin}/internships`);
  await page.locator("summary", { hasText: "Account menu: Priya Sharma" }).waitFor();

  // LinkedIn joins through the same verified address; the profile's Connected accounts removes it with its button.
  s.linkedin.identity = { sub: "li-e2e", email: "priya@example.com", email_verified: true, name: "Priya Sharma" };
  await page.goto(`${s.t.origin}/api/auth/sign-in/social?provider=linkedin&callbackURL=%2Fprofile`);
  await page.waitForURL(`${s.t.origin}/profile`);
  await page.getByRole("heading", { name: "Connected accounts" }).waitFor();
  await assertAccessible(page, "profile with two connected accounts");
  await page.getByRole("button", { name: "Remove LinkedIn" }).click();
  await page.waitForURL(`${s.t.origin}/profile?removedProvider=linkedin#connected-accounts`);
  await page.getByText("LinkedIn was removed: it no longer signs you in here.").waitFor();
  await page.getByText("This is your only way to sign in.", { exact: false }).waitFor();
  assertEquals(await page.getByRole("button", { name: "Remove Google" }).count(), 0, "the only way has no button");
  await assertAccessible(page, "profile with its only connected account");

  s.google.deny = true;
  await page.context().clearCookies();
  await page.goto(`${s.t.origin}/sign-in`);
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(`${s.t.origin}/sign-in?error=ACCESS_DENIED`);
  await page.getByRole("alert").getByText("Sign-in cancelled").waitFor();
  await assertAccessible(page, "sign-in after a denied consent");
});
