/**
 * Every applicant hears back (docs/decisions.md, Applications, "Telling people"; docs/decisions.md, Applications,
 * "Every applicant hears back"), against
 * the real `smtp-server` fake: a status change with a message reaches the applicant once, with the message; the
 * `applications-timeout` job rejects what waited past its due time (and nothing earlier, nothing answered, nothing
 * twice) and tells the applicant once in the app and by e-mail, one digest per applicant and run naming every
 * application closed; the poster's list kept in memory and the track record follow the batched writes; the run's lease;
 * with two writes in flight, a poster's move or a lost lease before the second commits, and a KV error on a commit.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { PASSWORD, people } from "@/tests/fixtures/people.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { timeOutApplications } from "@/lib/applications/timeout.ts";
import { applicationOps, recordKey } from "@/lib/applications/store.ts";
import { type ApplicationRecord, timeoutDueAt } from "@/lib/applications/applications.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { istToday } from "@/lib/dates.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";

const DAY = 24 * 60 * 60 * 1000;

const runAt = (t: TestApp, name: string, ms: number) => runJob(findJob(name)!, t.services, new Date(ms));

/**
 * Makes application `id` (to an internship without a deadline) as if it was sent `agoMs` before now: its record, its
 * indexes and its due time (30 days after), as the store writes them.
 */
async function sentAgo(t: TestApp, id: string, agoMs: number) {
  const entry = await t.kv.get<ApplicationRecord>(recordKey(id));
  const createdAt = new Date(Date.now() - agoMs).toISOString();
  const record = entry.value!;
  const next = {
    ...record,
    createdAt,
    updatedAt: createdAt,
    history: [{ ...record.history[0], at: createdAt }],
    dueAt: timeoutDueAt({ deadline: null, closedAt: null }, createdAt),
  };
  const op = t.kv.atomic().check(entry);
  applicationOps(op, record, next);
  assert((await op.commit()).ok);
}

async function statusOf(t: TestApp, who: TestUser, id: string) {
  const res = await t.fetch("/api/me/applications", { headers: who.headers });
  const { applications } = await res.json();
  return applications.find((a: { id: string }) => a.id === id);
}

