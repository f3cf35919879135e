/**
 * Suspending an account and lifting it (docs/decisions.md, Admin, "Suspension"): the endpoints and their refusals, the
 * one write (record, sessions, audit log, e-mail), every way in refused while suspended, the admin page's plain forms
 * and filter, the deletion of the admin who suspended, and the hide of the poster's open listings (and its job).
 */
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { getUser, updateUser } from "@/lib/users/users.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { PLATFORM_REFUSALS, REFUSALS } from "@/lib/refusals.ts";
import { BusyError } from "@/lib/errors.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";
import { lastMailTo } from "./auth/helpers.ts";
import { signInSocially, socialSetup } from "./auth/social_helpers.ts";
import { internshipInput, postInternship } from "@/tests/fixtures/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { currentInternshipRecord } from "@/lib/internships/internships.ts";
import { platformInternship } from "@/tests/fixtures/applications.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { suspendUser } from "@/lib/users/suspension.ts";
import { notificationsOf } from "@/lib/notifications/notifications.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { cancelPosterHideOps, hidePosterListings } from "@/lib/moderation/poster_hides.ts";

const REASON = "Posted a listing that asked for a deposit";

function suspend(t: TestApp, admin: TestUser, id: string, body: unknown = { reason: REASON }) {
  return t.json("POST", `/api/admin/users/${encodeURIComponent(id)}/suspension`, { body, headers: admin.headers });
}

function lift(t: TestApp, admin: TestUser, id: string) {
  return t.json("DELETE", `/api/admin/users/${encodeURIComponent(id)}/suspension`, { headers: admin.headers });
}

/**
 * The words `html` shows, without its scripts: the sign-in form's island carries the suspension notice's words in its
 * props on every sign-in page, to show them when its own request is refused.
 */
function shown(html: string): string {
  const doc = htmlDocument(html);
  for (const script of doc.querySelectorAll("script")) script.remove();
  return doc.body.textContent ?? "";
}

async function sessionOf(t: TestApp, cookie: string) {
  return await (await t.fetch("/api/auth/session", { headers: { cookie } })).json();
}

/** How many sessions of `who` are stored, live or not. */
async function storedSessions(t: TestApp, who: TestUser): Promise<number> {
  return (await Array.fromAsync(t.kv.list({ prefix: ["sessions_by_user", who.user.id] }))).length;
}

Deno.test("only admins suspend; never themselves nor an admin (409, demote first); a reason is required and bounded", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const other = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const target = await createTestUser(t);
  assertEquals((await suspend(t, member, target.user.id)).status, 403);
  assertEquals((await t.json("POST", `/api/admin/users/${target.user.id}/suspension`, { body: {} })).status, 401);
  const own = await suspend(t, admin, admin.user.id);
  assertEquals([own.status, await own.json()], [403, { error: REFUSALS.ownSuspension }]);
  const otherAdmin = await suspend(t, admin, other.user.id);
  assertEquals([otherAdmin.status, await otherAdmin.json()], [409, { error: REFUSALS.suspendAdmin }]);
  assertMatch(REFUSALS.suspendAdmin, /role .* first/);
  for (const body of [{}, { reason: "  " }, { reason: "x".repeat(501) }, { reason: 7 }]) {
    const res = await suspend(t, admin, target.user.id, body);
    assertEquals(res.status, 400, JSON.stringify(body));
    await res.body?.cancel();
  }
  const missing = await suspend(t, admin, crypto.randomUUID());
  assertEquals([missing.status, await missing.json()], [404, { error: REFUSALS.userNotFound }]);
  const notSuspended = await lift(t, admin, target.user.id);
  assertEquals([notSuspended.status, await notSuspended.json()], [409, { error: REFUSALS.notSuspended }]);
  assertEquals((await getUser(t.kv, target.user.id))?.suspension, undefined);
  assertEquals((await getUser(t.kv, other.user.id))?.suspension, undefined);
});

