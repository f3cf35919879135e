/**
 * Reports (docs/api.md, Trust; docs/decisions.md, Trust, "Reports"): the endpoint per role with bad input (an unknown
 * target, a bad reason, `other` without details, details over 1,000 characters, a 21st report in a day), one open
 * report per person and target, the hold after three different people's reports (not again from people whose reports
 * of it were dismissed), the admin list grouped by target and the detail, and resolving with each action, with the
 * notifications to reporters and owners.
 */
import { page } from "@/tests/fixtures/html.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { internshipBody, postInternship, postInternships } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { call, CLEAR, HELD_TO_PAY } from "./helpers.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { people } from "@/tests/fixtures/people.ts";
import { checkReport, createReport, fileReport, resolveTarget } from "@/lib/reports/reports.ts";
import { summaryKey, type TargetSummary } from "@/lib/reports/store.ts";
import { createUser, updateUser } from "@/lib/users/users.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { kvFailingCommits, kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { getPostForAdmin } from "@/lib/ungatekeep/posts.ts";
import { getComment } from "@/lib/comments/store.ts";
import { getOrganization } from "@/lib/organizations/store.ts";
import { findTarget } from "@/lib/reports/targets.ts";

function report(t: TestApp, who: TestUser | undefined, body: Record<string, unknown>) {
  return call(t, who, "POST", "/api/reports", body);
}

async function notificationsOf(t: TestApp, who: TestUser) {
  return (await call(t, who, "GET", "/api/me/notifications?limit=100")).body.notifications as {
    type: string;
    title: string;
    body: string;
    url: string;
  }[];
}

Deno.test("a report: 201 with the report; a second of the same target while open answers the first with 200", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member);
  const first = await report(t, student, {
    kind: "internship",
    id: listing.id,
    reason: "misleading",
    details: "  The stipend on the site is lower.  ",
  });
  assertEquals(first.status, 201);
  assertEquals(first.body.report, {
    id: first.body.report.id,
    kind: "internship",
    targetId: listing.id,
    reason: "misleading",
    details: "The stipend on the site is lower.",
    status: "open",
    createdAt: first.body.report.createdAt,
  });
  const again = await report(t, student, { kind: "internship", id: listing.id, reason: "spam" });
  assertEquals([again.status, again.body.report], [200, first.body.report]);
  const other = await report(t, await createTestUser(t, "user"), {
    kind: "internship",
    id: listing.id,
    reason: "spam",
  });
  assertEquals(other.status, 201, "another person reports on their own");
});

Deno.test("report refusals: guest 401, unverified 403, bad input 400, unknown target 404", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member);
  const held = await postInternship(t, member, { description: "registration fee" });
  const good = { kind: "internship", id: listing.id, reason: "spam" };
  assertEquals((await report(t, undefined, good)).status, 401);
  for (
    const bad of [
      { ...good, kind: "toolkit" },
      { ...good, reason: "boring" },
      { ...good, reason: "other" },
      { ...good, reason: "other", details: "   " },
      { ...good, details: "x".repeat(1001) },
      { kind: "internship", reason: "spam" },
      { ...good, id: "" },
      { ...good, extra: true },
      { ...good, details: 5 },
    ]
  ) {
    const res = await report(t, student, bad);
    assertEquals(res.status, 400, JSON.stringify(bad));
    assert(Array.isArray(res.body.error));
  }
  const otherOk = await report(t, student, { ...good, reason: "other", details: "x".repeat(1000) });
  assertEquals(otherOk.status, 201, "other with details, 1,000 characters at most");
  for (const kind of ["internship", "opportunity", "organization", "post", "comment"]) {
    const res = await report(t, student, { kind, id: crypto.randomUUID(), reason: "spam" });
    assertEquals(res.status, 404, kind);
  }
  assertEquals((await report(t, student, { ...good, id: held.id })).status, 404, "a held listing is not seen");
  const malformed = await t.fetch("/api/reports", {
    method: "POST",
    headers: { ...student.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(malformed.status, 400);
  await malformed.body?.cancel();
  await updateUser(t.kv, student.user.id, { emailVerified: false });
  assertEquals((await report(t, student, { ...good, reason: "misleading" })).status, 403);
});

Deno.test("the 21st new report in a day is 429; repeating an open one does not count", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listings = await postInternships(
    t,
    member,
    Array.from({ length: 21 }, (_, i) => ({
      title: `Intern ${i}`,
      link: "https://example.com/a",
      hiringOrganization: "Many Co",
    })),
  );
  const ids = listings.map((i) => i.id);
  for (const id of ids.slice(0, 20)) {
    assertEquals((await report(t, student, { kind: "internship", id, reason: "spam" })).status, 201);
  }
  assertEquals((await report(t, student, { kind: "internship", id: ids[0], reason: "spam" })).status, 200);
  assertEquals((await report(t, student, { kind: "internship", id: ids[20], reason: "spam" })).status, 429);
  const other = await createTestUser(t, "user");
  assertEquals((await report(t, other, { kind: "internship", id: ids[20], reason: "spam" })).status, 201);
});

Deno.test("three different people's money or impersonation reports hold a listing; other reasons do not", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, "user")));
  const listing = await postInternship(t, member, { title: "Too Good Intern" });
  const state = async () => (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.moderation;
  await report(t, a, { kind: "internship", id: listing.id, reason: "asks_for_money" });
  await report(t, a, { kind: "internship", id: listing.id, reason: "fake_or_impersonation" });
  await report(t, b, { kind: "internship", id: listing.id, reason: "spam" });
  await report(t, c, { kind: "internship", id: listing.id, reason: "fake_or_impersonation" });
  assertEquals(await state(), CLEAR, "two people's reports of those reasons");
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 200);
  await report(t, d, { kind: "internship", id: listing.id, reason: "asks_for_money" });
  assertEquals(await state(), { status: "held", reasons: ["Reported by students"] });
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 404);
  const queue = await call(t, admin, "GET", "/api/admin/moderation");
  assertEquals(queue.body.items.map((i: { listing: { id: string } }) => i.listing.id), [listing.id]);

  const hack = await submitOpportunity(t, member, { title: "Hack" });
  for (const who of [a, b, c]) await report(t, who, { kind: "opportunity", id: hack.id, reason: "asks_for_money" });
  const held = (await call(t, admin, "GET", `/api/opportunities/${hack.id}`)).body.opportunity;
  assertEquals(held.moderation, { status: "held", reasons: ["Reported by students"] });
  assertEquals((await call(t, undefined, "GET", `/api/opportunities/${hack.id}`)).status, 404);
});

