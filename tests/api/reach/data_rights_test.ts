/**
 * A person's data rights (docs/decisions.md, Data rights), on an account that has a record of every kind: the export
 * holds each kind (every section of `EXPORT_SECTIONS` must be filled, so a section added without a record here fails)
 * and no secret; deletion asks for the e-mail and the password, refuses the last admin, ends every
 * session at once, removes every trace of the person from KV (checked by scanning all of it for their id and
 * e-mail) and keeps exactly the purchases, listings, posts and toolkits without them; the e-mail can sign up again;
 * a deletion whose process died is finished by the resume job. The answer waits for the account's own write only; the
 * job renews its lease within a step and stops once another process took it over.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { updateInternship } from "@/lib/internships/writes.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addCoupon, addToolkitWithLessons } from "@/tests/fixtures/toolkits.ts";
import { createSession, FRESH_SIGN_IN_MS, type Session } from "@/lib/auth/sessions.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { hashPassword } from "@/lib/auth/passwords.ts";
import { resolveSocialUser } from "@/lib/auth/oauth/accounts.ts";
import { claimVerificationMail } from "@/lib/auth/verification.ts";
import { sendPasswordResetMail } from "@/lib/auth/mails.ts";
import { createUser, type User } from "@/lib/users/users.ts";
import {
  deleteAccount,
  DELETION_LEASE_MS,
  DELETION_STEPS,
  DELETION_SWEEP_AFTER_MS,
  type DeletionJob,
  type DeletionStep,
  resumeAccountDeletions,
  SIGN_IN_AGAIN,
} from "@/lib/account/deletion.ts";
import { BackgroundWork } from "@/lib/platform/background.ts";
import type { Logger } from "@/lib/log.ts";
import { EXPORT_SECTIONS, exportFileName } from "@/lib/account/export.ts";
import { dataSummary } from "@/lib/account/data_summary.ts";
import { runDeadlineReminders } from "@/lib/alerts/reminders.ts";
import { istDayOf, istToday } from "@/lib/dates.ts";
import { addSubscription } from "@/lib/push/subscriptions.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import { pdfBytes, resumeForm, uploadResume } from "@/tests/fixtures/resumes.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { confirmClaim } from "@/tests/api/trust/helpers.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { suspendUser } from "@/lib/users/suspension.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";
import { followClaim } from "@/lib/organizations/claims.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { AlertCreateSchema, createAlert } from "@/lib/alerts/alerts.ts";
import { fileReport } from "@/lib/reports/reports.ts";
import { ReportCreateSchema } from "@/lib/reports/schema.ts";
import { initiatePurchase } from "@/lib/purchases/checkout.ts";
import type { PurchaseRecord } from "@/lib/purchases/purchases.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import { submitOpportunity as submitOpportunityAs } from "@/lib/opportunities/opportunities.ts";
import { OpportunityCreateSchema } from "@/lib/opportunities/schema.ts";
import { opportunityBody } from "@/tests/fixtures/opportunities.ts";
import { createPost as createPostAs } from "@/lib/ungatekeep/posts.ts";
import { PostCreateSchema } from "@/lib/ungatekeep/schema.ts";
import { postBody } from "@/tests/fixtures/posts.ts";
import { outboxJob } from "@/lib/mail/delivery.ts";
import { listOutbox } from "@/lib/mail/outbox_admin.ts";
import type { Lang } from "@/lib/i18n/languages.ts";

const PASSWORD = "correct horse battery";

/** The person of the tests: an admin with a password, a Google link and a record of every kind. */
interface Person extends TestUser {
  /** A second session, signed in with the password through the API, and the browser's known-device id. */
  other: string;
  device: string;
  /** The member whose internship Asha applied to here. */
  poster: TestUser;
  /** A member Asha suspended with a hide of their listings that stopped before the end (its run died). */
  suspended: TestUser;
  ids: {
    internship: string;
    /** The internship taking applications here, and Asha's application to it. */
    platform: string;
    application: string;
    opportunity: string;
    toolkit: string;
    post: string;
    purchase: string;
    lesson: string;
    comment: string;
  };
}