Deno.test("a status change with a message reaches the applicant once by e-mail, with the message", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Research Intern", hiringOrganization: "Lab Co" });
  const person = await applicant(t, "Isha Paul");
  const sent = await applyTo(t, person, internship);
  const res = await t.json("PATCH", `/api/applications/${sent.id}`, {
    body: { status: "shortlisted", message: "Please bring your <portfolio> & a pen." },
    headers: member.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const mail = await smtp.waitFor(person.user.email);
  await t.settled();
  await runAt(t, "outbox", Date.now() + 10 * 60 * 1000);
  assertEquals(smtp.messages.filter((m) => m.to.includes(person.user.email)).length, 1);
  assertEquals(mail.subject, "You are shortlisted for Research Intern at Lab Co");
  assert(mail.text.includes("Please bring your <portfolio> & a pen."), mail.text);
  assert(mail.html.includes("Please bring your &lt;portfolio") && !mail.html.includes("<portfolio>"), mail.html);
  assert(mail.text.includes("/me/tracker#application-"), "the mail links to the tracker");
});

Deno.test("the timeout job rejects what waited too long, once, and tells the applicant once", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const internship = await platformInternship(t, member, {
    title: "Ops Intern",
    hiringOrganization: "Slow Co",
    deadline,
  });
  const waiting = await applicant(t, "Jai Singh");
  const answered = await applicant(t, "Kavya Das");
  const waitingApp = await applyTo(t, waiting, internship);
  const answeredApp = await applyTo(t, answered, internship);
  const moved = await t.json("PATCH", `/api/applications/${answeredApp.id}`, {
    body: { status: "interview" },
    headers: member.headers,
  });
  await moved.body?.cancel();
  await t.settled();
  const before = smtp.messages.length;

  // Not yet due 15 days after the deadline (its IST day's end); due after.
  const early = await runAt(t, "applications-timeout", Date.now() + 14 * DAY);
  assertEquals([early.rejected, early.skipped], [0, 0]);
  assertEquals((await statusOf(t, waiting, waitingApp.id)).status, "applied");
  const later = Date.now() + 19 * DAY;
  const run = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected, run.skipped], [1, 0]);
  const again = await runAt(t, "applications-timeout", later + DAY);
  assertEquals([again.rejected, again.skipped], [0, 0]);

  const rejected = await statusOf(t, waiting, waitingApp.id);
  assertEquals(rejected.status, "rejected");
  assertEquals(rejected.history.at(-1).by, "system");
  assert(rejected.history.at(-1).message.includes("Slow Co did not respond to your application in time"));
  assertEquals((await statusOf(t, answered, answeredApp.id)).status, "interview", "an answered one is left");

  await runAt(t, "outbox", later + 60_000);
  await runAt(t, "outbox", later + 2 * DAY);
  const mails = smtp.messages.slice(before).filter((m) => m.to.includes(waiting.user.email));
  assertEquals(mails.map((m) => m.subject), ["Slow Co did not answer your application for Ops Intern"]);
  assert(mails[0].text.includes("This says nothing about you."));
  const bell = await (await t.fetch("/api/me/notifications", { headers: waiting.headers })).json();
  assertEquals(
    bell.notifications.filter((n: { type: string }) => n.type === "application_status").map((n: { title: string }) =>
      n.title
    ),
    ["Slow Co did not answer your application for Ops Intern"],
  );
  const tracker = await (await t.fetch("/api/me/saved", { headers: waiting.headers })).json();
  assertEquals(tracker.items.map((item: { id: string; status: string }) => [item.id, item.status]), [[
    internship.id,
    "rejected",
  ]]);
});

Deno.test("a deadline extended or added after applying moves the due time: the job waits for the new one", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const extended = await platformInternship(t, member, {
    title: "Ops Intern",
    hiringOrganization: "Slow Co",
    deadline: istToday(new Date(Date.now() + 2 * DAY)),
  });
  const added = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co" });
  const early = await applicant(t, "Jai Singh");
  const [toExtended, toAdded] = [await applyTo(t, early, extended), await applyTo(t, early, added)];
  // The poster extends one deadline by 60 days and gives the other listing one 40 days out.
  const deadlines = [istToday(new Date(Date.now() + 60 * DAY)), istToday(new Date(Date.now() + 40 * DAY))];
  for (const [listing, deadline] of [[extended, deadlines[0]], [added, deadlines[1]]] as const) {
    const put = await t.json("PUT", `/api/internships/${listing.id}`, { body: { deadline }, headers: member.headers });
    assertEquals(put.status, 200);
    await put.body?.cancel();
  }

  // Past both due times as they were when applying (+17 days and +30 days), well before the new ones.
  const run = await runAt(t, "applications-timeout", Date.now() + 31 * DAY);
  assertEquals([run.rejected, run.postponed, run.told, run.skipped], [0, 2, 0, 0]);
  for (const sent of [toExtended, toAdded]) assertEquals((await statusOf(t, early, sent.id)).status, "applied");
  const due = await Array.fromAsync(t.kv.list<boolean>({ prefix: ["applications_due"] }));
  const expected = [[toAdded, deadlines[1]], [toExtended, deadlines[0]]] as const;
  assertEquals(
    due.map((entry) => [entry.key[2], new Date(entry.key[1] as number).toISOString()]),
    expected.map(([sent, deadline]) => [sent.id, timeoutDueAt({ deadline, closedAt: null }, sent.createdAt)]),
    "each due entry moved to 15 days after its listing's deadline now",
  );
  const again = await runAt(t, "applications-timeout", Date.now() + 31 * DAY);
  assertEquals([again.rejected, again.postponed], [0, 0], "nothing is due any more");

  // 15 days after the added deadline (the end of its IST day) the one it judges is rejected; the extended one waits.
  const later = await runAt(t, "applications-timeout", Date.now() + 57 * DAY);
  assertEquals([later.rejected, later.postponed, later.told], [1, 0, 1]);
  assertEquals((await statusOf(t, early, toAdded.id)).status, "rejected");
  assertEquals((await statusOf(t, early, toExtended.id)).status, "applied");
});