Deno.test("a hold lost after the third report's write is redone by the next report, unless an admin decided since", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => createTestUser(t, "user")));
  const listing = await postInternship(t, member, { title: "Too Good Intern" });
  const state = async () => (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.moderation;
  await report(t, a, { kind: "internship", id: listing.id, reason: "asks_for_money" });
  await report(t, b, { kind: "internship", id: listing.id, reason: "asks_for_money" });
  // The third report's write commits, and the process dies before the hold (as a target that holds nothing).
  const third = { kind: "internship", id: listing.id, reason: "fake_or_impersonation", details: null } as const;
  const check = await checkReport(t.kv, c.user, third);
  assert("target" in check);
  assertEquals((await createReport(t.kv, c.user, third, { ...check.target, holdable: false })).created, true);
  assertEquals(await state(), CLEAR, "the hold was lost");

  assertEquals((await report(t, d, { kind: "internship", id: listing.id, reason: "spam" })).status, 201);
  assertEquals(await state(), { status: "held", reasons: ["Reported by students"] }, "the next report holds it");

  const path = `/api/admin/moderation/internships/${listing.id}`;
  assertEquals((await call(t, admin, "POST", path, { decision: "approve" })).status, 200);
  assertEquals((await report(t, e, { kind: "internship", id: listing.id, reason: "asks_for_money" })).status, 201);
  assertEquals(await state(), CLEAR, "a report after an admin approved it does not hold it again");
});

Deno.test("only reporters since an admin's last decision make up a hold: open reports before it count no more", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const reporters = await Promise.all([1, 2, 3, 4, 5].map(() => createTestUser(t, "user")));
  const listing = await postInternship(t, member, { title: "Fee Intern" });
  const state = async () => (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.moderation;
  const money = (who: TestUser) => report(t, who, { kind: "internship", id: listing.id, reason: "asks_for_money" });
  for (const who of reporters.slice(0, 2)) assertEquals((await money(who)).status, 201);
  // Reported by two, held by the never-pay rule, then approved: the admin read it, its reports and all.
  const fee = internshipBody({ title: "Fee Intern", description: "Pay a registration fee of Rs 500 to join." });
  assertEquals((await call(t, admin, "PUT", `/api/internships/${listing.id}`, fee)).status, 200);
  assertEquals(await state(), HELD_TO_PAY);
  const path = `/api/admin/moderation/internships/${listing.id}`;
  assertEquals((await call(t, admin, "POST", path, { decision: "approve" })).status, 200);

  assertEquals((await money(reporters[2])).status, 201);
  assertEquals(await state(), CLEAR, "two reports before the approval and one after it");
  assertEquals((await money(reporters[3])).status, 201);
  assertEquals(await state(), CLEAR, "two since the approval");
  assertEquals((await money(reporters[4])).status, 201);
  assertEquals(await state(), { status: "held", reasons: ["Reported by students"] }, "three since the approval");
});

Deno.test("report-summaries gives a summary kept before holdNewest its counting open reports; the next report holds", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const [dismissed, spammer, third, next] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t, "user")));
  const [counter, alias] = await Promise.all(
    ["asha.rao@gmail.com", "asharao+2@gmail.com"].map((email) => createTestUser(t, "user", { email })),
  );
  const listing = await postInternship(t, member, { title: "Fee Intern" });
  const state = async () => (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.moderation;
  const sent = async (who: TestUser, reason: string) => {
    const filed = await report(t, who, { kind: "internship", id: listing.id, reason });
    assertEquals(filed.status, 201);
    return filed.body.report.id as string;
  };
  await sent(dismissed, "asks_for_money");
  const resolve = `/api/admin/reports/internship/${listing.id}/resolve`;
  assertEquals((await call(t, admin, "POST", resolve, { action: "dismiss" })).body, { resolved: 1 });
  // Open: one counting report, and three that do not count (a dismissed reporter, the same mailbox, another reason).
  const counting = await sent(counter, "asks_for_money");
  await sent(dismissed, "asks_for_money");
  await sent(alias, "fake_or_impersonation");
  await sent(spammer, "spam");
  // The summary as kept before `holdNewest`.
  const key = summaryKey("internship", listing.id);
  const { holdNewest: _, ...before } = (await t.kv.get<TargetSummary>(key)).value!;
  await t.kv.set(key, before);

  // A report filed while the job reads the target's reports: the job's write loses its race and reads them again.
  let meanwhile = "";
  const racing = kvWithCommits(t.kv, async (_n, apply, sets) => {
    if (!meanwhile && sets.some((set) => set[0] === "report_targets_meta")) {
      meanwhile = await sent(third, "asks_for_money");
    }
    return apply();
  });
  const job = findJob("report-summaries")!;
  assertEquals(await runJob(job, { ...t.services, kv: racing }), { job: "report-summaries", written: 1 });
  assert(meanwhile);
  const summary = (await t.kv.get<TargetSummary>(key)).value!;
  assertEquals(summary.holdNewest?.map(({ id }) => id), [meanwhile, counting]);
  assertEquals(await runJob(job, t.services), { job: "report-summaries", written: 0 });
  assertEquals(await state(), CLEAR, "the job holds nothing; two reports count");

  await sent(next, "asks_for_money");
  assertEquals(await state(), { status: "held", reasons: ["Reported by students"] }, "the third counting report holds");
});

