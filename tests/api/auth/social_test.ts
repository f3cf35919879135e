/**
 * Social sign-in (docs/api.md, Authentication, "Social sign-in"; docs/decisions.md, Social
 * sign-in) against fake OpenID Connect providers over real HTTP, through the real OAuth client.
 */
import { linkedProviders, resolveSocialUser } from "@/lib/auth/oauth/accounts.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { createSession, peekSession } from "@/lib/auth/sessions.ts";
import { createUser, getPasswordHash, getUser, getUserByEmail } from "@/lib/users/users.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { cookieOf, pathOf, tokenOf, waitForMail } from "./helpers.ts";
import { kvFailingCommits } from "@/tests/fixtures/failing_kv.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { authorizeAt, openCallback, signInSocially, socialSetup, startSocial } from "./social_helpers.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";

const NEW_USER = { callbackURL: "/internships", newUserCallbackURL: "/onboarding" };

async function sessionUser(t: TestApp, res: Response) {
  const cookie = cookieOf(res);
  assert(cookie?.startsWith("session="), `no session cookie: ${res.headers.get("set-cookie")}`);
  const session = await t.fetch("/api/auth/session", { headers: { cookie: cookie! } });
  return (await session.json()).user;
}

function assertSignInError(res: Response, code: string) {
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), `/sign-in?error=${code}`);
  assert(!res.headers.get("set-cookie")?.startsWith("session="), "an error must not sign the browser in");
}

Deno.test("GET sign-in/social redirects to the provider with state, PKCE S256 and the scopes, and sets a 10-minute HttpOnly binding cookie", async () => {
  await using s = await socialSetup();
  const res = await s.t.fetch("/api/auth/sign-in/social?provider=google&callbackURL=/internships");
  assertEquals(res.status, 302);
  const url = new URL(res.headers.get("location")!);
  assertEquals(url.origin + url.pathname, `${s.google.url}/authorize`);
  const q = url.searchParams;
  assertEquals(q.get("client_id"), s.google.clientId);
  assertEquals(q.get("redirect_uri"), `${s.t.origin}/api/auth/callback/google`);
  assertEquals(q.get("response_type"), "code");
  assertEquals(q.get("scope"), "openid email profile");
  assertEquals(q.get("code_challenge_method"), "S256");
  assertMatch(q.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
  assertMatch(q.get("state") ?? "", /^[A-Za-z0-9_-]{20,}$/);
  assertMatch(
    res.headers.get("set-cookie") ?? "",
    /^oauth_binding=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/,
  );
});

Deno.test("POST sign-in/social answers {url, redirect: true} with the provider URL and the binding cookie", async () => {
  await using s = await socialSetup();
  const res = await s.t.json("POST", "/api/auth/sign-in/social", { body: { provider: "linkedin", ...NEW_USER } });
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(Object.keys(body).sort(), ["redirect", "url"]);
  assertEquals(body.redirect, true);
  assertEquals(new URL(body.url).origin, s.linkedin.url);
  const binding = cookieOf(res)!;
  assertMatch(binding, /^oauth_binding=/);
  const callback = await authorizeAt({ authorizationUrl: new URL(body.url), binding });
  const done = await openCallback(s.t, callback, binding);
  assertEquals(done.headers.get("location"), "/onboarding");
});

Deno.test("sign-in/social refuses an unknown provider (PROVIDER_NOT_FOUND), one without credentials (PROVIDER_NOT_CONFIGURED) and a foreign callbackURL with 400", async () => {
  await using t = await createTestApp({ env: { GOOGLE_CLIENT_ID: "id-only" } });
  const unknown = await t.json("POST", "/api/auth/sign-in/social", { body: { provider: "github" } });
  assertEquals(unknown.status, 400);
  assertEquals(await unknown.json(), {
    error: "Provider not found",
    code: "PROVIDER_NOT_FOUND",
    message: "Provider not found",
  });
  for (const provider of ["google", "linkedin"]) {
    const res = await t.fetch(`/api/auth/sign-in/social?provider=${provider}`);
    assertEquals(res.status, 400);
    assertEquals(await res.json(), {
      error: "Provider not configured",
      code: "PROVIDER_NOT_CONFIGURED",
      message: "Provider not configured",
    });
  }
  await using s = await socialSetup();
  const foreign = await s.t.json("POST", "/api/auth/sign-in/social", {
    body: {
      provider: "google",
      newUserCallbackURL: "https://evil.example/",
    },
  });
  assertEquals(foreign.status, 400);
  assertEquals((await foreign.json()).code, "INVALID_NEW_USER_CALLBACK_URL");
  const callback = await s.t.fetch("/api/auth/sign-in/social?provider=google&callbackURL=//evil.example");
  assertEquals(callback.status, 400);
  assertEquals((await callback.json()).code, "INVALID_CALLBACK_URL");
});

Deno.test("sign-in/social opened as a page with a bad provider lands on the sign-in page with the code", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/api/auth/sign-in/social?provider=google", { headers: { accept: "text/html" } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/sign-in?error=PROVIDER_NOT_CONFIGURED");
  const unknown = await t.fetch("/api/auth/sign-in/social?provider=myspace", { headers: { accept: "text/html" } });
  assertEquals(unknown.headers.get("location"), "/sign-in?error=PROVIDER_NOT_FOUND");
});

