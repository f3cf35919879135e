/**
 * The pages of social sign-in, server-rendered: the "Continue with" buttons on sign-in and
 * sign-up only for configured providers, the sign-in page's message for each social error
 * code, the profile page's list of sign-in methods, and the fresh sign-in that deleting a password-less account asks
 * the provider for.
 */
import { createSession } from "@/lib/auth/sessions.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { authorizeAt, openCallback, signInSocially, socialSetup, startSocial } from "./social_helpers.ts";
import { CHOOSE_PASSWORD_TO_DELETE, SIGN_IN_AGAIN } from "@/lib/account/deletion.ts";
import { cookieOf, signIn, tokenOf, waitForMail } from "./helpers.ts";

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

Deno.test("a browser still logged in at the provider deletes a password-less account only after a new login there", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-asha", email: "asha@example.com", email_verified: true, name: "Asha" };
  s.google.loggedInAt = Math.floor(Date.now() / 1000) - 60 * 60;
  const deleteMe = async (cookie: string) => {
    const res = await s.t.json("DELETE", "/api/me", {
      body: { confirm: "asha@example.com" },
      headers: { cookie, origin: s.t.origin },
    });
    return [res.status, await res.json()];
  };
  // A plain sign-in rides the provider's hour-old login: the session is new, the login is not.
  const plain = cookieOf(await signInSocially(s.t, "google"))!;
  assertEquals(s.google.authorizations.at(-1)?.has("max_age"), false);
  assertEquals(await deleteMe(plain), [403, { error: SIGN_IN_AGAIN }]);
  // The deletion page's button asks the provider for a new login, which the fake then makes.
  const page = await html(s.t, "/profile/delete", plain);
  const href = page.match(/href="(\/api\/auth\/sign-in\/social\?[^"]*provider=google[^"]*)"/)?.[1]?.replaceAll(
    "&amp;",
    "&",
  );
  assert(href, "the page offers Google's sign-in");
  const query = Object.fromEntries(new URL(href, s.t.origin).searchParams);
  assertEquals(query.fresh, "1");
  const started = await startSocial(s.t, query, plain);
  assertEquals(started.authorizationUrl.searchParams.get("max_age"), "0");
  const back = await openCallback(s.t, await authorizeAt(started), `${plain}; ${started.binding}`);
  assertEquals(back.headers.get("location"), "/profile/delete");
  assertEquals(await deleteMe(cookieOf(back)!), [200, { success: true }]);
});

Deno.test("a provider that sends no auth_time: its sign-in is never fresh; the account confirms with a password instead", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-ravi", email: "ravi@example.com", email_verified: true, name: "Ravi" };
  s.google.loggedInAt = Math.floor(Date.now() / 1000) - 60 * 60;
  s.google.sendsAuthTime = false;
  const deleteMe = async (cookie: string, password?: string) => {
    const res = await s.t.json("DELETE", "/api/me", {
      body: { confirm: "ravi@example.com", ...(password ? { password } : {}) },
      headers: { cookie, origin: s.t.origin },
    });
    return [res.status, await res.json()];
  };
  // Signed in a moment ago through Google's hour-old login, which Google did not date: not fresh.
  const cookie = cookieOf(await signInSocially(s.t, "google"))!;
  // The refusal says what helps: a password, not another sign-in.
  assertEquals(await deleteMe(cookie), [403, { error: CHOOSE_PASSWORD_TO_DELETE }]);
  // Not even a sign-in that asked for a new login (fresh=1): without auth_time nothing says it made one.
  const fresh = cookieOf(await signInSocially(s.t, "google", { fresh: "1" }))!;
  assertEquals(await deleteMe(fresh), [403, { error: CHOOSE_PASSWORD_TO_DELETE }]);
  // The deletion page says why and offers a password instead, in both languages.
  const page = await html(s.t, "/profile/delete", fresh);
  assert(page.includes("does not tell us when you last logged in there"), "why signing in again does not help");
  assert(page.includes('href="/forgot-password"'), "the way to a password");
  assert((await html(s.t, "/profile/delete?lang=hi", fresh)).includes("आख़िरी बार कब लॉग इन किया था"), "in Hindi");
  // A person whose provider dates its logins is not told this.
  s.google.identity = { sub: "g-asha", email: "asha@example.com", email_verified: true, name: "Asha" };
  s.google.sendsAuthTime = true;
  const dated = cookieOf(await signInSocially(s.t, "google"))!;
  assert(!(await html(s.t, "/profile/delete", dated)).includes("does not tell us"), "dated: only sign in again");
  // Ravi chooses a password through the reset link mailed to his verified address, and deletes with it.
  const forgot = await s.t.json("POST", "/api/auth/forget-password", { body: { email: "ravi@example.com" } });
  await forgot.body?.cancel();
  const reset = await s.t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: PASSWORD, token: tokenOf((await waitForMail(s.t, "ravi@example.com")).link) },
  });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  assertEquals(await deleteMe(await signIn(s.t, "ravi@example.com"), PASSWORD), [200, { success: true }]);
});