Deno.test("the admin list groups by target, most reported first, by kind and state; the detail names the reporters", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const people = await Promise.all([1, 2, 3].map((i) => createTestUser(t, "user", { name: `Reporter ${i}` })));
  const one = await postInternship(t, member, { title: "One" });
  const two = await postInternship(t, member, { title: "Two", hiringOrganization: "Two Co" });
  await report(t, people[0], { kind: "internship", id: one.id, reason: "spam" });
  for (const [i, who] of people.entries()) {
    await report(t, who, { kind: "internship", id: two.id, reason: i === 0 ? "misleading" : "spam" });
  }
  await report(t, people[1], { kind: "organization", id: two.organization!.id, reason: "fake_or_impersonation" });

  assertEquals((await call(t, undefined, "GET", "/api/admin/reports")).status, 401);
  assertEquals((await call(t, people[0], "GET", "/api/admin/reports")).status, 403);
  const list = await call(t, admin, "GET", "/api/admin/reports");
  assertEquals(list.status, 200);
  assertEquals(
    list.body.targets.map((
      x: { kind: string; title: string; openReports: number },
    ) => [x.kind, x.title, x.openReports]),
    [["internship", "Two at Two Co", 3], ["organization", "Two Co", 1], ["internship", "One at Example Labs", 1]],
  );
  assertEquals(list.body.targets[0].reasons, { misleading: 1, spam: 2 });
  // Titles are worded in the reader's language: an internship's with its organization, in Hindi's order.
  const inHindi = { ...admin.headers, "accept-language": "hi" };
  const hindi = await (await t.fetch("/api/admin/reports", { headers: inHindi })).json();
  assertEquals(hindi.targets.map((x: { title: string }) => x.title), ["Two Co में Two", "Two Co", "Example Labs में One"]);
  const page = await (await t.fetch("/admin/reports?lang=hi", { headers: admin.headers })).text();
  assert(page.includes("Two Co में Two") && !page.includes("Two at Two Co"), "the admin page in Hindi");
  const detailHindi = await (await t.fetch(`/api/admin/reports/internship/${two.id}`, { headers: inHindi })).json();
  assertEquals(detailHindi.target.title, "Two Co में Two");
  assertEquals(list.body.pagination, { limit: 50, offset: 0, total: 3, hasMore: false });
  const organizations = await call(t, admin, "GET", "/api/admin/reports?kind=organization");
  assertEquals(organizations.body.targets.map((x: { targetId: string }) => x.targetId), [two.organization!.id]);
  for (const query of ["status=closed", "kind=toolkit", "limit=0", "offset=x", "other=1"]) {
    assertEquals((await call(t, admin, "GET", `/api/admin/reports?${query}`)).status, 400, query);
  }
  const detail = await call(t, admin, "GET", `/api/admin/reports/internship/${two.id}`);
  assertEquals(detail.status, 200);
  assertEquals(detail.body.target.url, `/internships/${two.id}`);
  assertEquals(
    detail.body.reports.map((r: { reporter: { name: string } }) => r.reporter.name).sort(),
    ["Reporter 1", "Reporter 2", "Reporter 3"],
  );
  assertEquals((await call(t, admin, "GET", `/api/admin/reports/internship/${crypto.randomUUID()}`)).status, 404);
  assertEquals((await call(t, admin, "GET", `/api/admin/reports/toolkit/${two.id}`)).status, 404);
});

Deno.test("dismiss tells each reporter once, never naming the others, and leaves the target; reporting again is new", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [a, b] = [
    await createTestUser(t, "user", { name: "Asha" }),
    await createTestUser(t, "user", { name: "Bilal" }),
  ];
  const listing = await postInternship(t, member, { title: "Fine Intern" });
  await report(t, a, { kind: "internship", id: listing.id, reason: "misleading" });
  await report(t, b, { kind: "internship", id: listing.id, reason: "spam" });
  const path = `/api/admin/reports/internship/${listing.id}/resolve`;
  assertEquals((await call(t, undefined, "POST", path, { action: "dismiss" })).status, 401);
  assertEquals((await call(t, a, "POST", path, { action: "dismiss" })).status, 403);
  for (const bad of [{}, { action: "ban" }, { action: "dismiss", note: "x".repeat(1001) }, { action: "hide", x: 1 }]) {
    assertEquals((await call(t, admin, "POST", path, bad)).status, 400, JSON.stringify(bad));
  }
  const done = await call(t, admin, "POST", path, { action: "dismiss", note: "The listing matches the site." });
  assertEquals(done, { status: 200, body: { resolved: 2 } });
  for (const [who, other] of [[a, "Bilal"], [b, "Asha"]] as const) {
    const told = (await notificationsOf(t, who)).filter((n) => n.type === "report_resolved");
    assertEquals(told.length, 1);
    assert(told[0].body.includes("Fine Intern") && told[0].body.includes("stays up"), told[0].body);
    assert(told[0].body.includes("The listing matches the site.") && !told[0].body.includes(other));
  }
  const hindi = (await call(t, a, "GET", "/api/me/notifications?lang=hi")).body.notifications[0];
  assert(hindi.body.includes("“Example Labs में Fine Intern”") && !hindi.body.includes(" at "), hindi.body);
  assertEquals((await notificationsOf(t, member)).length, 0, "a dismissal tells the owner nothing");
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 200);
  assertEquals((await call(t, admin, "POST", path, { action: "dismiss" })).body, { resolved: 0 });
  const resolved = await call(t, admin, "GET", "/api/admin/reports?status=resolved");
  assertEquals(
    resolved.body.targets.map((x: { targetId: string; openReports: number }) => [x.targetId, x.openReports]),
    [[
      listing.id,
      0,
    ]],
  );
  assertEquals((await call(t, admin, "GET", "/api/admin/reports")).body.targets, []);
  const anew = await report(t, a, { kind: "internship", id: listing.id, reason: "spam" });
  assertEquals(anew.status, 201, "once resolved, a new report is a new one");
  assertEquals(
    (await call(t, admin, "POST", `/api/admin/reports/internship/${crypto.randomUUID()}/resolve`, {
      action: "dismiss",
    })).status,
    404,
  );
});

Deno.test("a resolve whose write of 12 reports lost a race reads them again and resolves them all", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const listing = await postInternship(t, member, { title: "Busy Intern" });
  for (let i = 0; i < 12; i++) {
    const reporter = await createTestUser(t, "user");
    assertEquals((await report(t, reporter, { kind: "internship", id: listing.id, reason: "spam" })).status, 201);
  }
  // The first write that resolves reports loses its race: it is not applied, as when another admin wrote first.
  let lost = false;
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    if (lost || !sets.some((key) => key[0] === "reports")) return apply();
    lost = true;
    return Promise.resolve({ ok: false } as const);
  });
  const done = await resolveTarget({ ...t.services, kv }, {
    kind: "internship",
    targetId: listing.id,
    admin: admin.user,
    body: { action: "dismiss", note: null },
  });
  assertEquals([lost, done], [true, { resolved: 12, stillHeld: false }]);
  assertEquals((await call(t, admin, "GET", "/api/admin/reports")).body.targets, []);
});

