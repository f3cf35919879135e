/**
 * Server-rendered pages of the foundation, without a browser: what sign-up agrees to, redirects of signed-out users,
 * the admin area's 401/403, messages for error query codes, sign-out, which pages ship
 * JavaScript (only pages with islands do), and the home page's latest internships.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { updateInternship } from "@/lib/internships/writes.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { assertHtml, assertRedirect, page, scriptsOf } from "@/tests/fixtures/html.ts";
import { saveOnboardingProfile } from "@/lib/onboarding/onboarding.ts";
import { sendPasswordResetMail } from "@/lib/auth/mails.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { passwordUser } from "@/tests/fixtures/people.ts";

Deno.test("a page without islands ships no script of its own; a page with islands ships the boot module", async () => {
  await using t = await createTestApp();
  const home = await page(t, "/");
  assertHtml(home.res);
  assertEquals(scriptsOf(home.html), [], "the home page carries a <script> beside the service worker's registration");
  const signUp = await page(t, "/sign-up");
  assertHtml(signUp.res);
  assertMatch(signUp.html, /<!--island:SignUpForm:\d+-->/);
  assertMatch(signUp.html, /<script type="module" src="\/_build\/boot-[\w-]+\.js"><\/script>/);
  assertMatch(signUp.html, /<script type="application\/json" id="__islands">/);
});

Deno.test("the sign-up page names the terms and the privacy notice an account agrees to, in English and Hindi", async () => {
  await using t = await createTestApp();
  const english = await page(t, "/sign-up");
  assertMatch(
    english.html,
    /By creating an account you agree to the <a href="\/terms"[^>]*>Terms<\/a> and to how we keep your data \(<a href="\/privacy"[^>]*>Privacy<\/a>\)/,
  );
  const hindi = await page(t, "/sign-up?lang=hi");
  assertMatch(hindi.html, /अकाउंट बनाकर आप <a href="\/terms"[^>]*>शर्तें<\/a>/);
  assertMatch(hindi.html, /<a href="\/privacy"[^>]*>गोपनीयता<\/a>\) मानते हैं।/);
});

Deno.test("signed-out visitors of onboarding and profile are sent to sign-in with a callbackURL", async () => {
  await using t = await createTestApp();
  assertRedirect((await page(t, "/onboarding")).res, "/sign-in?callbackURL=%2Fonboarding");
  assertRedirect((await page(t, "/profile")).res, "/sign-in?callbackURL=%2Fprofile");
});

Deno.test("an expired verification link opened signed out ends on sign-in with its explanation", async () => {
  await using t = await createTestApp();
  const { res } = await page(t, "/onboarding?error=INVALID_TOKEN");
  assertRedirect(res, "/sign-in?callbackURL=%2Fonboarding&error=INVALID_TOKEN");
  const signIn = await page(t, res.headers.get("location")!);
  assertHtml(signIn.res);
  assertMatch(signIn.html, /This verification link has expired or was already used/);
  assertMatch(signIn.html, /we will send you a new link/);
});

Deno.test("an expired verification link opened signed in is explained on the onboarding page", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const { res, html } = await page(t, "/onboarding?error=INVALID_TOKEN", cookie);
  assertHtml(res);
  assertMatch(html, /That verification link has expired or was already used/);
  assertMatch(html, /<!--island:OnboardingWizard:\d+-->/);
});

Deno.test("sign-in explains only known error codes and never echoes the query", async () => {
  await using t = await createTestApp();
  const { res, html } = await page(t, "/sign-in?error=%3Cimg%20src%3Dx%3E");
  assertHtml(res);
  assertMatch(html, /Sign-in did not complete/);
  assert(!html.includes("<img src=x>") && !html.includes("&lt;img"), "the error text was echoed");
  assertMatch((await page(t, "/sign-in?error=ACCOUNT_NOT_LINKED")).html, /We could not link that account/);
  assert(!/role="alert"/.test((await page(t, "/sign-in")).html), "a plain sign-in page shows an error");
  for (const inherited of ["constructor", "toString", "__proto__"]) {
    assertMatch((await page(t, `/sign-in?error=${inherited}`)).html, /Sign-in did not complete/, inherited);
  }
});

Deno.test("sign-in passes on a same-origin callbackURL only", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  assertRedirect((await page(t, "/sign-in?callbackURL=%2Fprofile", cookie)).res, "/profile");
  for (const foreign of ["https://evil.example/x", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    const { res } = await page(t, `/sign-in?callbackURL=${encodeURIComponent(foreign)}`, cookie);
    assertRedirect(res, "/");
  }
  const { html } = await page(t, "/sign-in?callbackURL=https%3A%2F%2Fevil.example");
  assertMatch(html, /"callbackURL":null/);
});

Deno.test("signed-in users skip the sign-up page", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  assertRedirect((await page(t, "/sign-up", cookie)).res, "/");
});

Deno.test("check-inbox names the address and the 24-hour lifetime, escaped", async () => {
  await using t = await createTestApp();
  const { res, html } = await page(t, "/check-inbox?email=%3Cb%3Eamy%40example.com");
  assertHtml(res);
  assertMatch(html, /&lt;b>amy@example\.com/);
  assertMatch(html, /expires in 24 hours/);
  assertMatch((await page(t, "/check-inbox")).html, /We sent a verification link to your e-mail address/);
});

Deno.test("reset-password without a token offers a new link; with a live one it shows the form", async () => {
  await using t = await createTestApp();
  const missing = await page(t, "/reset-password");
  assertHtml(missing.res);
  assertMatch(missing.html, /This reset link is incomplete/);
  assertMatch(missing.html, /href="\/forgot-password"/);
  const user = await passwordUser(t);
  await sendPasswordResetMail(t.services, user, "/reset-password");
  await t.settled();
  const token = new URL(t.mails.at(-1)!.link!).searchParams.get("token")!;
  const live = await page(t, `/reset-password?token=${token}`);
  assertMatch(live.html, /<!--island:ResetPasswordForm:\d+-->/);
  assertMatch(live.html, new RegExp(`"token":"${token}"`));
  assertMatch(live.html, /name="newPassword"/);
  assert(!live.html.includes(">This reset link has expired or was already used<"), "no expired notice");
});

Deno.test("reset-password with a spent, expired or unknown link says so at once, with a way to ask again", async () => {
  await using t = await createTestApp();
  const user = await passwordUser(t);
  await sendPasswordResetMail(t.services, user, "/reset-password");
  await t.settled();
  const spent = new URL(t.mails.at(-1)!.link!).searchParams.get("token")!;
  const reset = await t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: "a new passphrase", token: spent },
  });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  for (const lang of ["en", "hi"]) {
    for (const token of [spent, "x".repeat(43), "abc"]) {
      const { res, html } = await page(t, `/reset-password?token=${token}&lang=${lang}`);
      assertHtml(res);
      const words = lang === "en"
        ? ["This reset link has expired or was already used", "Request a new link"]
        : [translatorFor("hi")("auth.reset.invalidTitle")];
      for (const word of words) assert(html.includes(`>${word}<`), `${lang} ${token}: ${word}`);
      assertMatch(html, /href="\/forgot-password"/);
      assert(!html.includes('name="newPassword"'), "no form to type into");
    }
  }
});

Deno.test("onboarding is prefilled from the saved profile", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await createTestUser(t);
  await saveOnboardingProfile(t.kv, user.id, {
    persona: "student",
    locationType: "state",
    locationValue: "Kerala",
    educationLevel: "Undergraduate",
    fieldOfStudy: "Design",
  });
  const { res, html } = await page(t, "/onboarding", cookie);
  assertHtml(res);
  assertMatch(html, /Your onboarding answers/);
  assertMatch(html, /"locationValue":"Kerala"/);
  assertMatch(html, /"fieldsOfStudy":\[[^\]]*"Other"/);
});

Deno.test("profile page shows the user's values in the form", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await createTestUser(t, "user", { name: "Priya Nair" });
  const { res, html } = await page(t, "/profile", cookie);
  assertHtml(res);
  assertMatch(html, /<!--island:ProfileForm:\d+-->/);
  assertMatch(html, /value="Priya Nair"/);
  assert(html.includes(user.email));
});

Deno.test("admin pages: guests go to sign-in, users and members get 403, admins get the table", async () => {
  await using t = await createTestApp();
  assertRedirect((await page(t, "/admin/users")).res, "/sign-in?callbackURL=%2Fadmin%2Fusers");
  assertRedirect((await page(t, "/admin")).res, "/sign-in?callbackURL=%2Fadmin");
  assertRedirect((await page(t, "/admin/jobs")).res, "/sign-in?callbackURL=%2Fadmin%2Fjobs");
  for (const role of ["user", "member"] as const) {
    const { cookie } = await createTestUser(t, role);
    for (const path of ["/admin", "/admin/users", "/admin/jobs"]) {
      const { res, html } = await page(t, path, cookie);
      assertHtml(res, 403);
      assertMatch(html, /You do not have access to this page/);
      assert(!/island:AdminUsersTable/.test(html), `${role} got the admin table at ${path}`);
      // The header's notification bell is the only island a signed-in person's 403 page ships.
      assertEquals([...html.matchAll(/<!--island:(\w+):/g)].map((m) => m[1]), ["NotificationBell"]);
    }
  }
  const admin = await createTestUser(t, "admin");
  const { res, html } = await page(t, "/admin/users", admin.cookie);
  assertHtml(res);
  assertMatch(html, /<nav aria-label="Admin"/);
  assertMatch(html, /<!--island:AdminUsersTable:\d+-->/);
  assertMatch(html, new RegExp(`"currentUserId":"${admin.user.id}"`));
});

Deno.test("state-changing requests to admin pages are refused for guests (401) and non-admins (403)", async () => {
  await using t = await createTestApp();
  const guest = await t.fetch("/admin/users", { method: "POST", headers: { origin: t.origin } });
  assertEquals(guest.status, 401);
  assertEquals(guest.headers.get("content-type"), "application/json");
  await guest.body?.cancel();
  const { headers } = await createTestUser(t, "member");
  const member = await t.fetch("/admin/users", { method: "POST", headers });
  assertEquals(member.status, 403);
  await member.body?.cancel();
});

Deno.test("sign-out ends the session, clears the cookie and goes home with 303", async () => {
  await using t = await createTestApp();
  const { cookie, headers } = await createTestUser(t);
  const res = await t.fetch("/sign-out", { method: "POST", headers });
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/");
  assertMatch(res.headers.get("set-cookie") ?? "", /^session=; Max-Age=0;/);
  const session = await t.fetch("/api/auth/session", { headers: { cookie } });
  assertEquals(await session.json(), null);
});

Deno.test("sign-out from another origin is refused and the session lives on", async () => {
  await using t = await createTestApp();
  const { cookie } = await createTestUser(t);
  const res = await t.fetch("/sign-out", { method: "POST", headers: { cookie, origin: "https://evil.example" } });
  assertEquals(res.status, 403);
  await res.body?.cancel();
  const session = await (await t.fetch("/api/auth/session", { headers: { cookie } })).json();
  assert(session !== null, "the session was ended");
});

Deno.test("sign-out without a session still clears the cookie and goes home", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/sign-out", { method: "POST", headers: { origin: t.origin } });
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/");
  assertMatch(res.headers.get("set-cookie") ?? "", /Max-Age=0/);
});

Deno.test("each page sets its own document title in place of the site's", async () => {
  await using t = await createTestApp();
  const signIn = await page(t, "/sign-in");
  assertHtml(signIn.res);
  assertEquals(signIn.html.match(/<title>[^<]*<\/title>/g), ["<title>Sign in · Career Community</title>"]);
  const owner = await createTestUser(t, "member");
  const [internship] = await addInternships(t, owner, [{
    title: "Robotics Research Intern",
    hiringOrganization: "Orbit Labs",
    link: "https://orbit.example.com/jobs/robotics",
  }]);
  const detail = await page(t, `/internships/${internship.id}`);
  assertHtml(detail.res);
  assertEquals(detail.html.match(/<title>[^<]*<\/title>/g), [
    "<title>Robotics Research Intern · Career Community</title>",
  ]);
});

/** The titles of the internship cards on a page, in order. */
function cardTitles(html: string): string[] {
  return [...html.matchAll(/<h3 id="internship-[^"]+"[^>]*><a [^>]*>([^<]*)<\/a><\/h3>/g)].map((m) => m[1]);
}

Deno.test("the home page lists the six newest public internships, as the list does, and links to all", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin", { createdAt: daysAgo(2) });
  await addInternships(
    t,
    owner,
    Array.from({ length: 8 }, (_, i) => ({
      title: `Home Role ${i} Intern`,
      hiringOrganization: `Company ${i}`,
      link: `https://company${i}.example.com/apply`,
    })),
  );
  const [hidden] = await addInternships(t, owner, [{
    title: "Deactivated Role Intern",
    hiringOrganization: "Hidden Co",
    link: "https://hidden.example.com/apply",
  }]);
  await updateInternship(t.kv, { id: hidden.id, actor: admin.user, patch: { isActive: false } });
  const api = await (await t.fetch("/api/internships?limit=6")).json() as { internships: { title: string }[] };
  const { res, html } = await page(t, "/", admin.cookie);
  assertHtml(res);
  const titles = cardTitles(html);
  assertEquals(titles.length, 6);
  assertEquals(titles, api.internships.map((i) => i.title));
  assert(!html.includes("Deactivated Role Intern"), "an inactive internship is on the home page");
  assertMatch(html, /<a href="\/internships"[^>]*>\s*See all internships\s*<\/a>/);
  assert(!html.includes("No internships are listed yet."), "the empty state shows beside cards");
  assertMatch(html, /Welcome back, /);
});

