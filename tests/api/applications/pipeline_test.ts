/**
 * The poster's pipeline (docs/api.md, Applications; docs/decisions.md, Applications, "The poster"; docs/decisions.md,
 * Applications, "Status changes"; docs/decisions.md, Applications, "The poster's list"): who sees an internship's
 * applications (owner, manager of its verified organization, admin; another student, a manager of an unverified
 * organization and a guest do not; nobody their own application), tabs, counts, pages and search; contact details from
 * shortlisting on; single and bulk moves with their refusals (an illegal transition, a final status, a bulk of 101, a
 * foreign application id; 20 long applications moved at once); the applicant told in the app and by e-mail; an
 * applicant who deleted their account; the application's resume; and the page's plain form.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import {
  answersFor,
  applicant,
  applyTo,
  platformInternship,
  QUESTIONS,
  sendApplication,
} from "@/tests/fixtures/applications.ts";
import { addManagerOps } from "@/lib/organizations/store.ts";
import { forgetPipelines } from "@/lib/applications/pipeline.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { addInternships, internshipInput } from "@/tests/fixtures/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { changeUserRole } from "@/lib/users/admin.ts";
import { getUser } from "@/lib/users/users.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { currentInternshipRecord } from "@/lib/internships/internships.ts";
import { closeUnansweredInternships, createInternships } from "@/lib/internships/writes.ts";
import { closeDemotedListings } from "@/lib/internships/demotion_closes.ts";
import { BusyError } from "@/lib/errors.ts";
import { PLATFORM_REFUSALS } from "@/lib/refusals.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { liftSuspension, suspendUser } from "@/lib/users/suspension.ts";
import { verifyOrganizationOf } from "@/tests/fixtures/organizations.ts";

async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const get = async (t: TestApp, who: TestUser | undefined, path: string) =>
  await answer(await t.fetch(path, { headers: who?.headers ?? {} }));

const move = async (t: TestApp, who: TestUser | undefined, id: string, body: unknown) =>
  await answer(await t.json("PATCH", `/api/applications/${id}`, { body, headers: who?.headers }));

const bulk = async (t: TestApp, who: TestUser | undefined, internshipId: string, body: unknown) =>
  await answer(
    await t.json("POST", `/api/internships/${internshipId}/applications/bulk`, { body, headers: who?.headers }),
  );

/** The resume of application `id` answers 404 to its `poster` and 200 to `readers` (its applicant, admins). */
async function assertResumeWithheld(
  t: TestApp,
  id: string,
  { poster, readers }: { poster: TestUser; readers: TestUser[] },
) {
  const resume = (who: TestUser) => t.fetch(`/api/applications/${id}/resume`, { headers: who.headers });
  const held = await resume(poster);
  assertEquals([held.status, await held.json()], [404, { error: "Application not found" }]);
  for (const who of readers) {
    const res = await resume(who);
    assertEquals(res.status, 200, "its applicant and admins still read it");
    await res.body?.cancel();
  }
}

/** The notifications of `who`. */
async function notifications(t: TestApp, who: TestUser) {
  return (await get(t, who, "/api/me/notifications")).body.notifications as { type: string; title: string }[];
}

Deno.test("who sees the applications: owner, verified organization's manager, admin; nobody else", async () => {
  await using t = await createTestApp();
  const { member, admin, student } = await people(t);
  const internship = await platformInternship(t, member, { hiringOrganization: "Pipeline Co" });
  const sent = await applyTo(t, await applicant(t), internship);
  const manager = await createTestUser(t);
  // The organization's managers: its poster (who posted before it was verified) and a colleague.
  const op = t.kv.atomic();
  for (const who of [member, manager]) {
    addManagerOps(op, internship.organization!.id, who.user.id, new Date().toISOString());
  }
  await op.commit();
  const path = `/api/internships/${internship.id}/applications`;

  assertEquals((await get(t, undefined, path)).status, 401);
  assertEquals((await get(t, student, path)).status, 404, "another student");
  assertEquals((await get(t, manager, path)).status, 404, "a manager of an unverified organization");
  assertEquals((await move(t, manager, sent.id, { status: "shortlisted" })).status, 404);
  assertEquals((await get(t, member, `/api/internships/no-such-internship/applications`)).status, 404);
  for (const who of [member, admin]) {
    const { status, body } = await get(t, who, path);
    assertEquals(status, 200);
    assertEquals(body.applications.map((a: { id: string }) => a.id), [sent.id]);
  }
  assertEquals(
    (await t.json("PATCH", `/api/admin/organizations/${internship.organization!.id}`, {
      body: { isVerified: true },
      headers: admin.headers,
    })).status,
    200,
  );
  assertEquals((await get(t, manager, path)).status, 200, "a manager once the organization is verified");
  assertEquals((await move(t, manager, sent.id, { status: "shortlisted" })).status, 200);
  assertEquals((await get(t, student, `/api/applications/${sent.id}/resume`)).status, 404);
  for (const who of [member, manager, admin]) {
    const res = await t.fetch(`/api/applications/${sent.id}/resume`, { headers: who.headers });
    assertEquals([res.status, res.headers.get("content-type")], [200, "application/pdf"]);
    assertEquals(new TextDecoder().decode((await res.bytes()).slice(0, 5)), "%PDF-");
  }
});

Deno.test("an applicant made a manager later is never the poster of their own application", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { hiringOrganization: "Acme Labs" });
  const organizationId = internship.organization!.id;
  // Its poster manages Acme Labs (the listing is theirs to share with its other managers).
  const managed = t.kv.atomic();
  addManagerOps(managed, organizationId, member.user.id, new Date().toISOString());
  assert((await managed.commit()).ok);
  const verified = await t.json("PATCH", `/api/admin/organizations/${organizationId}`, {
    body: { isVerified: true },
    headers: admin.headers,
  });
  assertEquals(verified.status, 200);
  await verified.body?.cancel();
  const rival = await applyTo(t, await applicant(t, "Rita Rival"), internship);
  const me = await applicant(t, "Ishan Intern");
  const mine = await applyTo(t, me, internship);
  const op = t.kv.atomic();
  addManagerOps(op, organizationId, me.user.id, new Date().toISOString());
  assert((await op.commit()).ok);
  const path = `/api/internships/${internship.id}/applications`;

  for (const query of ["", "?status=applied", "?search=ishan"]) {
    const { status, body } = await get(t, me, `${path}${query}`);
    assertEquals(status, 200, query);
    assertEquals(body.applications.map((a: { id: string }) => a.id), query.includes("ishan") ? [] : [rival.id], query);
    assertEquals([body.counts.applied, body.pagination.total], [1, query.includes("ishan") ? 0 : 1], query);
  }
  assertEquals(await move(t, me, mine.id, { status: "hired" }), {
    status: 404,
    body: { error: "Application not found" },
  });
  assertEquals(await bulk(t, me, internship.id, { ids: [mine.id], status: "offer" }), {
    status: 200,
    body: { updated: 0 },
  });
  assertEquals((await t.kv.get<{ status: string }>(["applications", mine.id])).value!.status, "applied");
  assertEquals(await bulk(t, me, internship.id, { ids: [mine.id, rival.id], status: "shortlisted" }), {
    status: 200,
    body: { updated: 1 },
  });
  const own = await t.fetch(`/api/applications/${mine.id}/resume`, { headers: me.headers });
  assertEquals(own.status, 200, "the applicant still reads the resume they sent");
  await own.body?.cancel();
  const list = (await get(t, member, path)).body;
  assertEquals(list.applications.map((a: { id: string }) => a.id).sort(), [rival.id, mine.id].sort());
  assertEquals([list.counts.applied, list.counts.shortlisted], [1, 1], "the owner sees both");
});

