/**
 * Plain forms refused (docs/decisions.md, Errors and limits, "Plain forms refused"), over real HTTP: a form a browser
 * posts without JavaScript and a route refuses without its own page gets a page in the person's language with the
 * refusal's status and a link back to the form; `fetch` and JSON clients keep the API's `{error}`. The apply page's
 * reasons one cannot apply are the refusal sentences every page words (`refusalText`).
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { stillClock } from "@/tests/helpers/clock.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { pdfBytes, resumeForm } from "@/tests/fixtures/resumes.ts";
import { answersFor, applicant, applyTo, platformInternship, sendApplication } from "@/tests/fixtures/applications.ts";
import { people } from "@/tests/fixtures/people.ts";
import { getUser, getUserByEmail, updateUser } from "@/lib/users/users.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { type Session, SESSION_RENEW_BELOW_MS } from "@/lib/auth/sessions.ts";
import { PERSON_LIMITS } from "@/lib/platform/rate_limits.ts";
import { ConflictError } from "@/lib/errors.ts";
import { NAME_TAKEN } from "@/lib/organizations/organizations.ts";
import { define } from "@/lib/platform/define.ts";
import { readForm } from "@/lib/http/form_posts.ts";
import { DEFAULT_BODY_LIMIT_BYTES, UPLOAD_BODY_LIMIT_BYTES } from "@/lib/platform/route_options.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { CLOSED, OWN_INTERNSHIP, TAKES_LINK, UNVERIFIED } from "@/lib/applications/schema.ts";
import { getResume, RESUME_CHANGED } from "@/lib/resumes/resumes.ts";

/** What Chromium sends as `Accept` when it follows a link or posts a form. */
const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";

