/**
 * Removing a connected sign-in provider (docs/decisions.md, Social sign-in, "Removing a connected account"):
 * `DELETE /api/auth/providers/{provider}` and the profile page's "Connected accounts" with its plain "Remove" forms,
 * through the fake OpenID Connect providers.
 */
import { signInMethods } from "@/lib/auth/sign_in_methods.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import type { TestApp } from "@/tests/helpers/app.ts";
import { passwordUser } from "@/tests/fixtures/people.ts";
import { signInSocially, type SocialSetup, socialSetup } from "./social_helpers.ts";
import { cookieOf } from "./helpers.ts";

/** Signs `email` in with Google and then LinkedIn (both verified, one account); returns the last session's cookie. */
async function bothProviders(s: SocialSetup, email: string): Promise<{ cookie: string; userId: string }> {
  s.google.identity = { sub: `g-${email}`, email, email_verified: true, name: "Asha" };
  s.linkedin.identity = { sub: `li-${email}`, email, email_verified: true, name: "Asha" };
  await signInSocially(s.t, "google");
  const cookie = cookieOf(await signInSocially(s.t, "linkedin"))!;
  const me = await (await s.t.fetch("/api/auth/session", { headers: { cookie } })).json();
  return { cookie, userId: me.user.id };
}

function remove(t: TestApp, provider: string, cookie?: string): Promise<Response> {
  return t.json("DELETE", `/api/auth/providers/${provider}`, { headers: cookie ? { cookie } : {} });
}

Deno.test("DELETE /api/auth/providers/{provider} removes it; the only way left to sign in is 409", async () => {
  await using s = await socialSetup();
  const { cookie, userId } = await bothProviders(s, "asha@example.com");
  assertEquals(await signInMethods(s.t.kv, userId), ["google", "linkedin"]);
  const foreign = await s.t.fetch("/api/auth/providers/linkedin", {
    method: "DELETE",
    headers: { cookie, origin: "https://evil.example" },
  });
  assertEquals(foreign.status, 403, "a write from another site");
  await foreign.body?.cancel();
  assertEquals(await signInMethods(s.t.kv, userId), ["google", "linkedin"]);
  const removed = await remove(s.t, "linkedin", cookie);
  assertEquals([removed.status, await removed.json()], [200, { success: true }]);
  assertEquals(await signInMethods(s.t.kv, userId), ["google"]);
  assertEquals((await s.t.kv.get(["oauth_accounts", "linkedin", "li-asha@example.com"])).value, null);
  const last = await remove(s.t, "google", cookie);
  assertEquals([last.status, await last.json()], [409, { error: REFUSALS.lastSignIn }]);
  assertEquals(await signInMethods(s.t.kv, userId), ["google"], "the last way stays");
  const again = await remove(s.t, "linkedin", cookie);
  assertEquals([again.status, await again.json()], [404, { error: REFUSALS.providerNotConnected }]);
  const unknown = await remove(s.t, "github", cookie);
  assertEquals([unknown.status, (await unknown.json()).code], [400, "PROVIDER_NOT_FOUND"]);
  const guest = await remove(s.t, "google");
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
});

Deno.test("an account with a password removes its only provider; the password still signs in", async () => {
  await using s = await socialSetup();
  const user = await passwordUser(s.t, { email: "ravi@example.com" });
  s.google.identity = { sub: "g-ravi", email: "ravi@example.com", email_verified: true, name: "Ravi" };
  const throughGoogle = cookieOf(await signInSocially(s.t, "google"))!;
  const { token } = await createSession(s.t.kv, user.id);
  const res = await remove(s.t, "google", `session=${token}`);
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const session = async (
    cookie: string,
  ) => (await (await s.t.fetch("/api/auth/session", { headers: { cookie } })).json());
  assertEquals(await session(throughGoogle), null, "the session made through Google ended with it");
  assertEquals((await session(`session=${token}`))?.user.id, user.id, "the caller's session stays");
  assertEquals(await signInMethods(s.t.kv, user.id), ["email"]);
  assertEquals(await Array.fromAsync(s.t.kv.list({ prefix: ["oauth_accounts"] })), []);
  assertEquals(await Array.fromAsync(s.t.kv.list({ prefix: ["oauth_accounts_by_user"] })), []);
});

Deno.test("two removals at once of a password-less account's two providers: one wins, one is 409 (10 runs)", async () => {
  await using s = await socialSetup();
  for (let run = 0; run < 10; run++) {
    const { cookie, userId } = await bothProviders(s, `run${run}@example.com`);
    const answers = await Promise.all(["google", "linkedin"].map((p) => remove(s.t, p, cookie)));
    const statuses = answers.map((r) => r.status).sort();
    await Promise.all(answers.map((r) => r.body?.cancel()));
    assertEquals(statuses, [200, 409], `run ${run}`);
    assertEquals((await signInMethods(s.t.kv, userId)).length, 1, `run ${run}: one way to sign in is left`);
  }
});

Deno.test("the profile's Connected accounts removes a provider with a plain form, in English and Hindi", async () => {
  await using s = await socialSetup();
  const { cookie, userId } = await bothProviders(s, "meera@example.com");
  const page = async (path: string) => {
    const res = await s.t.fetch(path, { headers: { cookie } });
    assertEquals(res.status, 200, path);
    return await res.text();
  };
  const english = await page("/profile?lang=en");
  assertMatch(english, /<h2 id="connected-accounts"[^>]*>Connected accounts<\/h2>/);
  assertEquals([...english.matchAll(/action="\/profile\/remove-provider"/g)].length, 2);
  assertMatch(english, /aria-label="Remove LinkedIn"/);
  assertMatch(await page("/profile?lang=hi"), /जुड़े हुए अकाउंट[\s\S]*LinkedIn हटाएँ/);
  const form = (provider: string) =>
    s.t.fetch("/profile/remove-provider", {
      method: "POST",
      headers: { cookie, origin: s.t.origin, "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams({ provider }),
      redirect: "manual",
    });
  const removed = await form("linkedin");
  assertEquals(
    [removed.status, removed.headers.get("location")],
    [303, "/profile?removedProvider=linkedin#connected-accounts"],
  );
  assertEquals(await signInMethods(s.t.kv, userId), ["google"]);
  const after = await page("/profile?removedProvider=linkedin");
  assertMatch(after, /LinkedIn was removed: it no longer signs you in here\./);
  // The only way left: no button, the reason and where to choose a password.
  assert(!after.includes('action="/profile/remove-provider"'));
  assertMatch(after, /This is your only way to sign in\. To remove it, first <a href="\/forgot-password"/);
  const refused = await form("google");
  assertEquals(refused.status, 409);
  assertMatch(await refused.text(), /This is the only way left to sign in to this account/);
  assertEquals(await signInMethods(s.t.kv, userId), ["google"]);
});

Deno.test("removing a provider counts against the per-person limit profile", async () => {
  await using s = await socialSetup({ rateLimitClock: stillClock() });
  const { cookie } = await bothProviders(s, "nisha@example.com");
  for (let i = 0; i < PERSON_LIMITS.profile.limit; i++) {
    const res = await s.t.json("DELETE", "/api/auth/providers/github", { headers: { cookie } });
    assertEquals(res.status, 400);
    await res.body?.cancel();
  }
  const limited = await remove(s.t, "linkedin", cookie);
  assertEquals(limited.status, 429);
  assert(Number(limited.headers.get("retry-after")) > 0);
  await limited.body?.cancel();
});
