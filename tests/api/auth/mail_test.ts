import { runJob } from "@/lib/jobs/registry.ts";
import { outboxJob } from "@/lib/mail/delivery.ts";
import { listOutbox } from "@/lib/mail/outbox_admin.ts";
import { createMailer } from "@/lib/mail/mailer.ts";
import { getUserByEmail, updateUser } from "@/lib/users/users.ts";
import { assert, assertEquals, assertMatch, settlesWithin } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { cookieOf, pathOf, tokenOf } from "./helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

const NEW_PASSWORD = "a brand new passphrase";

/** The first http(s) link in a text. */
function linkIn(text: string): string {
  const match = text.match(/https?:\/\/[^\s<>"]+/);
  if (!match) throw new Error("no link in the mail");
  return match[0];
}

Deno.test("the verification e-mail arrives over SMTP with subject, greeting, link and 24-hour notice; its link verifies", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Careers <no-reply@careers.test>" } });
  const res = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "Zoë O'Neil",
      email: "Zoe@Example.com",
      password: PASSWORD,
      callbackURL: "/onboarding",
    },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const mail = await smtp.waitFor("zoe@example.com");
  assertEquals(mail.from, "no-reply@careers.test");
  assertMatch(mail.subject, /verify your email/i);
  assertMatch(mail.text, /^Hi,\r?\n/);
  assertMatch(mail.html, /<p>Hi,<\/p>/);
  assert(!mail.text.includes("Zoë") && !mail.html.includes("Zo&#235;") && !mail.html.includes("Zoë"), "no typed name");
  assertMatch(mail.text, /expires in 24 hours/);
  assertMatch(mail.html, /expires in 24 hours/);
  const link = linkIn(mail.text);
  assertMatch(link, /^http:\/\/localhost:8000\/api\/auth\/verify-email\?token=[\w-]{43}&callbackURL=%2Fonboarding$/);
  assert(mail.html.includes(`href="${link.replace(/&/g, "&amp;")}"`));
  const follow = await t.fetch(pathOf(link), { headers: { cookie: cookieOf(res)! } });
  assertEquals(follow.status, 302);
  assertEquals(follow.headers.get("location"), "/onboarding");
  assert(cookieOf(follow));
  assertEquals((await getUserByEmail(t.kv, "zoe@example.com"))?.emailVerified, true);
});

Deno.test("the password-reset e-mail arrives over SMTP with subject, greeting, link and ignore notice; its link resets", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  await passwordUser(t, { email: "asha@example.com", name: "Asha Rao" });
  const res = await t.json("POST", "/api/auth/forget-password", {
    body: {
      email: "asha@example.com",
      redirectTo: "/reset-password",
    },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const mail = await smtp.waitFor("asha@example.com");
  assertMatch(mail.subject, /reset your .*password/i);
  assertMatch(mail.text, /^Hi Asha Rao,/);
  assertMatch(mail.html, /Hi Asha Rao,/);
  assertMatch(mail.text, /If you did not request a password reset, please ignore this email/);
  assertMatch(mail.html, /please ignore this email/);
  const link = linkIn(mail.text);
  assertMatch(link, /^http:\/\/localhost:8000\/reset-password\?token=[\w-]{43}$/);
  const token = new URL(link).searchParams.get("token");
  const reset = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: "new password 123", token } });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
});

Deno.test("a password reset mails the notice that the password changed over SMTP, in the person's language", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const cases = [
    {
      lang: "en",
      subject: "Your Career Community password was changed",
      greeting: "Hi Asha Rao,",
      notYou: "If it was not you, someone may be able to read your e-mail",
    },
    {
      lang: "hi",
      subject: "आपका Career Community पासवर्ड बदल दिया गया है",
      greeting: "नमस्ते Asha Rao,",
      notYou: "अगर यह आपने नहीं किया, तो हो सकता है कोई और आपका ई-मेल पढ़ पा रहा हो",
    },
  ] as const;
  for (const { lang, subject, greeting, notYou } of cases) {
    const email = `${lang}@example.com`;
    const user = await passwordUser(t, { email, name: "Asha Rao" });
    await updateUser(t.kv, user.id, { language: lang });
    const ask = await t.json("POST", "/api/auth/forget-password", { body: { email } });
    await ask.body?.cancel();
    const token = tokenOf(linkIn((await smtp.waitFor(email)).text));
    const wrong = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token: "x" } });
    assertEquals(wrong.status, 400);
    await wrong.body?.cancel();
    const reset = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: NEW_PASSWORD, token } });
    assertEquals(reset.status, 200);
    await reset.body?.cancel();
    await t.settled();
    const mails = smtp.messages.filter((m) => m.to.includes(email));
    assertEquals(mails.length, 2, "the reset link, then one notice: none for the refused try");
    const notice = mails[1];
    assertEquals(notice.subject, subject);
    assert(/^\r?\n/.test(notice.text.slice(greeting.length)) && notice.text.startsWith(greeting), notice.text);
    assert(notice.html.includes(`<html lang="${lang}">`) && notice.html.includes(`<p>${greeting}</p>`), notice.html);
    for (const body of [notice.text, notice.html]) {
      assert(body.includes(notYou), body);
      assert(body.includes("http://localhost:8000/forgot-password"), "it links to a fresh reset");
      assert(!body.includes(token), "it holds no token");
    }
  }
});