/** Posts `body` over HTTP to `path` as a browser's form on `from` does (`Accept` a page), as `who` if given. */
function browserPost(
  t: TestApp,
  path: string,
  body: BodyInit,
  { who, from = "/", headers = {} }: { who?: TestUser; from?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${t.origin}${path}`, {
    method: "POST",
    headers: {
      accept: BROWSER_ACCEPT,
      origin: t.origin,
      referer: `${t.origin}${from}`,
      ...(who ? { cookie: who.cookie } : {}),
      ...(body instanceof URLSearchParams ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...headers,
    },
    body,
    redirect: "manual",
  });
}

/** Asserts an HTML page of `status` in `lang` whose way back leads to `back`; answers its text. */
async function refusalPage(res: Response, status: number, lang: string, back: string): Promise<string> {
  const html = await res.text();
  assertEquals([res.status, res.headers.get("content-type")], [status, "text/html; charset=utf-8"], html.slice(0, 300));
  assertEquals(/<html lang="(\w+)"/.exec(html)?.[1], lang);
  assert(html.includes(`href="${back.replaceAll("&", "&amp;")}"`), `a link back to ${back}`);
  return html;
}

Deno.test("a per-person limit refusing a plain form is a 429 page in the person's language; fetch gets JSON", async () => {
  await using t = await createTestApp({ listen: true, rateLimitClock: stillClock() });
  const student = await createTestUser(t);
  await updateUser(t.kv, student.user.id, { language: "hi" });
  const rule = PERSON_LIMITS.settings;
  for (let i = 0; i < rule.limit; i++) await t.services.rateLimits.hit(rule, `user:${student.user.id}`);
  const form = () => new URLSearchParams({ lang: "en", back: "/me/settings" });

  const res = await browserPost(t, "/language", form(), { who: student, from: "/me/settings?saved=1" });
  const html = await refusalPage(res, 429, "hi", "/me/settings?saved=1");
  assert(html.includes("बहुत ज़्यादा कोशिशें"), "the title in Hindi");
  assertMatch(html, /\d+ मिनट बाद फिर से कोशिश करें।|एक मिनट बाद फिर से कोशिश करें।/);
  assert(Number(res.headers.get("retry-after")) >= 1, "Retry-After kept");
  assert(!html.includes("Too many requests"), "no English refusal");

  const script = await browserPost(t, "/language", form(), { who: student, headers: { accept: "*/*" } });
  assertEquals([script.status, await script.json()], [429, { error: "Too many requests, try again later" }]);
});

Deno.test("a resume over the upload limit is a 413 page saying the resume's limit; the API and fetch keep JSON", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t);
  const member = await createTestUser(t, "member");
  const internship = await platformInternship(t, member);
  const big = () => resumeForm(pdfBytes(UPLOAD_BODY_LIMIT_BYTES + 1024));
  const [en, hi] = [translatorFor("en"), translatorFor("hi")];

  const declared = await browserPost(t, "/profile/resume?lang=hi", big(), { who: student, from: "/profile#resume" });
  const html = await refusalPage(declared, 413, "hi", "/profile");
  assert(html.includes("यह बहुत बड़ा है"), "the title in Hindi");
  assert(html.includes(hi("common.refusal.resumeTooLarge")) && !html.includes("5 MB"), "the resume's 2 MB, in Hindi");

  // A body without Content-Length is counted as it comes, and refused the same way.
  const bytes = new Uint8Array(await new Response(big()).arrayBuffer());
  const type = new Response(big()).headers.get("content-type")!;
  const streamed = await browserPost(t, "/profile/resume", ReadableStream.from([bytes]), {
    who: student,
    from: "/profile",
    headers: { "content-type": type },
  });
  const english = await refusalPage(streamed, 413, "en", "/profile");
  assert(english.includes(en("common.refusal.resumeTooLarge")) && !english.includes("5 MB"), "the limit in English");

  const apply = await browserPost(t, `/internships/${internship.id}/apply?lang=hi`, big(), {
    who: student,
    from: `/internships/${internship.id}/apply`,
  });
  const applyPage = await refusalPage(apply, 413, "hi", `/internships/${internship.id}/apply`);
  assert(applyPage.includes(hi("common.refusal.resumeTooLarge")), "the apply form's resume, in Hindi");

  const script = await browserPost(t, "/profile/resume", big(), { who: student, headers: { accept: "*/*" } });
  assertEquals([script.status, await script.json()], [413, { error: REFUSALS.resumeTooLarge }]);
  const api = await fetch(`${t.origin}/api/me/resume`, {
    method: "PUT",
    headers: { ...student.headers, accept: BROWSER_ACCEPT },
    body: big(),
  });
  assertEquals([api.status, await api.json()], [413, { error: REFUSALS.resumeTooLarge }]);
});

Deno.test("a form with a file over a limit its route names no refusal for is told the size and a smaller file", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t);
  const form = () => {
    const body = new FormData();
    body.set("lang", "en");
    body.set("file", new File([new Uint8Array(DEFAULT_BODY_LIMIT_BYTES + 1024)], "big.bin"));
    return body;
  };
  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    const res = await browserPost(t, `/language?lang=${lang}`, form(), { who: student, from: "/me/settings" });
    const html = await refusalPage(res, 413, lang, "/me/settings");
    assert(html.includes(tr("common.refusalPage.tooLarge.textLimit", { size: tr.number(1) })), lang);
  }
});

Deno.test("a text-only form over the limit is told to shorten what was written, not to choose a smaller file", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t);
  const long = () => new URLSearchParams({ lang: "en", back: "/toolkits", note: "a".repeat(2 * 1024 * 1024) });
  for (const lang of ["en", "hi"] as const) {
    const tr = translatorFor(lang);
    const res = await browserPost(t, `/language?lang=${lang}`, long(), { who: student, from: "/me/settings" });
    const html = await refusalPage(res, 413, lang, "/me/settings");
    assert(html.includes(tr("common.refusalPage.tooLarge.textLimitWritten", { size: tr.number(1) })), lang);
    assert(!html.includes(tr("common.refusalPage.tooLarge.textLimit", { size: tr.number(1) })), "no file in sight");
  }
});

Deno.test("a refused plain sign-in is the sign-in page again, 429, never JSON", async () => {
  await using t = await createTestApp({ listen: true, rateLimitClock: stillClock() });
  const user = await passwordUser(t);
  const attempt = (password: string) =>
    browserPost(t, "/sign-in?lang=hi", new URLSearchParams({ email: user.email, password }), { from: "/sign-in" });
  for (let i = 0; i < 5; i++) assertEquals((await attempt("not the password")).status, 401);
  const limited = await attempt(PASSWORD);
  const html = await limited.text();
  assertEquals([limited.status, limited.headers.get("content-type")], [429, "text/html; charset=utf-8"]);
  assert(html.includes('<html lang="hi"'), "in Hindi");
});

Deno.test("a conflict refusing a plain form is a 409 page with the refusal in the person's language", async () => {
  const conflict = define.handlers({
    async POST(req) {
      await readForm(req);
      throw new ConflictError(NAME_TAKEN);
    },
  });
  await using t = await createTestApp({
    listen: true,
    routes: { "./routes/test-conflict.ts": { handler: conflict } },
  });
  const person = await createTestUser(t);
  const body = () => new URLSearchParams({ name: "Acme" });
  const html = await refusalPage(
    await browserPost(t, "/test-conflict?lang=hi", body(), { who: person, from: "/organizations/acme" }),
    409,
    "hi",
    "/organizations/acme",
  );
  assert(html.includes("इस नाम की एक संस्था पहले से है।") && html.includes("यह नहीं हो पाया"), "the refusal in Hindi");
  const script = await browserPost(t, "/test-conflict", body(), { who: person, headers: { accept: "*/*" } });
  assertEquals([script.status, await script.json()], [409, { error: NAME_TAKEN }]);

  // A duplicate application sent as a plain form is the apply page's own answer, in the person's language.
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const student = await applicant(t);
  const apply = () => {
    const form = new FormData();
    for (const { questionId, answer } of answersFor(internship).answers) form.set(`answers.${questionId}`, answer);
    return browserPost(t, `/internships/${internship.id}/apply?lang=hi`, form, { who: student });
  };
  assertEquals((await apply()).status, 303);
  const again = await apply();
  assertEquals(again.headers.get("content-type"), "text/html; charset=utf-8");
  assert((await again.text()).includes("आप पहले ही आवेदन कर चुके हैं"), "already applied, in Hindi");
});

Deno.test("a plain form with a value no route takes is a 400 page; a guest's is sent to sign in and back", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t);
  const html = await refusalPage(
    await browserPost(t, "/language?lang=hi", new URLSearchParams({ lang: "fr" }), { who: student, from: "/toolkits" }),
    400,
    "hi",
    "/toolkits",
  );
  assert(html.includes("फ़ॉर्म नहीं भेजा गया"), "the title in Hindi");
  const elsewhere = await browserPost(t, "/language", new URLSearchParams({ lang: "fr" }), {
    who: student,
    headers: { referer: "https://example.com/page" },
  });
  await refusalPage(elsewhere, 400, "en", "/");
  // A same-origin Referer whose path a browser reads as another host links home, never away.
  for (const from of ["//evil.example/x", "/\\evil.example/x", "/%2e%2e//evil.example/x", "/..//evil.example/x"]) {
    const hostile = await browserPost(t, "/language", new URLSearchParams({ lang: "fr" }), {
      who: student,
      headers: { referer: `${t.origin}${from}` },
    });
    const page = await refusalPage(hostile, 400, "en", "/");
    assert(!/href="[\/\\]{2}|href="\/\.\.|evil\.example/.test(page), `no link away for a Referer of ${from}`);
  }

  const guest = await browserPost(t, "/me/settings", new URLSearchParams({ "email.reply": "on" }), {
    from: "/me/settings",
  });
  assertEquals([guest.status, guest.headers.get("location")], [302, "/sign-in?callbackURL=%2Fme%2Fsettings"]);
  const script = await browserPost(t, "/me/settings", new URLSearchParams(), { headers: { accept: "*/*" } });
  assertEquals([script.status, await script.json()], [401, { error: "Unauthorized" }]);
});

Deno.test("a body refused for its size is still read, so a client sending it gets the answer and keeps its connection", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await createTestUser(t);
  const statuses = await postWhole(t, "/language", {
    body: new Uint8Array(2 * 1024 * 1024).fill(0x61),
    type: "application/x-www-form-urlencoded",
    headers: { cookie: student.cookie, origin: t.origin },
  });
  assertEquals(statuses, ["HTTP/1.1 413", "HTTP/1.1 200"]);
});

/**
 * Posts `body` over a raw connection as a browser does (the whole body, then the next request on the same connection)
 * and answers the status lines read back; a connection the server resets mid-body fails the write or the read.
 */
async function postWhole(
  t: TestApp,
  path: string,
  { body, type, headers }: { body: Uint8Array; type: string; headers: Record<string, string> },
): Promise<string[]> {
  const { hostname, port, host } = new URL(t.origin);
  using conn = await Deno.connect({ hostname, port: Number(port) });
  const encoder = new TextEncoder();
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `content-type: ${type}`,
    `content-length: ${body.length}`,
    `accept: ${BROWSER_ACCEPT}`,
  ].join("\r\n");
  const sending = (async () => {
    await conn.write(encoder.encode(`${head}\r\n\r\n`));
    for (let sent = 0; sent < body.length; sent += 64 * 1024) await conn.write(body.subarray(sent, sent + 64 * 1024));
    await conn.write(encoder.encode(`GET /api/health HTTP/1.1\r\nhost: ${host}\r\n\r\n`));
  })();
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let received = "";
  while ((received.match(/HTTP\/1\.1 \d+/g) ?? []).length < 2) {
    const read = await conn.read(buffer);
    if (read === null) break;
    received += decoder.decode(buffer.subarray(0, read), { stream: true });
  }
  await sending;
  return received.match(/HTTP\/1\.1 \d+/g) ?? [];
}

Deno.test("a form refused before its body is read still has it read, so a browser sending a file gets the answer", async () => {
  await using t = await createTestApp({ listen: true });
  const { member, student } = await people(t);
  const [linked] = await postInternships(t, member, [{ title: "Linked Intern" }]);
  const upload = new Request(t.origin, { method: "POST", body: resumeForm(pdfBytes(1_900_000)) });
  const resume = { body: new Uint8Array(await upload.arrayBuffer()), type: upload.headers.get("content-type")! };
  const form = { body: new Uint8Array(512 * 1024).fill(0x61), type: "application/x-www-form-urlencoded" };
  // The apply page refuses a listing that takes applications elsewhere without reading the resume.
  const apply = await postWhole(t, `/internships/${linked.id}/apply`, {
    ...resume,
    headers: { cookie: student.cookie, origin: t.origin },
  });
  assertEquals(apply, ["HTTP/1.1 400", "HTTP/1.1 200"], "the apply page's refusal");
  const foreign = await postWhole(t, "/me/settings", {
    ...form,
    headers: { cookie: student.cookie, origin: "https://evil.example" },
  });
  assertEquals(foreign, ["HTTP/1.1 403", "HTTP/1.1 200"], "the origin check's refusal");
  const guest = await postWhole(t, "/me/settings", { ...form, headers: { origin: t.origin } });
  assertEquals(guest, ["HTTP/1.1 302", "HTTP/1.1 200"], "a guest sent to sign in");
});

Deno.test("the apply page says why one cannot apply with the refusal sentences every page uses, in the reader's language", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const unverified = await createTestUser(t);
  await updateUser(t.kv, unverified.user.id, { emailVerified: false });
  const open = await platformInternship(t, member);
  const yesterday = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
  const closed = await platformInternship(t, member, { deadline: yesterday });
  const [linked] = await postInternships(t, member, [{ title: "Linked Intern" }]);
  const refused = async (who: TestUser, id: string, lang: "en" | "hi") => {
    const res = await t.fetch(`/internships/${id}/apply?lang=${lang}`, { headers: who.headers });
    assertEquals(res.status, 200);
    return await res.text();
  };
  const [en, hi] = [translatorFor("en"), translatorFor("hi")];
  const cases: [TestUser, string, string][] = [
    [member, open.id, OWN_INTERNSHIP],
    [unverified, open.id, UNVERIFIED],
    [student, closed.id, CLOSED],
    [student, linked.id, TAKES_LINK],
  ];
  for (const [who, id, sentence] of cases) {
    assert((await refused(who, id, "en")).includes(refusalText(en, sentence)), sentence);
    const html = await refused(who, id, "hi");
    assert(html.includes(refusalText(hi, sentence)) && html.includes(hi("applications.apply.cannotTitle")), sentence);
  }
});

Deno.test("a post the apply page refuses answers its API twin's status, with the page in the reader's language", async () => {
  await using t = await createTestApp({ listen: true });
  const { member } = await people(t);
  const [student, done] = [await applicant(t), await applicant(t)];
  const unverified = await createTestUser(t);
  await updateUser(t.kv, unverified.user.id, { emailVerified: false });
  for (const who of [member, student, done, unverified]) await updateUser(t.kv, who.user.id, { language: "hi" });
  const open = await platformInternship(t, member);
  await applyTo(t, done, open);
  const yesterday = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
  const closed = await platformInternship(t, member, { deadline: yesterday });
  const [linked] = await postInternships(t, member, [{ title: "Linked Intern" }]);
  const hi = translatorFor("hi");
  const cases: [TestUser, string, number, string][] = [
    [member, open.id, 403, refusalText(hi, OWN_INTERNSHIP)],
    [unverified, open.id, 403, refusalText(hi, UNVERIFIED)],
    [student, closed.id, 400, refusalText(hi, CLOSED)],
    [student, linked.id, 400, refusalText(hi, TAKES_LINK)],
    [student, "no-such-internship", 404, hi("applications.apply.notFoundTitle")],
    [done, open.id, 409, hi("applications.apply.alreadyTitle")],
  ];
  for (const [who, id, status, words] of cases) {
    const path = `/internships/${id}/apply`;
    const res = await browserPost(t, path, resumeForm(pdfBytes()), { who, from: path });
    const html = await res.text();
    assertEquals([res.status, /<html lang="(\w+)"/.exec(html)?.[1]], [status, "hi"], `${id}: ${words}`);
    assert(html.includes(words), `${id}: ${words}`);
    const api = await sendApplication(t, who, id, answersFor(open));
    assertEquals(api.status, status, `the API's twin: ${await api.text()}`);
  }
});