Deno.test("dismiss releases a listing the reports held; a listing the never-pay rule holds too stays held", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const reporters = await Promise.all([1, 2, 3].map(() => createTestUser(t, "user")));
  const dismiss = (kind: string, id: string) =>
    call(t, admin, "POST", `/api/admin/reports/${kind}/${id}/resolve`, { action: "dismiss" });
  const hack = await submitOpportunity(t, member, { title: "Real Hackathon" });
  const listing = await postInternship(t, member, { title: "Real Intern" });
  for (const [kind, id] of [["opportunity", hack.id], ["internship", listing.id]]) {
    for (const who of reporters) await report(t, who, { kind, id, reason: "asks_for_money" });
    assertEquals(
      (await call(t, undefined, "GET", `/api/${kind === "internship" ? "internships" : "opportunities"}/${id}`)).status,
      404,
    );
  }
  assertEquals((await call(t, admin, "GET", "/api/admin/moderation")).body.pagination.total, 2);
  for (const [kind, id] of [["opportunity", hack.id], ["internship", listing.id]]) {
    assertEquals((await dismiss(kind, id)).body, { resolved: 3 });
    const path = `/api/${kind === "internship" ? "internships" : "opportunities"}/${id}`;
    assertEquals((await call(t, undefined, "GET", path)).status, 200, `${kind}: public again, as reporters are told`);
    assertEquals((await call(t, member, "GET", path)).body[kind].moderation, CLEAR);
  }
  assertEquals((await call(t, admin, "GET", "/api/admin/moderation")).body.pagination.total, 0);
  assertEquals((await call(t, undefined, "GET", "/api/opportunities")).body.pagination.total, 1);
  assertEquals((await notificationsOf(t, member)).length, 0, "the owner is told nothing new");
  for (const who of reporters) {
    const told = (await notificationsOf(t, who)).filter((n) => n.type === "report_resolved");
    assert(told.length === 2 && told.every((n) => n.body.includes("stays up")));
  }

  // Held by reports, then edited (by an admin: its owner may not while reports hold it) to ask for a fee: dismissing the
  // reports leaves the never-pay hold for its review.
  const again = await postInternship(t, member, { title: "Fee Intern" });
  for (const who of reporters) await report(t, who, { kind: "internship", id: again.id, reason: "asks_for_money" });
  const edit = await call(
    t,
    admin,
    "PUT",
    `/api/internships/${again.id}`,
    internshipBody({ title: "Fee Intern", description: "Pay a registration fee of Rs 500 to join." }),
  );
  assertEquals(edit.status, 200, JSON.stringify(edit.body));
  const held = async () => (await call(t, member, "GET", `/api/internships/${again.id}`)).body.internship.moderation;
  assertEquals(await held(), { status: "held", reasons: ["Reported by students", "Asks applicants to pay"] });
  // Dismissed on the admin page: it says the listing stays held, and where to decide on it.
  const form = { kind: "internship", targetId: again.id, action: "dismiss", note: "", from: "/admin/reports" };
  const sent = await postForm(t, admin, "/admin/reports", form);
  assertEquals([sent.status, sent.headers.get("location")], [303, "/admin/reports?done=3&held=1"]);
  for (const [lang, words] of [["en", "The listing stays held"], ["hi", "लिस्टिंग रुकी रहेगी"]]) {
    const page = await (await t.fetch(`/admin/reports?done=3&held=1&lang=${lang}`, { headers: admin.headers })).text();
    assert(page.includes(words) && page.includes('href="/admin/moderation"'), lang);
  }
  assertEquals(await held(), HELD_TO_PAY);
  assertEquals((await call(t, undefined, "GET", `/api/internships/${again.id}`)).status, 404);
  assertEquals((await call(t, admin, "GET", "/api/admin/moderation")).body.pagination.total, 1);
});

Deno.test("reporters whose reports were dismissed do not hold the same listing again; new people's reports do", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const first = await Promise.all([1, 2, 3].map(() => createTestUser(t, "user")));
  const listing = await postInternship(t, member, { title: "Honest Intern" });
  const path = `/api/internships/${listing.id}`;
  const reportAll = async (who: TestUser[]) => {
    for (const one of who) {
      const sent = await report(t, one, { kind: "internship", id: listing.id, reason: "asks_for_money" });
      assertEquals(sent.status, 201);
    }
  };
  await reportAll(first);
  assertEquals((await call(t, undefined, "GET", path)).status, 404, "three people's reports hold it");
  const dismissed = await call(t, admin, "POST", `/api/admin/reports/internship/${listing.id}/resolve`, {
    action: "dismiss",
  });
  assertEquals(dismissed.body, { resolved: 3 });
  // The same three report it again at once: their reports are filed and shown, but hold nothing.
  await reportAll(first);
  assertEquals((await call(t, undefined, "GET", path)).status, 200, "still listed");
  assertEquals((await call(t, member, "GET", path)).body.internship.moderation, CLEAR);
  const detail = await call(t, admin, "GET", `/api/admin/reports/internship/${listing.id}`);
  assertEquals(
    detail.body.reports.map((one: { status: string; notCounted: boolean }) => [one.status, one.notCounted]),
    [...Array(3).fill(["open", true]), ...Array(3).fill(["resolved", false])],
    "the admins see which reports do not count",
  );
  // The admin's page says so beside each of them, in English and in Hindi.
  const sentences = [["", "Does not count toward holding the listing"], ["?lang=hi", "जाँच के लिए रोकने में नहीं गिनी"]];
  for (const [query, sentence] of sentences) {
    const page = await t.fetch(`/admin/reports/internship/${listing.id}${query}`, { headers: admin.headers });
    assertEquals((await page.text()).split(sentence).length - 1, 3, sentence);
  }
  // Two new people make five open reports, of which two count: still listed; a third new person holds it.
  const fresh = await Promise.all([1, 2, 3].map(() => createTestUser(t, "user")));
  await reportAll(fresh.slice(0, 2));
  assertEquals((await call(t, undefined, "GET", path)).status, 200, "two counted reports do not hold it");
  await reportAll(fresh.slice(2));
  assertEquals((await call(t, member, "GET", path)).body.internship.moderation, {
    status: "held",
    reasons: ["Reported by students"],
  });
});

