/**
 * The language of a page (docs/decisions.md, Languages): the order URL, setting, cookie, `Accept-Language`, English;
 * `?lang=` keeping the cookie for a year; the header's switch; the `language` setting; `hreflang` and the canonical
 * URL; the guest cache per language; sign-up and sign-in keeping the page's language, e-mails in the person's; API
 * errors in English.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { page } from "@/tests/fixtures/html.ts";
import { getUserByEmail, updateUser } from "@/lib/users/users.ts";
import { PASSWORD, passwordUser, people } from "@/tests/fixtures/people.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addInternships, postInternship } from "@/tests/fixtures/internships.ts";
import { createAlert } from "@/lib/alerts/alerts.ts";
import { newUnsubscribeToken } from "@/lib/alerts/unsubscribe.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { PROFILE_LIMITS } from "@/lib/users/profile.ts";
import { createSession } from "@/lib/auth/sessions.ts";

const htmlLang = (html: string) => /<html lang="(\w+)"/.exec(html)?.[1];

Deno.test("a guest's language: ?lang=, then the cookie, then Accept-Language, else English", async () => {
  await using t = await createTestApp();
  const plain = await page(t, "/");
  assertEquals(htmlLang(plain.html), "en");
  assert(plain.html.includes("Sign in"));
  assertEquals(plain.res.headers.get("vary"), "Accept-Language, Cookie");
  assertEquals(plain.res.headers.get("set-cookie"), null);

  const asked = await page(t, "/?lang=hi");
  assertEquals(htmlLang(asked.html), "hi");
  assert(asked.html.includes("साइन इन"), "the header in Hindi");
  assertMatch(asked.res.headers.get("set-cookie") ?? "", /^lang=hi; Max-Age=31536000; Path=\/; SameSite=Lax$/);
  assertEquals(htmlLang((await page(t, "/internships", "lang=hi")).html), "hi", "the cookie keeps it");
  const again = await page(t, "/?lang=hi", "lang=hi");
  assertEquals(again.res.headers.get("set-cookie"), null, "no cookie again when it already says so");

  const header = (value: string, cookie?: string) =>
    t.fetch("/", { headers: { "accept-language": value, ...(cookie ? { cookie } : {}) } }).then((r) => r.text());
  assertEquals(htmlLang(await header("hi-IN,hi;q=0.9,en;q=0.8")), "hi");
  assertEquals(htmlLang(await header("en-IN,en;q=0.9,hi;q=0.8")), "en");
  assertEquals(htmlLang(await header("hi", "lang=en")), "en", "the cookie beats Accept-Language");
  assertEquals(htmlLang((await page(t, "/?lang=en", "lang=hi")).html), "en", "the URL beats the cookie");
  assertEquals(htmlLang((await page(t, "/?lang=xx")).html), "en", "an unknown language is ignored");
});

Deno.test("a signed-in person's setting beats the cookie; the URL beats the setting", async () => {
  await using t = await createTestApp();
  const person = await createTestUser(t);
  const settings = await t.json("GET", "/api/me/settings", { headers: person.headers });
  assertEquals((await settings.json()).settings.language, "en");
  const changed = await t.json("PATCH", "/api/me/settings", {
    body: { language: "hi" },
    headers: person.headers,
  });
  assertEquals(changed.status, 200);
  assertEquals((await changed.json()).settings.language, "hi");
  assertEquals((await getUserByEmail(t.kv, person.user.email))?.language, "hi");
  assertEquals(htmlLang((await page(t, "/me/settings", `${person.cookie}; lang=en`)).html), "hi");
  assertEquals(htmlLang((await page(t, "/me/settings?lang=en", person)).html), "en");
  const refused = await t.json("PATCH", "/api/me/settings", { body: { language: "fr" }, headers: person.headers });
  assertEquals(refused.status, 400);
  const both = await t.json("PATCH", "/api/me/settings", {
    body: { language: "en", channels: { comment_reply: { push: false } } },
    headers: person.headers,
  });
  const after = (await both.json()).settings;
  assertEquals([after.language, after.channels.comment_reply.push], ["en", false], "language and channels at once");
});

Deno.test("the switch keeps the page and its query, sets the cookie, and a signed-in person's setting", async () => {
  await using t = await createTestApp();
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.fetch("/language", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      redirect: "manual",
    });
  const guest = await form({ lang: "hi", back: "/internships?types=remote&search=design" });
  assertEquals(guest.status, 303);
  assertEquals(guest.headers.get("location"), "/internships?types=remote&search=design&lang=hi");
  assertMatch(guest.headers.get("set-cookie") ?? "", /^lang=hi; Max-Age=31536000/);
  assertEquals((await form({ lang: "en", back: "https://evil.example/x" })).headers.get("location"), "/?lang=en");
  assertEquals((await form({ lang: "fr", back: "/" })).status, 400);
  const person = await createTestUser(t);
  const foreign = await form({ lang: "hi", back: "/" }, { cookie: person.cookie, origin: "https://evil.example" });
  assertEquals(foreign.status, 403, "another site cannot change a person's setting");
  assertEquals((await getUserByEmail(t.kv, person.user.email))?.language, undefined);
  assertEquals((await form({ lang: "hi", back: "/me/settings" }, { cookie: person.cookie })).status, 303);
  assertEquals((await getUserByEmail(t.kv, person.user.email))?.language, "hi");
  const settings = await page(t, "/me/settings", person);
  assertEquals(htmlLang(settings.html), "hi", "without ?lang= or a cookie: the setting");
  assert(settings.html.includes('value="hi" checked'), "the setting is shown chosen");
});

Deno.test("a guest's switch naming another site is a 403 page in the page's language; the form works from ours", async () => {
  await using t = await createTestApp();
  // A browser's plain form post (`Accept` a page) without a session cookie or `Sec-Fetch-Site`.
  const post = (lang: string, headers: Record<string, string>) =>
    t.fetch("/language", {
      method: "POST",
      body: new URLSearchParams({ lang, back: "/toolkits" }),
      headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded", ...headers },
      redirect: "manual",
    });
  const foreign = { origin: "https://evil.example", referer: "https://evil.example/page" };
  for (const [lang, accept] of [["hi", "hi-IN,hi;q=0.9"], ["en", "en-IN,en;q=0.9"]] as const) {
    const tr = translatorFor(lang);
    for (const asked of ["hi", "en", "fr"]) {
      const res = await post(asked, { ...foreign, "accept-language": accept });
      const html = await res.text();
      assertEquals([res.status, htmlLang(html)], [403, lang], `${asked} from another site, read in ${lang}`);
      assert(html.includes(tr("common.refusalPage.crossSite.title")), `the refusal in ${lang}`);
      assertEquals(res.headers.get("set-cookie"), null, "no language cookie");
    }
  }
  const ours = await post("hi", { origin: t.origin });
  assertEquals([ours.status, ours.headers.get("location")], [303, "/toolkits?lang=hi"]);
  assertMatch(ours.headers.get("set-cookie") ?? "", /^lang=hi; Max-Age=31536000/);
  await ours.body?.cancel();
});

Deno.test("public pages name both languages with hreflang; a Hindi page's canonical URL is its own", async () => {
  await using t = await createTestApp();
  const links = (html: string) =>
    [...html.matchAll(/<link rel="(canonical|alternate)"(?: hreflang="([\w-]+)")? href="([^"]+)"/g)]
      .filter((m) => m[1] === "canonical" || m[2])
      .map((m) => `${m[2] ?? m[1]} ${m[3].replace(t.origin, "")}`);
  assertEquals(links((await page(t, "/internships?types=remote")).html), [
    "canonical /internships",
    "en /internships",
    "hi /internships?lang=hi",
    "x-default /internships",
  ]);
  assertEquals(links((await page(t, "/privacy?lang=hi")).html), [
    "canonical /privacy?lang=hi",
    "en /privacy",
    "hi /privacy?lang=hi",
    "x-default /privacy",
  ]);
  const person = await createTestUser(t);
  assertEquals(links((await page(t, "/me/settings", person)).html), ["canonical /me/settings"], "private: no hreflang");
  const sitemap = await (await t.fetch("/sitemap.xml")).text();
  assert(sitemap.includes(`<loc>${t.origin}/terms</loc>`) && sitemap.includes(`<loc>${t.origin}/terms?lang=hi</loc>`));
});

Deno.test("a cached guest page is kept per language", async () => {
  await using t = await createTestApp();
  const english = await page(t, "/internships");
  const hindi = await page(t, "/internships", "lang=hi");
  const englishAgain = await page(t, "/internships");
  assertEquals([htmlLang(english.html), htmlLang(hindi.html), htmlLang(englishAgain.html)], ["en", "hi", "en"]);
  assertEquals(englishAgain.html, english.html, "the English copy is served again");
  assertEquals((await page(t, "/internships", "lang=hi")).html, hindi.html, "and the Hindi one");
  assertEquals(t.services.guestPages.size, 2);
});

Deno.test("sign-up keeps the page's language, and the verification e-mail is in Hindi for a Hindi page", async () => {
  await using t = await createTestApp();
  const res = await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "Asha Rao", email: "asha@example.com", password: "a-long-password" },
    headers: { cookie: "lang=hi" },
  });
  assertEquals(res.status, 200);
  assertEquals((await getUserByEmail(t.kv, "asha@example.com"))?.language, "hi");
  await t.settled();
  const mail = t.mails.find((m) => m.to === "asha@example.com")!;
  assertEquals(mail.subject, "Career Community के लिए अपना ई-मेल पता वेरिफ़ाई करें");
  assert(mail.text.startsWith("नमस्ते,\n"), mail.text);
  assert(mail.html.includes('<html lang="hi">') && mail.html.includes("ई-मेल पता वेरिफ़ाई करें"));

  await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "Ben", email: "ben@example.com", password: "a-long-password" },
  });
  await t.settled();
  assertEquals(
    t.mails.find((m) => m.to === "ben@example.com")?.subject,
    "Verify your email address for Career Community",
  );
});

Deno.test("a sign-in on a Hindi page saves Hindi for a person without a setting, never over one", async () => {
  await using t = await createTestApp();
  const rohan = await passwordUser(t, { email: "rohan@example.com" });
  const meera = await passwordUser(t, { email: "meera@example.com" });
  await updateUser(t.kv, meera.id, { language: "en" });
  // English chosen in the settings when nothing was stored is a setting too, which a Hindi sign-in keeps.
  const asha = await passwordUser(t, { email: "asha@example.com" });
  const chosen = await t.json("PATCH", "/api/me/settings", {
    body: { language: "en" },
    headers: { cookie: `session=${(await createSession(t.kv, asha.id)).token}`, origin: t.origin },
  });
  assertEquals(chosen.status, 200);
  assertEquals((await getUserByEmail(t.kv, asha.email))?.language, "en", "English, chosen, is stored");
  const signIn = (email: string) =>
    t.fetch("/sign-in", {
      method: "POST",
      headers: { origin: t.origin, cookie: "lang=hi", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }),
      redirect: "manual",
    });
  for (const email of [rohan.email, meera.email, asha.email]) {
    const res = await signIn(email);
    await res.body?.cancel();
    assertEquals(res.status, 303, email);
  }
  assertEquals((await getUserByEmail(t.kv, rohan.email))?.language, "hi", "the page's language, saved");
  assertEquals((await getUserByEmail(t.kv, meera.email))?.language, "en", "a setting stays as chosen");
  assertEquals((await getUserByEmail(t.kv, asha.email))?.language, "en", "English chosen in the settings stays");

  const api = await passwordUser(t, { email: "api@example.com" });
  const res = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email: api.email, password: PASSWORD },
    headers: { "accept-language": "hi-IN,hi;q=0.9,en;q=0.8" },
  });
  assertEquals(res.status, 200);
  assertEquals((await getUserByEmail(t.kv, api.email))?.language, "hi", "the API's request language");

  const english = await passwordUser(t, { email: "english@example.com" });
  const plain = await t.json("POST", "/api/auth/sign-in/email", { body: { email: english.email, password: PASSWORD } });
  assertEquals(plain.status, 200);
  assertEquals(await getUserByEmail(t.kv, english.email), english, "English, what no setting means: no write");
});

Deno.test("the unsubscribe page is in the language of the person its token names, unless ?lang= asks", async () => {
  await using t = await createTestApp();
  const hindi = await createTestUser(t, "user");
  await updateUser(t.kv, hindi.user.id, { language: "hi" });
  const token = await newUnsubscribeToken({ userId: hindi.user.id, kind: "replies" });
  const op = t.kv.atomic();
  token.write(op);
  assert((await op.commit()).ok);
  const english = { headers: { "accept-language": "en-IN,en;q=0.9" } };
  const opened = await t.fetch(`/unsubscribe/${token.token}`, english);
  const html = await opened.text();
  assertEquals([opened.status, htmlLang(html)], [200, "hi"], "a phone in English opening a Hindi e-mail");
  assertEquals(opened.headers.get("content-language"), "hi");
  assert(html.includes(translatorFor("hi")("me.unsubscribe.turnOff")));
  const asked = await t.fetch(`/unsubscribe/${token.token}?lang=en`, english);
  assertEquals(htmlLang(await asked.text()), "en", "the URL's choice stands");
  const done = await t.fetch(`/unsubscribe/${token.token}`, { method: "POST", ...english });
  assertEquals([done.status, htmlLang(await done.text())], [200, "hi"]);
});

Deno.test("API answers and their {error} texts stay English whatever the language", async () => {
  await using t = await createTestApp();
  const headers = { cookie: "lang=hi", "accept-language": "hi" };
  const missing = await t.fetch("/api/internships/nope?lang=hi", { headers });
  assertEquals([missing.status, (await missing.json()).error], [404, "Internship not found"]);
  const guest = await t.fetch("/api/me/settings?lang=hi", { headers });
  assertEquals(guest.status, 401);
  assertMatch((await guest.json()).error, /^[\x20-\x7e]+$/, "ASCII English");
  const bad = await t.json("POST", "/api/auth/sign-in/email", { body: { email: "x" }, headers });
  assertEquals(bad.status, 400);
  assertMatch((await bad.json()).error, /^[\x20-\x7e]+$/, "ASCII English");
});

Deno.test("the home page in Hindi: its words, a card's stipend, deadline and type, and a date in Hindi", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member", { createdAt: "2026-01-05T10:00:00.000Z" });
  await addInternships(t, member, [{ stipend: 100000, deadline: "2099-01-31", type: "remote", location: "Pune" }]);
  const { html } = await page(t, "/?lang=hi");
  for (const words of ["अपना अगला अवसर खोजें", "नई इंटर्नशिप", "यह कैसे काम करता है", "₹1,00,000 हर महीने", "रिमोट"]) {
    assert(html.includes(words), words);
  }
  assertMatch(html, /<time datetime="2099-01-31">31 जनवरी 2099<\/time> तक आवेदन करें/);
  assertMatch(html, /\([\d,]+ दिन में बंद होगी\)/);
  for (const english of ["Find your next opportunity", "Latest internships", "a month", "Apply by", "Remote"]) {
    assert(!html.includes(english), english);
  }
  const signedIn = await page(t, "/?lang=hi", member.cookie);
  assert(signedIn.html.includes(`फिर से स्वागत है, ${member.user.name}`), "the greeting in Hindi");
  assert(signedIn.html.includes("सभी सूचनाएँ देखें"), "the notification bell in Hindi");
});

Deno.test("the home page's news of an alert names the alert in the reader's language", async () => {
  await using t = await createTestApp();
  const [member, student] = [await createTestUser(t, "member"), await createTestUser(t)];
  // Made a minute before the listing: news counts the listings made at or after the alert.
  await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "robotics", paidOnly: "true" }, frequency: "daily" },
    now: new Date(Date.now() - 60_000),
  });
  await addInternships(t, member, [{ title: "Robotics Intern", stipend: 10000 }]);
  const hindi = (await page(t, "/?lang=hi", student)).html;
  assert(hindi.includes("1 नए: इंटर्नशिप: सर्च robotics, सिर्फ़ पेड"), "the alert in Hindi");
  assert((await page(t, "/?lang=en", student)).html.includes("1 new: Internships: search robotics, paid only"));
});

Deno.test("sign-in and sign-up in Hindi: the pages, and a refused plain sign-up's sentences at their fields", async () => {
  await using t = await createTestApp();
  const signIn = await page(t, "/sign-in?lang=hi&error=INVALID_STATE");
  for (const words of ["साइन इन करें", "पासवर्ड भूल गए?", "यहाँ नए हैं?", "वह साइन इन एक्सपायर हो गया"]) {
    assert(signIn.html.includes(words), words);
  }
  const res = await t.fetch("/sign-up", {
    method: "POST",
    headers: { origin: t.origin, cookie: "lang=hi", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Al", email: "not-an-address", password: "short" }),
  });
  assertEquals(res.status, 400);
  const html = await res.text();
  assertEquals(htmlLang(html), "hi");
  for (const words of ["3 से 100 अक्षरों का नाम डालें।", "सही ई-मेल पता डालें", "कम से कम 8 अक्षर का पासवर्ड रखें।"]) {
    assert(html.includes(words), words);
  }
  assert(!html.includes("Enter a valid e-mail address"), "no English sentence");
});

Deno.test("/opportunities, /toolkits and /check-inbox in Hindi", async () => {
  await using t = await createTestApp();
  const opportunities = await page(t, "/opportunities?lang=hi");
  for (const words of ["अवसर", "हैकाथॉन", "प्रतियोगिताएँ", "टाइटल, आयोजक या जगह से सर्च करें", "अभी यहाँ कुछ नहीं है।"]) {
    assert(opportunities.html.includes(words), words);
  }
  const toolkits = await page(t, "/toolkits?lang=hi");
  assert(toolkits.html.includes("अभी कोई टूलकिट नहीं"), "the empty toolkits page in Hindi");
  const inbox = await page(t, "/check-inbox?lang=hi&email=asha%40example.com");
  assertMatch(inbox.html, /हमने <strong[^>]*>asha@example.com<\/strong> पर वेरिफ़िकेशन लिंक भेजा है।/);
});

Deno.test("onboarding in Hindi: the page, the wizard's first step and the choices", async () => {
  await using t = await createTestApp();
  const person = await createTestUser(t);
  const { html } = await page(t, "/onboarding?lang=hi", person.cookie);
  for (const words of [`स्वागत है, ${person.user.name}`, "आपके बारे में", "आगे"]) {
    assert(html.includes(words), words);
  }
  assert(html.includes("मैं छात्र/छात्रा हूँ"), "the persona choice in Hindi");
  assert(!html.includes("Which describes you best?"), "no English question");
});

Deno.test("the profile page in Hindi, and a refused plain profile submit's sentence at its field in Hindi", async () => {
  await using t = await createTestApp();
  const person = await createTestUser(t);
  const { html } = await page(t, "/profile?lang=hi", person.cookie);
  for (const words of ["आपकी प्रोफ़ाइल", "प्रोफ़ाइल सेव करें", "साइन इन के तरीके", "डेटा और AI"]) {
    assert(html.includes(words), words);
  }
  const res = await t.fetch("/profile", {
    method: "POST",
    headers: {
      origin: t.origin,
      cookie: `${person.cookie}; lang=hi`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ name: "", contactNumber: "12" }),
  });
  assertEquals(res.status, 400);
  const refused = await res.text();
  const sentence = translatorFor("hi")("profile.problem.name", { max: PROFILE_LIMITS.name });
  assert(refused.includes(sentence), sentence);
  assert(!refused.includes("Enter your name"), "no English sentence at the name");
});

Deno.test("legal pages and a missing certificate's page in Hindi", async () => {
  await using t = await createTestApp();
  t.services.config.grievanceEmail = "grievance@example.com";
  const privacy = (await page(t, "/privacy?lang=hi")).html;
  for (const words of ["<title>गोपनीयता नीति", "शिकायत अधिकारी", "grievance@example.com</a> पर लिखें", "आपके अधिकार"]) {
    assert(privacy.includes(words), words);
  }
  assert(!privacy.includes("Your rights"), "the policy's body in Hindi");
  const refunds = (await page(t, "/refunds?lang=hi")).html;
  assert(refunds.includes("कैंसिल करना और रिफ़ंड") && refunds.includes("मुफ़्त टूलकिट"));
  assert((await page(t, "/refunds")).html.includes("Free toolkits"), "English readers keep the English body");
  const missing = await page(t, `/certificates/${crypto.randomUUID()}?lang=hi`);
  assertEquals(missing.res.status, 404);
  assert(missing.html.includes("प्रमाणपत्र नहीं मिला") && missing.html.includes("टूलकिट देखें"));
});

Deno.test("a domain's refusal on a page is worded in the reader's language; the API keeps its English", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const person = await createTestUser(t);
  await updateUser(t.kv, person.user.id, { emailVerified: false });
  const listing = await postInternship(t, member, { title: "Data Intern" });
  const post = await createPost(t, admin);
  const form = (path: string, fields: Record<string, string>) =>
    t.fetch(path, {
      method: "POST",
      headers: { ...person.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const report = await form("/report?lang=hi", { kind: "internship", id: listing.id, reason: "spam" });
  assertEquals(report.status, 403);
  assert((await report.text()).includes("पहले अपना ई-मेल पता वेरिफ़ाई करें।"), "the report page in Hindi");
  const comment = await form(`/ungatekeep/${post.id}?lang=hi`, { content: "Nice post" });
  assertEquals(comment.status, 403);
  const html = await comment.text();
  assert(html.includes("कमेंट करने के लिए अपना ई-मेल पता वेरिफ़ाई करें।"), "the post page in Hindi");
  assert(!html.includes("Verify your e-mail address"), "no English refusal on a Hindi page");
  const api = await t.json("POST", "/api/reports?lang=hi", {
    body: { kind: "internship", id: listing.id, reason: "spam" },
    headers: person.headers,
  });
  assertEquals([api.status, await api.json()], [403, { error: "Verify your e-mail address first" }]);
});

Deno.test("a page's form refused as not found or forbidden gets that page in the reader's language, not JSON", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const listing = await postInternship(t, member, { title: "Data Intern" });
  const post = (path: string) =>
    t.fetch(path, {
      method: "POST",
      headers: { ...student.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ids: "x", status: "shortlisted" }),
      redirect: "manual",
    });
  const hidden = await post(`/internships/${listing.id}/applicants?lang=hi`);
  assertEquals([hidden.status, hidden.headers.get("content-type")], [404, "text/html; charset=utf-8"]);
  assert((await hidden.text()).includes("पेज नहीं मिला"), "the not-found page in Hindi");
  const admin = await post("/admin/users?lang=hi");
  assertEquals(admin.status, 403);
  assert((await admin.text()).includes("आपको यह पेज देखने की अनुमति नहीं है"), "the forbidden page in Hindi");
  const api = await t.json("PATCH", `/api/applications/${crypto.randomUUID()}?lang=hi`, {
    body: { status: "shortlisted" },
    headers: student.headers,
  });
  assertEquals([api.status, await api.json()], [404, { error: "Application not found" }], "the API answers JSON");
});