Deno.test("a deadline moved years ahead postpones at most a year; a closed listing is judged by its close", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const closed = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const open = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline });
  const early = await applicant(t, "Jai Singh");
  const [toClosed, toOpen] = [await applyTo(t, early, closed), await applyTo(t, early, open)];
  // Both deadlines go to the year 9999; one listing is closed at once as well.
  for (const [listing, body] of [[closed, { closed: true }], [open, {}]] as const) {
    const put = await t.json("PUT", `/api/internships/${listing.id}`, {
      body: { deadline: "9999-12-31", ...body },
      headers: member.headers,
    });
    assertEquals(put.status, 200);
    await put.body?.cancel();
  }

  // Past the due time as it was when applying (+17 days): the closed listing's application is rejected; the open one
  // moves to 15 days after a deadline a year after applying, not to the year 10000.
  const run = await runAt(t, "applications-timeout", Date.now() + 31 * DAY);
  assertEquals([run.rejected, run.postponed], [1, 1]);
  assertEquals((await statusOf(t, early, toClosed.id)).status, "rejected");
  const due = await Array.fromAsync(t.kv.list<boolean>({ prefix: ["applications_due"] }));
  assertEquals(due.map((entry) => [entry.key[2], entry.key[1]]), [[
    toOpen.id,
    Date.parse(toOpen.createdAt) + 380 * DAY,
  ]]);
  const later = await runAt(t, "applications-timeout", Date.parse(toOpen.createdAt) + 381 * DAY);
  assertEquals([later.rejected, later.postponed], [1, 0]);
  assertEquals((await statusOf(t, early, toOpen.id)).status, "rejected");
});

Deno.test("a listing deleted after its deadline moved years ahead is judged by its deletion, as a close", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const early = await applicant(t, "Jai Singh");
  const sent = await applyTo(t, early, listing);
  const put = await t.json("PUT", `/api/internships/${listing.id}`, {
    body: { deadline: "9999-12-31" },
    headers: member.headers,
  });
  assertEquals(put.status, 200);
  await put.body?.cancel();
  const deleted = await t.json("DELETE", `/api/internships/${listing.id}`, { headers: member.headers });
  assertEquals(deleted.status, 200);
  await deleted.body?.cancel();

  // Past the due time as it was when applying (+17 days): deleted, it waits no longer for its deadline.
  const run = await runAt(t, "applications-timeout", Date.now() + 31 * DAY);
  assertEquals([run.rejected, run.postponed], [1, 0]);
  const record = (await t.kv.get<ApplicationRecord>(recordKey(sent.id))).value!;
  assertEquals([record.status, record.history.at(-1)!.by], ["rejected", "system"]);
});

