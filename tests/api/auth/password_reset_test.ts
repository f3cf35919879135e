import { checkCredentials, resetPassword } from "@/lib/auth/email_password.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import {
  AUTH_MAILS_PER_DAY,
  claimDailyAuthMail,
  findToken,
  type TokenRecord,
  VERIFICATION_MAIL_GAP_MS,
} from "@/lib/auth/verification.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { AuthError, ConflictError } from "@/lib/errors.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { suspendUser } from "@/lib/users/suspension.ts";
import { lastMailTo, signIn, tokenOf, waitForMail } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { kvFailingCommits } from "@/tests/fixtures/failing_kv.ts";

const NEW_PASSWORD = "a brand new passphrase";
const DAY = 24 * 60 * 60 * 1000;
const INVALID_TOKEN = { error: "Invalid token", code: "INVALID_TOKEN", message: "Invalid token" };

/** Requests a reset for `email` and returns the token from the mail. */
async function resetToken(t: TestApp, email = "asha@example.com"): Promise<string> {
  const before = t.mails.filter((m) => m.to === email).length;
  const res = await t.json("POST", "/api/auth/forget-password", { body: { email } });
  if (res.status !== 200) throw new Error(`forget-password ${res.status}`);
  await res.body?.cancel();
  return tokenOf((await waitForMail(t, email, before + 1)).link);
}

for (const path of ["/api/auth/forget-password", "/api/auth/request-password-reset"]) {
  Deno.test(`${path} answers {status: true} for known and unknown e-mails and mails only the known one`, async () => {
    await using t = await createTestApp();
    await passwordUser(t, { email: "asha@example.com" });
    for (const email of ["nobody@example.com", "ASHA@example.com"]) {
      const res = await t.json("POST", path, { body: { email } });
      assertEquals(res.status, 200);
      assertEquals(res.headers.get("content-type"), "application/json");
      assertEquals(await res.json(), { status: true });
    }
    await waitForMail(t, "asha@example.com");
    assertEquals(t.mails.map((m) => m.to), ["asha@example.com"]);
    assertMatch(t.mails[0].link, /^http:\/\/localhost:8000\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
  });
}

Deno.test("forget-password links to {APP_URL}{redirectTo}?token=…, keeping the page's own query", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const cases: [string, RegExp][] = [
    ["/account/new-password", /^http:\/\/localhost:8000\/account\/new-password\?token=[\w-]{43}$/],
    ["/reset?lang=en", /^http:\/\/localhost:8000\/reset\?lang=en&token=[\w-]{43}$/],
    ["http://localhost:8000/reset-password", /^http:\/\/localhost:8000\/reset-password\?token=[\w-]{43}$/],
  ];
  for (const [i, [redirectTo, link]] of cases.entries()) {
    const res = await t.json("POST", "/api/auth/forget-password", { body: { email: "asha@example.com", redirectTo } });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertMatch((await waitForMail(t, "asha@example.com", i + 1)).link, link);
  }
});

Deno.test("forget-password refuses a redirectTo off this origin with 400 and sends nothing", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  for (const redirectTo of ["https://evil.example/reset", "//evil.example/reset", "/\\evil.example", "reset", ""]) {
    const res = await t.json("POST", "/api/auth/forget-password", { body: { email: "asha@example.com", redirectTo } });
    assertEquals(res.status, 400, redirectTo);
    assertEquals(await res.json(), {
      error: "Invalid redirectTo",
      code: "INVALID_REDIRECT_TO",
      message: "Invalid redirectTo",
    });
  }
  await t.settled();
  assertEquals(t.mails.length, 0);
});

Deno.test("forget-password refuses bad input with 400 VALIDATION_ERROR", async () => {
  await using t = await createTestApp();
  for (const body of [null, {}, { email: 7 }, { email: "nope" }, { email: "a@example.com", redirectTo: 5 }]) {
    const res = await t.json("POST", "/api/auth/forget-password", { body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals((await res.json()).code, "VALIDATION_ERROR");
  }
});

Deno.test("reset-password replaces the password, ends every session of the user and spends the token", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const laptop = await signIn(t, "asha@example.com");
  const phone = await signIn(t, "asha@example.com");
  const token = await resetToken(t);
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(await res.json(), { status: true });
  for (const cookie of [laptop, phone]) {
    assertEquals(await (await t.fetch("/api/auth/session", { headers: { cookie } })).json(), null);
  }
  const old = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: "asha@example.com", password: PASSWORD },
  });
  assertEquals(old.status, 401);
  await old.body?.cancel();
  await signIn(t, "asha@example.com", NEW_PASSWORD);
  const again = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: "yet another one!", token } });
  assertEquals(again.status, 400);
  assertEquals(await again.json(), INVALID_TOKEN);
});

Deno.test("reset-password checks the password before the token", async () => {
  await using t = await createTestApp();
  for (
    const [newPassword, code] of [["short", "PASSWORD_TOO_SHORT"], ["p".repeat(129), "PASSWORD_TOO_LONG"]] as const
  ) {
    const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword, token: "not-a-token" } });
    assertEquals(res.status, 400);
    assertEquals((await res.json()).code, code);
  }
});