Deno.test("tabs, counts, pages and search; contact details only from shortlisting on", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const names = ["Aarav Shah", "Bhavna Rao", "Chetan Iyer", "Divya Nair", "Esha Gupta"];
  const sent = [];
  for (const name of names) sent.push(await applyTo(t, await applicant(t, name), internship));
  const path = `/api/internships/${internship.id}/applications`;

  let { body } = await get(t, member, path);
  assertEquals(body.counts.applied, 5);
  assertEquals(body.pagination, { limit: 20, offset: 0, total: 5, hasMore: false });
  assertEquals(body.applications.map((a: { applicant: { name: string } }) => a.applicant.name), names);
  assertEquals(body.applications[0].applicant.email, null);
  assertEquals(body.applications[0].applicant.contactNumber, null);

  assertEquals((await move(t, member, sent[1].id, { status: "shortlisted", message: "See you soon" })).status, 200);
  assertEquals((await move(t, member, sent[2].id, { status: "rejected" })).status, 200);
  ({ body } = await get(t, member, `${path}?status=shortlisted`));
  assertEquals(body.applications.map((a: { id: string }) => a.id), [sent[1].id]);
  assert(body.applications[0].applicant.email?.includes("@"), "the shortlisted applicant's e-mail shows");
  assertEquals([body.counts.applied, body.counts.shortlisted, body.counts.rejected], [3, 1, 1]);
  ({ body } = await get(t, member, `${path}?status=rejected`));
  assertEquals(body.applications[0].applicant.email, null, "a direct rejection shows no contact details");

  ({ body } = await get(t, member, `${path}?status=applied&limit=2&offset=2`));
  assertEquals([body.pagination.total, body.applications.map((a: { id: string }) => a.id)], [3, [sent[4].id]]);
  ({ body } = await get(t, member, `${path}?search=divya`));
  assertEquals(body.applications.map((a: { id: string }) => a.id), [sent[3].id]);

  // Another process with no copy of the list reads it again from KV, and a fresh copy follows later changes.
  forgetPipelines();
  ({ body } = await get(t, member, path));
  assertEquals([body.counts.applied, body.counts.shortlisted, body.counts.rejected], [3, 1, 1]);
  assertEquals((await move(t, member, sent[0].id, { status: "interview" })).status, 200);
  ({ body } = await get(t, member, path));
  assertEquals([body.counts.applied, body.counts.interview], [2, 1]);
  // Every status in course order: a page across the tabs' edges.
  ({ body } = await get(t, member, `${path}?limit=2&offset=2`));
  assertEquals([body.pagination.total, body.applications.map((a: { id: string }) => a.id)], [5, [
    sent[1].id,
    sent[0].id,
  ]]);
  ({ body } = await get(t, member, `${path}?limit=3&offset=4`));
  assertEquals(body.applications.map((a: { id: string }) => a.id), [sent[2].id]);

  for (const bad of ["?status=nope", "?limit=101", "?limit=0", "?offset=-1", "?other=1"]) {
    assertEquals((await get(t, member, `${path}${bad}`)).status, 400, bad);
  }
});

Deno.test("moves: forwards or rejected; illegal, final, foreign and unknown refused; the applicant told once", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Intern" });
  const other = await platformInternship(t, await createTestUser(t, "member"));
  const person = await applicant(t, "Farah Khan");
  const sent = await applyTo(t, person, internship);
  const foreign = await applyTo(t, await applicant(t), other);

  assertEquals((await move(t, undefined, sent.id, { status: "shortlisted" })).status, 401);
  assertEquals((await move(t, student, sent.id, { status: "shortlisted" })).status, 404);
  assertEquals(await move(t, member, foreign.id, { status: "shortlisted" }), {
    status: 404,
    body: { error: "Application not found" },
  });
  assertEquals((await move(t, member, "no-such-application", { status: "shortlisted" })).status, 404);
  for (
    const bad of [{ status: "nope" }, { status: "shortlisted", message: "x".repeat(2001) }, { status: "offer", x: 1 }]
  ) {
    assertEquals((await move(t, member, sent.id, bad)).status, 400, JSON.stringify(bad));
  }
  for (const status of ["applied", "withdrawn"]) {
    const refused = await move(t, member, sent.id, { status });
    assertEquals([refused.status, refused.body.error], [400, "Invalid status change"]);
  }

  const moved = await move(t, member, sent.id, { status: "interview", message: "Interview on Monday at 11." });
  assertEquals([moved.status, moved.body.application.status], [200, "interview"]);
  const backwards = await move(t, member, sent.id, { status: "shortlisted" });
  assertEquals([backwards.status, backwards.body.error], [400, "Invalid status change"]);
  await t.settled();
  const told = (await notifications(t, person)).filter((n) => n.type === "application_status");
  assertEquals(told.map((n) => n.title), [
    `${internship.organization?.name ?? internship.hiringOrganization} wants to interview you for Data Intern`,
  ]);
  const mails = t.mails.filter((mail) => mail.to === person.user.email);
  assertEquals(mails.length, 1);
  assert(mails[0].text.includes("Interview on Monday at 11."));
  const tracker = (await get(t, person, "/api/me/saved")).body;
  assertEquals(tracker.items.map((item: { id: string; status: string }) => [item.id, item.status]), [[
    internship.id,
    "interviewing",
  ]]);

  assertEquals((await move(t, member, sent.id, { status: "hired" })).status, 200);
  assertEquals(await move(t, member, sent.id, { status: "rejected" }), {
    status: 400,
    body: { error: "This application can no longer change" },
  });
});

Deno.test("the applicant's notification is written in the reader's language; an older worded one shows as kept", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Acme" });
  const person = await applicant(t, "Farah Khan");
  const sent = await applyTo(t, person, internship);
  const organization = internship.organization?.name ?? internship.hiringOrganization;
  assertEquals((await move(t, member, sent.id, { status: "shortlisted", message: "Call me at 5." })).status, 200);
  const old = t.kv.atomic();
  addNotification(old, {
    userId: person.user.id,
    type: "application_status",
    title: "Old words",
    body: "As kept",
    url: "/",
  });
  assert((await old.commit()).ok);
  const read = async (path: string) =>
    (await get(t, person, path)).body.notifications.filter((n: { type: string }) => n.type === "application_status")
      .map((n: { title: string; body: string }) => [n.title, n.body]);
  assertEquals(await read("/api/me/notifications?lang=hi"), [
    ["Old words", "As kept"],
    [`${organization} में Data Intern के लिए आप शॉर्टलिस्ट हुए हैं`, "Call me at 5."],
  ]);
  assertEquals(await read("/api/me/notifications"), [
    ["Old words", "As kept"],
    [`You are shortlisted for Data Intern at ${organization}`, "Call me at 5."],
  ]);
});