Deno.test("hide and delete act on each kind; the owner is told why, the reporters what was done", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const resolve = (kind: string, id: string, action: string, note?: string) =>
    call(t, admin, "POST", `/api/admin/reports/${kind}/${id}/resolve`, { action, note });

  const hidden = await postInternship(t, member, { title: "Hidden Intern" });
  await report(t, student, { kind: "internship", id: hidden.id, reason: "asks_for_money" });
  assertEquals((await resolve("internship", hidden.id, "hide", "It asks for a deposit on the call.")).body, {
    resolved: 1,
  });
  const read = await call(t, member, "GET", `/api/internships/${hidden.id}`);
  assertEquals(read.body.internship.moderation.status, "rejected");
  assertEquals((await call(t, undefined, "GET", `/api/internships/${hidden.id}`)).status, 404);
  // Its page says an admin hid it (410), in the reader's language, to the reporter and to a guest alike.
  const pages: [string, Record<string, string>, string][] = [
    ["", student.headers, "An admin hid this listing"],
    ["?lang=hi", {}, "इस लिस्टिंग को एक एडमिन ने छिपा दिया है"],
  ];
  for (const [query, headers, sentence] of pages) {
    const page = await t.fetch(`/internships/${hidden.id}${query}`, { headers });
    assertEquals(page.status, 410);
    const html = await page.text();
    assert(html.includes(sentence) && !html.includes("Hidden Intern"), sentence);
  }
  const owner = await notificationsOf(t, member);
  assertEquals(owner.map((n) => [n.type, n.title]), [["content_removed", "Your internship was hidden"]]);
  const reporter = (await notificationsOf(t, student)).find((n) => n.type === "report_resolved");
  assertEquals(reporter?.url, `/internships/${hidden.id}`, "the reporter's notice links to the page that says so");
  assert(owner[0].body.includes("It asks for a deposit on the call."));

  const deleted = await postInternship(t, member, { title: "Deleted Intern" });
  await report(t, student, { kind: "internship", id: deleted.id, reason: "spam" });
  await resolve("internship", deleted.id, "delete");
  assertEquals((await call(t, member, "GET", `/api/internships/${deleted.id}`)).status, 404);
  assertEquals((await notificationsOf(t, member))[0].title, "Your internship was removed");
  const gone = await t.fetch(`/internships/${deleted.id}`, { headers: student.headers });
  assertEquals(gone.status, 404, "a deleted listing is not found");
  await gone.body?.cancel();
  const toldGone = (await notificationsOf(t, student)).filter((n) => n.type === "report_resolved");
  assertEquals(toldGone[0].url, "/internships", "a deleted listing's reporter is led to the list");

  const hack = await submitOpportunity(t, member, { title: "Spam Hack" });
  await report(t, student, { kind: "opportunity", id: hack.id, reason: "spam" });
  await resolve("opportunity", hack.id, "delete");
  const rejected = (await call(t, member, "GET", `/api/opportunities/${hack.id}`)).body.opportunity;
  assertEquals([rejected.isActive, rejected.moderation.status], [false, "rejected"]);
  // Like a hidden internship, its page says an admin hid it (410); its submitter still reads it.
  const opportunityPages: [string, Record<string, string>, string][] = [
    ["", student.headers, "An admin hid this opportunity"],
    ["?lang=hi", {}, "इस अवसर को एक एडमिन ने छिपा दिया है"],
  ];
  for (const [query, headers, sentence] of opportunityPages) {
    const page = await t.fetch(`/opportunities/${hack.id}${query}`, { headers });
    assertEquals(page.status, 410);
    const html = await page.text();
    assert(html.includes(sentence) && !html.includes("Spam Hack"), sentence);
  }
  const own = await t.fetch(`/opportunities/${hack.id}`, { headers: member.headers });
  assertEquals(own.status, 200);
  assert((await own.text()).includes("Spam Hack"));
  const unknown = await t.fetch(`/opportunities/${crypto.randomUUID()}`);
  assertEquals(unknown.status, 404, "an unknown opportunity is not found");
  await unknown.body?.cancel();

  const post = await createPost(t, admin, { title: "Reported post" });
  await report(t, student, { kind: "post", id: post.id, reason: "offensive" });
  await resolve("post", post.id, "hide");
  assertEquals((await call(t, admin, "GET", `/api/admin/ungatekeep/${post.id}`)).body.post.isPublished, false);

  const live = await createPost(t, admin, { title: "Discussion" });
  const comment = await call(t, member, "POST", `/api/ungatekeep/${live.id}/comments`, { content: "Buy followers!" });
  await report(t, student, { kind: "comment", id: comment.body.comment.id, reason: "spam" });
  await resolve("comment", comment.body.comment.id, "hide");
  const thread = await call(t, student, "GET", `/api/ungatekeep/${live.id}/comments`);
  assertEquals(thread.body.comments.length, 0, "the comment is gone");
  const reporterTold = (await notificationsOf(t, student)).find((n) => n.body.includes("the comment you reported"));
  assert(reporterTold && !reporterTold.body.includes("Buy followers"), "a reporter is not sent the comment again");

  const organization = hidden.organization;
  await call(t, admin, "PATCH", `/api/admin/organizations/${organization!.id}`, { isVerified: true });
  await report(t, student, { kind: "organization", id: organization!.id, reason: "fake_or_impersonation" });
  const refused = await resolve("organization", organization!.id, "delete");
  assertEquals(refused.status, 400);
  // The refusal leaves no claim behind: another admin resolves at once, not after the claim's 2 minutes.
  const other = await createTestUser(t, "admin");
  const byOther = await call(t, other, "POST", `/api/admin/reports/organization/${organization!.id}/resolve`, {
    action: "hide",
  });
  assertEquals([byOther.status, byOther.body], [200, { resolved: 1 }]);
  const profile = await call(t, undefined, "GET", `/api/organizations/${organization!.slug}`);
  assertEquals(profile.body.organization.isVerified, false, "hiding an organization takes its badge away");
  const [told] = (await notificationsOf(t, student)).filter((n) => n.body.includes(`“${organization!.name}”`));
  assert(told.body.includes("took away its verified badge") && !told.body.includes("no longer see"), told.body);
  assertEquals(
    (await notificationsOf(t, student)).filter((n) => n.type === "report_resolved").length,
    6,
    "one notification per report",
  );
});