Deno.test("a new user is created from the provider's identity, signed in and sent to newUserCallbackURL", async () => {
  await using s = await socialSetup();
  s.google.identity = {
    sub: "g-100",
    email: "Priya@Example.com",
    email_verified: true,
    name: "Priya Sharma",
    picture: "https://lh3.example.com/priya.png",
  };
  const res = await signInSocially(s.t, "google", NEW_USER);
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/onboarding");
  assertMatch(
    res.headers.get("set-cookie") ?? "",
    /^session=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/,
  );
  assertEquals(res.headers.get("clear-site-data"), '"storage"', "a new person on the phone: what it kept goes");
  const user = await sessionUser(s.t, res);
  assertEquals(user.email, "priya@example.com");
  assertEquals(user.name, "Priya Sharma");
  assertEquals(user.image, "https://lh3.example.com/priya.png");
  assertEquals(user.emailVerified, true);
  assertEquals(user.role, "user");
  assertEquals(user.createdAt, user.updatedAt);
  assertEquals(await getPasswordHash(s.t.kv, user.id), null);
  assertEquals(await linkedProviders(s.t.kv, user.id), ["google"]);
});

Deno.test("a returning user is found by the provider account and sent to callbackURL (default /)", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-7", email: "ravi@example.com", email_verified: true, name: "Ravi" };
  const first = await sessionUser(s.t, await signInSocially(s.t, "google", NEW_USER));
  s.google.identity = { sub: "g-7", email: "ravi.new@example.com", email_verified: true, name: "Ravi K" };
  const again = await signInSocially(s.t, "google", NEW_USER);
  assertEquals(again.headers.get("location"), "/internships");
  assertEquals((await sessionUser(s.t, again)).id, first.id);
  const noTarget = await signInSocially(s.t, "google");
  assertEquals(noTarget.headers.get("location"), "/");
  assertEquals(await getUserByEmail(s.t.kv, "ravi.new@example.com"), null);
});

Deno.test("a provider-verified e-mail links to the existing verified user, whose password keeps working", async () => {
  await using s = await socialSetup();
  const existing = await passwordUser(s.t, { email: "asha@example.com" });
  s.linkedin.identity = { sub: "li-1", email: "asha@example.com", email_verified: true, name: "Asha R" };
  const res = await signInSocially(s.t, "linkedin", NEW_USER);
  assertEquals(res.headers.get("location"), "/internships");
  assertEquals((await sessionUser(s.t, res)).id, existing.id);
  assertEquals(await linkedProviders(s.t.kv, existing.id), ["linkedin"]);
  assertEquals((await getUser(s.t.kv, existing.id))?.name, "Asha Rao");
  const password = await s.t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "asha@example.com", password: PASSWORD },
  });
  assertEquals(password.status, 200);
  await password.body?.cancel();
});