Deno.test("bulk: up to 100 ids; other internships' and unmovable ones left; 101 refused", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const internship = await platformInternship(t, member);
  const other = await platformInternship(t, await createTestUser(t, "member"));
  const sent = [];
  for (let i = 0; i < 3; i++) sent.push(await applyTo(t, await applicant(t), internship));
  const foreign = await applyTo(t, await applicant(t), other);
  await move(t, member, sent[2].id, { status: "rejected" });

  const ids = Array.from({ length: 101 }, (_, i) => `id-${i}`);
  assertEquals((await bulk(t, member, internship.id, { ids, status: "shortlisted" })).status, 400);
  assertEquals((await bulk(t, member, internship.id, { ids: [], status: "shortlisted" })).status, 400);
  assertEquals((await bulk(t, student, internship.id, { ids: [sent[0].id], status: "shortlisted" })).status, 404);
  assertEquals((await bulk(t, undefined, internship.id, { ids: [sent[0].id], status: "shortlisted" })).status, 401);
  const done = await bulk(t, member, internship.id, {
    ids: [...sent.map((a) => a.id), foreign.id, "no-such-application", sent[0].id],
    status: "shortlisted",
    message: "Thanks, you are on the shortlist.",
  });
  assertEquals(done, { status: 200, body: { updated: 2 } });
  const { body } = await get(t, member, `/api/internships/${internship.id}/applications`);
  assertEquals([body.counts.shortlisted, body.counts.rejected], [2, 1]);
  const otherList = await get(t, member, `/api/internships/${other.id}/applications`);
  assertEquals(otherList.status, 404);
  const foreignNow = (await t.kv.get<{ status: string }>(["applications", foreign.id])).value!;
  assertEquals(foreignNow.status, "applied");
});

Deno.test("bulk: 20 long applications and a long message move, past KV's 800 KiB a commit", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const hindi = (n: number) => "क".repeat(n);
  const questions = Array.from({ length: 5 }, (_, i) => ({ text: `Question ${i + 1}?`, required: true }));
  const internship = await platformInternship(t, member, { questions });
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await sendApplication(t, await applicant(t), internship.id, {
      answers: internship.questions.map((q) => ({ questionId: q.id, answer: hindi(1000) })),
      coverNote: hindi(2000),
    });
    assertEquals(res.status, 201, await res.clone().text());
    ids.push((await res.json()).application.id);
  }
  const message = hindi(2000);
  assertEquals(await bulk(t, member, internship.id, { ids, status: "interview", message }), {
    status: 200,
    body: { updated: 20 },
  });
  for (const id of ids) {
    const record = (await t.kv.get<{ status: string; history: { message: string | null }[] }>(["applications", id]))
      .value!;
    assertEquals([record.status, record.history.at(-1)!.message], ["interview", message]);
  }
  await t.settled();
  assertEquals(t.mails.filter((mail) => mail.text.includes(message)).length, 20);
});

Deno.test("an applicant who deleted their account: no name in the API, the page's words in its language", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const who = await applicant(t);
  const sent = await applyTo(t, who, internship);
  assertEquals((await move(t, member, sent.id, { status: "interview", message: "See you" })).status, 200);
  const gone = await t.json("DELETE", "/api/me", { body: { confirm: who.user.email }, headers: who.headers });
  assertEquals(gone.status, 200, await gone.text());
  await t.settled(); // the deletion's job, which the answer does not wait for
  const list = await get(t, member, `/api/internships/${internship.id}/applications`);
  assertEquals([list.body.applications[0].applicant.id, list.body.applications[0].applicant.name], [null, null]);
  const pages: [string, string, string | null][] = [["hi", "पूर्व सदस्य", "Former member"], [
    "en",
    "Former member",
    "Deleted user",
  ]];
  for (const [lang, words, not] of pages) {
    const res = await t.fetch(`/internships/${internship.id}/applicants?lang=${lang}&status=interview`, {
      headers: member.headers,
    });
    const html = await res.text();
    assertEquals(res.status, 200);
    assert(html.includes(`lang="${lang}"`) && html.includes(words), lang);
    if (not) assert(!html.includes(not), `no English on the ${lang} page`);
  }
});

Deno.test("the applicants page: tabs and counts, and the move form without JavaScript", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const internship = await platformInternship(t, member, { title: "Design Intern" });
  const first = await applyTo(t, await applicant(t, "Gauri Menon"), internship);
  await applyTo(t, await applicant(t, "Harsh Vora"), internship);
  const path = `/internships/${internship.id}/applicants`;

  assertEquals((await t.fetch(path, { headers: student.headers })).status, 404);
  const guest = await t.fetch(path, { redirect: "manual" });
  await guest.body?.cancel();
  assert([302, 303].includes(guest.status), "a guest is sent to sign in");
  let html = await (await t.fetch(path, { headers: member.headers })).text();
  assert(html.includes("Gauri Menon") && html.includes("Harsh Vora"));
  assert(html.includes("All (2)") && html.includes("Applied (2)"));
  assert(html.includes(`href="/api/applications/${first.id}/resume"`));
  assert(html.includes(`href="/api/internships/${internship.id}/applications/export"`), "the spreadsheet link");
  html = await (await t.fetch(`${path}?status=applied&search=gauri`, { headers: member.headers })).text();
  assert(
    html.includes(`href="/api/internships/${internship.id}/applications/export?status=applied&amp;search=gauri"`),
    "the spreadsheet of the tab and search",
  );

  const form = (fields: [string, string][]) => {
    const body = new URLSearchParams(fields);
    return t.fetch(path, {
      method: "POST",
      body,
      headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
  };
  let res = await form([["status", "shortlisted"]]);
  html = await res.text();
  assertEquals(res.status, 400);
  assert(html.includes("Select at least one applicant to move."));
  res = await form([["ids", first.id], ["status", ""], ["message", "Round two"]]);
  assertEquals(res.status, 400);
  let refused = htmlDocument(await res.text());
  assert(refused.querySelector("#move-form")!.textContent!.includes("Choose the new status."));
  assertEquals(refused.querySelector("#move-message")?.textContent, "Round two", "what was typed kept");
  assert(refused.querySelector(`#applicant-${first.id}-select`)!.hasAttribute("checked"), "and what was selected");
  res = await form([["ids", first.id], ["status", "shortlisted"], ["message", "Welcome to round two"]]);
  await res.body?.cancel();
  assertEquals(res.status, 303);
  const location = res.headers.get("location")!;
  assert(location.includes("moved=1"), location);
  html = await (await t.fetch(location, { headers: member.headers })).text();
  assert(html.includes("1 application moved; the applicant is told."));
  assert(html.includes("Shortlisted (1)"));
  assertEquals((await t.fetch(path, { headers: student.headers, method: "POST" })).status, 404);

  // Each card moves its own application too, to the statuses it may go to.
  const own = (page: string, id: string) => {
    const found = htmlDocument(page).querySelector(`#applicant-${id} form[method="post"]`);
    return found && {
      action: found.getAttribute("action"),
      ids: [...found.querySelectorAll('[name="ids"]')].map((input) => input.getAttribute("value")),
      statuses: [...found.querySelectorAll('select[name="status"] option')].map((o) => o.getAttribute("value")),
      summary: found.closest("details")?.querySelector("summary")?.textContent,
    };
  };
  const harsh = html.match(/id="applicant-([^"]+)"/g)!.map((m) => m.slice(14, -1)).find((id) => id !== first.id)!;
  assertEquals(own(html, first.id)?.statuses, ["", "interview", "offer", "hired", "rejected"], "forwards or rejected");
  assertEquals(own(html, harsh), {
    action: `${path}#move-${harsh}`, // refused, the page comes back at the card's form
    ids: [harsh],
    statuses: ["", "shortlisted", "interview", "offer", "hired", "rejected"],
    summary: "Move Harsh Vora’s application",
  });
  // A card's form refused says why in that card, open, what was typed kept there, and nothing at the batch form.
  const cardFields = [...htmlDocument(html).querySelectorAll(`#applicant-${harsh} form input[type="hidden"]`)]
    .map((input) => [input.getAttribute("name")!, input.getAttribute("value")!] as [string, string]);
  res = await form([...cardFields, ["status", ""], ["message", "See you on Monday"]]);
  assertEquals(res.status, 400);
  refused = htmlDocument(await res.text());
  const card = refused.querySelector(`#applicant-${harsh} details`)!;
  assert(card.hasAttribute("open"), "the card's form is open");
  assert(card.textContent!.includes("Choose the new status."), card.textContent!);
  assertEquals(card.querySelector("textarea")?.textContent, "See you on Monday");
  assert(!refused.querySelector("#move-form")!.textContent!.includes("Choose the new status."), "not the batch form");
  assertEquals(refused.querySelector("#move-message")?.textContent, "");
  assert(!refused.querySelector(`#applicant-${harsh}-select`)!.hasAttribute("checked"));
  res = await form([["ids", harsh], ["status", "rejected"], ["message", "We went with another profile."]]);
  await res.body?.cancel();
  assertEquals(res.status, 303);
  html = await (await t.fetch(path, { headers: member.headers })).text();
  assertEquals(own(html, harsh), null, "nothing moves a rejected application");
  assert(html.includes("Not taken further (1)"));
});