async function buildPerson(t: TestApp): Promise<Person> {
  const email = `asha-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const user = await createUser(t.kv, {
    name: "Asha Rao",
    email,
    emailVerified: true,
    role: "admin",
    passwordHash: await hashPassword(PASSWORD),
  });
  const { session, token } = await createSession(t.kv, user.id);
  const cookie = `session=${token}`;
  const signedIn = await t.json("POST", "/api/auth/sign-in/email", { body: { email, password: PASSWORD } });
  assertEquals(signedIn.status, 200);
  await signedIn.body?.cancel();
  const cookies = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]);
  const other = cookies.find((pair) => pair.startsWith("session="))!;
  const device = cookies.find((pair) => pair.startsWith("known_device="))!.split("=")[1];
  const me: TestUser = { user, cookie, headers: { cookie, origin: t.origin } };
  await using push = await startFakePushService();
  await addSubscription(t.kv, {
    userId: user.id,
    session,
    input: await push.subscribe(),
    hosts: [push.origin.slice(7)],
  });
  const ok = async (res: Promise<Response>, status = 200) => {
    const answer = await res;
    assertEquals(answer.status, status, await answer.clone().text());
    return await answer.json();
  };
  await resolveSocialUser(t.kv, {
    provider: "google",
    accountId: "google-123",
    email,
    emailVerified: true,
    name: "Asha Rao",
    picture: null,
  }, new Set());
  await sendPasswordResetMail(t.services, user, "/reset-password");
  await t.settled();
  await claimVerificationMail(t.kv, user.id);
  await ok(
    t.json(
      "POST",
      "/api/profile",
      { body: { name: "Asha Rao", collegeInstitute: "IIT Madras", contactNumber: "9876543210" }, headers: me.headers },
    ),
  );
  await ok(t.json("POST", "/api/onboarding", {
    body: {
      persona: "student",
      locationType: "city",
      locationValue: "Chennai",
      opportunityInterests: ["Hackathons"],
    },
    headers: me.headers,
  }));
  const internship = await postInternship(t, me);
  await ok(t.json("PATCH", `/api/admin/organizations/${internship.organization!.id}`, {
    body: { website: "https://examplelabs.in" },
    headers: me.headers,
  }));
  await ok(
    t.json("POST", "/api/organizations/example-labs/claim", {
      body: { email: "asha@examplelabs.in" },
      headers: me.headers,
    }),
    202,
  );
  await t.settled();
  const claimLink = t.mails.at(-1)!.link!;
  const claimed = await confirmClaim(t, me, new URL(claimLink).pathname);
  assertEquals([claimed.status, claimed.html.includes("Example Labs is verified")], [200, true]);
  const opportunity = await submitOpportunity(t, me, "Asha's Hack");
  for (const action of ["reject", "approve"]) {
    await ok(t.json("PATCH", `/api/admin/opportunities/${opportunity.id}`, { body: { action }, headers: me.headers }));
  }
  await ok(t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: me.headers }));
  await ok(
    t.json("POST", "/api/me/alerts", { body: { kind: "internships", query: { search: "data" } }, headers: me.headers }),
    201,
  );
  const { toolkit, lessons: [contentItem] } = await addToolkitWithLessons({ t, admin: me }, {
    title: "Kit",
    description: "D",
    price: 499,
    lessons: [{ title: "L1", content: "x" }],
  });
  await addCoupon({ t, admin: me }, { code: "FREEPASS", discountType: "percentage", discountValue: 100 });
  await ok(t.json("POST", `/api/toolkits/${toolkit.id}`, { body: { couponCode: "FREEPASS" }, headers: me.headers }));
  await ok(
    t.json(
      "POST",
      `/api/toolkits/${toolkit.id}/progress`,
      { body: { contentItemId: contentItem.id, completed: true }, headers: me.headers },
    ),
  );
  const [purchase] = (await ok(t.fetch("/api/purchases", { headers: me.headers }))).purchases;
  const post = await createPost(t, me, { title: "Asha's post" });
  await ok(
    t.json("POST", "/api/reports", {
      body: { kind: "post", id: post.id, reason: "other", details: "Asha's report" },
      headers: me.headers,
    }),
    201,
  );
  const { comment } = await ok(
    t.json("POST", `/api/ungatekeep/${post.id}/comments`, { body: { content: "Asha's comment" }, headers: me.headers }),
    201,
  );
  await ok(t.json("PUT", `/api/ungatekeep/${post.id}/reactions/helpful`, { headers: me.headers }));
  await ok(t.json("POST", "/api/admin/api-keys", { body: { name: "Feed" }, headers: me.headers }), 201);
  await ok(
    t.json("PUT", `/api/me/saved/internships/${internship.id}`, {
      body: { status: "applied", note: "Sent" },
      headers: me.headers,
    }),
  );
  await uploadResume(t, me, "asha-cv.pdf");
  const poster = await createTestUser(t, "member");
  const platform = await platformInternship(t, poster, { hiringOrganization: "Apply Co" });
  const application = await applyTo(t, me, platform);
  const suspended = await createTestUser(t, "member");
  await postInternship(t, suspended);
  await suspendUser(t.kv, {
    actorId: user.id,
    targetId: suspended.user.id,
    appUrl: t.origin,
    reason: "Asks for fees",
    hideListings: true,
  }); // the request that would run the hide is gone: the hide waits for the `poster-hides` job
  return {
    ...me,
    other,
    device,
    poster,
    suspended,
    ids: {
      platform: platform.id,
      application: application.id,
      internship: internship.id,
      opportunity: opportunity.id,
      toolkit: toolkit.id,
      post: post.id,
      purchase: purchase.id,
      lesson: contentItem.id,
      comment: comment.id,
    },
  };
}

/** Every KV entry whose key or value mentions `needles`, as `prefix: key`. */
async function traces(kv: Deno.Kv, needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    const value = entry.value instanceof Uint8Array ? new TextDecoder().decode(entry.value) : JSON.stringify(
      entry.value,
      (_, v) => typeof v === "bigint" ? String(v) : v,
    );
    const text = `${JSON.stringify(entry.key)} ${value}`.toLowerCase();
    if (needles.some((needle) => text.includes(needle.toLowerCase()))) found.push(JSON.stringify(entry.key));
  }
  return found;
}

Deno.test("the export holds every kind of record the account has, and no secret", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const me = await buildPerson(t);
  await t.settled();
  // The purchase's money records as the gateway and an admin left them: a payment of an earlier order owed back and
  // refunded by the other admin, a part of it refunded at the gateway first, and the history of its refund.
  const purchaseKey = ["purchases", me.ids.purchase];
  const stored = (await t.kv.get<PurchaseRecord>(purchaseKey)).value!;
  const at = "2026-11-20T06:00:00.000Z";
  const adminRefund = {
    id: "rfnd_admin",
    paymentId: "pay_extra",
    amount: 49900,
    refundedBefore: 10000,
    reason: "Paid twice",
    by: admin.user.id,
    at,
    status: "processed" as const,
    processedAt: at,
  };
  await t.kv.set(
    purchaseKey,
    {
      ...stored,
      extraPayments: [{
        orderId: "order_extra",
        paymentId: "pay_extra",
        amount: 49900,
        at,
        reason: "already paid",
        refund: adminRefund,
      }],
      gatewayPartialRefunds: [{ id: "rfnd_part", paymentId: "pay_extra", amount: 10000, at }],
      history: [...stored.history, { status: "refunded", at, source: `refund by ${admin.user.id}` }],
    } satisfies PurchaseRecord,
  );
  const res = await t.fetch("/api/me/export", { headers: me.headers });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert(
    /^attachment; filename="career-community-data-\d{4}-\d{2}-\d{2}\.json"$/.test(
      res.headers.get("content-disposition")!,
    ),
  );
  const text = await res.text();
  assertEquals(
    res.headers.get("content-disposition"),
    `attachment; filename="career-community-data-${istDayOf(JSON.parse(text).exportedAt)}.json"`,
    "the file is dated by the day in India",
  );
  const data = JSON.parse(text);
  assertEquals(data.user.email, me.user.email);
  assertEquals(data.user.collegeInstitute, "IIT Madras");
  assertEquals(data.onboarding.locationValue, "Chennai");
  assertEquals(data.signInMethods, ["email", "google"]);
  assertEquals(data.sessions.length, 2);
  assertEquals(data.knownDevices.length, 1, "the browser that signed in with the password");
  assertEquals(Object.keys(data.knownDevices[0]).sort(), ["lastSignInAt", "since"]);
  assertEquals(Object.keys(data.sessions[0]).sort(), ["createdAt", "expiresAt"]);
  assertEquals(data.purchases.map((p: { id: string; toolkit: { title: string } }) => [p.id, p.toolkit.title]), [[
    me.ids.purchase,
    "Kit",
  ]]);
  assertEquals(data.progress, [{ toolkitId: me.ids.toolkit, completedItemIds: [me.ids.lesson] }]);
  // The only lesson completed: a certificate; the purchase was free, so it has no receipt.
  assertEquals(data.certificates.map((c: { toolkitTitle: string; userName: string }) => [c.toolkitTitle, c.userName]), [
    [
      "Kit",
      "Asha Rao",
    ],
  ]);
  assertEquals(data.purchases[0].receipt, null);
  assertEquals(
    [data.purchases[0].couponCode, data.purchases[0].listPricePaise, data.purchases[0].discountPaise],
    ["FREEPASS", 49900, 49900],
    "the checkout's terms",
  );
  assert(
    data.purchases[0].paidAt !== null && "checkoutState" in data.purchases[0],
    "when it was paid, the state named",
  );
  const { by: _by, ...refundAsRead } = adminRefund;
  assertEquals(data.purchases[0].extraPayments, [{
    orderId: "order_extra",
    paymentId: "pay_extra",
    amount: 49900,
    currency: "INR",
    at,
    reason: "already paid",
    refund: refundAsRead,
  }], "the payment owed back and its refund, without the admin");
  assertEquals(data.purchases[0].gatewayPartialRefunds, [{
    id: "rfnd_part",
    paymentId: "pay_extra",
    amount: 10000,
    at,
  }]);
  assertEquals(
    data.purchases[0].history.map((h: { status: string; source: string }) => [h.status, h.source]),
    [...stored.history.map((h) => [h.status, h.source]), ["refunded", "refund by admin"]],
    "the statuses, the refund by no admin's id",
  );
  assert(!text.includes(admin.user.id), "no other admin's id");
  assertEquals(data.internships.map((i: { id: string }) => i.id), [me.ids.internship]);
  assertEquals(data.opportunities.map((o: { id: string }) => o.id), [me.ids.opportunity]);
  assertEquals(data.posts.map((p: { id: string }) => p.id), [me.ids.post]);
  assertEquals(data.toolkits.map((k: { id: string }) => k.id), [me.ids.toolkit]);
  assertEquals(data.apiKeys.map((k: { name: string }) => k.name), ["Feed"]);
  assertEquals(data.organizationsManaged.map((o: { name: string }) => o.name), ["Example Labs"]);
  assertEquals([data.settings.deadlineReminders, data.settings.emailOnReply], [true, false]);
  assertEquals(data.settings.channels.comment_reply, { email: false, push: true });
  assertEquals(data.alerts.map((a: { query: unknown }) => a.query), [{ search: "data" }]);
  assertEquals(data.notifications.map((n: { type: string }) => n.type), [
    "opportunity_reviewed",
    "opportunity_reviewed",
  ]);
  assertEquals(data.comments.map((c: { id: string; content: string }) => [c.id, c.content]), [[
    me.ids.comment,
    "Asha's comment",
  ]]);
  assertEquals(data.reactions, [{ postId: me.ids.post, types: ["helpful"] }]);
  assertEquals(
    data.mails.map((m: { subject: string; status: string }) => [m.subject, m.status]).sort(),
    [
      ["Reset your Career Community password", "sent"],
      ["Verify Example Labs on Career Community", "sent"],
      ["Your opportunity was approved", "sent"],
      ["Your opportunity was not approved", "sent"],
    ],
  );
  assert(!text.includes("token=") && !text.includes("/organizations/claim/"), "the export carries no mail link");
  assertEquals(data.reports.map((r: { reason: string; details: string }) => [r.reason, r.details]), [[
    "other",
    "Asha's report",
  ]]);
  assertEquals(
    data.organizationClaims.map((c: { email: string; usedAt: string | null }) => [c.email, c.usedAt !== null]),
    [["asha@examplelabs.in", true]],
  );
  assertEquals(
    data.saved.map((item: { id: string; status: string; note: string }) => [item.id, item.status, item.note]).sort(),
    [[me.ids.internship, "applied", "Sent"], [me.ids.platform, "applied", ""]].sort(),
  );
  assertEquals(
    data.applications.map((
      a: { id: string; status: string; internshipId: string },
    ) => [a.id, a.status, a.internshipId]),
    [[me.ids.application, "applied", me.ids.platform]],
  );
  const { applicant } = data.applications[0];
  assertEquals(
    [applicant.email, applicant.contactNumber, applicant.collegeInstitute],
    [me.user.email, "9876543210", "IIT Madras"],
    "the profile its poster was sent",
  );
  assertEquals([data.resume.name, data.resume.size], ["asha-cv.pdf", 4096]);
  for (const { name } of EXPORT_SECTIONS) {
    const value = data[name];
    assert(value !== null && value !== undefined && (!Array.isArray(value) || value.length > 0), `${name} is filled`);
  }
  // "Your data" counts what the file holds, from the indexes once their backfills are done.
  for (const job of ["posts-author-index", "closed-owners-index"]) await runJob(findJob(job)!, t.services);
  for (const { name, count } of (await dataSummary(t.kv, me.user)).counts) {
    const value = data[name];
    assertEquals(count, Array.isArray(value) ? value.length : value === null ? 0 : 1, `${name} counted as exported`);
  }
  for (const secret of ["$argon2", "keyHash", "ck_", me.cookie.split("=")[1], me.other.split("=")[1], me.device]) {
    assert(!text.includes(secret), `the export carries no ${secret}`);
  }
  const guest = await t.fetch("/api/me/export");
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
});

Deno.test("the export file is named with the day in India, not in UTC", () => {
  assertEquals(exportFileName("2026-11-27T20:00:00.000Z"), "career-community-data-2026-11-28.json");
  assertEquals(exportFileName("2026-11-27T18:29:59.000Z"), "career-community-data-2026-11-27.json");
});

Deno.test("deletion asks for the account's e-mail and the password", async () => {
  await using t = await createTestApp();
  await createTestUser(t, "admin");
  const me = await buildPerson(t);
  const attempts: [Record<string, unknown>, number][] = [
    [{}, 400],
    [{ confirm: "someone@else.com", password: PASSWORD }, 400],
    [{ confirm: me.user.email }, 401],
    [{ confirm: me.user.email, password: "wrong password" }, 401],
  ];
  for (const [body, status] of attempts) {
    const res = await t.json("DELETE", "/api/me", { body, headers: me.headers });
    assertEquals(res.status, status, JSON.stringify(body));
    assert(typeof (await res.json()).error !== "undefined");
  }
  assertEquals((await t.fetch("/api/profile", { headers: me.headers })).status, 200, "nothing was deleted");
  const guest = await t.json("DELETE", "/api/me", { body: { confirm: "x@example.com" } });
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
});

Deno.test("an account without a password is deleted only within 10 minutes of a sign-in; the page offers the sign-in", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const key = ["sessions", await sha256Hex(me.cookie.slice(me.cookie.indexOf("=") + 1))];
  const session = (await t.kv.get<Session>(key)).value!;
  const signedInAt = new Date(Date.now() - FRESH_SIGN_IN_MS - 1000).toISOString();
  await t.kv.set(key, { ...session, createdAt: signedInAt });
  const res = await t.json("DELETE", "/api/me", { body: { confirm: me.user.email }, headers: me.headers });
  assertEquals([res.status, await res.json()], [403, { error: SIGN_IN_AGAIN }]);
  const form = await postForm(t, me, "/profile/delete", { confirm: me.user.email });
  assertEquals(form.status, 403);
  assert((await form.text()).includes("Sign in again, then delete it."));
  for (
    const [lang, words] of [["en", "Sign in again, then delete it."], ["hi", "फिर से साइन इन करें, फिर इसे डिलीट करें।"]]
  ) {
    const page = await (await t.fetch("/profile/delete", { headers: { cookie: `${me.cookie}; lang=${lang}` } })).text();
    assert(page.includes(words) && !page.includes('action="/profile/delete"'), lang);
  }
  assertEquals((await t.fetch("/api/profile", { headers: me.headers })).status, 200, "nothing was deleted");
  await t.kv.set(key, { ...session, createdAt: new Date(Date.now() - FRESH_SIGN_IN_MS + 60_000).toISOString() });
  const fresh = await t.json("DELETE", "/api/me", { body: { confirm: me.user.email }, headers: me.headers });
  assertEquals(fresh.status, 200);
  await fresh.body?.cancel();
});

Deno.test("the last admin cannot delete their account; with another admin they can", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const res = await t.json("DELETE", "/api/me", { body: { confirm: admin.user.email }, headers: admin.headers });
  assertEquals([res.status, await res.json()], [403, {
    error: "Make another admin before deleting the last admin account",
  }]);
  const second = await createTestUser(t, "admin");
  const again = await t.json("DELETE", "/api/me", {
    body: { confirm: admin.user.email.toUpperCase() },
    headers: admin.headers,
  });
  assertEquals(again.status, 200);
  await again.body?.cancel();
  const last = await t.json("DELETE", "/api/me", { body: { confirm: second.user.email }, headers: second.headers });
  assertEquals(last.status, 403);
  await last.body?.cancel();
});

Deno.test("a poster made a user who deletes their account before the demotion's last close: nothing names them", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const role = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals(role.status, 200);
  await role.body?.cancel();
  assert((await t.kv.get(["demotion_closes", member.user.id])).value, "the close waits for the job's last run");
  const res = await t.json("DELETE", "/api/me", { body: { confirm: member.user.email }, headers: member.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await t.settled();
  await sweepDeletions(t);
  assertEquals(await traces(t.kv, [member.user.id, member.user.email]), []);
});

Deno.test("deletion removes every trace of the person and keeps exactly what the law and accounting need", async () => {
  await using t = await createTestApp();
  const other = await createTestUser(t, "admin");
  const me = await buildPerson(t);
  // A report of money an admin dismissed: the target's summary remembers the reporter (until the deletion).
  const money = { kind: "internship", id: me.ids.platform, reason: "asks_for_money" };
  const reported = await t.json("POST", "/api/reports", { body: money, headers: me.headers });
  assertEquals(reported.status, 201);
  await reported.body?.cancel();
  const dismissal = { body: { action: "dismiss" }, headers: other.headers };
  const dismissed = await t.json("POST", `/api/admin/reports/internship/${me.ids.platform}/resolve`, dismissal);
  assertEquals([dismissed.status, await dismissed.json()], [200, { resolved: 1 }]);
  // A saved internship closing tomorrow: the reminders job marks it reminded and mails an unsubscribe link.
  const tomorrow = istToday(new Date(Date.now() + 24 * 60 * 60 * 1000));
  const closingId = (await postInternship(t, me, { deadline: tomorrow })).id;
  const saved = await t.json("PUT", `/api/me/saved/internships/${closingId}`, { body: {}, headers: me.headers });
  assertEquals(saved.status, 200);
  await saved.body?.cancel();
  assertEquals((await runDeadlineReminders({ ...t.services, now: new Date() })).sent, 1);
  const before = await traces(t.kv, [me.user.id, me.user.email]);
  assert(before.length > 15, "the scan finds the person's records");
  for (const prefix of ["reminded", "unsubscribe"]) {
    assert(before.some((key) => key.startsWith(`["${prefix}`)), `the person has ${prefix} records`);
  }
  const resume = (await t.kv.get<{ fileId: string }>(["resumes", me.user.id])).value!;
  const res = await t.json("DELETE", "/api/me", {
    body: { confirm: me.user.email, password: PASSWORD },
    headers: me.headers,
  });
  assertEquals([res.status, await res.json()], [200, { success: true }]);
  assert(/^session=;.*Max-Age=0/i.test(res.headers.get("set-cookie")!), res.headers.get("set-cookie")!);
  for (const cookie of [me.cookie, me.other]) {
    const profile = await t.fetch("/api/profile", { headers: { cookie } });
    assertEquals(profile.status, 401, "every session ended");
    await profile.body?.cancel();
  }

  await t.settled(); // the deletion's job, which the answer does not wait for
  const job = `["account_deletions","${me.user.id}"]`;
  assertEquals(await traces(t.kv, [me.user.id, me.user.email]), [job], "the job waits for its second pass");
  assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
  assertEquals(await t.services.files.metadata(resume.fileId), null, "the resume's file is deleted");
  assert(
    t.mails.some((m) => m.to === me.user.email && m.subject === "Your Career Community account was deleted"),
    "the notice went to the address before it was forgotten",
  );
  const person = [me.user.id, me.user.email, "Asha Rao", "IIT Madras", "9876543210"];
  assertEquals(await traces(t.kv, person), [], "no record names the person or holds their profile");
  const hides = await runJob(findJob("poster-hides")!, t.services, new Date(Date.now() + 10 * 60_000));
  assertEquals(hides, { job: "poster-hides", hidden: 1 }, "the hide Asha asked for goes on without her");
  assertEquals(await traces(t.kv, person), [], "its audit entry names no admin");
  // The poster keeps the application, withdrawn and anonymous: no profile, answers, note or resume.
  const pipeline = await t.fetch(`/api/internships/${me.ids.platform}/applications`, { headers: me.poster.headers });
  const [kept] = (await pipeline.json()).applications;
  assertEquals(
    [kept.id, kept.status, kept.applicant.id, kept.applicant.name, kept.answers, kept.coverNote, kept.resume],
    [me.ids.application, "withdrawn", null, null, [], "", null],
  );

  const purchase =
    (await t.kv.get<{ userId: string | null; history: { source: string }[] }>(["purchases", me.ids.purchase]))
      .value!;
  assertEquals(purchase.userId, null, "the purchase is kept without its buyer");
  assertEquals(purchase.history.at(-1)!.source, "account deleted");
  const internship = await (await t.fetch(`/api/internships/${me.ids.internship}`)).json();
  assertEquals([internship.internship.userId, internship.internship.user], [null, null]);
  assert((await (await t.fetch(`/internships/${me.ids.internship}`)).text()).includes("Former member"));
  const opportunity = await (await t.fetch(`/api/opportunities/${me.ids.opportunity}`)).json();
  assertEquals([opportunity.opportunity.userId, opportunity.opportunity.postedBy], [null, null]);
  const toolkits = await (await t.fetch("/api/toolkits")).json();
  assertEquals(toolkits.map((k: { userId: string; creatorName: string }) => [k.userId, k.creatorName]), [[
    null,
    "Former member",
  ]]);
  const admin = await createTestUser(t, "admin");
  const post = await (await t.fetch(`/api/admin/ungatekeep/${me.ids.post}`, { headers: admin.headers })).json();
  assertEquals([post.post.userId, post.post.creator], [null, null]);
  assertEquals(post.post.reactions.helpful, 0, "the reaction is deleted and no longer counted");
  const thread = await (await t.fetch(`/api/ungatekeep/${me.ids.post}/comments`)).json();
  assertEquals(thread.comments.map((c: { id: string; user: unknown; content: string }) => [c.id, c.user, c.content]), [
    [me.ids.comment, null, "Asha's comment"],
  ]);
  const reports = await (await t.fetch(`/api/admin/reports/post/${me.ids.post}`, { headers: admin.headers })).json();
  assertEquals(
    reports.reports.map((r: { reporter: unknown; details: string }) => [r.reporter, r.details]),
    [[null, "Asha's report"]],
    "the report is kept without its reporter",
  );
  assertEquals(await t.kv.get(["account_deletions", me.user.id]).then((e) => e.value), null, "the job finished");

  const signUp = await t.json("POST", "/api/auth/sign-up/email", {
    body: {
      name: "Asha Again",
      email: me.user.email,
      password: "another password 1",
    },
  });
  assertEquals(signUp.status, 200, "the e-mail can sign up again");
  const { user } = await signUp.json();
  assert(user.id !== me.user.id);
});