Deno.test("one run tells each applicant once, naming every closed application; list and track record follow", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const design = await platformInternship(t, member, {
    title: "Design Intern",
    hiringOrganization: "Quiet Co",
    deadline,
  });
  const sales = await platformInternship(t, member, {
    title: "Sales Intern",
    hiringOrganization: "Quiet Co",
    deadline,
  });
  const organization = `/api/organizations/${design.organization!.slug}`;
  assertEquals((await (await t.fetch(organization)).json()).stats.applications, 0);
  const both = await applicant(t, "Nisha Rao");
  const one = await applicant(t, "Om Prakash");
  const sent = [await applyTo(t, both, design), await applyTo(t, both, sales), await applyTo(t, one, design)];
  const list = `/api/internships/${design.id}/applications`;
  // The poster's list is kept in memory from here on: it must follow the run's batched change log.
  const before = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([before.counts.applied, before.counts.rejected], [2, 0]);
  const stats = (await (await t.fetch(organization)).json()).stats;
  assertEquals(stats.applications, 3, "the figures kept per process follow the change marker");
  await t.settled();
  const mailsBefore = smtp.messages.length;

  const later = Date.now() + 19 * DAY;
  const run = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected, run.told, run.skipped], [3, 2, 0]);
  const again = await runAt(t, "applications-timeout", later + DAY);
  assertEquals([again.rejected, again.told, again.skipped], [0, 0, 0]);

  const after = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([after.counts.applied, after.counts.rejected], [0, 2], "the list caught up from the batched log");
  assertEquals((await (await t.fetch(organization)).json()).stats, stats, "a rejection by nobody counts nothing");
  for (const application of sent.slice(0, 2)) {
    assertEquals((await statusOf(t, both, application.id)).status, "rejected");
  }

  await runAt(t, "outbox", later + 60_000);
  await runAt(t, "outbox", later + 2 * DAY);
  const mails = smtp.messages.slice(mailsBefore);
  const toBoth = mails.filter((m) => m.to.includes(both.user.email));
  assertEquals(toBoth.map((m) => m.subject), ["2 of your applications got no answer in time"]);
  for (const line of ["• Design Intern at Quiet Co", "• Sales Intern at Quiet Co", "This says nothing about you."]) {
    assert(toBoth[0].text.includes(line), toBoth[0].text);
  }
  assertEquals(
    mails.filter((m) => m.to.includes(one.user.email)).map((m) => m.subject),
    ["Quiet Co did not answer your application for Design Intern"],
  );
  const bell = await (await t.fetch("/api/me/notifications", { headers: both.headers })).json();
  const told = bell.notifications.filter((n: { type: string }) => n.type === "application_status");
  assertEquals(told.map((n: { title: string }) => n.title), ["2 of your applications got no answer in time"]);
  assert(told[0].body.includes("Design Intern at Quiet Co") && told[0].body.includes("Sales Intern at Quiet Co"));
  const hindi = await (await t.fetch("/api/me/notifications?lang=hi", { headers: both.headers })).json();
  const digest = hindi.notifications.find((n: { type: string }) => n.type === "application_status");
  assertEquals(digest.title, "आपके 2 आवेदनों का समय पर जवाब नहीं आया", "the digest in the reader's language");
  assert(digest.body.includes("• Quiet Co में Design Intern"), digest.body);
  const tracker = await (await t.fetch("/api/me/saved", { headers: both.headers })).json();
  assertEquals(
    tracker.items.map((item: { status: string }) => item.status),
    ["rejected", "rejected"],
    "both tracker items follow",
  );
});

Deno.test("a run longer than the catch-up's 60 s stamps its change log when it writes: the poster's list follows", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co" });
  const person = await applicant(t, "Jai Singh");
  const sent = await applyTo(t, person, internship);
  // Due 10 minutes ago: sent 30 days and 10 minutes ago (a listing cannot be posted with a past deadline).
  await sentAgo(t, sent.id, 30 * DAY + 10 * 60_000);
  const list = `/api/internships/${internship.id}/applications`;
  const before = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([before.counts.applied, before.counts.rejected], [1, 0], "kept in memory from here on");

  // A run that began 2 minutes ago reaches this batch only now.
  const run = await timeOutApplications(t.kv, {
    now: new Date(Date.now() - 2 * 60_000),
    appUrl: t.origin,
    giveWay: () => Promise.resolve(),
  });
  assertEquals(run.rejected, 1);
  const after = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([after.counts.applied, after.counts.rejected], [0, 1], "the list caught up from the batched log");
  assertEquals(after.applications.map((a: { status: string }) => a.status), ["rejected"]);
});

