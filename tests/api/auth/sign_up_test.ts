import { verifyPassword } from "@/lib/auth/passwords.ts";
import { getPasswordHash, getUserByEmail } from "@/lib/users/users.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { cookieOf, lastMailTo, pathOf } from "./helpers.ts";
import { PASSWORD } from "@/tests/fixtures/people.ts";

const PATH = "/api/auth/sign-up/email";

Deno.test("sign-up creates an unverified user, answers {token: null, user} and sends a verification mail", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", PATH, { body: { name: "Asha Rao", email: "Asha@Example.com", password: PASSWORD } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertMatch(
    res.headers.get("set-cookie") ?? "",
    /^verify_binding=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/,
    "no session: only the cookie that lets the link sign this browser in",
  );
  const body = await res.json();
  assertEquals(body.token, null);
  assertEquals(Object.keys(body.user).sort(), [
    "createdAt",
    "email",
    "emailVerified",
    "id",
    "image",
    "name",
    "role",
    "updatedAt",
  ]);
  assertEquals(body.user.name, "Asha Rao");
  assertEquals(body.user.email, "asha@example.com");
  assertEquals(body.user.emailVerified, false);
  assertEquals(body.user.role, "user");
  assertEquals(body.user.createdAt, body.user.updatedAt);
  const stored = await getUserByEmail(t.kv, "asha@example.com");
  assertEquals(stored?.id, body.user.id);
  const hash = await getPasswordHash(t.kv, body.user.id);
  assertMatch(hash ?? "", /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert(await verifyPassword(hash!, PASSWORD));
  const mail = await lastMailTo(t, "asha@example.com");
  assertMatch(mail.link, /^http:\/\/localhost:8000\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]{43}&callbackURL=%2F$/);
});

Deno.test("sign-up ignores role, emailVerified and id in the body", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", PATH, {
    body: {
      name: "Mallory",
      email: "mallory@example.com",
      password: PASSWORD,
      role: "admin",
      emailVerified: true,
      id: "00000000-0000-0000-0000-000000000000",
    },
  });
  assertEquals(res.status, 200);
  const { user } = await res.json();
  assertEquals(user.role, "user");
  assertEquals(user.emailVerified, false);
  assert(user.id !== "00000000-0000-0000-0000-000000000000");
});

Deno.test("an ADMIN_EMAILS address (in any case) signs up as a user and becomes admin when its link verifies it", async () => {
  await using t = await createTestApp({ env: { ADMIN_EMAILS: "boss@example.com, other@example.com" } });
  const res = await t.json("POST", PATH, { body: { name: "Boss", email: "BOSS@example.com", password: PASSWORD } });
  assertEquals(res.status, 200);
  assertEquals((await res.json()).user.role, "user");
  assertEquals((await getUserByEmail(t.kv, "boss@example.com"))?.role, "user");
  const verified = await t.fetch(pathOf((await lastMailTo(t, "boss@example.com")).link), {
    headers: { cookie: cookieOf(res)! },
  });
  assertEquals(verified.status, 302);
  assertEquals((await getUserByEmail(t.kv, "boss@example.com"))?.role, "admin");
  const other = await t.json("POST", PATH, {
    body: { name: "Not boss", email: "someone@example.com", password: PASSWORD },
  });
  assertEquals((await other.json()).user.role, "user");
  const link = (await lastMailTo(t, "someone@example.com")).link;
  assertEquals((await t.fetch(pathOf(link), { headers: { cookie: cookieOf(other)! } })).status, 302);
  assertEquals((await getUserByEmail(t.kv, "someone@example.com"))?.role, "user");
});

Deno.test("sign-up with a taken e-mail in another case is 422 USER_ALREADY_EXISTS", async () => {
  await using t = await createTestApp();
  assertEquals(
    (await t.json("POST", PATH, { body: { name: "A", email: "dup@example.com", password: PASSWORD } })).status,
    200,
  );
  const res = await t.json("POST", PATH, { body: { name: "B", email: " DUP@Example.COM ", password: PASSWORD } });
  assertEquals(res.status, 422);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(await res.json(), {
    error: "User already exists",
    code: "USER_ALREADY_EXISTS",
    message: "User already exists",
  });
});

Deno.test("sign-up password length: under 8 is PASSWORD_TOO_SHORT, over 128 PASSWORD_TOO_LONG, 8 and 128 pass", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const cases: [string, number, string | null][] = [
    ["", 400, "PASSWORD_TOO_SHORT"],
    ["1234567", 400, "PASSWORD_TOO_SHORT"],
    ["x".repeat(129), 400, "PASSWORD_TOO_LONG"],
    ["x".repeat(100_000), 400, "PASSWORD_TOO_LONG"],
    ["12345678", 200, null],
    ["é".repeat(128), 200, null],
  ];
  for (const [i, [password, status, code]] of cases.entries()) {
    const res = await t.json("POST", PATH, { body: { name: "Len", email: `len${i}@example.com`, password } });
    assertEquals(res.status, status, `password of ${password.length}`);
    const body = await res.json();
    if (code) assertEquals(body, { error: body.error, code, message: body.error });
  }
});