Deno.test("a listing reports hold is found by the reports code: its link, its owner told of the hide, reporters led to it", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const reporters = await Promise.all([1, 2, 3].map(() => createTestUser(t, "user")));
  const hack = await submitOpportunity(t, member, { title: "Rural Health Ideathon" });
  const listing = await postInternship(t, member, { title: "Held Intern" });
  const dismissed = await submitOpportunity(t, member, { title: "Honest Grant" });
  const targets: [string, string, string][] = [
    ["opportunity", hack.id, `/opportunities/${hack.id}`],
    ["internship", listing.id, `/internships/${listing.id}`],
    ["opportunity", dismissed.id, `/opportunities/${dismissed.id}`],
  ];
  for (const [kind, id] of targets) {
    for (const who of reporters) await report(t, who, { kind, id, reason: "fake_or_impersonation" });
  }
  for (const [kind, id, url] of targets) {
    const held = await call(t, admin, "GET", `/api/admin/reports/${kind}/${id}`);
    assertEquals([held.body.target.status, held.body.target.url], ["open", url], `${kind}: the admin's link`);
    const html = await (await t.fetch(`/admin/reports/${kind}/${id}`, { headers: admin.headers })).text();
    assert(html.includes(`href="${url}"`), `${kind}: the admin page links to the held listing`);
  }
  for (const [kind, id] of targets.slice(0, 2)) {
    const hidden = await call(t, admin, "POST", `/api/admin/reports/${kind}/${id}/resolve`, { action: "hide" });
    assertEquals(hidden.body, { resolved: 3 });
  }
  const owner = await notificationsOf(t, member);
  assertEquals(owner.map((n) => [n.type, n.title]).sort(), [
    ["content_removed", "Your internship was hidden"],
    ["content_removed", "Your opportunity was hidden"],
  ]);
  const dismiss = await call(t, admin, "POST", `/api/admin/reports/opportunity/${dismissed.id}/resolve`, {
    action: "dismiss",
  });
  assertEquals(dismiss.body, { resolved: 3 });
  for (const who of reporters) {
    const told = (await notificationsOf(t, who)).filter((n) => n.type === "report_resolved").map((n) => n.url);
    assertEquals(told.sort(), targets.map(([, , url]) => url).sort(), "each reporter is led to what they reported");
  }
});

Deno.test("one mailbox is one reporter: +tags and Gmail's dots do not make three people, nor new aliases after a dismissal", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const aliases = await Promise.all(
    ["rivalco+1@gmail.com", "rival.co+2@gmail.com", "RivalCo@googlemail.com", "rivalco+4@gmail.com"]
      .map((email) => createTestUser(t, "user", { email })),
  );
  const grant = await submitOpportunity(t, member, { title: "Student Startup Seed Grant" });
  const path = `/api/opportunities/${grant.id}`;
  for (const who of aliases.slice(0, 3)) {
    const filed = await report(t, who, { kind: "opportunity", id: grant.id, reason: "fake_or_impersonation" });
    assertEquals(filed.status, 201, "each alias may report");
  }
  assertEquals((await call(t, undefined, "GET", path)).status, 200, "three aliases of one inbox hold nothing");
  const detail = await call(t, admin, "GET", `/api/admin/reports/opportunity/${grant.id}`);
  assertEquals(detail.body.reports.map((r: { notCounted: boolean }) => r.notCounted).sort(), [false, true, true]);

  const others = await Promise.all(
    ["asha.r@gmail.com", "ravi+x@company.in"].map((email) => createTestUser(t, "user", { email })),
  );
  for (const who of others) await report(t, who, { kind: "opportunity", id: grant.id, reason: "asks_for_money" });
  assertEquals((await call(t, undefined, "GET", path)).status, 404, "three mailboxes hold it");

  const dismissed = await call(t, admin, "POST", `/api/admin/reports/opportunity/${grant.id}/resolve`, {
    action: "dismiss",
  });
  assertEquals(dismissed.body, { resolved: 5 });
  assertEquals((await call(t, undefined, "GET", path)).status, 200);
  // A new alias of a dismissed mailbox, and two new people: the alias does not count, so two are not three.
  await report(t, aliases[3], { kind: "opportunity", id: grant.id, reason: "fake_or_impersonation" });
  const fresh = await Promise.all([1, 2].map(() => createTestUser(t, "user")));
  for (const who of fresh) await report(t, who, { kind: "opportunity", id: grant.id, reason: "asks_for_money" });
  assertEquals((await call(t, undefined, "GET", path)).status, 200, "a dismissed mailbox's new alias counts no more");
  const third = await createTestUser(t, "user");
  await report(t, third, { kind: "opportunity", id: grant.id, reason: "asks_for_money" });
  assertEquals((await call(t, undefined, "GET", path)).status, 404, "three new mailboxes hold it again");
});

Deno.test("while reports hold a listing its owner cannot change what it says; the admin judges the reported text", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const reporters = await Promise.all([1, 2, 3].map(() => createTestUser(t, "user")));
  const grant = await submitOpportunity(t, member, {
    title: "Seed Grant",
    description: "Send your Aadhaar on WhatsApp.",
  });
  const listing = await postInternship(t, member, { title: "Held Intern", description: "Send your OTP." });
  for (const [kind, id] of [["opportunity", grant.id], ["internship", listing.id]]) {
    for (const who of reporters) await report(t, who, { kind, id, reason: "asks_for_money" });
  }
  const refusal = "Students reported this listing and an admin is checking it: it cannot be edited until they decide";
  const rewrite = { title: "Seed Grant", type: grant.type, startDate: grant.startDate, endDate: grant.endDate };
  assertEquals(await call(t, member, "PUT", `/api/opportunities/${grant.id}`, rewrite), {
    status: 409,
    body: { error: refusal },
  });
  const internshipEdit = await call(t, member, "PUT", `/api/internships/${listing.id}`, { description: "All fine." });
  assertEquals([internshipEdit.status, internshipEdit.body.error], [409, refusal]);
  const closed = await call(t, member, "PUT", `/api/internships/${listing.id}`, { closed: true });
  assertEquals(closed.status, 200, "closing changes nothing students read");
  // The owner's edit page says so before anything is typed; an admin's does not (the island's words, in a script,
  // carry the sentence for a refusal: what counts is the page's text).
  const editPage = async (who: TestUser) =>
    (await page(t, `/internships/${listing.id}/edit`, who)).html.replace(/<script\b[^>]*>[^]*?<\/script>/g, "");
  assert((await editPage(member)).includes(refusal), "the owner reads it up front");
  assert(!(await editPage(admin)).includes(refusal), "an admin may edit");
  // The plain edit forms say so in the reader's language and keep what was typed.
  const form = await postForm(t, member, `/internships/${listing.id}/edit?lang=hi`, { description: "All fine." });
  const html = await form.text();
  assert(html.includes("एक एडमिन इसे जाँच रहे हैं") && html.includes("All fine."), "internship form, in Hindi");
  const opportunityForm = await postForm(t, member, `/opportunities/${grant.id}/edit`, {
    ...rewrite,
    description: "Clean now.",
  });
  assertEquals(opportunityForm.status, 409);
  assert((await opportunityForm.text()).includes("an admin is checking it"), "opportunity form");
  const read = await call(t, admin, "GET", `/api/admin/reports/opportunity/${grant.id}`);
  assertEquals(read.body.target.status, "open");
  assertEquals(
    (await call(t, admin, "GET", `/api/opportunities/${grant.id}`)).body.opportunity.description,
    "Send your Aadhaar on WhatsApp.",
    "the reported text is what the admin reads",
  );
  assertEquals(
    (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.description,
    "Send your OTP.",
  );
});