Deno.test("a suspension ends the person's sessions, is logged, mails them in their language without the admin's name, and lifts", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Anita Admin" });
  const target = await createTestUser(t, "member", { name: "Sunil Scammer" });
  await updateUser(t.kv, target.user.id, { language: "hi" });
  assertEquals((await sessionOf(t, target.cookie))?.user.id, target.user.id);

  const res = await suspend(t, admin, target.user.id);
  assertEquals(res.status, 200);
  const { user } = await res.json();
  assertEquals(Object.keys(user).sort(), ["email", "id", "name", "role", "suspension"]);
  assertEquals(user.suspension.reason, REASON);
  assertEquals(user.suspension.by, admin.user.id);
  const stored = await getUser(t.kv, target.user.id);
  assertEquals(stored?.sessionEpoch, (target.user.sessionEpoch ?? 0) + 1);
  assertEquals(await sessionOf(t, target.cookie), null);
  const again = await suspend(t, admin, target.user.id);
  assertEquals([again.status, await again.json()], [409, { error: REFUSALS.alreadySuspended }]);

  const mail = await lastMailTo(t, target.user.email);
  const hi = translatorFor("hi");
  assertEquals(mail.subject, hi("mail.suspended.subject"));
  assert(mail.text.includes(REASON) && mail.text.includes("/contact"), mail.text);
  assert(!mail.text.includes("Anita") && !mail.html.includes("Anita"), "the admin's name stays out of the mail");

  const log = await listAdminLog(t.kv, { action: "user.suspend", limit: 10 });
  assertEquals(log.entries.map((e) => [e.adminId, e.targetId, e.summary]), [[admin.user.id, target.user.id, REASON]]);
  const listed = await (await t.fetch("/api/admin/users?suspended=true", { headers: admin.headers })).json();
  assertEquals(listed.users.map((u: { id: string }) => u.id), [target.user.id]);

  const lifted = await lift(t, admin, target.user.id);
  assertEquals(lifted.status, 200);
  assertEquals((await lifted.json()).user.suspension, null);
  assertEquals((await lastMailTo(t, target.user.email)).subject, hi("mail.suspensionLifted.subject"));
  const unsuspended = await listAdminLog(t.kv, { action: "user.unsuspend", limit: 10 });
  assertEquals(unsuspended.entries.map((e) => e.targetId), [target.user.id]);
  const none = await (await t.fetch("/api/admin/users?suspended=true", { headers: admin.headers })).json();
  assertEquals(none.users, []);
  const { token } = await createSession(t.kv, target.user.id);
  assertEquals((await sessionOf(t, `session=${token}`))?.user.id, target.user.id);
});

