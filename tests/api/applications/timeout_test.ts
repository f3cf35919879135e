/**
 * Every applicant hears back (docs/decisions.md, Applications, "Telling people"; docs/decisions.md, Applications,
 * "Every applicant hears back"), against
 * the real `smtp-server` fake: a status change with a message reaches the applicant once, with the message; the
 * `applications-timeout` job rejects what waited past its due time (and nothing earlier, nothing answered, nothing
 * twice) and tells the applicant once in the app and by e-mail, one digest per applicant and run naming every
 * application closed; the poster's list kept in memory and the track record follow the batched writes; the run's lease.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { timeOutApplications } from "@/lib/applications/timeout.ts";
import type { InternshipView } from "@/lib/internships/schema.ts";
import { istToday } from "@/lib/dates.ts";

const DAY = 24 * 60 * 60 * 1000;

const runAt = (t: TestApp, name: string, ms: number) => runJob(findJob(name)!, t.services, new Date(ms));

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

Deno.test("a run killed between two of its writes is finished by the next; each applicant is told once", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 2 * DAY));
  const internships: InternshipView[] = [];
  for (const title of ["Art", "Blog", "Code", "Data", "Edit"]) {
    internships.push(
      await platformInternship(t, member, { title: `${title} Intern`, hiringOrganization: "Lost Co", deadline }),
    );
  }
  // 35 applications: more than one write of the job holds.
  const students: TestUser[] = [];
  for (let i = 0; i < 7; i++) {
    const student = await applicant(t, `Student ${i}`);
    for (const internship of internships) await applyTo(t, student, internship);
    students.push(student);
  }
  await t.settled();
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
  const statuses = async () => {
    const found: string[] = [];
    for (const student of students) {
      const { applications } = await (await t.fetch("/api/me/applications", { headers: student.headers })).json();
      found.push(...applications.map((a: { status: string }) => a.status));
    }
    return found;
  };
  const halfway = await statuses();
  const done = halfway.filter((status) => status === "rejected").length;
  assert(done > 0 && done < 35, `${done} of 35 rejected when the run died`);

  // Its lease runs out; the next run does the rest and tells everyone once, naming all five.
  const lease = await t.kv.get<{ holder: string }>(["applications_timeout_lease"]);
  assert(lease.value, "the killed run still holds its lease");
  await t.kv.set(["applications_timeout_lease"], { ...lease.value, until: Date.now() - 1 });
  const run = await runAt(t, "applications-timeout", later);
  assertEquals([run.rejected, run.told, run.skipped], [35 - done, 7, 0]);
  assertEquals((await statuses()).filter((status) => status === "rejected").length, 35);
  await runAt(t, "outbox", later + 60_000);
  const mails = smtp.messages.slice(mailsBefore);
  for (const student of students) {
    assertEquals(
      mails.filter((m) => m.to.includes(student.user.email)).map((m) => m.subject),
      ["5 of your applications got no answer in time"],
    );
    const bell = await (await t.fetch("/api/me/notifications", { headers: student.headers })).json();
    assertEquals(bell.notifications.filter((n: { type: string }) => n.type === "application_status").length, 1);
  }
});