Deno.test("deletion mails its notice over SMTP in the person's language, then keeps no record of it", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const cases = [
    { lang: "en", subject: "Your Career Community account was deleted", kept: "your purchases and their receipts" },
    { lang: "hi", subject: "आपका Career Community अकाउंट डिलीट कर दिया गया है", kept: "आपकी ख़रीदारी और उनकी रसीदें" },
  ] as const;
  for (const { lang, subject, kept } of cases) {
    const user = await deletable(t, { language: lang });
    await deleteThrough(t, user);
    const mail = await smtp.waitFor(user.user.email);
    assertEquals(mail.subject, subject);
    for (const body of [mail.text, mail.html]) {
      assert(body.includes(user.user.email) && body.includes(kept), body);
      assert(body.includes("http://localhost:8000/contact"), "it says where to turn if it was not them");
    }
    await t.settled();
    await sweepDeletions(t);
    assertEquals(await traces(t.kv, [user.user.id, user.user.email]), [], "the sent notice left no record");
  }
  const unproven = await deletable(t, { verified: false });
  await deleteThrough(t, unproven);
  await t.settled();
  assertEquals(smtp.messages.filter((m) => m.to.includes(unproven.user.email)), [], "no notice to an unproven address");
});

Deno.test("a deletion notice the SMTP server never takes is dropped, address and all, after its last try", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using t = await createTestApp({ env: { SMTP_URL: down.url, OUTBOX_RETRY_MS: "1000" } });
  const user = await deletable(t, {});
  await deleteThrough(t, user);
  await t.settled();
  const [pending] = (await listOutbox(t.kv, { status: "pending", limit: 50, offset: 0 })).mails;
  assertEquals([pending.to, pending.attempts], [user.user.email, 1], "kept while it may still go out");
  await sweepDeletions(t);
  assertEquals(await runJob(outboxJob, t.services, new Date(Date.now() + 2_000)), {
    job: "outbox",
    sent: 0,
    retried: 0,
    failed: 1,
    skipped: 0,
  });
  assertEquals(await traces(t.kv, [user.user.id, user.user.email]), [], "the failed notice left no record");
  t.services.mailer.close();
});

