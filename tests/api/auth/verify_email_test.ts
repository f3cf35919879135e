import { TOKEN_TTL_MS, type TokenRecord } from "@/lib/auth/verification.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { cookieOf, lastMailTo, pathOf, tokenOf, waitForMail } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

/**
 * Signs up `email` and returns the verification link from the mail, and the `Cookie` header of the browser that signed
 * up (its verification binding cookie), for following the link in that browser.
 */
async function signUpLink(
  t: TestApp,
  email = "new@example.com",
  callbackURL?: string,
): Promise<{ link: string; cookie: string }> {
  const res = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "New User",
      email,
      password: PASSWORD,
      callbackURL,
    },
  });
  if (res.status !== 200) throw new Error(`sign-up ${res.status}`);
  await res.body?.cancel();
  return { link: (await lastMailTo(t, email)).link, cookie: cookieOf(res)! };
}

function withoutCallback(link: string): string {
  return `/api/auth/verify-email?token=${tokenOf(link)}`;
}

Deno.test("following the verification link verifies the e-mail, signs in and redirects to callbackURL", async () => {
  await using t = await createTestApp();
  const { link, cookie: browser } = await signUpLink(t, "new@example.com", "/onboarding");
  const res = await t.fetch(pathOf(link), { headers: { cookie: browser } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/onboarding");
  const cookie = cookieOf(res)!;
  assertMatch(cookie, /^session=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  assertEquals(res.headers.get("clear-site-data"), '"storage"', "a new person on the phone: what it kept goes");
  assertEquals((await getUserByEmail(t.kv, "new@example.com"))?.emailVerified, true);
  const session = await (await t.fetch("/api/auth/session", { headers: { cookie } })).json();
  assertEquals(session.user.email, "new@example.com");
  assertEquals(session.user.emailVerified, true);
  const signIn = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "new@example.com", password: PASSWORD },
  });
  assertEquals(signIn.status, 200);
  await signIn.body?.cancel();
});

Deno.test("verify-email without callbackURL answers 200 {status: true, user} with the cookie", async () => {
  await using t = await createTestApp();
  const { link, cookie: browser } = await signUpLink(t);
  const res = await t.fetch(withoutCallback(link), { headers: { cookie: browser } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  assert(cookieOf(res));
  const body = await res.json();
  assertEquals(body.status, true);
  assertEquals(body.user.email, "new@example.com");
  assertEquals(body.user.emailVerified, true);
});

Deno.test("verify-email with an empty callbackURL redirects to /", async () => {
  await using t = await createTestApp();
  const { link, cookie: browser } = await signUpLink(t);
  const res = await t.fetch(`${withoutCallback(link)}&callbackURL=`, { headers: { cookie: browser } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/");
});

Deno.test("a verification token is single use: the second use is INVALID_TOKEN", async () => {
  await using t = await createTestApp();
  const { link, cookie } = await signUpLink(t, "new@example.com", "/welcome?from=mail");
  assertEquals((await t.fetch(pathOf(link), { headers: { cookie } })).status, 302);
  const again = await t.fetch(pathOf(link), { headers: { cookie } });
  assertEquals(again.status, 302);
  assertEquals(again.headers.get("location"), "/welcome?from=mail&error=INVALID_TOKEN");
  assertEquals(again.headers.get("set-cookie"), null);
  const json = await t.fetch(withoutCallback(link), { headers: { cookie } });
  assertEquals(json.status, 400);
  assertEquals(json.headers.get("content-type"), "application/json");
  assertEquals(await json.json(), { error: "Invalid token", code: "INVALID_TOKEN", message: "Invalid token" });
});

Deno.test("of 20 concurrent uses of one verification token exactly one wins", async () => {
  await using t = await createTestApp();
  const { link, cookie } = await signUpLink(t);
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => t.fetch(withoutCallback(link), { headers: { cookie } })),
  );
  const statuses = responses.map((r) => r.status);
  await Promise.all(responses.map((r) => r.body?.cancel()));
  assertEquals(statuses.filter((s) => s === 200).length, 1);
  assertEquals(statuses.filter((s) => s === 400).length, 19);
});

Deno.test("an expired verification token is INVALID_TOKEN and leaves the e-mail unverified", async () => {
  await using t = await createTestApp();
  const { link } = await signUpLink(t);
  const key = ["auth_tokens", await sha256Hex(tokenOf(link))];
  const record = (await t.kv.get<TokenRecord>(key)).value!;
  assertEquals(Date.parse(record.expiresAt) - Date.parse(record.createdAt), TOKEN_TTL_MS);
  await t.kv.set(key, { ...record, expiresAt: new Date(Date.now() - 1).toISOString() });
  const res = await t.fetch(withoutCallback(link));
  assertEquals(res.status, 400);
  assertEquals((await res.json()).code, "INVALID_TOKEN");
  assertEquals((await getUserByEmail(t.kv, "new@example.com"))?.emailVerified, false);
});

Deno.test("verify-email refuses missing, malformed, unknown, huge and reset tokens", async () => {
  await using t = await createTestApp();
  await signUpLink(t);
  const forget = await t.json("POST", "/api/auth/forget-password", { body: { email: "new@example.com" } });
  await forget.body?.cancel();
  const resetToken = tokenOf((await waitForMail(t, "new@example.com", 2)).link);
  for (
    const query of [
      "",
      "?token=",
      "?token=abc",
      `?token=${"A".repeat(43)}`,
      `?token=${"x".repeat(5000)}`,
      `?token=${resetToken}`,
    ]
  ) {
    const res = await t.fetch(`/api/auth/verify-email${query}`);
    assertEquals(res.status, 400, query.slice(0, 40));
    assertEquals(await res.json(), { error: "Invalid token", code: "INVALID_TOKEN", message: "Invalid token" });
  }
  assertEquals((await getUserByEmail(t.kv, "new@example.com"))?.emailVerified, false);
});

Deno.test("verify-email with a foreign callbackURL is refused with 400 and does not spend the token", async () => {
  await using t = await createTestApp();
  const { link, cookie } = await signUpLink(t);
  for (const callbackURL of ["https://evil.example/", "//evil.example/", "/\\evil.example", "http://localhost:8001/"]) {
    const res = await t.fetch(`${withoutCallback(link)}&callbackURL=${encodeURIComponent(callbackURL)}`);
    assertEquals(res.status, 400, callbackURL);
    assertEquals(res.headers.get("location"), null);
    assertEquals((await res.json()).code, "INVALID_CALLBACK_URL");
  }
  assertEquals((await t.fetch(withoutCallback(link), { headers: { cookie } })).status, 200);
});

Deno.test("verify-email accepts an absolute callbackURL on the platform's own origin", async () => {
  await using t = await createTestApp();
  const { link, cookie: browser } = await signUpLink(t);
  const res = await t.fetch(`${withoutCallback(link)}&callbackURL=${encodeURIComponent(`${t.origin}/dashboard`)}`, {
    headers: { cookie: browser },
  });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), `${t.origin}/dashboard`);
});