Deno.test("a suspended person cannot sign in by password (API and page), and the page says how to appeal", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const person = await passwordUser(t, { email: "sunil@example.com" });
  assertEquals((await suspend(t, admin, person.id)).status, 200);
  const res = await t.json("POST", "/api/auth/sign-in/email", { body: { email: person.email, password: PASSWORD } });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), {
    error: REFUSALS.accountSuspended,
    code: "ACCOUNT_SUSPENDED",
    message: REFUSALS.accountSuspended,
  });
  assert(!res.headers.getSetCookie().some((line) => line.startsWith("session=")));
  const wrong = await t.json("POST", "/api/auth/sign-in/email", { body: { email: person.email, password: "nope" } });
  assertEquals(wrong.status, 401, "the suspension is told only to whoever knows the password");
  await wrong.body?.cancel();
  for (const [lang, words] of [["en", "This account is suspended"], ["hi", "यह अकाउंट सस्पेंड है"]]) {
    const page = await t.fetch(`/sign-in?lang=${lang}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: t.origin },
      body: new URLSearchParams({ email: person.email, password: PASSWORD }),
    });
    assertEquals(page.status, 403, lang);
    const html = await page.text();
    assert(shown(html).includes(words) && html.includes('href="/contact"'), lang);
  }
});

Deno.test("a person signed in when suspended is sent to sign in and told once why, in their language; nobody else is", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const en = "An admin suspended this account, so it cannot sign in.";
  let signIn = "";
  for (const [lang, words] of [["en", en], ["hi", "एक एडमिन ने यह अकाउंट सस्पेंड किया है"]]) {
    const student = await createTestUser(t, "user");
    assertEquals((await suspend(t, admin, student.user.id)).status, 200);
    const sent = await t.fetch("/me/tracker", { headers: student.headers, redirect: "manual" });
    await sent.body?.cancel();
    signIn = sent.headers.get("location")!;
    assert(signIn.startsWith("/sign-in"), signIn);
    assertEquals(await sessionOf(t, student.cookie), null, "the session grants nothing");
    assertEquals(await storedSessions(t, student), 1, "kept until its person is told");
    const page = await t.fetch(`${signIn}&lang=${lang}`, { headers: student.headers });
    assertEquals(page.status, 200);
    assertEquals(page.headers.get("cache-control"), "private, no-store", "a page about a person");
    assert(shown(await page.text()).includes(words), lang);
    // Told once, as signing out ends a session: the next person on a shared phone is not told of it.
    assert(page.headers.getSetCookie().some((line) => /^session=;.*Max-Age=0/.test(line)), "the cookie is cleared");
    assertEquals(page.headers.get("clear-site-data"), '"cache", "storage"');
    assertEquals(await storedSessions(t, student), 0, "the stored session is deleted");
    const again = await (await t.fetch(`${signIn}&lang=${lang}`, { headers: student.headers })).text();
    assert(!shown(again).includes(words), `${lang}: told once`);
  }
  // One who chose Hindi in their settings, on a browser that never asked for it, is told in Hindi.
  const hindi = await createTestUser(t, "user");
  await updateUser(t.kv, hindi.user.id, { language: "hi" });
  assertEquals((await suspend(t, admin, hindi.user.id)).status, 200);
  const told = await t.fetch("/sign-in", { headers: hindi.headers });
  assertEquals(told.headers.get("content-language"), "hi");
  assert(shown(await told.text()).includes("एक एडमिन ने यह अकाउंट सस्पेंड किया है"), "in their language");
  // A guest, and a cookie naming a person with a token of someone who guessed: neither is told anything.
  const student = await createTestUser(t, "user");
  assertEquals((await suspend(t, admin, student.user.id)).status, 200);
  const guessed = `session=${student.user.id}.${"A".repeat(43)}`;
  for (const headers of [{}, { cookie: guessed }] as Record<string, string>[]) {
    const page = await (await t.fetch(signIn, { headers })).text();
    assert(!shown(page).includes(en), "nobody but the person is told");
  }
  assertEquals((await lift(t, admin, student.user.id)).status, 200);
  const lifted = await (await t.fetch(signIn, { headers: student.headers })).text();
  assert(!shown(lifted).includes(en), "lifted: their old session just ended");
  assertEquals(await sessionOf(t, student.cookie), null, "and stays ended");
});

Deno.test("a suspended person's social sign-in and verification link give no session; a missed epoch still refuses", async () => {
  await using s = await socialSetup();
  const { t } = s;
  const admin = await createTestUser(t, "admin");
  s.google.identity = { sub: "g-9", email: "ravi@example.com", email_verified: true, name: "Ravi" };
  const first = await signInSocially(t, "google");
  assertEquals(first.status, 302);
  const ravi = (await getUser(t.kv, (await t.kv.get<string>(["users_by_email", "ravi@example.com"])).value!))!;
  assertEquals((await suspend(t, admin, ravi.id)).status, 200);
  const again = await signInSocially(t, "google");
  assertEquals(again.headers.get("location"), "/sign-in?error=ACCOUNT_SUSPENDED");
  assert(!again.headers.getSetCookie().some((line) => line.startsWith("session=")));
  const page = await (await t.fetch("/sign-in?error=ACCOUNT_SUSPENDED")).text();
  assert(shown(page).includes("This account is suspended") && page.includes('href="/contact"'));

  const signUp = await t.json("POST", "/api/auth/sign-up/email", {
    body: { name: "Nisha", email: "nisha@example.com", password: PASSWORD, callbackURL: "/onboarding" },
  });
  assertEquals(signUp.status, 200);
  await signUp.body?.cancel();
  const { link } = await lastMailTo(t, "nisha@example.com");
  const nisha = (await t.kv.get<string>(["users_by_email", "nisha@example.com"])).value!;
  assertEquals((await suspend(t, admin, nisha)).status, 200);
  const browser = signUp.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const url = new URL(link);
  const followed = await t.fetch(url.pathname + url.search, { headers: { cookie: browser } });
  assertEquals(followed.headers.get("location"), "/sign-in?error=ACCOUNT_SUSPENDED");
  assert(!followed.headers.getSetCookie().some((line) => line.startsWith("session=")));

  const member = await createTestUser(t, "member");
  await updateUser(t.kv, member.user.id, { suspension: { at: new Date().toISOString(), reason: REASON, by: null } });
  assertEquals(await sessionOf(t, member.cookie), null, "the lookup refuses a suspended person's session of any epoch");
});

Deno.test("/admin/users suspends and lifts with plain forms, shows the badge, the reason and the filter", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "user", { name: "Sunil Scammer" });
  await createTestUser(t, "user", { name: "Neha Bystander" });
  const empty = await postForm(t, admin, "/admin/users", { userId: target.user.id, action: "suspend", reason: "" });
  assertEquals(empty.status, 400);
  assert((await empty.text()).includes("Write the reason for the suspension"));
  const own = await postForm(t, admin, "/admin/users", { userId: admin.user.id, action: "suspend", reason: "x" });
  assertEquals(own.status, 403);
  assert((await own.text()).includes("You cannot suspend your own account."));
  const done = await postForm(t, admin, "/admin/users", { userId: target.user.id, action: "suspend", reason: REASON });
  assertEquals([done.status, done.headers.get("location")], [303, "/admin/users?done=suspended"]);
  const view = await (await t.fetch("/admin/users?suspended=1&done=suspended", { headers: admin.headers })).text();
  assert(view.includes("The account is suspended.") && view.includes(REASON) && view.includes("Lift suspension"));
  assert(
    view.includes("Sunil Scammer") && !view.includes("Neha Bystander"),
    "the filter shows suspended accounts only",
  );
  const lifted = await postForm(t, admin, "/admin/users?suspended=1", { userId: target.user.id, action: "lift" });
  assertEquals(lifted.headers.get("location"), "/admin/users?done=lifted&suspended=1");
  assertEquals((await getUser(t.kv, target.user.id))?.suspension, null);
  const hindi = await (await t.fetch("/admin/users?lang=hi", { headers: admin.headers })).text();
  assert(hindi.includes("सस्पेंड करें…") && hindi.includes("रिपोर्ट और मॉडरेशन"));
});

Deno.test("/admin/users without script: a refused suspension or lift says so at its row as sent; done, back to the page", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "user", { name: "Sunil Scammer" });
  // A row's forms post to the page they are on, so a refusal renders it again and a success goes back to it.
  const here = "/admin/users?search=Sunil";
  const sent = { userId: target.user.id, removeComments: "1" };
  const empty = await postForm(t, admin, here, { ...sent, action: "suspend", reason: " " });
  assertEquals(empty.status, 400);
  const doc = htmlDocument(await empty.text());
  const notice = doc.querySelector('[role="alert"]')?.textContent ?? "";
  assert(notice.includes("The account was not suspended"), notice);
  assertEquals(doc.querySelector('input[name="search"]')?.getAttribute("value"), "Sunil");
  const row = doc.querySelector(`details:has(input[name="userId"][value="${target.user.id}"])`);
  assert(row !== null && row.hasAttribute("open"), "the row's form is open");
  assert(row.textContent?.includes("Write the reason for the suspension"), "the refusal at its row");
  assertEquals(row.querySelector("form")?.getAttribute("action"), here);
  const ticked = (name: string) => row.querySelector(`input[name="${name}"]`)?.hasAttribute("checked");
  assertEquals([ticked("hideListings"), ticked("removeComments")], [false, true], "the boxes as they were sent");

  const notSuspended = await postForm(t, admin, here, { ...sent, action: "lift" });
  assertEquals(notSuspended.status, 409);
  assert((await notSuspended.text()).includes("The suspension was not lifted"));

  const done = await postForm(t, admin, here, { ...sent, action: "suspend", reason: REASON });
  assertEquals(done.headers.get("location"), "/admin/users?done=suspended&comments=1&search=Sunil");
  const lifted = await postForm(t, admin, "/admin/users?suspended=1&search=Sunil&offset=0&evil=1", {
    userId: target.user.id,
    action: "lift",
  });
  assertEquals(lifted.headers.get("location"), "/admin/users?done=lifted&suspended=1&search=Sunil");
});

Deno.test("/admin/users without script: a lift refused because another admin lifted it leaves the suspend form as it starts", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t, "user", { name: "Sunil Lifted" });
  // The page was drawn while the person was suspended; another admin lifted it since; this one's lift form is sent.
  const refused = await postForm(t, admin, "/admin/users?search=Sunil", { userId: target.user.id, action: "lift" });
  assertEquals(refused.status, 409);
  const doc = htmlDocument(await refused.text());
  const row = doc.querySelector(`details:has(input[name="userId"][value="${target.user.id}"])`);
  assert(row !== null, "the row's suspension form");
  const ticked = (name: string) => row.querySelector(`input[name="${name}"]`)?.hasAttribute("checked");
  assertEquals([ticked("hideListings"), ticked("removeComments")], [true, false], "the boxes as the form starts");
});

Deno.test("deleting the admin who suspended keeps the suspension without their id; the suspended person's deletion leaves nothing", async () => {
  await using t = await createTestApp();
  await createTestUser(t, "admin"); // so that the suspending admin is not the last one
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  assertEquals((await suspend(t, admin, target.user.id)).status, 200);
  const now = { createdAt: new Date().toISOString() };
  await deleteAccount(t.services, { user: admin.user, session: now }, { confirm: admin.user.email });
  await t.settled(); // the cascade runs after the answer
  const kept = await getUser(t.kv, target.user.id);
  assertEquals([kept?.suspension?.reason, kept?.suspension?.by], [REASON, null]);
  assertEquals((await t.kv.get(["suspended_users", target.user.id])).value, null);
  assert((await t.kv.get(["suspended_users", target.user.id])).versionstamp !== null, "still listed as suspended");
  await deleteAccount(t.services, { user: kept!, session: now }, { confirm: target.user.email });
  await t.settled();
  assertEquals((await t.kv.get(["suspended_users", target.user.id])).versionstamp, null);
});

Deno.test("a suspension hides the poster's open listings by default, logged; lifting lists none again; without it they stay", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const scammer = await createTestUser(t, "member");
  const bystander = await createTestUser(t, "member");
  const scams = [
    await postInternship(t, scammer, { title: "Scam Intern Zyx" }),
    await postInternship(t, scammer, { title: "Scam Intern Qwv" }),
  ];
  const hack = await submitOpportunity(t, scammer, "Scam Hack Zyx");
  const approved = await t.json("PATCH", `/api/admin/opportunities/${hack.id}`, {
    body: { action: "approve" },
    headers: admin.headers,
  });
  assertEquals(approved.status, 200);
  await approved.body?.cancel();
  const honest = await postInternship(t, bystander, { title: "Honest Intern" });
  const status = async (path: string) => {
    const res = await t.fetch(path);
    await res.body?.cancel();
    return res.status;
  };
  assertEquals(await status(`/api/opportunities/${hack.id}`), 200);

  const res = await suspend(t, admin, scammer.user.id);
  const body = await res.json();
  assertEquals([res.status, body.hiddenListings], [200, 3]);
  for (const scam of scams) assertEquals(await status(`/api/internships/${scam.id}`), 404);
  assertEquals(await status(`/api/opportunities/${hack.id}`), 404);
  assertEquals(await status(`/api/internships/${honest.id}`), 200);
  const rss = await (await t.fetch("/internships/rss.xml")).text();
  assert(!rss.includes("Scam Intern") && rss.includes("Honest Intern"), "out of the RSS feed");
  const list = await (await t.fetch("/api/internships")).json();
  assertEquals(list.internships.map((one: { id: string }) => one.id), [honest.id]);
  const read = await t.json("GET", `/api/internships/${scams[0].id}`, { headers: admin.headers });
  assertEquals((await read.json()).internship.moderation, { status: "rejected", reasons: ["Rejected by an admin"] });
  const log = await listAdminLog(t.kv, { action: "moderation.decide", limit: 10 });
  assertEquals(
    log.entries.map((e) => [e.adminId, e.targetId, e.summary]).sort(),
    [...scams.map((scam) => scam.id), hack.id].map((id) => [admin.user.id, id, "reject"]).sort(),
  );
  const queue = await (await t.json("GET", "/api/admin/moderation?status=rejected", { headers: admin.headers })).json();
  assertEquals(queue.pagination.total, 3, "in the moderation queue, where an admin approves each");
  const mail = await lastMailTo(t, scammer.user.email);
  assert(mail.text.includes(translatorFor("en")("mail.suspended.listingsHidden")), mail.text);
  const told = (await notificationsOf(t.kv, scammer.user)).filter((n) => n.type === "listing_moderated");
  assertEquals(told.length, 0, "told once, by the suspension's e-mail");
  const store = await internshipStore(t.kv);
  const [stored] = await store.model.recordsOf([store.model.slotOf(scams[0].id)!]);
  assertEquals(stored.moderation?.note, `Hidden because the poster's account was suspended: ${REASON}`);

  assertEquals((await lift(t, admin, scammer.user.id)).status, 200);
  for (const scam of scams) assertEquals(await status(`/api/internships/${scam.id}`), 404, "lifting lists none again");
  assertEquals(await status(`/api/opportunities/${hack.id}`), 404);

  const kept = await createTestUser(t, "member");
  const keptListing = await postInternship(t, kept, { title: "Kept Intern" });
  const without = await suspend(t, admin, kept.user.id, { reason: REASON, hideListings: false });
  assertEquals([without.status, (await without.json()).hiddenListings], [200, 0]);
  assertEquals(await status(`/api/internships/${keptListing.id}`), 200, "without the hide the listing stays");
  const wrong = await suspend(t, admin, bystander.user.id, { reason: REASON, hideListings: "yes" });
  assertEquals(wrong.status, 400);
  await wrong.body?.cancel();
});