/** A verified (unless told) account with `PASSWORD` in `language` (default English), signed in. */
async function deletable(t: TestApp, { language, verified = true }: { language?: Lang; verified?: boolean }) {
  const user = await createUser(t.kv, {
    name: "Asha Rao",
    email: `asha-${crypto.randomUUID().slice(0, 6)}@example.com`,
    emailVerified: verified,
    role: "user",
    passwordHash: await hashPassword(PASSWORD),
    language,
  });
  const cookie = `session=${(await createSession(t.kv, user.id)).token}`;
  return { user, cookie, headers: { cookie, origin: t.origin } };
}

/** Deletes `me`'s account through the API. @throws AssertionError unless it answers 200. */
async function deleteThrough(t: TestApp, me: TestUser) {
  const res = await t.json("DELETE", "/api/me", {
    body: { confirm: me.user.email, password: PASSWORD },
    headers: me.headers,
  });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

Deno.test("the deletion form cut off midway still ends signed out on the home page", async () => {
  await using t = await createTestApp({ logLines: [] });
  await createTestUser(t, "admin");
  const me = await buildPerson(t);
  const crash = { name: "crash", run: () => Promise.reject(new Error("object store down")) };
  DELETION_STEPS.splice(3, 0, crash);
  try {
    const res = await postForm(t, me, "/profile/delete", { confirm: me.user.email, password: PASSWORD });
    await res.body?.cancel();
    assertEquals([res.status, res.headers.get("location")], [303, "/?accountDeleted=1"]);
    assertEquals(res.headers.get("clear-site-data"), '"cache", "storage"');
    assert(res.headers.get("set-cookie")?.includes("Max-Age=0"), "the session cookie is cleared");
    await t.settled(); // the job, which the answer does not wait for, stops at the crash
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(crash), 1);
  }
  assertEquals((await t.kv.get<User>(["users", me.user.id])).value, null);
  const job = (await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value!;
  assertEquals(await resumeAccountDeletions(t.services, new Date(Date.parse(job.leaseUntil) + 1)), {
    resumed: 1,
    swept: 0,
    failed: 0,
  });
  await t.settled();
  assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
  assertEquals(await traces(t.kv, [me.user.id, me.user.email]), []);
});

Deno.test("a deletion cut off midway answers success, signs out, and is finished by the resume job", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  await createTestUser(t, "admin");
  const me = await buildPerson(t);
  const crash = { name: "crash", run: () => Promise.reject(new Error("object store down")) };
  DELETION_STEPS.splice(3, 0, crash);
  try {
    const res = await t.json("DELETE", "/api/me", {
      body: { confirm: me.user.email, password: PASSWORD },
      headers: me.headers,
    });
    assertEquals(await res.json(), { success: true }, "the account is gone: the person is told so");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("clear-site-data"), '"cache", "storage"');
    assert(res.headers.get("set-cookie")?.includes("Max-Age=0"), "the session cookie is cleared");
    await t.settled(); // the job, which the answer does not wait for, stops at the crash
    assert(logLines.some((line) => line.includes("object store down")), "the failed step is logged");
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(crash), 1);
  }
  const job = (await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value!;
  assertEquals(job.done, ["sessions", "social accounts", "e-mail tokens"]);
  assertEquals((await t.kv.get<User>(["users", me.user.id])).value, null, "the person went in the first write");
  assertEquals(
    await resumeAccountDeletions(t.services),
    { resumed: 0, swept: 0, failed: 0 },
    "a job under its lease is left to its process",
  );
  const later = new Date(Date.parse(job.leaseUntil) + 1);
  assertEquals(await resumeAccountDeletions(t.services, later), { resumed: 1, swept: 0, failed: 0 });
  await t.settled();
  assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
  assertEquals(await traces(t.kv, [me.user.id, me.user.email]), []);
  assertEquals((await t.kv.get(["purchases", me.ids.purchase])).value !== null, true);
});