/**
 * Opens the confirm page a GET of a link sent `browser` (cookies) to and presses its button, with `password` in its
 * password field when given; returns both answers.
 */
async function confirmOnPage(t: TestApp, location: string, cookie?: string, password?: string) {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const page = await t.fetch(location, { headers });
  const html = await page.text();
  const fields = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(([, name, value]) => [
      name,
      value.replaceAll("&amp;", "&"),
    ]),
  );
  if (password !== undefined) fields.set("password", password);
  const post = await t.fetch("/verify-email", {
    method: "POST",
    headers: { ...headers, origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: fields,
  });
  await post.body?.cancel();
  return { page, html, post };
}

Deno.test("a GET from a browser that did not ask for the link (a mail scanner) verifies nothing: the confirm page does", async () => {
  await using t = await createTestApp({ env: { ADMIN_EMAILS: "boss@example.com" } });
  // A stranger signs up with an address of ADMIN_EMAILS; the mail gateway of its owner fetches the link (no cookies).
  const stranger = await signUpLink(t, "boss@example.com", "/me/resume");
  const scan = await t.fetch(pathOf(stranger.link), { headers: { "sec-fetch-site": "none" } });
  assertEquals(scan.status, 302);
  assertEquals(
    scan.headers.get("location"),
    `/verify-email?token=${tokenOf(stranger.link)}&callbackURL=%2Fme%2Fresume`,
  );
  assertEquals(scan.headers.get("set-cookie"), null);
  const boss = (await getUserByEmail(t.kv, "boss@example.com"))!;
  assertEquals([boss.emailVerified, boss.role], [false, "user"]);
  const signIn = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "boss@example.com", password: PASSWORD },
  });
  assertEquals(signIn.status, 403, "still unverified: the stranger cannot sign in");
  await signIn.body?.cancel();

  // The page changes nothing either, in English or Hindi, and its button (a plain form) verifies without a session.
  const hindi = await (await t.fetch(`${scan.headers.get("location")}&lang=hi`)).text();
  assert(hindi.includes("मेरा ई-मेल वेरिफ़ाई करें"), "the page in Hindi");
  assertEquals((await getUserByEmail(t.kv, "boss@example.com"))?.emailVerified, false);
  // The address's owner, who never chose the stranger's password, presses: nothing is verified.
  const { html: asking, post: none } = await confirmOnPage(t, scan.headers.get("location")!);
  assert(asking.includes('type="password"'), "the page asks for the account's password");
  assertEquals(none.status, 401, "no password");
  // An empty password is asked for, not called the wrong one.
  const empty = await t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: tokenOf(stranger.link), password: "" }),
  });
  assertEquals(empty.status, 401, "an empty password");
  const emptyHtml = await empty.text();
  assert(emptyHtml.includes("Enter your password.") && !emptyHtml.includes("not this account"), emptyHtml);
  const wrong = await t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: tokenOf(stranger.link), password: "a guess of the owner" }),
  });
  assertEquals(wrong.status, 401, "a wrong password");
  assertMatch(await wrong.text(), /That is not this account&#39;s password|That is not this account's password/);
  assertEquals((await getUserByEmail(t.kv, "boss@example.com"))!.emailVerified, false, "still unverified");
  // The person who signed up, on another device, gives their password once.
  const { page, html, post } = await confirmOnPage(t, scan.headers.get("location")!, undefined, PASSWORD);
  assertEquals(page.status, 200);
  assert(html.includes("Verify my e-mail") && html.includes("If you did not create an account here"), html);
  assertEquals(post.status, 303);
  assertEquals(post.headers.get("location"), "/sign-in?callbackURL=%2Fme%2Fresume&verified=1&email=boss%40example.com");
  assertEquals(post.headers.get("set-cookie"), null, "no session");
  const verified = (await getUserByEmail(t.kv, "boss@example.com"))!;
  assertEquals([verified.emailVerified, verified.role], [true, "admin"]);
  const english = await (await t.fetch(post.headers.get("location")!)).text();
  assert(english.includes("Your e-mail is verified") && english.includes("did not sign you in"), "says so");
  assert(english.includes("the way you signed up"), "not only with a password: the account may have none");
  assertMatch(
    english,
    /<input[^>]*name="email"[^>]*value="boss@example.com"/,
    "the address filled in: only the password to type",
  );

  // The link is spent: the page says so, and so does the GET.
  const spent = await t.fetch(scan.headers.get("location")!);
  assertEquals(spent.status, 400);
  assert((await spent.text()).includes("This verification link has expired or was already used"));
  const again = await t.fetch(pathOf(stranger.link));
  assertEquals(again.headers.get("location"), "/me/resume?error=INVALID_TOKEN");
});

