/**
 * The pages of social sign-in, server-rendered: the "Continue with" buttons on sign-in and
 * sign-up only for configured providers, the sign-in page's message for each social error
 * code, and the profile page's list of sign-in methods.
 */
import { createSession } from "@/lib/auth/sessions.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { passwordUser } from "@/tests/fixtures/people.ts";
import { signInSocially, socialSetup } from "./social_helpers.ts";
import { cookieOf } from "./helpers.ts";

async function html(t: TestApp, path: string, cookie?: string): Promise<string> {
  const res = await t.fetch(path, { headers: cookie ? { cookie } : {} });
  assertEquals(res.status, 200, path);
  return await res.text();
}

function buttons(page: string): string[] {
  return [...page.matchAll(/<span>Continue with (\w+)<\/span>/g)].map((m) => m[1]);
}

Deno.test("sign-in and sign-up show a Continue with button for each configured provider only", async () => {
  await using none = await createTestApp();
  assertEquals(buttons(await html(none, "/sign-in")), []);
  assertEquals(buttons(await html(none, "/sign-up")), []);
  await using googleOnly = await createTestApp({
    env: { GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret", LINKEDIN_CLIENT_ID: "id-without-secret" },
  });
  assertEquals(buttons(await html(googleOnly, "/sign-in")), ["Google"]);
  await using s = await socialSetup();
  const signIn = await html(s.t, "/sign-in?callbackURL=%2Finternships%3Fq%3Dai");
  assertEquals(buttons(signIn), ["Google", "LinkedIn"]);
  assertMatch(
    signIn,
    /href="\/api\/auth\/sign-in\/social\?provider=google&amp;callbackURL=%2Finternships%3Fq%3Dai&amp;newUserCallbackURL=%2Fonboarding%3FcallbackURL%3D%252Finternships%253Fq%253Dai"/,
  );
  const signUp = await html(s.t, "/sign-up");
  assertEquals(buttons(signUp), ["Google", "LinkedIn"]);
  assertMatch(signUp, /provider=linkedin&amp;callbackURL=%2F&amp;newUserCallbackURL=%2Fonboarding"/);
});

Deno.test("the sign-in page explains each social sign-in error code in its own words", async () => {
  await using t = await createTestApp();
  const codes = [
    "ACCOUNT_NOT_LINKED",
    "INVALID_STATE",
    "ACCESS_DENIED",
    "OAUTH_FAILED",
    "PROVIDER_UNAVAILABLE",
    "EMAIL_NOT_FOUND",
    "PROVIDER_NOT_CONFIGURED",
  ];
  const titles = new Set<string>();
  for (const code of codes) {
    const page = await html(t, `/sign-in?error=${code}`);
    const title = page.match(/role="alert"[^>]*><p class="font-semibold">([^<]+)<\/p>/)?.[1];
    assert(title, `no message for ${code}`);
    assert(title !== "Sign-in did not complete", `${code} shows the generic message`);
    assert(!page.includes(code), `${code} is echoed`);
    titles.add(title);
  }
  assertEquals(titles.size, codes.length);
});

Deno.test("the profile page lists the account's sign-in methods", async () => {
  await using s = await socialSetup();
  const user = await passwordUser(s.t, { email: "both@example.com" });
  const { token } = await createSession(s.t.kv, user.id);
  const methods = async (cookie: string) => {
    const page = await html(s.t, "/profile", cookie);
    const list = page.split('id="sign-in-methods"')[1] ?? "";
    return [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]);
  };
  assertEquals(await methods(`session=${token}`), ["E-mail and password"]);
  s.google.identity = { sub: "g-both", email: "both@example.com", email_verified: true, name: "Both" };
  await signInSocially(s.t, "google");
  assertEquals(await methods(`session=${token}`), ["E-mail and password", "Google"]);
  s.linkedin.identity = { sub: "li-only", email: "only@example.com", email_verified: true, name: "Only" };
  const cookie = cookieOf(await signInSocially(s.t, "linkedin"))!;
  assertEquals(await methods(cookie), ["LinkedIn"]);
});