Deno.test("reset-password with a short password does not spend a good token", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  const short = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: "1234567", token } });
  assertEquals(short.status, 400);
  await short.body?.cancel();
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
});

Deno.test("reset-password refuses missing, wrong-type, unknown and verification tokens with INVALID_TOKEN", async () => {
  await using t = await createTestApp();
  const up = await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "N", email: "n@example.com", password: PASSWORD },
  });
  await up.body?.cancel();
  const verifyToken = tokenOf((await lastMailTo(t, "n@example.com")).link);
  for (const token of [undefined, null, 42, ["x"], "", "A".repeat(43), "z".repeat(10_000), verifyToken]) {
    const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
    assertEquals(res.status, 400, String(token).slice(0, 20));
    assertEquals(await res.json(), INVALID_TOKEN);
  }
});

Deno.test("reset-password refuses a missing or non-text newPassword with VALIDATION_ERROR", async () => {
  await using t = await createTestApp();
  for (const body of [null, {}, { newPassword: 12345678, token: "x" }, { newPassword: null }]) {
    const res = await t.json("POST", "/api/auth/reset-password", { body });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals((await res.json()).code, "VALIDATION_ERROR");
  }
});

Deno.test("reset-password takes the token from ?token= too", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  const res = await t.json("POST", `/api/auth/reset-password?token=${token}`, { body: { newPassword: NEW_PASSWORD } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await signIn(t, "asha@example.com", NEW_PASSWORD);
});

Deno.test("an expired reset token is INVALID_TOKEN", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  const key = ["auth_tokens", await sha256Hex(token)];
  const record = (await t.kv.get<TokenRecord>(key)).value!;
  await t.kv.set(key, { ...record, expiresAt: new Date(Date.now() - 1).toISOString() });
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), INVALID_TOKEN);
});

Deno.test("a successful reset voids the user's older reset links", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const older = await resetToken(t);
  const newer = await resetToken(t);
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token: newer } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const stale = await t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: "attacker password", token: older },
  });
  assertEquals(stale.status, 400);
  await stale.body?.cancel();
});

Deno.test("an account is sent at most 10 reset and 10 verification e-mails a day, even with RATE_LIMITS=off", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  await passwordUser(t, { email: "asha@example.com" });
  const asked = (path: string, email: string) => t.json("POST", path, { body: { email } }).then((res) => res.status);
  const statuses = [];
  for (let i = 0; i < 12; i++) statuses.push(await asked("/api/auth/forget-password", "asha@example.com"));
  await t.settled();
  assertEquals(new Set(statuses), new Set([200]), "every request is answered alike");
  assertEquals(t.mails.filter((m) => m.to === "asha@example.com").length, AUTH_MAILS_PER_DAY);
  const asha = await getUserByEmail(t.kv, "asha@example.com");
  assert(await claimDailyAuthMail(t.kv, "reset-password", asha!.id, Date.now() + DAY), "a day later, one more");
  // Verification links (to an address a stranger signed up with), one each 5-minute gap, are counted apart.
  const claims = [];
  for (let i = 0; i < 12; i++) {
    claims.push(await claimDailyAuthMail(t.kv, "verify-email", asha!.id, Date.now() + i * VERIFICATION_MAIL_GAP_MS));
  }
  assertEquals(claims.filter(Boolean).length, AUTH_MAILS_PER_DAY);
});

Deno.test("ten reset e-mails claimed at once are all sent, and none past them", async () => {
  await using t = await createTestApp();
  const asha = await passwordUser(t, { email: "asha@example.com" });
  const claims = await Promise.all(
    Array.from({ length: AUTH_MAILS_PER_DAY + 2 }, () => claimDailyAuthMail(t.kv, "reset-password", asha.id)),
  );
  assertEquals(claims.filter(Boolean).length, AUTH_MAILS_PER_DAY, "a claim that lost a race to another is not lost");
});

Deno.test("of 10 concurrent resets with one token exactly one wins", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  const responses = await Promise.all(
    Array.from(
      { length: 10 },
      (_, i) => t.json("POST", "/api/auth/reset-password", { body: { newPassword: `${NEW_PASSWORD} ${i}`, token } }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  await Promise.all(responses.map((r) => r.body?.cancel()));
  assertEquals(statuses.filter((s) => s === 200).length, 1);
  assertEquals(statuses.filter((s) => s === 400).length, 9);
});

Deno.test("forget-password works for a signed-in user on the same origin", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const cookie = await signIn(t, "asha@example.com");
  const res = await t.json("POST", "/api/auth/forget-password", {
    body: { email: "asha@example.com" },
    headers: { cookie },
  });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { status: true });
  await waitForMail(t, "asha@example.com");
  await t.settled();
  assertEquals(t.mails.length, 1);
});

Deno.test("a sign-in whose password check came before a reset gets no session after it", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  // The sign-in has verified the old password; the reset lands before it stores the session.
  const { guard } = await checkCredentials(t.kv, "asha@example.com", PASSWORD);
  const reset = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  await assertRejects(
    () => createSession(t.kv, user.id, { guard }),
    (error) => error instanceof AuthError && error.code === "INVALID_EMAIL_OR_PASSWORD",
  );
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["sessions_by_user", user.id] })), []);
});