Deno.test("the confirm page speaks the language of the person the link names", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", "/api/auth/sign-up/email?lang=hi", {
    body: { name: "Asha", email: "asha@example.com", password: PASSWORD },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const link = (await lastMailTo(t, "asha@example.com")).link;
  const scan = await t.fetch(pathOf(link));
  const page = await (await t.fetch(scan.headers.get("location")!)).text();
  assert(page.includes("मेरा ई-मेल वेरिफ़ाई करें"), "in Hindi");
});

Deno.test("verify-email while signed in as someone else verifies only on the confirm page, and keeps that session", async () => {
  await using t = await createTestApp();
  const victim = await createTestUser(t);
  const { link } = await signUpLink(t, "attacker@example.com");
  const res = await t.fetch(withoutCallback(link), { headers: { cookie: victim.cookie } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), `/verify-email?token=${tokenOf(link)}`);
  assertEquals(res.headers.get("set-cookie"), null);
  assertEquals((await getUserByEmail(t.kv, "attacker@example.com"))?.emailVerified, false);
  const { link: again } = await signUpLink(t, "attacker2@example.com", "/onboarding");
  const redirect = await t.fetch(pathOf(again), { headers: { cookie: victim.cookie } });
  assertEquals(redirect.status, 302);
  const { post } = await confirmOnPage(t, redirect.headers.get("location")!, victim.cookie, PASSWORD);
  assertEquals(post.status, 303);
  assertEquals(post.headers.get("location"), "/onboarding");
  assertEquals(post.headers.get("set-cookie"), null);
  assertEquals((await getUserByEmail(t.kv, "attacker2@example.com"))?.emailVerified, true);
  const still = await (await t.fetch("/api/auth/session", { headers: { cookie: victim.cookie } })).json();
  assertEquals(still.user.id, victim.user.id);
});