Deno.test("My internships links each listing taking applications here to its applicants, with their count", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const here = await platformInternship(t, member, { title: "Apply Here Intern" });
  const elsewhere = await platformInternship(t, member, { title: "Own Site Intern", applyMode: "link", questions: [] });
  for (const name of ["Asha", "Ravi"]) await applyTo(t, await applicant(t, name), here);
  const mine = await (await t.fetch("/internships/mine", { headers: member.headers })).text();
  const link = mine.match(new RegExp(`<a href="/internships/${here.id}/applicants"[^>]*>([\\s\\S]*?)</a>`));
  assert(link, "an Applicants link beside Edit");
  assertEquals(link[1].replace(/<[^>]+>/g, "").replace(/\s+/g, " "), "Applicants Apply Here Intern (2)");
  assert(!mine.includes(`/internships/${elsewhere.id}/applicants`), "none for a listing taking applications elsewhere");
  const hindi = await (await t.fetch("/internships/mine?lang=hi", { headers: member.headers })).text();
  assert(hindi.includes("आवेदक (2)"), "the link in Hindi");
});

Deno.test("My internships counts a listing's applicants from two keys, not by listing its index", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const { member } = await people(t);
  const here = await platformInternship(t, member, { title: "Busy Intern" });
  for (let i = 0; i < 12; i++) await applyTo(t, await applicant(t, `Student ${i}`), here);
  /** The count "My internships" shows in a fresh process, and the index entries it listed for it. */
  const count = async () => {
    forgetPipelines();
    const from = reads.lists.length;
    const html = await (await t.fetch("/internships/mine", { headers: member.headers })).text();
    const link = html.match(new RegExp(`<a href="/internships/${here.id}/applicants"[^>]*>([\\s\\S]*?)</a>`));
    const listed = reads.lists.slice(from).filter(({ selector }) =>
      ("prefix" in selector ? selector.prefix : (selector as { start: Deno.KvKey }).start)[0] ===
        "applications_by_internship"
    ).reduce((sum, list) => sum + list.listed, 0);
    return { shown: link?.[1].replace(/<[^>]+>/g, "").replace(/\s+/g, " "), listed };
  };
  assertEquals((await count()).shown, "Applicants Busy Intern (12)", "the first count");
  // A year's applicants would be listed by every fresh process for every page: now the count is read by key.
  assertEquals(await count(), { shown: "Applicants Busy Intern (12)", listed: 0 });
  await applyTo(t, await applicant(t, "Late Student"), here);
  assertEquals(await count(), { shown: "Applicants Busy Intern (13)", listed: 0 });
});

Deno.test("the owner's listing page offers Edit and Applicants in the apply box, not an Apply the API refuses", async () => {
  await using t = await createTestApp();
  const { member, student, admin } = await people(t);
  const internship = await platformInternship(t, member);
  const applyLink = `href="/internships/${internship.id}/apply"`;
  const box = (html: string) => html.slice(html.indexOf("mt-6 flex flex-wrap"), html.indexOf('id="details-heading"'));
  const own = box(await (await t.fetch(`/internships/${internship.id}`, { headers: member.headers })).text());
  assert(!own.includes(applyLink), "no Apply for the owner");
  assert(own.includes(`href="/internships/${internship.id}/edit"`), "Edit in its place");
  assert(own.includes(`href="/internships/${internship.id}/applicants"`), "and Applicants");
  const hindi = await (await t.fetch(`/internships/${internship.id}?lang=hi`, { headers: member.headers })).text();
  assert(!box(hindi).includes(applyLink) && box(hindi).includes("/edit"), "the same in Hindi");
  for (const other of [student, admin]) {
    const html = box(await (await t.fetch(`/internships/${internship.id}`, { headers: other.headers })).text());
    assert(html.includes(applyLink), `${other.user.role} still has Apply`);
  }
});