Deno.test("a form from another site is a 403 page saying so, to the person in their language; nothing is written", async () => {
  await using t = await createTestApp({ listen: true });
  const reader = await createTestUser(t, "user", { name: "Asha Verma" });
  await updateUser(t.kv, reader.user.id, { language: "hi" });
  // A session due for renewal: reading it as the session step does would extend it (a write).
  const sessionKey = ["sessions", await sha256Hex(reader.cookie.slice("session=".length))];
  const stored = await t.kv.get<Session>(sessionKey);
  const dueAt = new Date(Date.now() + SESSION_RENEW_BELOW_MS - 60 * 60_000).toISOString();
  await t.kv.set(sessionKey, { ...stored.value!, expiresAt: dueAt });
  const before = await t.kv.get<Session>(sessionKey);
  const switchForm = () => new URLSearchParams({ lang: "en", back: "/toolkits" });
  const foreign = { origin: "https://elsewhere.example", referer: "https://elsewhere.example/page" };

  const res = await browserPost(t, "/language", switchForm(), { who: reader, headers: foreign });
  const html = await refusalPage(res, 403, "hi", "/");
  assert(html.includes("फ़ॉर्म इस साइट से नहीं भेजा गया"), "the title in Hindi");
  assert(html.includes("पेज इसी साइट पर खोलें और फ़ॉर्म फिर से भेजें।"), "what to do, in Hindi");
  assert(html.includes("Asha Verma") && html.includes('action="/sign-out"'), "the person's header");
  assert(!html.includes("एडमिन"), "not the page of an area for admins");
  assertEquals([res.headers.get("set-cookie"), res.headers.get("cache-control")], [null, "private, no-store"]);
  const after = await t.kv.get<Session>(sessionKey);
  assertEquals([after.versionstamp, after.value?.expiresAt], [before.versionstamp, dueAt], "the session not renewed");
  assertEquals((await getUser(t.kv, reader.user.id))?.language, "hi", "the form's handler did not run");

  // In English for a person without a setting; `Origin: null` (a sandboxed page) is refused the same way.
  const other = await createTestUser(t, "user", { name: "Ravi Kumar" });
  const english = await browserPost(t, "/language", switchForm(), {
    who: other,
    from: "/me/settings",
    headers: { origin: "null" },
  });
  const text = await refusalPage(english, 403, "en", "/me/settings");
  assert(text.includes("The form was not sent from this site") && text.includes("Ravi Kumar"), "in English, signed in");
  assert(text.includes("Open the page on this site and send the form again."), "what to do");

  // A cross-site post carries no cookie of ours (SameSite=Lax): the browser's languages decide, with a guest header.
  const guest = await browserPost(t, "/language", switchForm(), {
    headers: { ...foreign, "sec-fetch-site": "cross-site", "accept-language": "hi-IN,hi;q=0.9,en;q=0.8" },
  });
  const guestHtml = await refusalPage(guest, 403, "hi", "/");
  assert(guestHtml.includes("फ़ॉर्म इस साइट से नहीं भेजा गया") && guestHtml.includes('href="/sign-in'), "a guest's page");
  assertEquals(guest.headers.get("set-cookie"), null);

  // fetch, JSON and the API keep the API's answer.
  const script = await fetch(`${t.origin}/api/me/settings`, {
    method: "PATCH",
    headers: { ...foreign, cookie: reader.cookie, accept: BROWSER_ACCEPT, "content-type": "application/json" },
    body: JSON.stringify({ language: "en" }),
  });
  assertEquals([script.status, await script.json()], [403, { error: "Invalid origin" }]);
});