Deno.test("a browser bound to another sign-up is sent to the confirm page and not signed in", async () => {
  await using t = await createTestApp();
  const attacker = await signUpLink(t, "attacker@example.com");
  const victim = await signUpLink(t, "victim@example.com");
  const res = await t.fetch(withoutCallback(attacker.link), { headers: { cookie: victim.cookie } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), `/verify-email?token=${tokenOf(attacker.link)}`);
  assertEquals(res.headers.get("set-cookie"), null);
  const { post } = await confirmOnPage(t, res.headers.get("location")!, victim.cookie, PASSWORD);
  assertEquals(post.headers.get("location"), "/sign-in?verified=1&email=attacker%40example.com");
  assertEquals(post.headers.get("set-cookie"), null, "no session for a browser bound to another sign-up");
  assertEquals((await getUserByEmail(t.kv, "attacker@example.com"))?.emailVerified, true);
  assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie: victim.cookie } })).json(), null);
});

Deno.test("the confirm page's button is refused from another site (login CSRF)", async () => {
  await using t = await createTestApp();
  const { link } = await signUpLink(t);
  const res = await t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: tokenOf(link) }),
  });
  assertEquals(res.status, 403);
  await res.body?.cancel();
  assertEquals((await getUserByEmail(t.kv, "new@example.com"))?.emailVerified, false);
});

Deno.test("verify-email with the same user's session renews it as a signed-in verification", async () => {
  await using t = await createTestApp();
  const { link } = await signUpLink(t);
  const user = (await getUserByEmail(t.kv, "new@example.com"))!;
  const { token } = await createSession(t.kv, user.id);
  const res = await t.fetch(withoutCallback(link), { headers: { cookie: `session=${token}` } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const cookie = cookieOf(res)!;
  assert(cookie && cookie !== `session=${token}`);
  assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie: `session=${token}` } })).json(), null);
  const session = await (await t.fetch("/api/auth/session", { headers: { cookie } })).json();
  assertEquals(session.user.email, "new@example.com");
  assertEquals(session.user.emailVerified, true);
});

Deno.test("send-verification-email answers {status: true} always and mails only unverified users, once per 5 minutes", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "pending@example.com", verified: false });
  await passwordUser(t, { email: "done@example.com" });
  // One browser asks four times: the first answer gives it its binding cookie, which the later answers keep (the
  // two requests for the pending address start two resends, and either may be the one that mails).
  let browser: string | undefined;
  for (const email of ["pending@example.com", "PENDING@example.com", "done@example.com", "nobody@example.com"]) {
    const res = await t.json("POST", "/api/auth/send-verification-email", {
      body: { email, callbackURL: "/welcome" },
      headers: browser ? { cookie: browser } : {},
    });
    assertEquals(res.status, 200, email);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { status: true });
    browser ??= cookieOf(res);
    assertEquals(cookieOf(res), browser, `${email}: the browser keeps its binding`);
  }
  await waitForMail(t, "pending@example.com");
  assertEquals(t.mails.map((m) => m.to), ["pending@example.com"]);
  const res = await t.fetch(pathOf(t.mails[0].link), { headers: { cookie: browser! } });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/welcome");
});

Deno.test("send-verification-email refuses bad input and foreign callbackURLs with 400", async () => {
  await using t = await createTestApp();
  for (
    const body of [{}, { email: 5 }, { email: "x" }, { email: "a@example.com", callbackURL: "https://evil.example" }]
  ) {
    const res = await t.json("POST", "/api/auth/send-verification-email", { body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertMatch((await res.json()).code, /^(VALIDATION_ERROR|INVALID_CALLBACK_URL)$/);
  }
});

Deno.test("an account deleted while its link is confirmed leaves the link invalid, not a missing user", async () => {
  await using t = await createTestApp();
  const { link } = await signUpLink(t, "gone@example.com");
  const gone = (await getUserByEmail(t.kv, "gone@example.com"))!;
  const location = (await t.fetch(pathOf(link))).headers.get("location")!;
  const kv = t.kv as unknown as { get: Deno.Kv["get"] };
  const real = kv.get.bind(t.kv);
  let armed = false;
  let deleted = false;
  // The deletion lands right after the confirmation first reads the user, before the address is set verified.
  kv.get = (async (key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) => {
    const read = await real(key, options);
    if (armed && !deleted && key[0] === "users" && key[1] === gone.id) {
      deleted = true;
      await deleteAccount(t.services, { user: gone, session: { createdAt: new Date().toISOString() } }, {
        confirm: gone.email,
        password: PASSWORD,
      });
    }
    return read;
  }) as Deno.Kv["get"];
  const page = await t.fetch(location);
  const html = await page.text();
  const fields = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(([, name, value]) => [name, value]),
  );
  armed = true;
  const post = await t.fetch("/verify-email", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: fields,
  });
  kv.get = real;
  assert(deleted, "the deletion ran meanwhile");
  assertEquals(post.status, 400);
  assert((await post.text()).includes("This verification link has expired or was already used"));
  assertEquals(await getUserByEmail(t.kv, "gone@example.com"), null);
  await t.settled();
});