Deno.test("a deleted applicant's change leaves the run's batched log entry; the others' stay and the list follows", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co" });
  const gone = await applicant(t, "Jai Singh");
  const kept = await applicant(t, "Om Prakash");
  for (const person of [gone, kept]) await sentAgo(t, (await applyTo(t, person, internship)).id, 30 * DAY + 60_000);
  const list = `/api/internships/${internship.id}/applications`;
  const before = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([before.counts.applied, before.counts.rejected], [2, 0], "kept in memory from here on");
  const run = await timeOutApplications(t.kv, { now: new Date(), appUrl: t.origin, giveWay: () => Promise.resolve() });
  assertEquals(run.rejected, 2, "both in one batched log entry");
  await deleteAccount(t.services, { user: gone.user, session: { createdAt: new Date().toISOString() } }, {
    confirm: gone.user.email,
    password: PASSWORD,
  });
  await t.settled(); // its job
  const log: string[] = [];
  for await (const entry of t.kv.list({ prefix: ["applications_log", internship.id] })) {
    log.push(JSON.stringify(entry.value));
  }
  assert(!log.some((value) => value.includes("jai singh")), log.join("\n"));
  assert(log.some((value) => value.includes("changes") && value.includes("om prakash")), "the other change stays");
  const after = await (await t.fetch(list, { headers: member.headers })).json();
  assertEquals([after.counts.applied, after.counts.rejected], [0, 2], "the list caught up");
  const found = await (await t.fetch(`${list}?status=rejected&search=prakash`, { headers: member.headers })).json();
  assertEquals(found.applications.map((a: { applicant: { name: string } }) => a.applicant.name), ["Om Prakash"]);
});

Deno.test("a person who deletes their account while a run tells them is told nothing: no notice, no e-mail", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co" });
  const person = await applicant(t, "Jai Singh");
  await applyTo(t, person, internship);
  await t.settled();
  let telling = false;
  let deleted = false;
  const run = await timeOutApplications(t.kv, {
    now: new Date(Date.now() + 31 * DAY),
    appUrl: t.origin,
    // After the moves the run tells; the person deletes their account between its read of them and its write.
    giveWay: () => {
      telling = true;
      return Promise.resolve();
    },
    turn: async () => {
      if (!telling || deleted) return;
      deleted = true;
      await deleteAccount(t.services, { user: person.user, session: { createdAt: new Date().toISOString() } }, {
        confirm: person.user.email,
        password: PASSWORD,
      });
      await t.settled(); // its job too
    },
  });
  assertEquals([deleted, run.rejected, run.told], [true, 1, 0]);
  await sweepDeletions(t); // the deletion's second pass
  const traces: string[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    const text = JSON.stringify([entry.key, entry.value], (_, v) => typeof v === "bigint" ? String(v) : v);
    if (text.includes(person.user.id) || text.includes(person.user.email)) traces.push(JSON.stringify(entry.key));
  }
  assertEquals(traces, [], "nothing under their id or address: no notification, e-mail or push message");
});

Deno.test("a run leaves a live lease alone, takes over one that ran out, and tells what a stopped run left", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const internship = await platformInternship(t, member, {
    title: "QA Intern",
    hiringOrganization: "Busy Co",
    deadline,
  });
  const person = await applicant(t, "Ravi Kumar");
  const application = await applyTo(t, person, internship);
  const later = Date.now() + 19 * DAY;

  await t.kv.set(["applications_timeout_lease"], { holder: "another run", until: Date.now() + 60_000 });
  const held = await runAt(t, "applications-timeout", later);
  assertEquals([held.rejected, held.told, held.skipped], [0, 0, 0]);
  assertEquals((await statusOf(t, person, application.id)).status, "applied", "another run holds the lease");

  // What a run that stopped between its two steps leaves: an untold entry, and its lease running out.
  await t.kv.set(["applications_untold", person.user.id, "an-earlier-application"], {
    applicationId: "an-earlier-application",
    title: "Support Intern",
    organization: "Busy Co",
  });
  await t.kv.set(["applications_timeout_lease"], { holder: "another run", until: Date.now() - 1 });
  const run = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected, run.told, run.skipped], [1, 1, 0]);
  assertEquals((await statusOf(t, person, application.id)).status, "rejected");
  assertEquals((await t.kv.get(["applications_timeout_lease"])).value, null, "the run let its lease go");
  const bell = await (await t.fetch("/api/me/notifications", { headers: person.headers })).json();
  assertEquals(
    bell.notifications.filter((n: { type: string }) => n.type === "application_status").map((n: { title: string }) =>
      n.title
    ),
    ["2 of your applications got no answer in time"],
  );
});

