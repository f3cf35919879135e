import { createUser } from "@/lib/users/users.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { cookieOf, lastMailTo } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

const PATH = "/api/auth/sign-in/email";
const INVALID = {
  error: "Invalid email or password",
  code: "INVALID_EMAIL_OR_PASSWORD",
  message: "Invalid email or password",
};

Deno.test("sign-in answers {redirect: false, token: null, user} and sets an HTTP-only session cookie", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const res = await t.json("POST", PATH, { body: { email: "ASHA@example.com", password: PASSWORD } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  const body = await res.json();
  assertEquals(body.redirect, false);
  assertEquals(body.token, null);
  assertEquals(body.user.id, user.id);
  assertEquals(body.user.createdAt, user.createdAt);
  assertEquals(body.user.updatedAt, user.updatedAt);
  const setCookie = res.headers.getSetCookie().find((line) => line.startsWith("session=")) ?? "";
  assertMatch(setCookie, /^session=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  assertEquals(res.headers.getSetCookie().length, 2, "the session and the known-device cookie");
  assert(!JSON.stringify(body).includes(cookieOf(res)!.slice("session=".length)));
  const session = await t.fetch("/api/auth/session", { headers: { cookie: cookieOf(res)! } });
  assertEquals((await session.json()).user.id, user.id);
});

Deno.test("sign-in with rememberMe: false sets a browser-session cookie (no Max-Age)", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const res = await t.json("POST", PATH, {
    body: { email: "asha@example.com", password: PASSWORD, rememberMe: false },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const setCookie = res.headers.getSetCookie().find((line) => line.startsWith("session=")) ?? "";
  assertMatch(setCookie, /^session=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
});

Deno.test("sign-in on an https origin uses the Secure __Host- cookie", async () => {
  await using t = await createTestApp({ env: { APP_URL: "https://careers.example", AUTH_SECRET: "s".repeat(32) } });
  await passwordUser(t, { email: "asha@example.com" });
  const res = await t.fetch("https://careers.example" + PATH, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://careers.example" },
    body: JSON.stringify({ email: "asha@example.com", password: PASSWORD }),
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  assertMatch(
    res.headers.get("set-cookie") ?? "",
    /^__Host-session=[^;]+;.*; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
  );
});

Deno.test("sign-in with a wrong password and with an unknown e-mail give the same 401", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const wrong = await t.json("POST", PATH, { body: { email: "asha@example.com", password: "not the password" } });
  const unknown = await t.json("POST", PATH, { body: { email: "nobody@example.com", password: "not the password" } });
  for (const res of [wrong, unknown]) {
    assertEquals(res.status, 401);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(res.headers.get("set-cookie"), null);
    assertEquals(await res.json(), INVALID);
  }
});

Deno.test("sign-in of a user without a password (social only) is 401", async () => {
  await using t = await createTestApp();
  await createUser(t.kv, { name: "Social", email: "social@example.com", emailVerified: true, role: "user" });
  const res = await t.json("POST", PATH, { body: { email: "social@example.com", password: PASSWORD } });
  assertEquals(res.status, 401);
  assertEquals(await res.json(), INVALID);
});

Deno.test("sign-in is refused while the e-mail is unverified: 403 EMAIL_NOT_VERIFIED and one fresh mail per 5 minutes", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "new@example.com", verified: false });
  const first = await t.json("POST", PATH, {
    body: { email: "new@example.com", password: PASSWORD, callbackURL: "/welcome" },
  });
  assertEquals(first.status, 403);
  assertEquals(first.headers.get("set-cookie"), null);
  assertEquals(await first.json(), {
    error: "Email not verified",
    code: "EMAIL_NOT_VERIFIED",
    message: "Email not verified",
  });
  await t.settled();
  assertEquals(t.mails.length, 1);
  assertEquals(new URL((await lastMailTo(t, "new@example.com")).link).searchParams.get("callbackURL"), "/welcome");
  const second = await t.json("POST", PATH, { body: { email: "new@example.com", password: PASSWORD } });
  assertEquals(second.status, 403);
  await second.body?.cancel();
  await t.settled();
  assertEquals(t.mails.length, 1);
});

Deno.test("sign-in of an unverified user with a wrong password is 401 and sends no mail", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "new@example.com", verified: false });
  const res = await t.json("POST", PATH, { body: { email: "new@example.com", password: "wrong password" } });
  assertEquals(res.status, 401);
  assertEquals(await res.json(), INVALID);
  await t.settled();
  assertEquals(t.mails.length, 0);
});

Deno.test("sign-in right after sign-up sends no second mail within 5 minutes", async () => {
  await using t = await createTestApp();
  const up = await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "N", email: "n@example.com", password: PASSWORD },
  });
  assertEquals(up.status, 200);
  await up.body?.cancel();
  const res = await t.json("POST", PATH, { body: { email: "n@example.com", password: PASSWORD } });
  assertEquals(res.status, 403);
  await res.body?.cancel();
  await t.settled();
  assertEquals(t.mails.length, 1);
});

Deno.test("sign-in while signed in replaces the old session", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const first = await t.json("POST", PATH, { body: { email: "asha@example.com", password: PASSWORD } });
  await first.body?.cancel();
  const oldCookie = cookieOf(first)!;
  const second = await t.json("POST", PATH, {
    body: { email: "asha@example.com", password: PASSWORD },
    headers: { cookie: oldCookie },
  });
  assertEquals(second.status, 200);
  await second.body?.cancel();
  assert(cookieOf(second) !== oldCookie);
  assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie: oldCookie } })).json(), null);
  const current = await t.fetch("/api/auth/session", { headers: { cookie: cookieOf(second)! } });
  assert((await current.json()).session);
});

Deno.test("sign-in refuses bad input on every field with 400 VALIDATION_ERROR", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const good = { email: "asha@example.com", password: PASSWORD };
  const cases: [string, unknown][] = [
    ["body", null],
    ["body", [good]],
    ["email", { password: PASSWORD }],
    ["email", { ...good, email: 1 }],
    ["email", { ...good, email: "nope" }],
    ["email", { ...good, email: `${"a".repeat(100_000)}@example.com` }],
    ["password", { email: "asha@example.com" }],
    ["password", { ...good, password: ["x"] }],
    ["callbackURL", { ...good, callbackURL: {} }],
    ["rememberMe", { ...good, rememberMe: "false" }],
  ];
  for (const [field, body] of cases) {
    const res = await t.json("POST", PATH, { body });
    assertEquals(res.status, 400, JSON.stringify(body).slice(0, 80));
    const message = field === "body" ? "Invalid body" : `Invalid ${field}`;
    const { fields, ...answer } = await res.json();
    assertEquals(answer, { error: message, code: "VALIDATION_ERROR", message });
    if (field !== "body") assertEquals(fields?.[0]?.field, field, "the field in error, as data");
  }
});

Deno.test("sign-in with a huge or empty password is a plain 401", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  await passwordUser(t, { email: "asha@example.com" });
  for (const password of ["", "x".repeat(500_000)]) {
    const res = await t.json("POST", PATH, { body: { email: "asha@example.com", password } });
    assertEquals(res.status, 401);
    assertEquals(await res.json(), INVALID);
  }
});

Deno.test("sign-in with a foreign callbackURL is refused with 400 and no cookie", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const res = await t.json("POST", PATH, {
    body: {
      email: "asha@example.com",
      password: PASSWORD,
      callbackURL: "https://evil.example/steal",
    },
  });
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("set-cookie"), null);
  assertEquals((await res.json()).code, "INVALID_CALLBACK_URL");
});
