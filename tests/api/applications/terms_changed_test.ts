/**
 * Terms changed after applying (docs/decisions.md, Applications, "Terms changed after applying"), against the real
 * `smtp-server` fake: an edit that lowers the stipend, brings the deadline forward or changes the questions is recorded
 * in its own write and told by the `listing-changes` job, once per applicant whose application is still open, with what
 * changed since they applied, in the app and by e-mail in their language; withdrawn and later applicants, and edits
 * for the better or undone before the run, tell nobody; a pass walks many applicants over several writes, each once,
 * also with two runs at once. The listing's `revisedAt` follows what students read, not an admin's flags.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import {
  applicant,
  applyTo,
  editInternship,
  platformInternship,
  QUESTIONS,
  recordedChanges,
  toldOf,
} from "@/tests/fixtures/applications.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { LISTINGS_SCANNED, tellTermsChanges } from "@/lib/applications/terms_changed.ts";
import { updateUser } from "@/lib/users/users.ts";

const DAY = 24 * 60 * 60 * 1000;

const runChanges = (t: TestApp) => runJob(findJob("listing-changes")!, t.services);

Deno.test("edits for the worse are told once to each open applicant by the job, in the app and by e-mail", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, {
    title: "Research Intern",
    hiringOrganization: "Lab Co",
    stipend: 12000,
    deadline: "2099-01-20",
  });
  const sara = await applicant(t, "Sara Shah");
  const ravi = await applicant(t, "Ravi Rao");
  await updateUser(t.kv, ravi.user.id, { language: "hi" });
  const gone = await applicant(t, "Wes Withdrew");
  await applyTo(t, sara, internship);
  await applyTo(t, ravi, internship);
  const withdrawn = await applyTo(t, gone, internship);
  const out = await t.json("POST", `/api/me/applications/${withdrawn.id}/withdraw`, { headers: gone.headers });
  assertEquals(out.status, 200, await out.clone().text());
  await t.settled();
  const before = smtp.messages.length;

  // Two edits in a row before the job runs: the stipend, then the deadline and a question's words.
  await editInternship(t, member, internship.id, { stipend: 6000 });
  const [first, second] = internship.questions;
  const edited = await editInternship(t, member, internship.id, {
    deadline: "2098-12-05",
    questions: [{ id: first.id, text: `${QUESTIONS[0].text} In two lines.` }, { id: second.id, text: second.text }],
  });
  const late = await applicant(t, "Lata Late");
  await applyTo(t, late, edited);
  assertEquals(await toldOf(t, sara), [], "an edit tells nobody in its request");
  assertEquals(await recordedChanges(t), 2);

  const run = await runChanges(t);
  assertEquals([run.told, run.listings], [2, 1]);
  assertEquals(await recordedChanges(t), 0);
  assertEquals((await runChanges(t)).told, 0, "told once");

  const lines = [
    "Stipend: ₹12,000 a month is now ₹6,000 a month.",
    "Apply by: 20 Jan 2099 is now 5 Dec 2098.",
    "The screening questions changed. Your answers stay as you sent them.",
    "Your application stays as you sent it. Its listing is linked from your applications: read it again to decide if it still suits you.",
  ];
  assertEquals(await toldOf(t, sara), [["Lab Co changed Research Intern after you applied", lines.join("\n")]]);
  const [[hindiTitle, hindiBody]] = await toldOf(t, ravi, "hi");
  assertEquals(hindiTitle, "आपके आवेदन के बाद Lab Co ने Research Intern बदल दी");
  assert(hindiBody.includes("₹12,000 हर महीने की जगह अब ₹6,000 हर महीने"), hindiBody);
  assert(hindiBody.includes("20 जनवरी 2099 की जगह अब 5 दिसंबर 2098"), hindiBody);
  assertEquals(await toldOf(t, gone), [], "a withdrawn application is not told");
  assertEquals(await toldOf(t, late), [], "one who applied after the edits read them");

  await runJob(findJob("outbox")!, t.services, new Date(Date.now() + 10 * 60 * 1000));
  const mails = smtp.messages.slice(before);
  const to = (who: TestUser) => mails.filter((m) => m.to.includes(who.user.email));
  assertEquals(to(sara).map((m) => m.subject), ["Lab Co changed Research Intern after you applied"]);
  for (const line of lines) assert(to(sara)[0].text.includes(line), to(sara)[0].text);
  assert(to(sara)[0].text.includes("/me/tracker#application-"), "the mail links to the tracker");
  // The platform's own lines are a paragraph: a quote is kept for an organization's message.
  assert(!to(sara)[0].html.includes("<blockquote"), "the changes are not quoted as someone's message");
  assert(to(sara)[0].html.includes("Stipend: ₹12,000 a month is now ₹6,000 a month."), to(sara)[0].html);
  assertEquals(to(ravi).map((m) => m.subject), ["आपके आवेदन के बाद Lab Co ने Research Intern बदल दी"]);
  assertEquals([to(gone).length, to(late).length], [0, 0]);
});

Deno.test("edits for the better, or undone before the run, tell nobody; each applicant of a long pass once", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 10000, deadline: "2099-03-01" });
  const students: TestUser[] = [];
  for (let i = 0; i < 23; i++) {
    const student = await applicant(t, `Student ${i}`);
    await applyTo(t, student, internship);
    students.push(student);
  }
  await editInternship(t, member, internship.id, {
    stipend: 15000,
    deadline: "2099-04-01",
    description: "Better now.",
  });
  assertEquals(await recordedChanges(t), 0, "an edit for the better records nothing");
  await editInternship(t, member, internship.id, { stipend: 5000 });
  await editInternship(t, member, internship.id, { stipend: 15000 });
  assertEquals((await runChanges(t)).told, 0, "a stipend lowered and raised back tells nobody");
  assertEquals(await recordedChanges(t), 0);

  // One application moved on after the edit is told too, once; 23 applicants take three of the job's writes.
  const moved = (await (await t.fetch(`/api/internships/${internship.id}/applications?limit=100`, {
    headers: member.headers,
  })).json()).applications.at(-1);
  await editInternship(t, member, internship.id, { deadline: "2099-02-01" });
  const shortlist = await t.json("PATCH", `/api/applications/${moved.id}`, {
    body: { status: "shortlisted" },
    headers: member.headers,
  });
  assertEquals(shortlist.status, 200);
  // Two runs at once: the pass's checked writes let one of them tell each applicant.
  const runs = await Promise.all([runChanges(t), runChanges(t)]);
  assertEquals(Number(runs[0].told) + Number(runs[1].told), 23);
  assertEquals((await runChanges(t)).told, 0);
  for (const student of students) {
    assertEquals((await toldOf(t, student)).map(([, body]) => body.split("\n")[0]), [
      "Apply by: 1 Apr 2099 is now 1 Feb 2099.",
    ]);
  }
});

Deno.test("a run whose time is up writes no new page: the next goes on from the pass's place", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 10000 });
  for (let i = 0; i < 23; i++) await applyTo(t, await applicant(t, `Student ${i}`), internship);
  await editInternship(t, member, internship.id, { stipend: 5000 });
  // Time is up from the start: each run writes its one page of 10 and stops.
  const late = () => tellTermsChanges({ ...t.services, now: new Date() }, { until: performance.now() });
  assertEquals([(await late()).told, (await late()).told, (await late()).told], [10, 10, 3]);
  assertEquals((await runChanges(t)).told, 0, "each applicant told once");
  assertEquals(await recordedChanges(t), 0, "the pass ended");
});

Deno.test("a listing's applicants are told at most once a day: edits every minute wait and are told together", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 12000 });
  const sara = await applicant(t, "Sara Shah");
  await applyTo(t, sara, internship);
  const [first, second] = internship.questions;
  const reword = (n: number) =>
    editInternship(t, member, internship.id, {
      questions: [{ id: first.id, text: `${first.text} (${n})` }, { id: second.id, text: second.text }],
    });

  // A poster who rewords a question before each minute's run: the first is told, the next wait for a day to pass.
  const start = Date.now();
  await reword(1);
  assertEquals((await runJob(findJob("listing-changes")!, t.services, new Date(start))).told, 1);
  for (let minute = 1; minute <= 3; minute++) {
    await reword(minute + 1);
    const run = await runJob(findJob("listing-changes")!, t.services, new Date(start + minute * 60_000));
    assertEquals(run.told, 0, `minute ${minute}`);
  }
  await editInternship(t, member, internship.id, { stipend: 6000 });
  assertEquals((await toldOf(t, sara)).length, 1, "one notice in the first day");
  assertEquals(await recordedChanges(t), 4, "the later edits wait, recorded");

  // A day after the first notice, everything since is told once, the stipend cut included.
  assertEquals((await runJob(findJob("listing-changes")!, t.services, new Date(start + DAY + 60_000))).told, 1);
  assertEquals(await recordedChanges(t), 0);
  const told = await toldOf(t, sara);
  assertEquals(told.length, 2);
  assert(told[0][1].includes("₹12,000 a month is now ₹6,000 a month"), told[0][1]);
  await runJob(findJob("outbox")!, t.services, new Date(start + DAY + 10 * 60 * 1000));
  const mails = smtp.messages.filter((m) => m.to.includes(sara.user.email) && m.subject.includes("changed"));
  assertEquals(mails.length, 2, "two e-mails, not one a minute");
});

Deno.test("listings waiting for their day do not keep a listing after them from its turn: runs go on where they stopped", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 12000 });
  const sara = await applicant(t, "Sara Shah");
  await applyTo(t, sara, internship);
  await editInternship(t, member, internship.id, { stipend: 6000 });
  // As many listings as a run looks at, told within the day and changed since, sorting before this one ("!" < any id).
  const now = Date.now();
  const at = new Date(now).toISOString();
  for (let i = 0; i < LISTINGS_SCANNED; i += 100) {
    const op = t.kv.atomic();
    for (let n = i; n < i + 100; n++) {
      const id = `!waiting-${String(n).padStart(3, "0")}`;
      op.set(["listing_change_told", id], { at }).set(["listing_changes", id, `${now}-00000000`], { at });
    }
    await op.commit();
  }

  let told = 0;
  for (let minute = 0; minute < 3; minute++) {
    told += Number((await runJob(findJob("listing-changes")!, t.services, new Date(now + minute * 60_000))).told);
  }
  assertEquals(told, 1, "told within a few runs, not after the waiting ones' day");
  assertEquals((await toldOf(t, sara)).length, 1);
});

Deno.test("revisedAt follows what students read: an owner's words and terms, not an admin's flags", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 10000 });
  assertEquals(internship.revisedAt, null);
  const flagged = await editInternship(t, admin, internship.id, { isVerified: true });
  assertEquals(flagged.revisedAt, null, "an admin's Checked tick is not an update students read");
  const closed = await editInternship(t, member, internship.id, { closed: true });
  assertEquals(closed.revisedAt, null, "closing applications is not an update of the listing's words");
  const reworded = await editInternship(t, member, internship.id, { description: "New words." });
  assert(reworded.revisedAt !== null && Date.parse(reworded.revisedAt) > Date.now() - DAY);
  const page = await (await t.fetch(`/internships/${internship.id}`)).text();
  assert(page.includes("Updated on"), "the listing page says when it was updated");
});