Deno.test("sign-up checks the password before callbackURL, and both before a taken e-mail", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  await createTestUser(t, "user", { email: "taken@example.com" });
  const code = async (body: Record<string, string>) => (await (await t.json("POST", PATH, { body })).json()).code;
  const foreign = "https://evil.example/";
  assertEquals(
    await code({ name: "Both", email: "both@example.com", password: "short", callbackURL: foreign }),
    "PASSWORD_TOO_SHORT",
  );
  assertEquals(
    await code({ name: "Both", email: "both@example.com", password: "p".repeat(129), callbackURL: foreign }),
    "PASSWORD_TOO_LONG",
  );
  assertEquals(
    await code({ name: "Taken", email: "taken@example.com", password: PASSWORD, callbackURL: foreign }),
    "INVALID_CALLBACK_URL",
  );
  assertEquals(await code({ name: "Taken", email: "taken@example.com", password: "short" }), "PASSWORD_TOO_SHORT");
  assertEquals(await getUserByEmail(t.kv, "both@example.com"), null);
});

Deno.test("sign-up refuses bad input on every field with 400 VALIDATION_ERROR, never a 500", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const good = { name: "Valid Name", email: "valid@example.com", password: PASSWORD };
  const cases: [string, unknown][] = [
    ["body", null],
    ["body", []],
    ["body", "text"],
    ["body", 42],
    ["name", { ...good, name: undefined }],
    ["name", { ...good, name: "" }],
    ["name", { ...good, name: "   " }],
    ["name", { ...good, name: 5 }],
    ["name", { ...good, name: ["a"] }],
    ["name", { ...good, name: "n".repeat(101) }],
    ["name", { ...good, name: "Eve\r\nUrgent: verify at evil.example" }],
    ["email", { ...good, email: undefined }],
    ["email", { ...good, email: "not-an-email" }],
    ["email", { ...good, email: "a@" }],
    ["email", { ...good, email: 12 }],
    ["email", { ...good, email: { $ne: null } }],
    ["email", { ...good, email: `${"a".repeat(300)}@example.com` }],
    ["password", { ...good, password: undefined }],
    ["password", { ...good, password: 12345678 }],
    ["password", { ...good, password: null }],
    ["callbackURL", { ...good, callbackURL: 5 }],
    ["image", { ...good, image: "javascript:alert(1)" }],
    ["image", { ...good, image: 7 }],
  ];
  for (const [field, body] of cases) {
    const res = await t.json("POST", PATH, { body });
    assertEquals(res.status, 400, JSON.stringify(body)?.slice(0, 80));
    assertEquals(res.headers.get("content-type"), "application/json");
    const message = field === "body" ? "Invalid body" : `Invalid ${field}`;
    const { fields, ...answer } = await res.json();
    assertEquals(answer, { error: message, code: "VALIDATION_ERROR", message });
    if (field !== "body") assertEquals(fields?.[0]?.field, field, "the field in error, as data");
  }
  assertEquals(await getUserByEmail(t.kv, "valid@example.com"), null);
});

Deno.test("sign-up with malformed JSON is 400 INVALID_JSON_BODY", async () => {
  await using t = await createTestApp();
  const res = await t.fetch(PATH, {
    method: "POST",
    headers: { "content-type": "application/json", origin: t.origin },
    body: '{"name": ',
  });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), {
    error: "Invalid JSON body",
    code: "INVALID_JSON_BODY",
    message: "Invalid JSON body",
  });
});

Deno.test("sign-up with a foreign callbackURL is refused with 400 and creates no user", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  for (const callbackURL of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    const res = await t.json("POST", PATH, {
      body: {
        name: "Asha",
        email: "asha@example.com",
        password: PASSWORD,
        callbackURL,
      },
    });
    assertEquals(res.status, 400, callbackURL);
    assertEquals(await res.json(), {
      error: "Invalid callbackURL",
      code: "INVALID_CALLBACK_URL",
      message: "Invalid callbackURL",
    });
  }
  assertEquals(await getUserByEmail(t.kv, "asha@example.com"), null);
});

Deno.test("sign-up carries the callbackURL into the verification link", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", PATH, {
    body: {
      name: "Asha",
      email: "asha@example.com",
      password: PASSWORD,
      callbackURL: "/onboarding?step=1",
    },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const link = new URL((await lastMailTo(t, "asha@example.com")).link);
  assertEquals(link.searchParams.get("callbackURL"), "/onboarding?step=1");
});

Deno.test("sign-up while signed in still creates a separate unverified user", async () => {
  await using t = await createTestApp();
  const { headers } = await createTestUser(t);
  const res = await t.json("POST", PATH, {
    body: { name: "Second", email: "second@example.com", password: PASSWORD },
    headers,
  });
  assertEquals(res.status, 200);
  assertEquals((await res.json()).user.emailVerified, false);
});

Deno.test("200 concurrent sign-ups with one e-mail in varied case create exactly one user", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const variants = ["race@example.com", "RACE@example.com", "Race@Example.com", "race@EXAMPLE.COM"];
  const responses = await Promise.all(
    Array.from(
      { length: 200 },
      (_, i) =>
        t.json("POST", PATH, {
          body: { name: `Racer ${i}`, email: variants[i % variants.length], password: PASSWORD },
        }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  await Promise.all(responses.map((r) => r.body?.cancel()));
  assertEquals(statuses.filter((s) => s === 200).length, 1);
  assertEquals(statuses.filter((s) => s === 422).length, 199);
  let users = 0;
  for await (const _ of t.kv.list({ prefix: ["users"] })) users++;
  assertEquals(users, 1);
  await t.settled();
  assertEquals(t.mails.length, 1);
});