Deno.test("a hide whose run stopped is finished by the poster-hides job; the page's form hides and says how many", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const scammer = await createTestUser(t, "member");
  const scam = await postInternship(t, scammer, { title: "Scam Intern Zyx" });
  // The form, ticked as the page renders it: the redirect carries the count, the page words it.
  const done = await postForm(t, admin, "/admin/users", {
    userId: scammer.user.id,
    action: "suspend",
    reason: REASON,
    hideListings: "1",
  });
  assertEquals(done.headers.get("location"), "/admin/users?done=suspended&hidden=1");
  assertEquals((await t.fetch(`/api/internships/${scam.id}`)).status, 404);
  for (const [lang, words] of [["en", "1 open listing of theirs was hidden."], ["hi", "उनकी 1 खुली लिस्टिंग छिपाई गई।"]]) {
    const page = await (await t.fetch(`/admin/users?done=suspended&hidden=1&lang=${lang}`, { headers: admin.headers }))
      .text();
    assert(page.includes(words), lang);
  }

  // A run that stopped midway leaves its hide with a lease that runs out; the job finishes it.
  const other = await createTestUser(t, "member");
  const listing = await postInternship(t, other, { title: "Other Scam" });
  const note = "Hidden because the poster's account was suspended: test";
  await t.kv.set(["poster_hides", other.user.id], {
    adminId: admin.user.id,
    note,
    lease: { holder: "gone", until: 0 },
  });
  assertEquals(await runJob(findJob("poster-hides")!, t.services), { job: "poster-hides", hidden: 1 });
  assertEquals((await t.fetch(`/api/internships/${listing.id}`)).status, 404);
  assertEquals((await t.kv.get(["poster_hides", other.user.id])).value, null, "done: the hide is gone");
  assertEquals(await runJob(findJob("poster-hides")!, t.services), { job: "poster-hides", hidden: 0 });
});