Deno.test("a deletion whose step keeps failing is logged and left; the deletions after it still finish", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const past = new Date(Date.now() - 60_000).toISOString();
  const done = DELETION_STEPS.map((step) => step.name);
  for (const userId of ["aaaa-failing", "bbbb-after"]) {
    const job: DeletionJob = { userId, startedAt: past, done, leaseUntil: past, secondPass: true };
    await t.kv.set(["account_deletions", userId], job);
    await t.kv.set(["alerts", userId, "left"], { left: true });
  }
  const last = {
    name: "last",
    run: async (kv: Deno.Kv, userId: string) => {
      if (userId === "aaaa-failing") throw new Error("one bad record");
      await kv.delete(["alerts", userId, "left"]);
    },
  };
  DELETION_STEPS.push(last);
  try {
    assertEquals(await resumeAccountDeletions(t.services), { resumed: 0, swept: 2, failed: 1 });
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(last), 1);
  }
  assertEquals((await t.kv.get(["account_deletions", "bbbb-after"])).value, null, "the later job finished");
  assertEquals((await t.kv.get(["alerts", "bbbb-after", "left"])).value, null);
  assert((await t.kv.get(["account_deletions", "aaaa-failing"])).value !== null, "the failing job is kept");
  assert(
    logLines.some((line) => line.includes("aaaa-failing") && line.includes("one bad record")),
    "the failure is logged with the person's id",
  );
});