Deno.test("a name with markup is escaped in the HTML e-mail", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  await passwordUser(t, { email: "eve@example.com", name: `<img src=x onerror="alert(1)">` });
  const res = await t.json("POST", "/api/auth/forget-password", { body: { email: "eve@example.com" } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const mail = await smtp.waitFor("eve@example.com");
  assert(!mail.html.includes("<img"));
  assert(mail.html.includes("Hi &lt;img src=x onerror=&quot;alert(1)&quot;>,"));
  assertMatch(mail.text, /^Hi <img src=x onerror="alert\(1\)">,/);
});

Deno.test("mails to an address not yet proven carry no typed name, in English and Hindi", async () => {
  await using t = await createTestApp();
  const name = "Your account is locked. Unlock it at https://evil.example/unlock within 1 hour";
  for (const [email, lang, greeting] of [["en@example.com", "en", "Hi,"], ["hi@example.com", "hi", "नमस्ते,"]]) {
    const signUp = await t.json("POST", "/api/auth/sign-up/email", {
      body: { name, email, password: PASSWORD },
      headers: { cookie: `lang=${lang}` },
    });
    assertEquals(signUp.status, 200);
    await signUp.body?.cancel();
    const reset = await t.json("POST", "/api/auth/forget-password", { body: { email } });
    assertEquals(reset.status, 200);
    await reset.body?.cancel();
    await t.settled();
    const mails = t.mails.filter((m) => m.to === email);
    assertEquals(mails.length, 2, "the verification and the reset e-mail");
    for (const mail of mails) {
      assert(mail.text.startsWith(`${greeting}\n`), mail.text);
      assert(mail.html?.includes(`<p>${greeting}</p>`), mail.html);
      assert(![mail.subject, mail.text, mail.html].some((part) => part?.includes("evil.example")), mail.text);
    }
  }
});

Deno.test("an SMTP failure at sign-up keeps the mail in the outbox; the outbox job sends it later and its link verifies", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using t = await createTestApp({ env: { SMTP_URL: down.url } });
  const res = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "Lost",
      email: "lost@example.com",
      password: PASSWORD,
    },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await t.settled();
  const [pending] = (await listOutbox(t.kv, { status: "pending", limit: 50, offset: 0 })).mails;
  assertEquals([pending.to, pending.attempts], ["lost@example.com", 1]);
  assertMatch(pending.lastError ?? "", /ECONNREFUSED/);
  assertEquals((await getUserByEmail(t.kv, "lost@example.com"))?.emailVerified, false);
  await using smtp = await startFakeSmtp();
  t.services.mailer = createMailer(smtp.url, t.services.config.mailFrom, t.services.log);
  assertEquals(await runJob(outboxJob, t.services, new Date(Date.now() + 61_000)), {
    job: "outbox",
    sent: 1,
    retried: 0,
    failed: 0,
    skipped: 0,
  });
  const mail = await smtp.waitFor("lost@example.com");
  const follow = await t.fetch(pathOf(linkIn(mail.text)), { headers: { cookie: cookieOf(res)! } });
  assertEquals(follow.status, 302);
  assertEquals((await getUserByEmail(t.kv, "lost@example.com"))?.emailVerified, true);
  // Its pooled connection goes before the server closes (which waits for open connections).
  t.services.mailer.close();
});

for (
  const [path, account] of [
    ["/api/auth/forget-password", { verified: true }],
    ["/api/auth/send-verification-email", { verified: false }],
  ] as const
) {
  Deno.test(`${path} answers a known and an unknown e-mail alike, without waiting for the SMTP server`, async () => {
    await answersAtOnce(path, account.verified);
  });
}

/**
 * Asks `path` for three accounts' e-mails and three unknown ones against an SMTP server that holds every message until
 * all six have been answered: the answers are the same for both and none waited for the server; the three mails
 * arrive once it answers. (How long the answers take, known against unknown: `bench/auth_timing.ts`.)
 */
async function answersAtOnce(path: string, verified: boolean) {
  const release = Promise.withResolvers<void>();
  await using smtp = await startFakeSmtp({ onMessage: () => release.promise });
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMITS: "off" } });
  const answer = (email: string) =>
    settlesWithin(
      t.json("POST", path, { body: { email } }).then(async (res) => [
        res.status,
        res.headers.get("content-type"),
        await res.json(),
      ]),
      30_000,
      `the answer for ${email}`,
    );
  for (let i = 0; i < 3; i++) {
    await passwordUser(t, { email: `known${i}@example.com`, verified });
    assertEquals(await answer(`known${i}@example.com`), [200, "application/json", { status: true }]);
    assertEquals(await answer(`nobody${i}@example.com`), [200, "application/json", { status: true }]);
  }
  release.resolve();
  const deadline = Date.now() + 30_000;
  while (smtp.messages.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  assertEquals(smtp.messages.flatMap((m) => m.to).sort(), [
    "known0@example.com",
    "known1@example.com",
    "known2@example.com",
  ]);
  await t.settled();
}
