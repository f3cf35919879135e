/**
 * The sign-in form goes on to its `callbackURL` with `location.assign` after an e-mail sign-in:
 * in Chromium, whatever encoding the target carries, the browser ends on this origin, both
 * through the sign-in page (which checks the target on the server) and when the island is handed
 * a foreign target directly (its own check).
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated } from "@/tests/helpers/browser.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import SignInForm, { SIGN_IN_TEXT } from "@/islands/SignInForm.tsx";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import type { Page } from "playwright-core";

const HOSTILE = [
  "/..//evil.example",
  "/.%2e//evil.example",
  "/%2e%2e//evil.example",
  "/a/..//evil.example",
  "/..\\/evil.example",
  "/\\evil.example",
  "/\t..//evil.example",
  "//evil.example",
];

/** An onboarded account with a password, so signing in goes on to the callback. */
async function onboardedAccount(t: TestApp) {
  const user = await passwordUser(t);
  await saveOnboardingProfile(t.kv, user.id, {
    persona: "student",
    locationType: "state",
    locationValue: "Kerala",
    educationLevel: "Undergraduate",
    fieldOfStudy: "Design",
  });
  return user;
}

/** Signs in through the form on `url` and returns the origin the browser settles on. */
async function signInThrough(page: Page, origin: string, url: string, email: string): Promise<string> {
  await page.context().clearCookies();
  await openHydrated(page, url);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname !== new URL(url).pathname || u.origin !== origin);
  await page.waitForLoadState("load");
  return new URL(page.url()).origin;
}

Deno.test("signing in from /sign-in?callbackURL=<encoded way off-site> stays on this origin", async () => {
  await using t = await createTestApp({
    listen: true,
    env: { RATE_LIMITS: "off" },
    routes: {
      // The island given a foreign target directly, as no page of the platform does.
      "./routes/island-sign-in.tsx": {
        default: ({ url }: { url: URL }) => (
          <SignInForm callbackURL={url.searchParams.get("to")} text={translatorFor("en").island(SIGN_IN_TEXT)} />
        ),
      },
    },
  });
  const user = await onboardedAccount(t);
  await using browser = await openBrowser();
  const context = await browser.newContext();
  await context.route(
    (url) => url.hostname === "evil.example",
    (route) => route.fulfill({ status: 200, body: "off-site" }),
  );
  const page = await context.newPage();

  for (const target of HOSTILE) {
    const query = new URLSearchParams({ callbackURL: target });
    const origin = await signInThrough(page, t.origin, `${t.origin}/sign-in?${query}`, user.email);
    assertEquals([origin, new URL(page.url()).pathname], [t.origin, "/"], `sign-in page: ${JSON.stringify(target)}`);
  }
  for (const target of [...HOSTILE, "https://evil.example/"]) {
    const query = new URLSearchParams({ to: target });
    const origin = await signInThrough(page, t.origin, `${t.origin}/island-sign-in?${query}`, user.email);
    assertEquals(origin, t.origin, `island: ${JSON.stringify(target)}`);
  }
});