Deno.test("deletion answers once the account is gone; its job renews its lease inside a step and stops once taken over", async () => {
  await using t = await createTestApp();
  await createTestUser(t, "admin");
  const me = await buildPerson(t);
  // The work a request starts in the background is held here, so the answer shows what it waited for.
  const held: (() => Promise<void>)[] = [];
  const background = new (class extends BackgroundWork {
    override start(_log: Logger, _label: string, work: () => Promise<void>): void {
      held.push(work);
    }
  })();
  await deleteAccount({ ...t.services, background }, {
    user: me.user,
    session: { createdAt: new Date().toISOString() },
  }, {
    confirm: me.user.email,
    password: PASSWORD,
  });
  assertEquals((await t.kv.get<User>(["users", me.user.id])).value, null, "the account went before the answer");
  const job = (await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value!;
  assertEquals(job.done, [], "no step ran before the answer");
  assert(held.length > 0, "the job was started, not awaited");

  // That process died; the cron takes the job over at T on a clock of the test's own.
  const lease = DELETION_LEASE_MS;
  const T = Date.parse(job.leaseUntil) + 1;
  let clock = T;
  let probes = 0;
  const probe: DeletionStep = {
    name: "probe",
    run: async (_kv, _userId, _files, renew) => {
      if (++probes > 1) return;
      clock = T + lease * 3 / 4; // three quarters into the lease, the step renews it
      await renew();
      const renewed = (await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value!;
      assertEquals([renewed.leaseUntil, renewed.done], [new Date(T + lease * 7 / 4).toISOString(), []]);
      assertEquals(
        await resumeAccountDeletions(t.services, new Date(T + lease + 1)),
        { resumed: 0, swept: 0, failed: 0 },
        "the renewed lease holds",
      );
      // The step stalls past its renewed lease: another process takes the job over and finishes its first pass.
      assertEquals(await resumeAccountDeletions(t.services, new Date(T + lease * 7 / 4 + 1)), {
        resumed: 1,
        swept: 0,
        failed: 0,
      });
      await renew(); // throws: this runner stops
      throw new Error("renew did not stop a runner whose job was taken over");
    },
  };
  DELETION_STEPS.unshift(probe);
  try {
    assertEquals(await resumeAccountDeletions(t.services, new Date(T), () => clock), {
      resumed: 1,
      swept: 0,
      failed: 0,
    });
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(probe), 1);
  }
  assertEquals(probes, 2);
  const waiting = (await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value!;
  assertEquals([waiting.secondPass, waiting.done], [true, []], "the first pass finished");
  for (const work of held) await work(); // the answering process's runner leaves the second pass to the cron
  await t.settled();
  assertEquals((await t.kv.get<DeletionJob>(["account_deletions", me.user.id])).value, waiting);
  assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
  assertEquals((await t.kv.get(["account_deletions", me.user.id])).value, null, "the job finished");
  assertEquals(await traces(t.kv, [me.user.id, me.user.email]), []);
});

Deno.test("the cron's claim of a deletion holds its full lease however late in its run it is taken", async () => {
  await using t = await createTestApp();
  // Two deletions whose processes died; the cron's run at T takes both, one after the other.
  const T = Date.now() + 60_000;
  const ids = [crypto.randomUUID(), crypto.randomUUID()];
  for (const userId of ids) {
    const job: DeletionJob = { userId, startedAt: new Date(T - 600_000).toISOString(), done: [], leaseUntil: "" };
    await t.kv.set(["account_deletions", userId], job);
  }
  let clock = T;
  const leases: [string, number][] = [];
  const probe: DeletionStep = {
    name: "probe",
    run: async (kv, userId) => {
      // As each job's first step starts: its lease as claimed, against the clock.
      const job = (await kv.get<DeletionJob>(["account_deletions", userId])).value!;
      leases.push([userId, Date.parse(job.leaseUntil) - clock]);
      clock += 10 * 60_000; // a heavy person's cascade: ten minutes
    },
  };
  DELETION_STEPS.unshift(probe);
  try {
    assertEquals(await resumeAccountDeletions(t.services, new Date(T), () => clock), {
      resumed: 2,
      swept: 0,
      failed: 0,
    });
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(probe), 1);
  }
  assertEquals(leases.map(([userId]) => userId).toSorted(), ids.toSorted());
  assertEquals(
    leases.map(([, left]) => left),
    [DELETION_LEASE_MS, DELETION_LEASE_MS],
    "each claim's lease from its claim",
  );
});

Deno.test("writes of requests that read the person before the deletion land after their steps; the second pass removes them", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const me = await createTestUser(t, "admin"); // an admin: sets its organization's website, to claim it
  const internship = await postInternship(t, me);
  const website = await t.json("PATCH", `/api/admin/organizations/${internship.organization!.id}`, {
    body: { website: "https://examplelabs.in" },
    headers: me.headers,
  });
  assertEquals(website.status, 200);
  await website.body?.cancel();
  const claim = await t.json("POST", "/api/organizations/example-labs/claim", {
    body: { email: "me@examplelabs.in" },
    headers: me.headers,
  });
  assertEquals(claim.status, 202);
  await claim.body?.cancel();
  await t.settled();
  const token = new URL(t.mails.at(-1)!.link!).pathname.split("/").at(-1)!;
  const post = await createPost(t, admin, { title: "A post" });
  const { toolkit } = await addToolkitWithLessons({ t, admin }, {
    title: "Kit",
    description: "D",
    price: 499,
    lessons: [{ title: "L1", content: "x" }],
  });
  await addCoupon({ t, admin }, { code: "FREEPASS", discountType: "percentage", discountValue: 100 });
  const stale = me.user; // the person as each request's session read gave it, before the deletion
  // Their confirm of the claim commits between the claims' and the managers' steps: it finds the claim gone.
  const outcomes: string[] = [];
  const confirm: DeletionStep = {
    name: "claim confirmed",
    run: async () => void outcomes.push((await followClaim(t.kv, { token, userId: stale.id })).status),
  };
  const names = DELETION_STEPS.map((step) => step.name);
  const first = Math.min(names.indexOf("organization claims"), names.indexOf("organizations managed"));
  DELETION_STEPS.splice(first + 1, 0, confirm);
  try {
    await deleteAccount(t.services, { user: stale, session: { createdAt: new Date().toISOString() } }, {
      confirm: stale.email,
    });
    await t.settled(); // its first pass
  } finally {
    DELETION_STEPS.splice(DELETION_STEPS.indexOf(confirm), 1);
  }
  assertEquals(outcomes, ["unknown"]);
  const job = `["account_deletions","${stale.id}"]`;
  assertEquals(await traces(t.kv, [stale.id]), [job], "after the first pass only the job names them");
  const waiting = (await t.kv.get<DeletionJob>(["account_deletions", stale.id])).value!;
  assert(Date.parse(waiting.leaseUntil) - Date.now() > DELETION_SWEEP_AFTER_MS - 60_000, "the second pass waits");

  // The writes of their requests in flight commit now.
  await createComment(t.kv, { postId: post.id, author: stale, input: { content: "Late comment" }, appUrl: t.origin });
  const alert = AlertCreateSchema.parse({ kind: "internships", query: { search: "data" } });
  await createAlert(t.kv, { userId: stale.id, input: alert });
  const report = ReportCreateSchema.parse({ kind: "post", id: post.id, reason: "other", details: "Late report" });
  await fileReport(t.kv, stale, report);
  await initiatePurchase(t.kv, { payments: null, user: stale, toolkitId: toolkit.id, couponCode: "FREEPASS" });
  await createInternships(t.kv, stale, [internshipInput({ title: "Late internship" })]);
  await submitOpportunityAs(t.kv, stale, OpportunityCreateSchema.parse(opportunityBody({ title: "Late hack" })));
  const input = PostCreateSchema.parse(postBody({ title: "Late post" }));
  await createPostAs(t.kv, { files: t.services.files, author: stale, input });
  const landed = await traces(t.kv, [stale.id]);
  for (const prefix of ["comment_user", "alerts", "reports_by_reporter", "purchases_by_user"]) {
    assert(landed.some((key) => key.startsWith(`["${prefix}"`)), `${prefix} landed after its step: ${landed}`);
  }

  assertEquals(
    await resumeAccountDeletions(t.services),
    { resumed: 0, swept: 0, failed: 0 },
    "not before its time",
  );
  assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
  assertEquals(await traces(t.kv, [stale.id, stale.email]), [], "the second pass removed what landed, then the job");
  const kept = await (await t.fetch(`/api/ungatekeep/${post.id}/comments`)).json();
  assertEquals(kept.comments.map((c: { user: unknown; content: string }) => [c.user, c.content]), [[
    null,
    "Late comment",
  ]]);
});