/** Seven students who each applied to five platform internships of one poster: 35 applications, several writes. */
async function fiveEach(t: TestApp): Promise<{ member: TestUser; students: TestUser[] }> {
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const internships: InternshipView[] = [];
  for (const title of ["Art", "Blog", "Code", "Data", "Edit"]) {
    internships.push(
      await platformInternship(t, member, { title: `${title} Intern`, hiringOrganization: "Lost Co", deadline }),
    );
  }
  const students: TestUser[] = [];
  for (let i = 0; i < 7; i++) {
    const student = await applicant(t, `Student ${i}`);
    for (const internship of internships) await applyTo(t, student, internship);
    students.push(student);
  }
  await t.settled();
  return { member, students };
}

/** Every application of `students` by id, with its status. */
async function statuses(t: TestApp, students: TestUser[]): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const student of students) {
    const { applications } = await (await t.fetch("/api/me/applications", { headers: student.headers })).json();
    for (const application of applications) found[application.id] = application.status;
  }
  return found;
}

const rejectedOf = (found: Record<string, string>) => Object.values(found).filter((status) => status === "rejected");

/** A timeout digest's subject and notification title. */
const DIGEST = /of your applications got no answer in time/;

/** Each of `students` got exactly one timeout digest among `mails` and one in the app. */
async function assertToldOnce(t: TestApp, mails: { to: string[]; subject: string }[], students: TestUser[]) {
  for (const student of students) {
    const digests = mails.filter((m) => m.to.includes(student.user.email) && DIGEST.test(m.subject));
    assertEquals(digests.length, 1, `${student.user.email}: ${mails.map((m) => m.subject)}`);
    const bell = await (await t.fetch("/api/me/notifications", { headers: student.headers })).json();
    const told = bell.notifications.filter((n: { type: string; title: string }) =>
      n.type === "application_status" && DIGEST.test(n.title)
    );
    assertEquals(told.length, 1, `${student.user.email} in the app`);
  }
}

Deno.test("a run killed between two of its writes is finished by the next; each applicant is told once", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { students } = await fiveEach(t);
  const mailsBefore = smtp.messages.length;
  const later = Date.now() + 19 * DAY;

  // The run dies at its first turn after a write of its moves reached KV (a local KV answers in the order asked, so
  // the untold entries are read after that write), with its later writes not sent and nobody told yet.
  const dieOnceWritten = async () => {
    for await (const _ of t.kv.list({ prefix: ["applications_untold"] }, { limit: 1 })) throw new Error("killed");
  };
  const killed = timeOutApplications(t.kv, {
    now: new Date(later),
    appUrl: "http://localhost",
    giveWay: dieOnceWritten,
    turn: dieOnceWritten,
  });
  let error: unknown = null;
  await killed.catch((caught) => error = caught);
  assertEquals((error as Error | null)?.message, "killed");
  const done = rejectedOf(await statuses(t, students)).length;
  assert(done > 0 && done < 35, `${done} of 35 rejected when the run died`);

  // Its lease runs out; the next run does the rest and tells everyone once, naming all five.
  const lease = await t.kv.get<{ holder: string }>(["applications_timeout_lease"]);
  assert(lease.value, "the killed run still holds its lease");
  await t.kv.set(["applications_timeout_lease"], { ...lease.value, until: Date.now() - 1 });
  const run = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected, run.told, run.skipped], [35 - done, 7, 0]);
  assertEquals(rejectedOf(await statuses(t, students)).length, 35);
  await runAt(t, "outbox", later + 60_000);
  await assertToldOnce(t, smtp.messages.slice(mailsBefore), students);
});