Deno.test("a move's message that asks the applicant to pay is refused, one by one, in bulk and in the form", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Sales Intern" });
  const student = await applicant(t, "Gauri Menon");
  const sent = await applyTo(t, student, internship);
  const fee = "Congratulations! Pay a refundable security deposit of Rs 1500 to confirm your interview slot.";
  const field = {
    field: "message",
    message: "Students are never asked to pay here: take out the fee or deposit this message asks for.",
    messageKey: "fields.messageAsksToPay",
  };
  const refusal = "The message asks applicants to pay, which nobody may do here; take out the fee or deposit";

  assertEquals(await move(t, member, sent.id, { status: "shortlisted", message: fee }), {
    status: 400,
    body: { error: refusal, fields: [field] },
  });
  assertEquals(await bulk(t, member, internship.id, { ids: [sent.id], status: "shortlisted", message: fee }), {
    status: 400,
    body: { error: refusal, fields: [field] },
  });
  const form = await t.fetch(`/internships/${internship.id}/applicants`, {
    method: "POST",
    body: new URLSearchParams([["ids", sent.id], ["status", "shortlisted"], ["message", fee]]),
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  assertEquals(form.status, 400);
  const html = await form.text();
  assert(html.includes(field.message.replace("'", "&#39;")), "the form says so at the message");
  // Drawn again, the message is the form's default: the form says it is not sent, so leaving asks first.
  const unsent = (page: string) => page.match(/<form[^>]*data-unsaved[^>]*>/g) ?? [];
  assertEquals(unsent(html).map((tag) => tag.includes('id="move-form"')), [true], "the batch form, not sent");
  const own = await t.fetch(`/internships/${internship.id}/applicants`, {
    method: "POST",
    body: new URLSearchParams([["ids", sent.id], ["one", sent.id], ["status", "shortlisted"], ["message", fee]]),
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  assertEquals(own.status, 400);
  assertEquals(unsent(await own.text()).map((tag) => tag.includes('id="move-form"')), [false], "the card's form");
  assertEquals((await t.kv.get<{ status: string }>(["applications", sent.id])).value!.status, "applied");
  assertEquals((await notifications(t, student)).filter((n) => n.type === "application_status"), []);

  const kind = "We pay a stipend of Rs 15,000 every month; no fee is ever asked.";
  assertEquals((await move(t, member, sent.id, { status: "shortlisted", message: kind })).status, 200);
});

Deno.test("a listing an admin rejected: its poster moves none of its applications; an admin still may", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Entry Intern" });
  const student = await applicant(t, "Gauri Menon");
  const sent = await applyTo(t, student, internship);
  const rejected = await t.json("POST", `/api/admin/moderation/internships/${internship.id}`, {
    body: { decision: "reject", note: "Asked applicants for a fee on the phone" },
    headers: admin.headers,
  });
  assertEquals(rejected.status, 200);
  await rejected.body?.cancel();
  const refusal = "An admin took this listing down: its applications can no longer be moved";

  assertEquals(await move(t, member, sent.id, { status: "shortlisted" }), { status: 403, body: { error: refusal } });
  assertEquals(await bulk(t, member, internship.id, { ids: [sent.id], status: "shortlisted" }), {
    status: 403,
    body: { error: refusal },
  });
  const form = await t.fetch(`/internships/${internship.id}/applicants`, {
    method: "POST",
    body: new URLSearchParams([["ids", sent.id], ["status", "shortlisted"]]),
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  assertEquals(form.status, 403);
  assert((await form.text()).includes(refusal));
  assertEquals((await t.kv.get<{ status: string }>(["applications", sent.id])).value!.status, "applied");
  assertEquals((await notifications(t, student)).filter((n) => n.type === "application_status"), []);
  const page = await (await t.fetch(`/internships/${internship.id}/applicants`, { headers: member.headers })).text();
  assert(page.includes("Gauri Menon") && page.includes(refusal), "the list stays readable and says why");
  assert(!page.includes(`value="${sent.id}"`) && !page.includes('id="move-form"'), "with nothing to select or send");
  // Nor its resumes: most carry the e-mail and phone number the list keeps back until shortlisting.
  assert(!page.includes(`/api/applications/${sent.id}/resume`), "no resume link");
  assert(page.includes("Resume withheld: this listing's applications can no longer be moved"), "the card says why");
  assert(!page.includes("/applications/export"), "nor a spreadsheet of them");
  await assertResumeWithheld(t, sent.id, { poster: member, readers: [admin, student] });

  assertEquals((await move(t, admin, sent.id, { status: "rejected" })).status, 200, "an admin closes it");
});

Deno.test("a listing its poster deleted: an admin can no longer take it down, so its poster moves none either", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Entry Intern" });
  const student = await applicant(t, "Gauri Menon");
  const sent = await applyTo(t, student, internship);
  // Reported, the poster deletes the listing before an admin looks: the takedown is answered 404 from then on.
  const deleted = await t.fetch(`/api/internships/${internship.id}`, { method: "DELETE", headers: member.headers });
  assertEquals(deleted.status, 200);
  await deleted.body?.cancel();
  const takedown = await t.json("POST", `/api/admin/moderation/internships/${internship.id}`, {
    body: { decision: "reject", note: "Asked applicants for a fee on the phone" },
    headers: admin.headers,
  });
  assertEquals(takedown.status, 404);
  await takedown.body?.cancel();
  const refusal = "This listing was deleted: its applications can no longer be moved";

  assertEquals(await move(t, member, sent.id, { status: "shortlisted", message: "Call me" }), {
    status: 403,
    body: { error: refusal },
  });
  assertEquals(await bulk(t, member, internship.id, { ids: [sent.id], status: "shortlisted" }), {
    status: 403,
    body: { error: refusal },
  });
  await assertResumeWithheld(t, sent.id, { poster: member, readers: [admin, student] });
  const page = await (await t.fetch(`/internships/${internship.id}/applicants`, { headers: member.headers })).text();
  assert(page.includes("Gauri Menon") && page.includes(refusal), "the list stays readable and says why");
  assert(!page.includes('id="move-form"') && !page.includes(`/api/applications/${sent.id}/resume`));
  const hindi = await (await t.fetch(`/internships/${internship.id}/applicants?lang=hi`, { headers: member.headers }))
    .text();
  assert(hindi.includes("यह लिस्टिंग डिलीट कर दी गई है"), "the reason in Hindi");
  assertEquals((await t.kv.get<{ status: string }>(["applications", sent.id])).value!.status, "applied");
  assertEquals((await move(t, admin, sent.id, { status: "rejected" })).status, 200, "an admin still answers it");
});

Deno.test("a hired intern's stipend report stays theirs: the poster's list does not say who answered what", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Field Intern", stipend: 8000 });
  const intern = await applicant(t, "Isha Intern");
  const sent = await applyTo(t, intern, internship);
  assertEquals((await move(t, member, sent.id, { status: "hired" })).status, 200);
  // Hired 31 days ago, so the intern may report the stipend.
  const key = ["applications", sent.id];
  const entry = await t.kv.get<{ history: { status: string; at: string }[] }>(key);
  const at = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
  const history = entry.value!.history.map((step) => step.status === "hired" ? { ...step, at } : step);
  assert((await t.kv.atomic().check(entry).set(key, { ...entry.value, history }).commit()).ok);
  const reported = await t.json("POST", `/api/me/applications/${sent.id}/stipend-report`, {
    body: { paid: "no" },
    headers: intern.headers,
  });
  assertEquals(reported.status, 200);
  assertEquals((await reported.json()).application.stipendReport.paid, "no", "the intern reads their answer");

  const list = await get(t, member, `/api/internships/${internship.id}/applications`);
  assertEquals(list.status, 200);
  assertEquals(list.body.applications.map((a: { id: string }) => a.id), [sent.id]);
  assertEquals("stipendReport" in list.body.applications[0], false, "the poster's list leaves the answer out");
});

Deno.test("a withdrawn application: its poster reads the name alone, no profile, answers, contact or resume", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { title: "Design Intern" });
  const student = await applicant(t, "Ishita Rao");
  const profile = {
    image: "https://example.com/ishita.png",
    collegeInstitute: "Nirma University",
    currentRole: "Illustrator",
    fieldInterests: ["Typography"],
  };
  const saved = await t.json("POST", "/api/profile", {
    body: { name: "Ishita Rao", ...profile },
    headers: student.headers,
  });
  assertEquals(saved.status, 200, await saved.clone().text());
  await saved.body?.cancel();
  const sent = await applyTo(t, student, internship);
  assertEquals((await move(t, member, sent.id, { status: "shortlisted" })).status, 200);
  const before = (await get(t, member, `/api/internships/${internship.id}/applications`)).body.applications[0];
  assertEquals(
    [before.applicant.image, before.applicant.collegeInstitute, before.applicant.currentRole],
    [profile.image, profile.collegeInstitute, profile.currentRole],
    "the profile shows while the application stands",
  );
  const withdrawn = await t.json("POST", `/api/me/applications/${sent.id}/withdraw`, { headers: student.headers });
  assertEquals(withdrawn.status, 200);
  await withdrawn.body?.cancel();

  const listed = (await get(t, member, `/api/internships/${internship.id}/applications`)).body.applications;
  assertEquals(listed.length, 1);
  const [row] = listed;
  assertEquals([row.status, row.applicant.name], ["withdrawn", "Ishita Rao"], "the poster still sees who withdrew");
  assertEquals([row.answers, row.coverNote, row.resume], [[], "", null]);
  assertEquals([row.applicant.email, row.applicant.contactNumber], [null, null]);
  const { image, collegeInstitute, currentRole, fieldOfStudy, fieldInterests } = row.applicant;
  assertEquals([image, collegeInstitute, currentRole, fieldOfStudy, fieldInterests], [null, null, null, null, []]);
  for (const word of ["nirma", "illustrator", "typography"]) {
    const found = await get(t, member, `/api/internships/${internship.id}/applications?search=${word}`);
    assertEquals(found.body.applications, [], `no search finds them by ${word}`);
  }
  const byName = await get(t, member, `/api/internships/${internship.id}/applications?search=ishita`);
  assertEquals(byName.body.applications.map((a: { id: string }) => a.id), [sent.id], "their name still finds them");
  const res = await t.fetch(`/internships/${internship.id}/applicants`, { headers: member.headers });
  assertEquals(res.headers.get("offline-scope"), null, "the poster's phone keeps no copy a withdrawal cannot reach");
  const page = await res.text();
  assert(page.includes("Ishita Rao") && !page.includes("Hello!"), "no cover note on the page");
  assert(!page.includes(`/api/applications/${sent.id}/resume`) && !page.includes(student.user.email), "nor contact");
  assert(!page.includes("Nirma") && !page.includes("Illustrator") && !page.includes("ishita.png"), "nor profile");
  assert(
    page.includes("They withdrew their application: their contact details, answers and resume are no longer shown"),
  );
  const hindi = await (await t.fetch(`/internships/${internship.id}/applicants?lang=hi`, { headers: member.headers }))
    .text();
  assert(hindi.includes("उन्होंने अपना आवेदन वापस ले लिया"), "the sentence in Hindi");

  await assertResumeWithheld(t, sent.id, { poster: member, readers: [admin, student] });
});