/**
 * A write by `who` to `path` whose body `bytes`, of a declared length, sends its first part when the server first reads
 * it (nothing is queued ahead: past its session lookup), then the rest once `release` is called (a slow link): `read`
 * resolves when the server has begun to read the body, `response` once the whole exchange is over.
 */
function slowWrite(t: TestApp, who: TestUser, { method, path, contentType, bytes }: {
  method: string;
  path: string;
  contentType: string;
  bytes: Uint8Array;
}) {
  let release!: () => void;
  const rest = new Promise<void>((resolve) => release = resolve);
  let began!: () => void;
  const read = new Promise<void>((resolve) => began = resolve);
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(bytes.slice(0, 20));
        return began();
      }
      await rest;
      controller.enqueue(bytes.slice(20));
      controller.close();
    },
  }, { highWaterMark: 0 });
  const response = t.fetch(path, {
    method,
    headers: { ...who.headers, "content-type": contentType, "content-length": String(bytes.byteLength) },
    body,
    duplex: "half",
  } as RequestInit);
  return { read, release, response };
}

Deno.test("a write whose body is still arriving when the account is deleted is refused with 401 once it has arrived", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const post = await createPost(t, admin, { title: "A post" });
  const form = new Response(resumeForm(pdfBytes(200_000), "asha-cv.pdf"));
  const writes = {
    // The resume's write also checks the person's record; a comment's does not, so only the body's end refuses it.
    resume: { method: "PUT", path: "/api/me/resume", contentType: form.headers.get("content-type")! },
    comment: { method: "POST", path: `/api/ungatekeep/${post.id}/comments`, contentType: "application/json" },
  };
  const bodies = {
    resume: new Uint8Array(await form.arrayBuffer()),
    comment: new TextEncoder().encode(JSON.stringify({ content: "Sent on a slow link" })),
  };
  for (const kind of ["resume", "comment"] as const) {
    const me = await createTestUser(t);
    const { read, release, response } = slowWrite(t, me, { ...writes[kind], bytes: bodies[kind] });
    await read;
    const deletion = await t.json("DELETE", "/api/me", { body: { confirm: me.user.email }, headers: me.headers });
    assertEquals(deletion.status, 200);
    await deletion.body?.cancel();
    await t.settled();
    assertEquals(await sweepDeletions(t), { resumed: 0, swept: 1, failed: 0 });
    release(); // the rest arrives after the deletion and its second pass
    const res = await response;
    assertEquals(res.status, 401, kind);
    assertEquals(await res.json(), { error: "Unauthorized" }, kind);
    assertEquals((await t.kv.get(["resumes", me.user.id])).value, null);
    for await (const entry of t.kv.list({ prefix: ["resume_file_refs"] })) {
      assert(!JSON.stringify(entry.key).includes(me.user.id), "no file reference of the deleted person");
    }
    assertEquals(await traces(t.kv, [me.user.id]), [], `${kind}: nothing of the deleted person`);
  }
});

