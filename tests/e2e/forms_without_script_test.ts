/**
 * Sign-in, sign-up and the forgot/reset password forms with JavaScript disabled: each is a
 * plain HTML form that posts to its page, which answers with a redirect, or with the page again
 * showing its sentences beside the fields (POST/redirect/GET); so is the confirm page of a verification link.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { assertAccessibleWithoutScript, openBrowser, type TestBrowser } from "@/tests/helpers/browser.ts";
import { waitForMail } from "@/tests/api/auth/helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { getUserByEmail } from "@/lib/users/users.ts";

async function scriptlessPage(browser: TestBrowser): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

/** The error sentence shown under the field labelled `label`. */
async function fieldError(page: Page, label: string): Promise<string> {
  const id = await page.getByLabel(label, { exact: true }).getAttribute("id");
  return (await page.locator(`#${id}-error`).textContent()) ?? "";
}

Deno.test("sign-in without JavaScript: a wrong password, then the return page", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const user = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await scriptlessPage(browser);

  await page.goto(`${t.origin}/sign-in?callbackURL=${encodeURIComponent("/internships?types=remote")}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  assertEquals(await fieldError(page, "E-mail"), "Enter a valid e-mail address, like name@example.com.");
  assertEquals(await fieldError(page, "Password"), "Enter your password.");

  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("The e-mail or password is not right.").waitFor();
  assertEquals(await page.getByLabel("E-mail").inputValue(), user.email);
  assertEquals(await page.getByLabel("Password").inputValue(), "", "a password is never sent back");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  assertEquals(new URL(page.url()).searchParams.get("callbackURL"), "/internships?types=remote");
  assert((await page.context().cookies()).some((c) => c.name === "session"));
});

Deno.test("sign-in without JavaScript: an unverified e-mail gets a new link", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const user = await passwordUser(t, { verified: false });
  await using browser = await openBrowser();
  const page = await scriptlessPage(browser);

  await page.goto(`${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText("Verify your e-mail to sign in").waitFor();
  await waitForMail(t, user.email);
});

Deno.test("sign-up without JavaScript: every error at once, then the inbox page", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const taken = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await scriptlessPage(browser);

  await page.goto(`${t.origin}/sign-up?callbackURL=%2Ftoolkits`);
  await page.getByLabel("Name").fill("Al");
  await page.getByLabel("E-mail").fill("al@example");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  assertEquals(await fieldError(page, "Name"), "Enter a name of 3 to 100 characters.");
  assertEquals(await fieldError(page, "E-mail"), "Enter a valid e-mail address, like name@example.com.");
  assertEquals(await fieldError(page, "Password"), "Use at least 8 characters.");
  assertEquals(await page.getByLabel("Name").inputValue(), "Al");

  await page.getByLabel("Name").fill("Alka Singh");
  await page.getByLabel("E-mail").fill(taken.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  assertEquals(await fieldError(page, "E-mail"), "An account with this e-mail already exists. Sign in instead.");
  assertEquals(
    await page.getByRole("link", { name: "Sign in instead" }).getAttribute("href"),
    "/sign-in?callbackURL=%2Ftoolkits",
  );

  await page.getByLabel("E-mail").fill("alka@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((u) => u.pathname === "/check-inbox");
  const url = new URL(page.url());
  assertEquals(url.searchParams.get("email"), "alka@example.com");
  assertEquals(url.searchParams.get("callbackURL"), "/toolkits");
  const link = new URL((await waitForMail(t, "alka@example.com")).link!);
  assertEquals(link.searchParams.get("callbackURL"), "/onboarding?callbackURL=%2Ftoolkits");
});

Deno.test("forgot and reset password without JavaScript", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const user = await passwordUser(t);
  await using browser = await openBrowser();
  const page = await scriptlessPage(browser);

  await page.goto(`${t.origin}/forgot-password`);
  await page.getByLabel("E-mail").fill("nobody");
  await page.getByRole("button", { name: "Send reset link" }).click();
  assertEquals(await fieldError(page, "E-mail"), "Enter a valid e-mail address, like name@example.com.");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await page.getByText(`If an account exists for ${user.email}, we sent it a link`).waitFor();

  const link = (await waitForMail(t, user.email)).link!;
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("a new password");
  await page.getByLabel("Confirm new password").fill("another password");
  await page.getByRole("button", { name: "Change password" }).click();
  assertEquals(await fieldError(page, "Confirm new password"), "The passwords do not match.");
  await page.getByLabel("New password", { exact: true }).fill("a new password");
  await page.getByLabel("Confirm new password").fill("a new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("Your password has been changed").waitFor();

  // A spent link says so at once, with the way to a new one, and offers no form to fill in vain.
  await page.goto(link);
  await page.getByText("This reset link has expired or was already used").waitFor();
  await page.getByRole("link", { name: "Request a new link" }).waitFor();
  assertEquals(await page.getByLabel("New password", { exact: true }).count(), 0);

  await page.goto(`${t.origin}/sign-in`);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("a new password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
});

Deno.test("a verification link opened in another browser without JavaScript: the confirm page's button verifies", async () => {
  await using t = await createTestApp({ listen: true, env: { RATE_LIMITS: "off" } });
  const signUp = await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "Meera Iyer", email: "meera@example.com", password: PASSWORD, callbackURL: "/toolkits" },
  });
  assertEquals(signUp.status, 200);
  await signUp.body?.cancel();
  await using browser = await openBrowser();
  const page = await scriptlessPage(browser);

  await page.goto((await waitForMail(t, "meera@example.com")).link!);
  assertEquals(new URL(page.url()).pathname, "/verify-email");
  await page.getByText("If you did not create an account here").waitFor();
  // The page asks for the password, so its first sentence says to enter it, not only to press the button.
  await page.getByText(
    "Enter your password, then press the button to verify your e-mail address and finish setting up your account.",
  ).waitFor();
  const hindi = await scriptlessPage(browser);
  await hindi.setViewportSize({ width: 360, height: 740 });
  await hindi.goto(`${page.url()}&lang=hi`);
  await hindi.getByText("अपना पासवर्ड डालें, फिर बटन दबाएँ।", { exact: false }).waitFor();
  await assertAccessibleWithoutScript(hindi, "the confirm page in Hindi");
  await hindi.context().close();
  assertEquals((await getUserByEmail(t.kv, "meera@example.com"))?.emailVerified, false, "opening changes nothing");
  // On a phone, a press with the field empty asks for the password rather than calling it wrong.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await page.waitForLoadState();
  assertEquals(await fieldError(page, "Password"), "Enter your password.");
  await assertAccessibleWithoutScript(page);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Verify my e-mail" }).click();
  await page.waitForURL((u) => u.pathname === "/sign-in" && u.searchParams.get("verified") === "1");
  await page.getByText("Your e-mail is verified").waitFor();
  assertEquals((await getUserByEmail(t.kv, "meera@example.com"))?.emailVerified, true);
  assert(!(await page.context().cookies()).some((c) => c.name === "session"), "the button signs nobody in");
  assertEquals(await page.getByLabel("E-mail").inputValue(), "meera@example.com", "the address is filled in");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/onboarding");
  assertEquals(new URL(page.url()).searchParams.get("callbackURL"), "/toolkits");
});