Deno.test("a suspension whose hide is kept busy stands: the page and the API say it goes on later, the job finishes it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const [scammer, other] = [await createTestUser(t, "member"), await createTestUser(t, "member")];
  const listings = [
    await postInternship(t, scammer, { title: "Scam Intern Zyx" }),
    await postInternship(t, other, { title: "Other Scam" }),
  ];
  // Every write of their listings stays busy (its races lost for 30 s) while the requests run.
  const kv = t.services.kv;
  t.services.kv = kvWithCommits(kv, (_n, apply, sets) => {
    if (sets.some((key) => listings.some((listing) => key.includes(listing.id)))) {
      throw new BusyError(PLATFORM_REFUSALS.busy);
    }
    return apply();
  });
  const body = { userId: scammer.user.id, action: "suspend", reason: REASON, hideListings: "1" };
  const done = await postForm(t, admin, "/admin/users", body);
  assertEquals([done.status, done.headers.get("location")], [303, "/admin/users?done=suspended&later=1"]);
  const res = await suspend(t, admin, other.user.id, { reason: REASON });
  assertEquals([res.status, (await res.json()).finishing], [200, true]);
  t.services.kv = kv;
  for (const who of [scammer, other]) assert((await getUser(t.kv, who.user.id))!.suspension, "suspended all the same");
  for (const lang of ["en", "hi"] as const) {
    const page = await t.fetch(`/admin/users?done=suspended&later=1&lang=${lang}`, { headers: admin.headers });
    const words = shown(await page.text());
    const say = translatorFor(lang);
    assert(words.includes(say("admin.users.suspendedDone")) && words.includes(say("admin.users.finishing")), lang);
    assert(!words.includes(say("admin.users.notSuspended")), lang);
  }
  const later = new Date(Date.now() + 3 * 60_000); // once the requests' leases ran out
  assertEquals(await runJob(findJob("poster-hides")!, t.services, later), { job: "poster-hides", hidden: 2 });
  for (const listing of listings) assertEquals((await t.fetch(`/api/internships/${listing.id}`)).status, 404);
});