Deno.test("an unverified pre-registered account is taken over safely: password and sessions removed, e-mail verified", async () => {
  await using s = await socialSetup();
  const squatter = await passwordUser(s.t, { email: "victim@example.com", name: "Squatter", verified: false });
  const { token } = await createSession(s.t.kv, squatter.id);
  s.google.identity = {
    sub: "g-victim",
    email: "victim@example.com",
    email_verified: true,
    name: "Real Owner",
    picture: "https://lh3.example.com/owner.png",
  };
  const res = await signInSocially(s.t, "google", NEW_USER);
  assertEquals(res.headers.get("location"), "/internships");
  const user = await sessionUser(s.t, res);
  assertEquals(user.id, squatter.id);
  assertEquals(user.emailVerified, true);
  assertEquals(user.name, "Real Owner");
  assertEquals(user.image, "https://lh3.example.com/owner.png");
  assertEquals(await getPasswordHash(s.t.kv, squatter.id), null);
  const old = await s.t.fetch("/api/auth/session", { headers: { cookie: `session=${token}` } });
  assertEquals(await old.json(), null);
  const password = await s.t.json("POST", "/api/auth/sign-in/email", {
    body: {
      email: "victim@example.com",
      password: PASSWORD,
    },
  });
  assertEquals(password.status, 401);
  await password.body?.cancel();
});

Deno.test("taking over an account made from an unverified provider e-mail removes that provider's link", async () => {
  await using s = await socialSetup();
  const email = "victim@example.com";
  s.linkedin.identity = { sub: "li-stranger", email, email_verified: false, name: "Stranger" };
  const stranger = await sessionUser(s.t, await signInSocially(s.t, "linkedin"));
  assertEquals(stranger.emailVerified, false);
  s.google.identity = { sub: "g-owner", email, email_verified: true, name: "Owner" };
  const owner = await sessionUser(s.t, await signInSocially(s.t, "google"));
  assertEquals(owner.id, stranger.id);
  assertEquals(owner.emailVerified, true);
  assertEquals(await linkedProviders(s.t.kv, owner.id), ["google"]);
  assertEquals((await s.t.kv.get(["oauth_accounts", "linkedin", "li-stranger"])).value, null);
  assertSignInError(await signInSocially(s.t, "linkedin"), "ACCOUNT_NOT_LINKED");
  assertEquals((await sessionUser(s.t, await signInSocially(s.t, "google"))).id, owner.id);
});

Deno.test("a verified provider taking over an unverified ADMIN_EMAILS account makes it admin", async () => {
  await using s = await socialSetup({ env: { ADMIN_EMAILS: "boss@example.com" } });
  const signUp = await s.t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "Stranger", email: "boss@example.com", password: PASSWORD },
  });
  assertEquals((await signUp.json()).user.role, "user");
  s.google.identity = { sub: "g-boss", email: "boss@example.com", email_verified: true, name: "Boss" };
  const boss = await sessionUser(s.t, await signInSocially(s.t, "google"));
  assertEquals(boss.emailVerified, true);
  assertEquals(boss.role, "admin");
});

/** Every key of KV whose key or value names `text`. */
async function keysNaming(kv: Deno.Kv, text: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    const value = JSON.stringify(entry.value, (_key, v) => typeof v === "bigint" ? String(v) : v);
    if (JSON.stringify(entry.key).includes(text) || value?.includes(text)) found.push(JSON.stringify(entry.key));
  }
  return found;
}