/** Whether `cookie` is a live session now (`GET /api/auth/session` names a user). */
async function signedIn(t: TestApp, cookie: string): Promise<boolean> {
  return (await (await t.fetch("/api/auth/session", { headers: { cookie } })).json()) !== null;
}

Deno.test("a reset is all or nothing: cut off at its write nothing changed, cut off after it the old sessions are void", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const stolen = await signIn(t, "asha@example.com");
  const older = await resetToken(t);
  const token = await resetToken(t);
  // The reset's one write fails: the password, the sessions and the link are as they were.
  const atWrite = kvFailingCommits(t.kv, (n) => n === 1);
  await assertRejects(() => resetPassword(atWrite.kv, token, NEW_PASSWORD), Error, "KV went away");
  assertEquals(await signedIn(t, stolen), true);
  const own = await signIn(t, "asha@example.com", PASSWORD);
  // Every commit after that write fails (the process died): the write alone ended the sessions.
  const afterWrite = kvFailingCommits(t.kv, (n) => n > 1);
  await assertRejects(() => resetPassword(afterWrite.kv, token, NEW_PASSWORD), Error, "KV went away");
  assertEquals(afterWrite.commits(), 2, "the reset's write and the voiding of the older link");
  assertEquals([await signedIn(t, stolen), await signedIn(t, own)], [false, false]);
  assertEquals(await signedIn(t, await signIn(t, "asha@example.com", NEW_PASSWORD)), true);
  assertEquals(await resetPassword(t.kv, token, "yet another one!"), false);
  // The refused sessions were deleted by the reads that refused them.
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["sessions_by_user", user.id] }))).length, 1);
  assertEquals(await resetPassword(t.kv, older, "yet another one!"), false, "the write alone killed the older link");
  assertEquals(await signedIn(t, await signIn(t, "asha@example.com", NEW_PASSWORD)), true, "the password held");
});

Deno.test("ending the other sessions kills the reset links sent before; a link asked for after works", async () => {
  await using t = await createTestApp();
  await passwordUser(t, { email: "asha@example.com" });
  const cookie = await signIn(t, "asha@example.com");
  const before = await resetToken(t);
  const ended = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: { cookie } });
  assertEquals(ended.status, 200);
  await ended.body?.cancel();
  const page = await t.fetch(`/reset-password?token=${before}`);
  assertEquals(page.status, 200);
  assertMatch(await page.text(), /This reset link has expired or was already used/);
  const stale = await t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: NEW_PASSWORD, token: before },
  });
  assertEquals([stale.status, await stale.json()], [400, INVALID_TOKEN]);
  const after = await resetToken(t);
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token: after } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
});

Deno.test("a reset gives up with 409 after 5 writes lost to changes of the user record, changing nothing", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t, { email: "asha@example.com" });
  const token = await resetToken(t);
  // Another writer changes the user record just before each of the reset's first 20 commits.
  let commits = 0;
  const busy = new Proxy(t.kv, {
    get(target, name) {
      if (name !== "atomic") {
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const op = target.atomic();
        const commit = op.commit.bind(op);
        op.commit = async () => {
          if (++commits <= 20) {
            const stored = (await target.get<Record<string, unknown>>(["users", user.id])).value!;
            await target.set(["users", user.id], {
              ...stored,
              updatedAt: new Date(Date.now() + commits).toISOString(),
            });
          }
          return commit();
        };
        return op;
      };
    },
  });
  await assertRejects(() => resetPassword(busy, token, NEW_PASSWORD), ConflictError);
  assertEquals(commits, 5);
  assertEquals(await resetPassword(t.kv, token, NEW_PASSWORD), true, "the link was not spent");
});

Deno.test("a suspended person's reset is refused before anything is written or mailed, and the page says why", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const asha = await passwordUser(t, { email: "asha@example.com" });
  await suspendUser(t.kv, {
    actorId: admin.user.id,
    targetId: asha.id,
    appUrl: t.origin,
    reason: "Asks for fees",
    hideListings: false,
  });
  const token = await resetToken(t);
  const page = await t.fetch(`/reset-password?token=${token}&lang=hi`);
  assertEquals(page.status, 200);
  const html = await page.text();
  assert(html.includes("यह अकाउंट सस्पेंड है") && !html.includes('name="newPassword"'), "the notice, in Hindi, no form");
  const res = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
  assertEquals(res.status, 403);
  assertEquals((await res.json()).code, "ACCOUNT_SUSPENDED");
  const form = await t.fetch("/reset-password", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
  });
  assertEquals(form.status, 403);
  assert((await form.text()).includes("This account is suspended"), "the form's answer says so");
  await t.settled();
  assertEquals(t.mails.filter((m) => m.subject.includes("password was changed")), [], "no notice of a change");
  await checkCredentials(t.kv, asha.email, PASSWORD); // the password is as it was
  assert(await findToken(t.kv, "reset-password", token), "the link is not spent");
});