Deno.test("a hide still to do keeps the suspension's close off the poster's listings: rejected first, then closed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const scammer = await createTestUser(t, "member");
  const scam = await platformInternship(t, scammer, { title: "Scam Intern Zyx" });
  // The request stopped right after the suspension's write; the jobs do the rest, the close's first.
  const parties = { actorId: admin.user.id, targetId: scammer.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...parties, reason: REASON, hideListings: true });
  const later = new Date(Date.now() + 3 * 60_000);
  assertEquals(await runJob(findJob("manager-closes")!, t.services, later), { job: "manager-closes", closed: 0 });
  assertEquals(await runJob(findJob("poster-hides")!, t.services, later), { job: "poster-hides", hidden: 1 });
  const { record } = (await currentInternshipRecord(t.kv, scam.id))!;
  assertEquals([record.moderation?.status, !!record.closedAt], ["rejected", true], "off the site, and closed");
});

Deno.test("a listing a request posts after the hide's run, having read the poster before the suspension: the job hides it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const scammer = await createTestUser(t, "member");
  const first = await postInternship(t, scammer, { title: "Scam Intern" });
  const asRead = (await getUser(t.kv, scammer.user.id))!;
  const res = await suspend(t, admin, scammer.user.id, { reason: REASON, hideListings: true });
  assertEquals([res.status, (await res.json()).hiddenListings], [200, 1]);
  // The post's request read them before the suspension's write; its listing's write lands after the hide's run.
  const [late] = await createInternships(t.kv, asRead, [internshipInput({ title: "Late Scam Intern" })]);
  const status = async (id: string) => {
    const read = await t.fetch(`/api/internships/${id}`);
    await read.body?.cancel();
    return read.status;
  };
  assertEquals([await status(first.id), await status(late.id)], [404, 200]);

  const run = await runJob(findJob("poster-hides")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run, { job: "poster-hides", hidden: 1 }, "the job's last run hides the listing that landed late");
  assertEquals(await status(late.id), 404);
  assertEquals((await t.kv.get(["poster_hides", scammer.user.id])).value, null, "then the hide goes");
});