Deno.test("a social sign-in racing an account deletion leaves no key naming the deleted person", async () => {
  await using t = await createTestApp();
  await createUser(t.kv, { name: "Admin", email: "admin@example.com", emailVerified: true, role: "admin" });
  const gone = await createUser(t.kv, { name: "Gone", email: "gone@example.com", emailVerified: true, role: "user" });
  // The deletion, its cascade included, lands between the callback's read of the user and its first commit.
  let deleted = false;
  const racing = new Proxy(t.kv, {
    get(target, name) {
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            if (!deleted) {
              deleted = true;
              const signedInNow = { createdAt: new Date().toISOString() };
              await deleteAccount(t.services, { user: gone, session: signedInNow }, { confirm: gone.email });
              await t.settled(); // its job, which `deleteAccount` does not wait for
            }
            return await commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const identity = {
    provider: "google" as const,
    accountId: "g-gone",
    email: gone.email,
    emailVerified: true,
    name: "Gone",
    picture: null,
  };
  const { user, created } = await resolveSocialUser(racing, identity, new Set());
  assert(deleted, "the deletion ran inside the sign-in");
  assert(user.id !== gone.id && created, "a new account for the provider's identity, not the deleted one");
  await createSession(t.kv, user.id);
  await sweepDeletions(t); // the deletion's second pass
  assertEquals(await keysNaming(t.kv, gone.id), []);
  // A session for the deleted person (a callback that read the user before the deletion) writes nothing either.
  await assertRejects(() => createSession(t.kv, gone.id), NotFoundError);
  assertEquals(await keysNaming(t.kv, gone.id), []);
});

Deno.test("a takeover cut off after its write has already ended the pre-registered account's sessions", async () => {
  await using t = await createTestApp();
  const squatter = await passwordUser(t, { email: "owner@example.com", verified: false });
  const { token } = await createSession(t.kv, squatter.id);
  // The takeover's one write commits; every later commit (the cleanup of the sessions) fails.
  const failing = kvFailingCommits(t.kv, (n) => n > 1);
  const identity = {
    provider: "google" as const,
    accountId: "g-owner",
    email: "owner@example.com",
    emailVerified: true,
    name: "Owner",
    picture: null,
  };
  await assertRejects(() => resolveSocialUser(failing.kv, identity, new Set()), Error, "KV went away");
  assertEquals((await getUser(t.kv, squatter.id))?.emailVerified, true, "the takeover's write landed");
  assertEquals(await peekSession(t.kv, token), null);
});

Deno.test("an e-mail the provider has not verified is never linked to an existing user: ACCOUNT_NOT_LINKED", async () => {
  await using s = await socialSetup();
  for (const verified of [true, false]) {
    const email = `taken-${verified}@example.com`;
    const existing = await passwordUser(s.t, { email, verified });
    s.google.identity = { sub: `g-${verified}`, email, email_verified: false, name: "Someone" };
    assertSignInError(await signInSocially(s.t, "google", NEW_USER), "ACCOUNT_NOT_LINKED");
    assertEquals(await linkedProviders(s.t.kv, existing.id), []);
    assertEquals(await getUser(s.t.kv, existing.id), existing);
    assert(await getPasswordHash(s.t.kv, existing.id));
  }
});

Deno.test("a new user with an unverified provider e-mail is created unverified and never made admin", async () => {
  await using s = await socialSetup({ env: { ADMIN_EMAILS: "boss@example.com, chief@example.com" } });
  s.google.identity = { sub: "g-boss", email: "boss@example.com", email_verified: false, name: "Not The Boss" };
  const unverified = await sessionUser(s.t, await signInSocially(s.t, "google"));
  assertEquals(unverified.emailVerified, false);
  assertEquals(unverified.role, "user");
  s.linkedin.identity = { sub: "li-chief", email: "chief@example.com", email_verified: true, name: "Chief" };
  const admin = await sessionUser(s.t, await signInSocially(s.t, "linkedin"));
  assertEquals(admin.role, "admin");
});

Deno.test("a tampered or missing state ends on the sign-in page with INVALID_STATE", async () => {
  await using s = await socialSetup();
  const started = await startSocial(s.t, { provider: "google", ...NEW_USER });
  const callback = new URL(await authorizeAt(started), s.t.origin);
  const tampered = new URL(callback);
  const state = callback.searchParams.get("state")!;
  // Another last character: appending "A" to a state that ends in "A" left it genuine (1 run in 64).
  tampered.searchParams.set("state", state.slice(0, -1) + (state.endsWith("A") ? "B" : "A"));
  assertSignInError(await openCallback(s.t, tampered.pathname + tampered.search, started.binding), "INVALID_STATE");
  const missing = new URL(callback);
  missing.searchParams.delete("state");
  assertSignInError(await openCallback(s.t, missing.pathname + missing.search, started.binding), "INVALID_STATE");
  const genuine = await openCallback(s.t, callback.pathname + callback.search, started.binding);
  assertEquals(genuine.headers.get("location"), "/onboarding");
});

Deno.test("a state is single-use: replaying a finished callback is INVALID_STATE", async () => {
  await using s = await socialSetup();
  const started = await startSocial(s.t, { provider: "google" });
  const callback = await authorizeAt(started);
  assertEquals((await openCallback(s.t, callback, started.binding)).headers.get("location"), "/");
  assertSignInError(await openCallback(s.t, callback, started.binding), "INVALID_STATE");
});

Deno.test("a callback opened in another browser is INVALID_STATE and leaves the state to its own browser", async () => {
  await using s = await socialSetup();
  const started = await startSocial(s.t, { provider: "google", ...NEW_USER });
  const callback = await authorizeAt(started);
  assertSignInError(await openCallback(s.t, callback, ""), "INVALID_STATE");
  const other = await startSocial(s.t, { provider: "google" });
  assert(other.binding !== started.binding);
  assertSignInError(await openCallback(s.t, callback, other.binding), "INVALID_STATE");
  assertEquals((await openCallback(s.t, callback, started.binding)).headers.get("location"), "/onboarding");
});

Deno.test("a state started for one provider is refused at the other provider's callback", async () => {
  await using s = await socialSetup();
  const started = await startSocial(s.t, { provider: "google" });
  const callback = (await authorizeAt(started)).replace("/callback/google", "/callback/linkedin");
  assertSignInError(await openCallback(s.t, callback, started.binding), "INVALID_STATE");
});

Deno.test("denied consent (error=access_denied) ends on the sign-in page with ACCESS_DENIED and spends the state", async () => {
  await using s = await socialSetup();
  s.google.deny = true;
  const started = await startSocial(s.t, { provider: "google" });
  const callback = await authorizeAt(started);
  assertMatch(callback, /error=access_denied/);
  assertSignInError(await openCallback(s.t, callback, started.binding), "ACCESS_DENIED");
  assertSignInError(await openCallback(s.t, callback, started.binding), "INVALID_STATE");
  assertEquals(s.google.tokenRequests.length, 0);
});

Deno.test("a provider that answers 503, hangs past the timeout or is unreachable gives PROVIDER_UNAVAILABLE", async () => {
  await using s = await socialSetup({ oauth: { timeoutMs: 300 } });
  s.google.mode = "down";
  assertSignInError(await signInSocially(s.t, "google"), "PROVIDER_UNAVAILABLE");
  // The provider never answers: only the timeout ends the request.
  s.google.mode = "hang";
  assertSignInError(await signInSocially(s.t, "google"), "PROVIDER_UNAVAILABLE");
  const begun = await startSocial(s.t, { provider: "linkedin" });
  const callback = await authorizeAt(begun);
  await s.linkedin.close();
  assertSignInError(await openCallback(s.t, callback, begun.binding), "PROVIDER_UNAVAILABLE");
});

Deno.test("a refused token exchange (wrong client secret) gives OAUTH_FAILED", async () => {
  await using s = await socialSetup({ env: { GOOGLE_CLIENT_SECRET: "not-the-secret" } });
  assertSignInError(await signInSocially(s.t, "google"), "OAUTH_FAILED");
  assertEquals(s.google.tokenRequests.length, 1);
});

Deno.test("an identity without an e-mail gives EMAIL_NOT_FOUND", async () => {
  await using s = await socialSetup();
  s.linkedin.identity = { sub: "li-anon", name: "No Mail" };
  assertSignInError(await signInSocially(s.t, "linkedin"), "EMAIL_NOT_FOUND");
});

Deno.test("a callback for an unknown or unconfigured provider ends on the sign-in page", async () => {
  await using t = await createTestApp();
  assertSignInError(await t.fetch("/api/auth/callback/myspace?code=x&state=y"), "PROVIDER_NOT_FOUND");
  assertSignInError(await t.fetch("/api/auth/callback/google?code=x&state=y"), "PROVIDER_NOT_CONFIGURED");
});

Deno.test("the token request authenticates with client_secret_post and carries the PKCE verifier; the fake refuses Basic", async () => {
  await using s = await socialSetup();
  await sessionUser(s.t, await signInSocially(s.t, "google"));
  await sessionUser(s.t, await signInSocially(s.t, "linkedin"));
  for (const fake of [s.google, s.linkedin]) {
    assertEquals(fake.tokenRequests.length, 1);
    const [request] = fake.tokenRequests;
    assertEquals(request.authorization, null);
    assertEquals(request.body.client_id, fake.clientId);
    assertEquals(request.body.client_secret, fake.clientSecret);
    assertEquals(request.body.grant_type, "authorization_code");
    assertMatch(request.body.code_verifier, /^[A-Za-z0-9_-]{43,128}$/);
  }
  const basic = await fetch(`${s.google.url}/token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${s.google.clientId}:${s.google.clientSecret}`)}` },
    body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: "x" }),
  });
  assertEquals(basic.status, 401);
  assertEquals((await basic.json()).error, "invalid_client");
});

Deno.test("both providers sign in to one user when they vouch for the same e-mail", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-1", email: "meera@example.com", email_verified: true, name: "Meera" };
  s.linkedin.identity = { sub: "li-1", email: "meera@example.com", email_verified: true, name: "Meera L" };
  const viaGoogle = await signInSocially(s.t, "google", NEW_USER);
  assertEquals(viaGoogle.headers.get("location"), "/onboarding");
  const viaLinkedIn = await signInSocially(s.t, "linkedin", NEW_USER);
  assertEquals(viaLinkedIn.headers.get("location"), "/internships");
  const user = await sessionUser(s.t, viaLinkedIn);
  assertEquals(user.id, (await sessionUser(s.t, viaGoogle)).id);
  assertEquals(await linkedProviders(s.t.kv, user.id), ["google", "linkedin"]);
});

Deno.test("concurrent callbacks for one new identity create one user", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-race", email: "race@example.com", email_verified: true, name: "Racer" };
  const flows = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const started = await startSocial(s.t, { provider: "google", ...NEW_USER });
      return { callback: await authorizeAt(started), binding: started.binding };
    }),
  );
  const results = await Promise.all(flows.map((f) => openCallback(s.t, f.callback, f.binding)));
  const users = await Promise.all(results.map((res) => sessionUser(s.t, res)));
  assertEquals(new Set(users.map((u) => u.id)).size, 1);
  assertEquals(results.filter((res) => res.headers.get("location") === "/onboarding").length, 1);
  assertEquals(await linkedProviders(s.t.kv, users[0].id), ["google"]);
});

Deno.test("on an https origin the binding cookie is __Host- and Secure, and the flow signs in with the __Host- session", async () => {
  await using s = await socialSetup({ env: { APP_URL: "https://careers.example", AUTH_SECRET: "s".repeat(32) } });
  const res = await s.t.fetch("https://careers.example/api/auth/sign-in/social?provider=google");
  await res.body?.cancel();
  assertMatch(
    res.headers.get("set-cookie") ?? "",
    /^__Host-oauth_binding=[^;]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
  );
  const authorizationUrl = new URL(res.headers.get("location")!);
  assertEquals(authorizationUrl.searchParams.get("redirect_uri"), "https://careers.example/api/auth/callback/google");
  const callback = await authorizeAt({ authorizationUrl, binding: cookieOf(res)! });
  const done = await openCallback(s.t, `https://careers.example${callback}`, cookieOf(res)!);
  assertEquals(done.headers.get("location"), "/");
  assertMatch(done.headers.get("set-cookie") ?? "", /^__Host-session=[^;]+;.*; Secure; SameSite=Lax$/);
});

Deno.test("a provider name is cleaned (control characters, 100-character limit) and falls back to the e-mail's local part; a non-http picture is dropped", async () => {
  await using s = await socialSetup();
  s.google.identity = {
    sub: "g-odd",
    email: "odd@example.com",
    email_verified: true,
    name: `Mallory\r\nSubject: hi ${"x".repeat(150)}`,
    picture: "javascript:alert(1)",
  };
  const odd = await sessionUser(s.t, await signInSocially(s.t, "google"));
  assertEquals(odd.name, `Mallory Subject: hi ${"x".repeat(80)}`);
  assertEquals(odd.image, null);
  s.linkedin.identity = { sub: "li-anon", email: "nameless.one@example.com", email_verified: true };
  assertEquals((await sessionUser(s.t, await signInSocially(s.t, "linkedin"))).name, "nameless.one");
});

/** Asks for a verification mail to `email` and returns its link (from the mail) as a path. */
async function verificationLink(t: TestApp, email: string): Promise<string> {
  const before = t.mails.filter((m) => m.to === email).length;
  const res = await t.json("POST", "/api/auth/send-verification-email", { body: { email } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  return pathOf((await waitForMail(t, email, before + 1)).link);
}

Deno.test("a press on the confirm page does not verify a password-less account; a reset takes it from its maker", async () => {
  await using s = await socialSetup();
  const email = "victim@example.com";
  s.linkedin.identity = { sub: "li-stranger", email, email_verified: false, name: "Stranger" };
  const strangerCookie = cookieOf(await signInSocially(s.t, "linkedin"))!;
  const stranger = await getUserByEmail(s.t.kv, email);
  // The address's owner opens the link the stranger asked for, in their own browser.
  const opened = await s.t.fetch(await verificationLink(s.t, email));
  assertEquals(opened.status, 302);
  const confirm = await s.t.fetch(opened.headers.get("location")!);
  const html = await confirm.text();
  assertEquals(confirm.status, 200);
  assert(html.includes("This account has no password") && !html.includes("Verify my e-mail"), "no button to press");
  assert(html.includes('href="/forgot-password"'), "the way to take the address back");
  const hindi = await (await s.t.fetch(`${opened.headers.get("location")!}&lang=hi`)).text();
  assert(hindi.includes("इस अकाउंट का कोई पासवर्ड नहीं है"), "the page in Hindi");
  const token = new URL(opened.headers.get("location")!, s.t.origin).searchParams.get("token")!;
  const press = await s.t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: s.t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  assertEquals(press.status, 403, "a press made anyway");
  await press.body?.cancel();
  assertEquals((await getUserByEmail(s.t.kv, email))?.emailVerified, false, "nothing verified");
  assertEquals(await linkedProviders(s.t.kv, stranger!.id), ["linkedin"]);
  // The owner chooses a password instead: the stranger's link and session go in the reset's write.
  const forgot = await s.t.json("POST", "/api/auth/forget-password", { body: { email } });
  await forgot.body?.cancel();
  const reset = await s.t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: PASSWORD, token: tokenOf((await waitForMail(s.t, email, 2)).link) },
  });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  assertEquals(await linkedProviders(s.t.kv, stranger!.id), [], "the stranger's link is gone");
  assertEquals((await s.t.kv.get(["oauth_accounts", "linkedin", "li-stranger"])).value, null);
  assertEquals(await (await s.t.fetch("/api/auth/session", { headers: { cookie: strangerCookie } })).json(), null);
  assertSignInError(await signInSocially(s.t, "linkedin"), "ACCOUNT_NOT_LINKED");
  // The same link now asks for the password the owner chose, and verifies with it.
  assert((await (await s.t.fetch(opened.headers.get("location")!)).text()).includes('type="password"'));
  const verified = await s.t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: s.t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, password: PASSWORD }),
  });
  assertEquals(verified.status, 303);
  await verified.body?.cancel();
  assertEquals((await getUserByEmail(s.t.kv, email))?.emailVerified, true);
  assertEquals(await linkedProviders(s.t.kv, stranger!.id), []);
});

Deno.test("the maker of a password-less account verifies it by signing in the same way and opening the link again", async () => {
  await using s = await socialSetup();
  const email = "li-only@example.com";
  s.linkedin.identity = { sub: "li-only", email, email_verified: false, name: "Lina" };
  await signInSocially(s.t, "linkedin");
  const link = await verificationLink(s.t, email);
  const elsewhere = await s.t.fetch(link); // the phone's mail app: not signed in there
  assertEquals(elsewhere.status, 302);
  await elsewhere.body?.cancel();
  const phone = cookieOf(await signInSocially(s.t, "linkedin"))!;
  const again = await s.t.fetch(link, { headers: { cookie: phone } });
  assertEquals(again.status, 302);
  assertEquals(again.headers.get("location"), "/");
  await again.body?.cancel();
  const user = await getUserByEmail(s.t.kv, email);
  assertEquals(user?.emailVerified, true);
  assertEquals(await linkedProviders(s.t.kv, user!.id), ["linkedin"], "the maker keeps their sign-in");
});