/** How many sessions `kv` holds. */
async function sessionCount(kv: Deno.Kv): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["sessions"] })) count++;
  return count;
}

Deno.test("a cross-site post to the sign-in, sign-up and password forms is refused before the session step", async () => {
  await using t = await createTestApp({ listen: true });
  const person = await passwordUser(t, { email: "asha@example.com" });
  const reader = await createTestUser(t, "user", { name: "Ravi Kumar" });
  // A session due for renewal: reading it as the session step does would extend it (a write).
  const sessionKey = ["sessions", await sha256Hex(reader.cookie.slice("session=".length))];
  const stored = await t.kv.get<Session>(sessionKey);
  const dueAt = new Date(Date.now() + SESSION_RENEW_BELOW_MS - 60 * 60_000).toISOString();
  await t.kv.set(sessionKey, { ...stored.value!, expiresAt: dueAt });
  const before = await t.kv.get<Session>(sessionKey);
  const sessions = await sessionCount(t.kv);
  const forms: [string, Record<string, string>][] = [
    ["/sign-in", { email: person.email, password: PASSWORD }],
    ["/sign-up", { name: "Mallory", email: "mallory@example.com", password: PASSWORD }],
    ["/forgot-password", { email: person.email }],
    ["/reset-password", { token: "x".repeat(32), newPassword: PASSWORD, confirmPassword: PASSWORD }],
  ];
  const foreign = { origin: "https://elsewhere.example", referer: "https://elsewhere.example/page" };
  for (const [path, fields] of forms) {
    // A guest's post (a cross-site form carries no cookie of ours) asking for Hindi on its URL: nothing runs, not even
    // the language step that would keep `lang` in a cookie.
    const guest = await browserPost(t, `${path}?lang=hi`, new URLSearchParams(fields), { headers: foreign });
    const html = await refusalPage(guest, 403, "hi", "/");
    assert(html.includes("फ़ॉर्म इस साइट से नहीं भेजा गया"), `${path}: the cross-site page`);
    assertEquals(guest.headers.get("set-cookie"), null, `${path}: no cookie`);
    // A signed-in person's: their session is read for the page, never renewed.
    const signedIn = await browserPost(t, path, new URLSearchParams(fields), { who: reader, headers: foreign });
    await refusalPage(signedIn, 403, "en", "/");
    assertEquals(signedIn.headers.get("set-cookie"), null, `${path}: no cookie`);
  }
  assertEquals(await sessionCount(t.kv), sessions, "nobody was signed in");
  const after = await t.kv.get<Session>(sessionKey);
  assertEquals([after.versionstamp, after.value?.expiresAt], [before.versionstamp, dueAt], "the session not renewed");
  assertEquals(await getUserByEmail(t.kv, "mallory@example.com"), null, "no account made");
});