Deno.test("a hide that fails in the job is kept for its next run; the others go on", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const posters = [await createTestUser(t, "member"), await createTestUser(t, "member")];
  const listings = new Map<string, string>();
  for (const poster of posters) {
    listings.set(poster.user.id, (await postInternship(t, poster, { title: "Scam Intern" })).id);
    await t.kv.set(["poster_hides", poster.user.id], {
      adminId: admin.user.id,
      note: "Hidden because the poster's account was suspended: test",
      lease: { holder: "gone", until: 0 },
    });
  }
  // The job meets the first hide in key order first: each write of its listing fails.
  const [first, second] = [...listings.keys()].sort();
  const failing = listings.get(first)!;
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    if (sets.some((key) => key.includes(failing))) throw new Error("KV unavailable");
    return apply();
  });
  assertEquals(await runJob(findJob("poster-hides")!, { ...t.services, kv }), { job: "poster-hides", hidden: 1 });
  const left = await Array.fromAsync(t.kv.list({ prefix: ["poster_hides"] }));
  assertEquals(left.map((entry) => entry.key[1]), [first], "the failed hide waits for the next run");
  assertEquals(
    (await currentInternshipRecord(t.kv, listings.get(second)!))!.record.moderation?.status,
    "rejected",
    "the other's listing is hidden",
  );
  const later = new Date(Date.now() + 3 * 60_000); // once the failed run's lease ran out
  assertEquals(await runJob(findJob("poster-hides")!, t.services, later), { job: "poster-hides", hidden: 1 });
});