Deno.test("a poster made a user again: no applicants, resumes, edits or posts; their open listings close", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const student = await applicant(t, "Kavya Menon");
  const here = await platformInternship(t, member, { title: "Data Intern" });
  const elsewhere = await t.json("POST", "/api/internships", {
    body: { title: "Sales Intern", link: "https://careers.example.com/sales", hiringOrganization: "Example Labs" },
    headers: member.headers,
  });
  assertEquals(elsewhere.status, 201);
  const linked = (await elsewhere.json()).data;
  const sent = await applyTo(t, student, here);
  assertEquals((await move(t, member, sent.id, { status: "shortlisted" })).status, 200);
  const toldBefore = (await notifications(t, student)).length;

  const role = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals([role.status, (await role.json()).closedListings], [200, 1], "the listing taking applications closes");

  // Every way in, with the session they already had: as anyone else, or refused.
  const path = `/api/internships/${here.id}/applications`;
  assertEquals((await get(t, member, path)).status, 404, "their applicants' list");
  const page = await t.fetch(`/internships/${here.id}/applicants`, { headers: member.headers, redirect: "manual" });
  await page.body?.cancel();
  // Their earlier "new applicants" notices lead here: to the listing on My internships, which says why.
  assertEquals([page.status, page.headers.get("location")], [303, `/internships/mine#internship-${here.id}`]);
  const stranger = await t.fetch(`/internships/${here.id}/applicants`, { headers: student.headers });
  await stranger.body?.cancel();
  assertEquals(stranger.status, 404, "anyone else's way in is still a 404");
  assertEquals((await move(t, member, sent.id, { status: "interview" })).status, 404, "a move");
  assertEquals((await bulk(t, member, here.id, { ids: [sent.id], status: "interview" })).status, 404, "a bulk move");
  await assertResumeWithheld(t, sent.id, { poster: member, readers: [admin, student] });
  const put = (id: string, body: unknown) => t.json("PUT", `/api/internships/${id}`, { body, headers: member.headers });
  for (const [id, body] of [[linked.id, { title: "Sales Lead Intern" }], [here.id, { closed: false }]] as const) {
    const res = await put(id, body);
    await res.body?.cancel();
    assertEquals(res.status, 403, `an edit of ${id}`);
  }
  const removed = await t.json("DELETE", `/api/internships/${linked.id}`, { headers: member.headers });
  await removed.body?.cancel();
  assertEquals(removed.status, 403, "a delete");
  const reopen = await postForm(t, member, `/internships/${here.id}/applications`, { intent: "reopen", from: "mine" });
  await reopen.body?.cancel();
  assertEquals(reopen.status, 403, "the reopen form");
  const edit = await t.fetch(`/internships/${linked.id}/edit`, { headers: member.headers });
  await edit.body?.cancel();
  assertEquals(edit.status, 403, "the edit page");
  const created = await t.json("POST", "/api/internships", {
    body: { title: "New Intern", link: "https://careers.example.com/new", hiringOrganization: "Example Labs" },
    headers: member.headers,
  });
  await created.body?.cancel();
  assertEquals(created.status, 403, "a new listing");
  const mine = await (await t.fetch("/internships/mine", { headers: member.headers })).text();
  assert(mine.includes("Data Intern") && mine.includes("Sales Intern"), "they still read their listings");
  assert(!mine.includes(`/internships/${here.id}/applicants`) && !mine.includes(`/internships/${linked.id}/edit`));
  assert(mine.includes("you no longer edit, close or delete these listings"));

  // The listing taking applications here closed as its poster closing it would; the other stays open.
  const closed = await get(t, undefined, `/api/internships/${here.id}`);
  assertEquals(closed.body.internship.isClosed, true);
  assertEquals((await get(t, undefined, `/api/internships/${linked.id}`)).body.internship.isClosed, false);
  const late = await sendApplication(t, await applicant(t), here.id, answersFor(here));
  assertEquals([late.status, (await late.json()).error], [400, "This internship is closed"]);
  assertEquals((await notifications(t, student)).length, toldBefore, "its applicants are told nothing more now");
  assertEquals((await get(t, admin, path)).status, 200, "admins still read and answer them");

  // A demotion by mistake is undone by giving the role back.
  const back = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "member" },
    headers: admin.headers,
  });
  assertEquals([back.status, (await back.json()).closedListings], [200, 0]);
  assertEquals((await get(t, member, path)).status, 200);
});