Deno.test("two admins resolving one target at once: one acts, the other is told; the listing, log and notices agree", async () => {
  await using t = await createTestApp({ kvLatencyMs: 5 });
  const [a, b] = await Promise.all([1, 2].map(() => createTestUser(t, "admin")));
  const member = await createTestUser(t, "member");
  const reporter = await createTestUser(t, "user");
  const grant = await submitOpportunity(t, member, { title: "Race Grant" });
  assertEquals((await report(t, reporter, { kind: "opportunity", id: grant.id, reason: "spam" })).status, 201);
  const resolve = (who: TestUser, action: "dismiss" | "hide") =>
    resolveTarget(t.services, {
      kind: "opportunity",
      targetId: grant.id,
      admin: who.user,
      body: { action, note: null },
    })
      .then((result) => ({ action, resolved: result.resolved }), (error: Error) => ({ action, error: error.message }));
  const outcomes = await Promise.all([resolve(a, "dismiss"), resolve(b, "hide")]);
  const winners = outcomes.filter((o) => "resolved" in o && o.resolved === 1);
  assertEquals(winners.length, 1, JSON.stringify(outcomes));
  const loser = outcomes.find((o) => o !== winners[0])!;
  assert(
    ("resolved" in loser && loser.resolved === 0) ||
      ("error" in loser &&
        loser.error === "Another admin is resolving these reports right now: read the page again in a minute"),
    JSON.stringify(loser),
  );
  const hidden = winners[0].action === "hide";
  assertEquals((await call(t, undefined, "GET", `/api/opportunities/${grant.id}`)).status, hidden ? 404 : 200);
  const [told] = (await notificationsOf(t, reporter)).filter((n) => n.type === "report_resolved");
  assertEquals(told.body.includes("stays up"), !hidden, told.body);
  const owner = (await notificationsOf(t, member)).map((n) => n.type);
  assertEquals(owner, hidden ? ["content_removed"] : []);
  const log = await call(t, a, "GET", "/api/admin/log?limit=20");
  const resolutions = log.body.entries.filter((e: { action: string }) => e.action === "report.resolve");
  assertEquals(resolutions.map((e: { summary: string }) => e.summary), [winners[0].action]);
  // The claim is dropped with the last write: the next resolution is not refused (a hidden listing takes no report).
  const next = await report(t, await createTestUser(t, "user"), {
    kind: "opportunity",
    id: grant.id,
    reason: "misleading",
  });
  assertEquals(next.status, hidden ? 404 : 201);
  assertEquals(await resolve(loser === outcomes[0] ? a : b, "dismiss"), {
    action: "dismiss",
    resolved: hidden ? 0 : 1,
  });
});

Deno.test("a listing's hide after reports is one write with its reports, their notices and the log's entry", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const reporter = await createTestUser(t, "user");
  const grant = await submitOpportunity(t, member, { title: "One Write Grant" });
  await report(t, reporter, { kind: "opportunity", id: grant.id, reason: "spam" });
  // Commit 1 claims the reports, 2 hides the listing; a third would be a write of its own for the reports: the KV
  // goes away there, as a process stopping between two writes would.
  const { kv, commits } = kvFailingCommits(t.kv, (n) => n >= 3);
  const result = await resolveTarget({ ...t.services, kv }, {
    kind: "opportunity",
    targetId: grant.id,
    admin: admin.user,
    body: { action: "hide", note: null },
  });
  assertEquals([result.resolved, commits()], [1, 2]);
  // Rejected in that write: its moderation queue entry (written by the listing's own write) says so. The app's read
  // model took the write from another KV handle, so the KV is read here.
  const queued = await Array.fromAsync(t.kv.list({ prefix: ["moderation_queue", "opportunities", "rejected"] }));
  assertEquals(queued.map((entry) => entry.key.at(-1)), [grant.id]);
  assertEquals((await notificationsOf(t, reporter)).map((n) => n.type), ["report_resolved"]);
  assertEquals((await notificationsOf(t, member)).map((n) => n.type), ["content_removed"]);
  const log = (await call(t, admin, "GET", "/api/admin/log?limit=5")).body.entries;
  assertEquals(log.map((e: { action: string; summary: string }) => [e.action, e.summary]), [[
    "report.resolve",
    "hide",
  ]]);
});