Deno.test("a lift that lands while a hide runs stops it at once: the listing being written stays listed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const poster = await createTestUser(t, "member");
  const listings = [
    await postInternship(t, poster, { title: "Ops Intern" }),
    await postInternship(t, poster, { title: "Data Intern" }),
  ];
  await t.kv.set(["poster_hides", poster.user.id], {
    adminId: admin.user.id,
    note: "Hidden because the poster's account was suspended: test",
    lease: { holder: "gone", until: 0 },
  });
  // The lift's write lands just before the hide's first listing write (the second write after the claim of the hide).
  const kv = kvWithCommits(t.kv, async (n, apply) => {
    if (n === 2) {
      const lift = t.kv.atomic();
      cancelPosterHideOps(lift, poster.user.id);
      await lift.commit();
    }
    return await apply();
  });
  assertEquals(await hidePosterListings(kv, { userId: poster.user.id, now: Date.now() }), 0);
  for (const listing of listings) assertEquals((await t.fetch(`/api/internships/${listing.id}`)).status, 200);
});

Deno.test("a lift that lands while the hide closes its listings: none closes after the lift's write", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const poster = await createTestUser(t, "member");
  const listing = await platformInternship(t, poster, { title: "Ops Intern" });
  await t.kv.set(["poster_hides", poster.user.id], {
    adminId: admin.user.id,
    note: "Hidden because the poster's account was suspended: test",
    lease: { holder: "gone", until: 0 },
  });
  // The lift's write lands just before the close's write (the one that moves the listing to the archive).
  let lifted = false;
  const kv = kvWithCommits(t.kv, async (_n, apply, sets) => {
    if (!lifted && sets.some((key) => key[0] === "internships_closed")) {
      lifted = true;
      const lift = t.kv.atomic();
      cancelPosterHideOps(lift, poster.user.id);
      await lift.commit();
    }
    return await apply();
  });
  assertEquals(await hidePosterListings(kv, { userId: poster.user.id, now: Date.now(), last: true }), 1);
  assert(lifted, "the close was about to write");
  const record = await currentInternshipRecord(t.kv, listing.id);
  assertEquals([record!.record.moderation?.status, record!.record.closedAt], ["rejected", undefined]);
});

Deno.test("a suspended account is never made admin (409), and a suspended admin is no other admin for the last one", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const vikram = await createTestUser(t, "member");
  assertEquals((await suspend(t, admin, vikram.user.id)).status, 200);
  const promote = await t.json("PATCH", `/api/admin/users/${vikram.user.id}`, {
    body: { role: "admin" },
    headers: admin.headers,
  });
  assertEquals([promote.status, await promote.json()], [409, { error: REFUSALS.promoteSuspended }]);
  assertEquals((await getUser(t.kv, vikram.user.id))!.role, "member", "nothing changed");
  // The admin page's island words it in the reader's language from the catalogue, naming the lift as its button does.
  const hindi = translatorFor("hi");
  assert(hindi("common.refusal.promoteSuspended").endsWith(`पहले ${hindi("admin.users.lift")}।`));

  // An admin suspended before this rule (made so directly) does not count as another admin.
  const old = await createTestUser(t, "admin");
  await updateUser(t.kv, old.user.id, {
    suspension: { at: new Date().toISOString(), reason: REASON, by: admin.user.id },
  });
  const last = await t.json("DELETE", "/api/me", { body: { confirm: admin.user.email }, headers: admin.headers });
  assertEquals([last.status, await last.json()], [403, { error: REFUSALS.lastAdmin }]);
  assertEquals(
    (await t.json("PATCH", `/api/admin/users/${vikram.user.id}`, { body: { role: "user" }, headers: admin.headers }))
      .status,
    200,
    "other role changes of a suspended account still work",
  );
});