/**
 * Makes every write through `kv` that sets a key under `table` (`resumes`: a person's resume) lose its race, as if
 * another tab wrote one at each turn; answers a function that puts `kv` back.
 */
function writesLose(kv: Deno.Kv, table: string): () => void {
  const atomic = kv.atomic;
  kv.atomic = function () {
    const op = atomic.call(kv);
    const [set, commit] = [op.set, op.commit];
    let touchesTable = false;
    op.set = (key, value, options) => {
      touchesTable ||= key[0] === table;
      return set.call(op, key, value, options);
    };
    op.commit = () => touchesTable ? Promise.resolve({ ok: false }) : commit.call(op);
    return op;
  };
  return () => void (kv.atomic = atomic);
}

Deno.test("the apply page keeps the stored resume when the application sent with a new one is not made", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await applicant(t, "Meera Nair");
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const kept = await getResume(t.kv, student.user.id);
  const form = resumeForm(pdfBytes(8192), "new-resume.pdf");
  for (const { questionId, answer } of answersFor(internship).answers) form.set(`answers.${questionId}`, answer);
  // Every write of an application loses its race: the application is not made after the new resume was stored.
  const restore = writesLose(t.kv, "applications");
  try {
    const apply = await browserPost(t, `/internships/${internship.id}/apply`, form, { who: student });
    assertEquals(apply.status, 503);
    await apply.body?.cancel();
  } finally {
    restore();
  }
  assertEquals(await getResume(t.kv, student.user.id), kept, "the earlier resume kept");
  const served = await t.fetch("/api/me/resume/file", { headers: student.headers });
  assertEquals([served.status, (await served.arrayBuffer()).byteLength], [200, kept!.size], "with its bytes");
  const made = await browserPost(t, `/internships/${internship.id}/apply`, form, { who: student });
  assertEquals(made.status, 303, "applied once the writes go through");
  await made.body?.cancel();
  assertEquals((await getResume(t.kv, student.user.id))?.name, "new-resume.pdf", "then the new resume is kept");
});