Deno.test("a poster made a user again who manages its verified organization: their listing's applicants are not theirs", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Pipeline Co" });
  const organizationId = internship.organization!.id;
  // The poster and a colleague manage Pipeline Co, verified: the colleague answers the listing's applicants.
  const manager = await createTestUser(t, "member");
  const op = t.kv.atomic();
  for (const who of [member, manager]) addManagerOps(op, organizationId, who.user.id, new Date().toISOString());
  assert((await op.commit()).ok);
  const verified = await t.json("PATCH", `/api/admin/organizations/${organizationId}`, {
    body: { isVerified: true },
    headers: admin.headers,
  });
  assertEquals(verified.status, 200);
  await verified.body?.cancel();
  const student = await applicant(t, "Kavya Menon");
  const sent = await applyTo(t, student, internship);
  const path = `/api/internships/${internship.id}/applications`;
  assertEquals((await get(t, member, path)).status, 200);

  const role = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals([role.status, (await role.json()).closedListings], [200, 0], "the colleague answers: it stays open");
  assertEquals((await get(t, member, path)).status, 404, "their listing's applicants, though they manage it");
  assertEquals((await move(t, member, sent.id, { status: "shortlisted" })).status, 404, "a move");
  await assertResumeWithheld(t, sent.id, { poster: member, readers: [admin, student, manager] });
  assertEquals((await get(t, manager, path)).status, 200, "the colleague still reads them");
  assertEquals((await move(t, manager, sent.id, { status: "shortlisted" })).status, 200, "and answers them");
});

Deno.test("a demotion whose request stopped before closing: the job closes them; a role given back first, none", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const other = await createTestUser(t, "member");
  const [left, kept] = [
    await platformInternship(t, member, { title: "Data Intern" }),
    await platformInternship(t, other, { title: "Ops Intern" }),
  ];
  const isClosed = async (id: string) => (await get(t, undefined, `/api/internships/${id}`)).body.internship.isClosed;
  // The role's write lands and the request stops there (the process evicted before it closed anything).
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: member.user.id, role: "user" });
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: other.user.id, role: "user" });
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: other.user.id, role: "member" });
  assertEquals([await isClosed(left.id), await isClosed(kept.id)], [false, false]);

  const early = await runJob(findJob("demotion-closes")!, t.services, new Date());
  assertEquals(early.closed, 0, "the request's own run is left two minutes");
  const run = await runJob(findJob("demotion-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run.closed, 1);
  assertEquals([await isClosed(left.id), await isClosed(kept.id)], [true, false], "the role given back closes none");
  const again = await runJob(findJob("demotion-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(again.closed, 0, "done once");
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["demotion_closes"] }))).length, 0);
});