Deno.test("the export names what each report and saved item is about now; a removed one says so, with nothing of it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const kept = await postInternship(t, member, { title: "Kept Intern" });
  const hidden = await postInternship(t, member, { title: "Scam Intern" });
  const post = await createPost(t, admin, { title: "Stipend advice" });
  for (const listing of [kept, hidden]) {
    const saved = await t.json("PUT", `/api/me/saved/internships/${listing.id}`, {
      body: {},
      headers: student.headers,
    });
    assertEquals(saved.status, 200, await saved.text());
  }
  for (const [kind, id] of [["internship", kept.id], ["internship", hidden.id], ["post", post.id]]) {
    const res = await t.json("POST", "/api/reports", { body: { kind, id, reason: "spam" }, headers: student.headers });
    assertEquals(res.status, 201, await res.text());
  }
  const hide = await t.json("POST", `/api/admin/reports/internship/${hidden.id}/resolve`, {
    body: { action: "hide" },
    headers: admin.headers,
  });
  assertEquals(hide.status, 200, await hide.text());
  // What the poster writes into the hidden listing afterwards is theirs alone.
  await updateInternship(t.kv, { id: hidden.id, actor: admin.user, patch: { title: "Secret New Title" } });

  const res = await t.fetch("/api/me/export", { headers: student.headers });
  const text = await res.text();
  assert(!text.includes("Secret New Title"), "nothing of the hidden listing since");
  const data = JSON.parse(text);
  // The notice of the hide named it as it was (`notifications`); the saved items and reports say only that it is gone.
  const sections = JSON.stringify([data.saved, data.reports]);
  assert(!sections.includes("Scam Intern"), sections);
  const about = (items: { title: string | null; removed: boolean }[]) =>
    items.map(({ title, removed }) => [title, removed]).sort();
  assertEquals(about(data.saved), [["Kept Intern", false], [null, true]].sort());
  assertEquals(about(data.reports), [["Kept Intern", false], ["Stipend advice", false], [null, true]].sort());
  const organizations = data.reports.map((report: { organization: string | null }) => report.organization).sort();
  assertEquals(organizations, ["Example Labs", null, null]);
});