Deno.test("every action after reports is one write with its first reports, their notices and the log's entry", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const reporters = [student, await createTestUser(t, "user"), await createTestUser(t, "user")];
  /** A listing three students' reports of money hold. */
  const held = async (kind: "internship" | "opportunity") => {
    const { id } = kind === "internship"
      ? await postInternship(t, member, { title: "Held Intern" })
      : await submitOpportunity(t, member, { title: "Held Grant" });
    for (const who of reporters) await report(t, who, { kind, id, reason: "asks_for_money" });
    return id;
  };
  /** A target one student reported as spam. */
  const reported = async (kind: string, id: string) => {
    assertEquals((await report(t, student, { kind, id, reason: "spam" })).status, 201);
    return id;
  };
  const post = await createPost(t, admin, { title: "Reported post" });
  const comment = await call(t, member, "POST", `/api/ungatekeep/${post.id}/comments`, { content: "Buy followers!" });
  const listing = await postInternship(t, member, { title: "Org Intern" });
  const organization = listing.organization!;
  await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, { isVerified: true });
  const queued = async (kind: string) =>
    (await Array.fromAsync(t.kv.list({ prefix: ["moderation_queue", kind, "held"] }))).length;
  const cases: {
    kind: "internship" | "opportunity" | "post" | "comment" | "organization";
    action: "dismiss" | "hide" | "delete";
    id: string;
    /** Whether the action is done, read from `kv` (the one it was done with: its internship store wrote it). */
    done: (kv: Deno.Kv) => Promise<boolean>;
  }[] = [
    {
      kind: "internship",
      action: "dismiss",
      id: await held("internship"),
      done: async () => !await queued("internships"),
    },
    {
      kind: "opportunity",
      action: "dismiss",
      id: await held("opportunity"),
      done: async () => !await queued("opportunities"),
    },
    {
      kind: "internship",
      action: "delete",
      id: await reported("internship", (await postInternship(t, member, { title: "Gone Intern" })).id),
      done: (kv) => findTarget(kv, "internship", cases[2].id, null).then(() => false, () => true),
    },
    {
      kind: "post",
      action: "hide",
      id: await reported("post", (await createPost(t, admin, { title: "Hidden post" })).id),
      done: async () => !(await getPostForAdmin(t.kv, cases[3].id)).isPublished,
    },
    {
      kind: "post",
      action: "delete",
      id: await reported("post", (await createPost(t, admin, { title: "Deleted post" })).id),
      done: async () => (await getPostForAdmin(t.kv, cases[4].id).catch(() => null)) === null,
    },
    {
      kind: "comment",
      action: "hide",
      id: await reported("comment", comment.body.comment.id),
      done: async () => (await getComment(t.kv, comment.body.comment.id)) === null,
    },
    {
      kind: "organization",
      action: "hide",
      id: await reported("organization", organization.id),
      done: async () => (await getOrganization(t.kv, organization.id)).value?.isVerified === false,
    },
  ];
  for (const { kind, action, id, done } of cases) {
    // Commit 1 claims the reports, 2 is the action's own write; a later write of reports would be a second write for
    // them: the KV goes away there, as a process stopping between two writes would.
    let actions = 0;
    const kv = kvWithCommits(t.kv, (n, apply, sets) => {
      if (n >= 3 && sets.some((key) => key[0] === "reports")) return Promise.reject(new Error("KV went away"));
      if (n === 2) actions++;
      return apply();
    });
    const result = await resolveTarget({ ...t.services, kv }, {
      kind,
      targetId: id,
      admin: admin.user,
      body: { action, note: null },
    });
    const label = `${kind} ${action}`;
    assertEquals([result.resolved, actions], [action === "dismiss" ? 3 : 1, 1], label);
    assert(await done(kv), `${label}: done`);
    const told = (await notificationsOf(t, student)).filter((n) => n.type === "report_resolved" && n.body);
    assertEquals(told.length, cases.findIndex((c) => c.id === id) + 1, `${label}: the reporter is told`);
    const log = (await call(t, admin, "GET", "/api/admin/log?limit=50")).body.entries as {
      action: string;
      targetId: string;
      summary: string;
    }[];
    assertEquals(
      log.filter((entry) => entry.targetId === id && entry.action === "report.resolve").map((entry) => entry.summary),
      [action],
      `${label}: logged`,
    );
  }
});

Deno.test("the admin list shows what the newest reporters wrote: a few, newest first, cut short, escaped", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const listing = await postInternship(t, member, { title: "Words Intern" });
  const target = { kind: "internship", id: listing.id };
  const written = [
    { reason: "misleading", details: "The oldest words." },
    { reason: "spam", details: null },
    { reason: "misleading", details: "They said <b>free</b>\n\n   laptops." },
    { reason: "other", details: `${"long ".repeat(100)}end` },
    { reason: "spam", details: "The newest words." },
  ];
  for (const { reason, details } of written) {
    const sent = await report(t, await createTestUser(t, "user"), { ...target, reason, details });
    assertEquals(sent.status, 201);
  }
  const words = async (status: string) =>
    ((await call(t, admin, "GET", `/api/admin/reports?status=${status}`)).body.targets as {
      targetId: string;
      recentDetails: { reason: string; details: string }[];
    }[]).find((x) => x.targetId === listing.id)?.recentDetails.map(({ reason, details }) => [reason, details]);
  const newest = [
    ["spam", "The newest words."],
    ["other", `${"long ".repeat(55)}long…`],
    ["misleading", "They said <b>free</b> laptops."],
  ];
  assertEquals(await words("open"), newest, "three, newest first, on one line, the long one cut to 280");
  assertEquals(newest[1][1].length, 280);
  const { html } = await page(t, "/admin/reports", admin);
  assert(html.includes("What reporters wrote, newest first"), "the card says whose words they are");
  assert(html.includes("They said &lt;b>free&lt;/b> laptops.") && !html.includes("<b>free</b>"), "as text");
  assert(!html.includes("The oldest words."), "a few only: the target's page has them all");
  assert((await page(t, `/admin/reports/internship/${listing.id}`, admin)).html.includes("The oldest words."));
  const { html: hindi } = await page(t, "/admin/reports?lang=hi", admin);
  assert(hindi.includes("रिपोर्ट करने वालों ने क्या लिखा") && hindi.includes("The newest words."), "in Hindi");

  const resolved = await call(t, admin, "POST", `/api/admin/reports/internship/${listing.id}/resolve`, {
    action: "dismiss",
  });
  assertEquals(resolved.status, 200);
  assertEquals(await words("resolved"), newest, "the resolved view keeps the words it was resolved with");
  await report(t, await createTestUser(t, "user"), { ...target, reason: "misleading", details: "Reported again." });
  assertEquals(await words("open"), [["misleading", "Reported again."]], "the open view: the open reports' words only");
});

Deno.test("an organization reported by hundreds remembers the latest 200 mailboxes; an alias of a recent one counts once", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const listing = await postInternship(t, member, { title: "Analyst Intern" });
  const target = { kind: "organization" as const, id: listing.organization!.id };
  const reportAs = async (email: string) => {
    const user = await createUser(t.kv, { name: "Reporter", email, emailVerified: true, role: "user" });
    assert((await fileReport(t.kv, user, { ...target, reason: "fake_or_impersonation", details: null })).created);
  };
  for (let i = 0; i < 250; i++) await reportAs(`reporter${i}@example.com`);
  const summary = async () => (await t.kv.get<TargetSummary>(summaryKey(target.kind, target.id))).value!;
  const after = await summary();
  // 900 mailboxes of 64 characters would pass KV's 64 KiB a value, and no report of it could be written again.
  assertEquals([after.holdReports, after.holdMailboxes?.length], [250, 200]);
  await reportAs("reporter249+again@example.com");
  assertEquals((await summary()).holdReports, 250, "an alias of the newest reporter does not count");
});