Deno.test("a listing a request posts after the demotion's close, having read the poster before: the job closes it", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const first = await platformInternship(t, member, { title: "Data Intern" });
  const asRead = (await getUser(t.kv, member.user.id))!;
  const role = await t.json("PATCH", `/api/admin/users/${member.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals([role.status, (await role.json()).closedListings], [200, 1]);
  // The post's request read them as a member before the role's write; its listing's write lands after the close.
  const input = internshipInput({ title: "Ops Intern", applyMode: "platform", questions: QUESTIONS });
  const [late] = await createInternships(t.kv, asRead, [input]);
  const isClosed = async (id: string) => (await get(t, undefined, `/api/internships/${id}`)).body.internship.isClosed;
  assertEquals([await isClosed(first.id), await isClosed(late.id)], [true, false]);

  const run = await runJob(findJob("demotion-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run.closed, 1, "the job's last run closes the listing that landed after the request's");
  assertEquals(await isClosed(late.id), true);
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["demotion_closes"] }))).length, 0, "then the close goes");
});

Deno.test("a demotion's close that fails in the job is kept for its next run; the others go on", async () => {
  await using t = await createTestApp();
  const { admin } = await people(t);
  const [one, two] = [await createTestUser(t, "member"), await createTestUser(t, "member")];
  const listings = new Map([
    [one.user.id, await platformInternship(t, one, { title: "Data Intern" })],
    [two.user.id, await platformInternship(t, two, { title: "Ops Intern" })],
  ]);
  for (const who of [one, two]) {
    await changeUserRole(t.kv, { actorId: admin.user.id, targetId: who.user.id, role: "user" });
  }
  // The job meets the first close in key order first: each write of its listing fails.
  const [first, second] = [one.user.id, two.user.id].sort();
  const failing = listings.get(first)!.id;
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    if (sets.some((key) => key.includes(failing))) throw new Error("KV unavailable");
    return apply();
  });
  const run = await runJob(findJob("demotion-closes")!, { ...t.services, kv }, new Date(Date.now() + 3 * 60_000));
  assertEquals(run.closed, 1, "the second close went on");
  // Read from KV: the job wrote through a KV handle of its own, whose writes this process's read model takes in later.
  const isClosed = async (id: string) => !!(await currentInternshipRecord(t.kv, id))!.record.closedAt;
  assertEquals([await isClosed(failing), await isClosed(listings.get(second)!.id)], [false, true]);
  const left = await Array.fromAsync(t.kv.list({ prefix: ["demotion_closes"] }));
  assertEquals(left.map((entry) => entry.key[1]), [first], "the failed close waits for the next run");
  const next = await runJob(findJob("demotion-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(next.closed, 1);
});

Deno.test("a demotion's close reads none of the listings it leaves open: a feed's forty, one taking applications", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const feed = Array.from({ length: 40 }, (_, i) => ({ title: `Feed Intern ${i}` }));
  assertEquals((await addInternships(t, member, feed)).length, 40);
  const here = await platformInternship(t, member, { title: "Data Intern" });
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: member.user.id, role: "user" });
  const reads = kvReads();
  const kv = recordingReads(t.kv, reads);
  await internshipStore(kv);
  reads.keys.length = 0;
  assertEquals(await closeUnansweredInternships(kv, member.user.id), { closed: 1, stopped: false });
  assert(reads.keys.length < 10, `${reads.keys.length} keys read for one listing to close`);
  assert((await t.kv.get(["internships_closed", here.id])).versionstamp, "closed, it went to the archive");
});

Deno.test("a demotion's close of forty listings writes them twenty at a time, each to the archive with its end", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const listings = [];
  for (const from of [0, 20]) {
    const inputs = Array.from(
      { length: 20 },
      (_, i) => internshipInput({ title: `Data Intern ${from + i}`, applyMode: "platform", questions: QUESTIONS }),
    );
    listings.push(...await createInternships(t.kv, member.user, inputs));
  }
  let commits = 0;
  const kv = kvWithCommits(t.kv, (_n, apply) => {
    commits++;
    return apply();
  });
  await internshipStore(kv);
  commits = 0;
  assertEquals(await closeUnansweredInternships(kv, member.user.id), { closed: 40, stopped: false });
  assert(commits <= 4, `${commits} writes for 40 listings (one each before)`);
  for (const { id } of listings) {
    assert((await t.kv.get(["internships_closed", id])).versionstamp, "closed, it went to the archive");
    assert((await t.kv.get(["listing_ended", id])).versionstamp, "its end recorded for its applicants");
    const intake = (await t.kv.get<string>(["internship_intake", id])).value!;
    assert(JSON.parse(intake)[2], "an application's write sees it closed");
  }
});

Deno.test("a role change whose close is kept busy stands: the page and the API say it closes later; the job does", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const other = await createTestUser(t, "member");
  const listings = [
    await platformInternship(t, member, { title: "Data Intern" }),
    await platformInternship(t, other, { title: "Ops Intern" }),
  ];
  // Every write of their listings stays busy (its races lost for 30 s) while the requests run.
  const kv = t.services.kv;
  t.services.kv = kvWithCommits(kv, (_n, apply, sets) => {
    if (sets.some((key) => listings.some((listing) => key.includes(listing.id)))) {
      throw new BusyError(PLATFORM_REFUSALS.busy);
    }
    return apply();
  });
  const done = await postForm(t, admin, "/admin/users", { userId: member.user.id, action: "role", role: "user" });
  const back = `/admin/users?done=role&user=${member.user.id}&later=1`;
  assertEquals([done.status, done.headers.get("location")], [303, back]);
  const res = await t.json("PATCH", `/api/admin/users/${other.user.id}`, {
    body: { role: "user" },
    headers: admin.headers,
  });
  assertEquals([res.status, (await res.json()).finishing], [200, true]);
  t.services.kv = kv;
  for (const who of [member, other]) {
    assertEquals((await getUser(t.kv, who.user.id))!.role, "user", "changed all the same");
  }
  for (const lang of ["en", "hi"] as const) {
    const doc = htmlDocument(await (await t.fetch(`${back}&lang=${lang}`, { headers: admin.headers })).text());
    // The words shown, not the island's props (which carry every sentence of the table).
    for (const script of doc.querySelectorAll("script")) script.remove();
    const shown = doc.body.textContent ?? "";
    const say = translatorFor(lang);
    assert(shown.includes(say("admin.users.closingLater")), lang);
    assert(!shown.includes(say("admin.users.notChanged")), lang);
  }
  const run = await runJob(findJob("demotion-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run.closed, 2, "the job closes them");
});

Deno.test("a batch of closes KV refuses as over its limits is written one listing a write", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const inputs = Array.from(
    { length: 5 },
    (_, i) => internshipInput({ title: `Data Intern ${i}`, applyMode: "platform", questions: QUESTIONS }),
  );
  const listings = await createInternships(t.kv, member.user, inputs);
  // As KV refuses a commit over 800 KiB: listings entering many archive blocks, each rewritten whole.
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    const archived = sets.filter((key) => key[0] === "internships_closed").length;
    return archived > 1 ? Promise.reject(new TypeError("Total mutation size too large (max 819200 bytes)")) : apply();
  });
  assertEquals(await closeUnansweredInternships(kv, member.user.id), { closed: 5, stopped: false });
  for (const { id } of listings) {
    assert((await t.kv.get(["internships_closed", id])).versionstamp, "closed, it went to the archive");
    assert((await t.kv.get(["listing_ended", id])).versionstamp, "its end recorded for its applicants");
  }
});

Deno.test("a role given back while the demotion's close runs: no listing closes after that write", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const listings = [
    await platformInternship(t, member, { title: "Data Intern" }),
    await platformInternship(t, member, { title: "Ops Intern" }),
  ];
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: member.user.id, role: "user" });
  const guard = (await t.kv.get(["demotion_closes", member.user.id])) as Deno.KvEntry<unknown>;
  assert(guard.value, "the role's write recorded the close");
  // The close read its record, then the role came back before its first listing's write.
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: member.user.id, role: "member" });
  assertEquals(await closeUnansweredInternships(t.kv, member.user.id, { guard }), { closed: 0, stopped: true });
  for (const listing of listings) {
    assertEquals((await get(t, undefined, `/api/internships/${listing.id}`)).body.internship.isClosed, false);
  }
});

Deno.test("a manager's suspension lifted while the demotion's close runs: the listing they answer stays open", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const manager = await createTestUser(t, "member");
  const listing = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Pipeline Co" });
  await verifyOrganizationOf(t, listing, [member.user.id, manager.user.id]);
  const colleague = { actorId: admin.user.id, targetId: manager.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...colleague, reason: "Asked applicants for a fee", hideListings: false });
  await changeUserRole(t.kv, { actorId: admin.user.id, targetId: member.user.id, role: "user" });
  // The colleague's suspension lifted between the close's read of Pipeline Co's managers and the listing's write.
  let lifted = false;
  const kv = kvWithCommits(t.kv, async (_n, apply, sets) => {
    if (!lifted && sets.some((key) => key.includes(listing.id))) {
      lifted = true;
      await liftSuspension(t.kv, colleague);
    }
    return await apply();
  });
  assertEquals(await closeDemotedListings(kv, member.user.id), 0);
  assert(lifted, "the listing's write was tried");
  assertEquals((await get(t, undefined, `/api/internships/${listing.id}`)).body.internship.isClosed, false);
});

Deno.test("applications withdrawn before: the backfill makes their search the name alone", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const withdrawnEarlier = await applicant(t, "Ishita Rao");
  const saved = await t.json("POST", "/api/profile", {
    body: { name: "Ishita Rao", collegeInstitute: "Nirma University" },
    headers: withdrawnEarlier.headers,
  });
  assertEquals(saved.status, 200);
  await saved.body?.cancel();
  const sent = await applyTo(t, withdrawnEarlier, internship);
  const withdrawn = await t.json("POST", `/api/me/applications/${sent.id}/withdraw`, {
    headers: withdrawnEarlier.headers,
  });
  assertEquals(withdrawn.status, 200);
  await withdrawn.body?.cancel();
  const standing = await applyTo(t, await applicant(t, "Nirma Shah"), internship);
  // As a withdrawal wrote its search text before 29 Nov 2026 (its status entry and its change): the profile's words.
  const old = "ishita rao nirma university";
  const [entry] = await Array.fromAsync(
    t.kv.list<{ t: string }>({ prefix: ["applications_by_internship", internship.id, "withdrawn"] }),
  );
  await t.kv.set(entry.key, { t: old });
  for await (const change of t.kv.list<{ t: string }>({ prefix: ["applications_log", internship.id] })) {
    if (change.key[3] === sent.id) await t.kv.set(change.key, { ...change.value, t: old });
  }
  forgetPipelines();
  const search = async (word: string) =>
    (await get(t, member, `/api/internships/${internship.id}/applications?search=${word}`)).body.applications
      .map((a: { id: string }) => a.id);
  assertEquals(await search("university"), [sent.id], "the old entry tells where she studies");

  const job = findJob("applications-withdrawn-search")!;
  assertEquals(await runJob(job, t.services), { job: "applications-withdrawn-search", written: 1 });
  assertEquals(await search("university"), [], "a list kept in memory catches up");
  forgetPipelines();
  assertEquals(await search("university"), []);
  assertEquals(await search("nirma"), [standing.id], "a standing application keeps its words");
  assertEquals(await search("ishita"), [sent.id], "her name still finds her");
  assertEquals(await runJob(job, t.services), { job: "applications-withdrawn-search", written: 0 });
});