Deno.test("a resume replaced during a concurrent save is said so, on the profile's form and the apply page", async () => {
  await using t = await createTestApp({ listen: true });
  const student = await applicant(t, "Meera Nair");
  await updateUser(t.kv, student.user.id, { language: "hi" });
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const [en, hi] = [translatorFor("en"), translatorFor("hi")];
  const kept = await getResume(t.kv, student.user.id);
  const restore = writesLose(t.kv, "resumes");
  try {
    const profile = await browserPost(t, "/profile/resume", resumeForm(pdfBytes()), { who: student, from: "/profile" });
    const html = await refusalPage(profile, 409, "hi", "/profile");
    assert(
      html.includes(hi("common.refusal.resumeChanged")) && html.includes("यह नहीं हो पाया"),
      "the refusal in Hindi",
    );
    assert(!html.includes(hi("common.refusalPage.conflict.text")), "not the generic conflict sentence");

    // The apply page sending a new resume with the application: not "already applied", and nothing applied.
    const form = resumeForm(pdfBytes());
    for (const { questionId, answer } of answersFor(internship).answers) form.set(`answers.${questionId}`, answer);
    const apply = await browserPost(t, `/internships/${internship.id}/apply?lang=en`, form, { who: student });
    const text = await apply.text();
    assertEquals(apply.status, 409, text.slice(0, 300));
    assert(text.includes(refusalText(en, RESUME_CHANGED).replace(/\.$/, "")), "said");
    assert(!text.includes(en("applications.apply.alreadyTitle")), "not already applied");
  } finally {
    restore();
  }
  assertEquals(await getResume(t.kv, student.user.id), kept, "the earlier resume kept");
  const again = await t.fetch(`/internships/${internship.id}/apply`, { headers: student.headers });
  assertEquals(again.status, 200);
  assert(!(await again.text()).includes(hi("applications.apply.alreadyTitle")), "no application made");
});