Deno.test("the home page greets a person who signed up today without 'welcome back', in English and Hindi", async () => {
  await using t = await createTestApp();
  const today = await createTestUser(t, "user", { name: "Kavya Reddy" });
  const earlier = await createTestUser(t, "user", { name: "Rohan Das", createdAt: daysAgo(2) });
  for (const [lang, welcome, back] of [["en", "Welcome, ", "Welcome back, "], ["hi", "स्वागत है, ", "फिर से स्वागत है, "]]) {
    const fresh = (await page(t, `/?lang=${lang}`, today.cookie)).html;
    assert(fresh.includes(`${welcome}Kavya Reddy`) && !fresh.includes(back), `${lang}: a plain welcome`);
    assert((await page(t, `/?lang=${lang}`, earlier.cookie)).html.includes(`${back}Rohan Das`), `${lang}: back`);
  }
});

/** The ISO time `days` days before now. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
}

Deno.test("the home page without internships shows the empty state and how it works", async () => {
  await using t = await createTestApp();
  const { res, html } = await page(t, "/");
  assertHtml(res);
  assertEquals(cardTitles(html), []);
  assertMatch(html, /No internships are listed yet\./);
  assert(!html.includes("See all internships"), "the empty home page links to an empty list");
  for (const step of ["Find opportunities", "Build your profile", "Apply"]) {
    assertMatch(html, new RegExp(`<h3[^>]*>${step}</h3>`));
  }
  assertMatch(html, /<a href="\/sign-up"[^>]*>Create a free account<\/a>/);
});