/**
 * `kv` whose atomic writes that check an application record (the timeout job's writes) call `before(n, keys)` just
 * before the n-th of them commits, `keys` being the keys it checks; `before` may throw to make that commit fail.
 */
function hooked(kv: Deno.Kv, before: (n: number, keys: Deno.KvKey[]) => Promise<void>): Deno.Kv {
  let n = 0;
  const wrapOp = (op: Deno.AtomicOperation) => {
    const keys: Deno.KvKey[] = [];
    const proxy: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        if (prop === "check") {
          return (...checks: Deno.AtomicCheck[]) => {
            for (const check of checks) keys.push(check.key);
            target.check(...checks);
            return proxy;
          };
        }
        if (prop === "commit") {
          return async () => {
            if (keys.some((key) => key[0] === "applications" && key.length === 2)) await before(++n, keys);
            return await target.commit();
          };
        }
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") return () => wrapOp(target.atomic());
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("a poster's move lands while the job's second write is in flight: that write fails, the others stand", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member, students } = await fiveEach(t);
  const mailsBefore = smtp.messages.length;
  const later = Date.now() + 19 * DAY;
  let movedId = "";
  const kv = hooked(t.kv, async (n, keys) => {
    if (n !== 2) return;
    movedId = keys.find((key) => key[0] === "applications" && key.length === 2)![1] as string;
    const res = await t.json("PATCH", `/api/applications/${movedId}`, {
      body: { status: "shortlisted" },
      headers: member.headers,
    });
    assertEquals(res.status, 200, await res.text());
  });
  const run = await timeOutApplications(kv, {
    now: new Date(later),
    appUrl: "http://localhost",
    giveWay: async () => {},
  });
  assertEquals([run.rejected, run.skipped, run.told], [34, 1, 7]);
  const found = await statuses(t, students);
  assertEquals(found[movedId], "shortlisted", "the poster's move wins");
  assertEquals(rejectedOf(found).length, 34);
  assertEquals((await t.kv.get(["applications_timeout_lease"])).value, null, "the lease is let go");
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["applications_untold"] }))).length, 0);
  await t.settled();
  await runAt(t, "outbox", later + 60_000);
  await assertToldOnce(t, smtp.messages.slice(mailsBefore), students);
});

Deno.test("the lease taken over while the job's second write is in flight: the run stops, the next tells once", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { students } = await fiveEach(t);
  const mailsBefore = smtp.messages.length;
  const later = Date.now() + 19 * DAY;
  const kv = hooked(t.kv, async (n) => {
    if (n === 2) await t.kv.set(["applications_timeout_lease"], { holder: "another run", until: Date.now() - 1 });
  });
  const run = await timeOutApplications(kv, {
    now: new Date(later),
    appUrl: "http://localhost",
    giveWay: async () => {},
  });
  assert(run.rejected > 0 && run.rejected < 35, `${run.rejected} of 35 rejected before the lease was lost`);
  assertEquals(rejectedOf(await statuses(t, students)).length, run.rejected);
  const next = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected + Number(next.rejected), run.told + Number(next.told)], [35, 7]);
  await runAt(t, "outbox", later + 60_000);
  await assertToldOnce(t, smtp.messages.slice(mailsBefore), students);
});

Deno.test("a KV error on a commit while another write is in flight ends the run with that error, handled", async () => {
  await using t = await createTestApp();
  await fiveEach(t);
  const kv = hooked(t.kv, (n) => n === 2 ? Promise.reject(new Error("KV unavailable")) : Promise.resolve());
  // An unhandled rejection of the failed commit would fail this test (Deno's test runner reports it) and, in the
  // server, end the process.
  await assertRejects(
    () =>
      timeOutApplications(kv, {
        now: new Date(Date.now() + 19 * DAY),
        appUrl: "http://localhost",
        giveWay: async () => {},
      }),
    { message: "KV unavailable" },
  );
});
