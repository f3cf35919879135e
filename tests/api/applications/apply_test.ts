/**
 * Applying (docs/api.md, Applications; docs/decisions.md, Applications, "Applying"): every refusal per role (guest,
 * unverified, the poster, another student) and bad input (a missing required answer, answers to unknown questions,
 * long answers and notes, unknown fields); the resume copied; the tracker item made or moved; exactly one application
 * under concurrent requests; the applicant's list and withdrawal; "Applied on …" and the ids cards read.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { answersFor, applicant, applyTo, platformInternship, sendApplication } from "@/tests/fixtures/applications.ts";
import { pdfBytes } from "@/tests/fixtures/resumes.ts";
import { MAX_RESUME_BYTES } from "@/lib/resumes/resumes.ts";
import { updateUser, userKey } from "@/lib/users/users.ts";
import { applyTo as applyDirectly, CLOSED, CLOSED_MEANWHILE } from "@/lib/applications/applications.ts";
import { deleteInternship, updateInternship } from "@/lib/internships/writes.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { withLatency } from "@/tests/helpers/kv_latency.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { UnauthenticatedError } from "@/lib/errors.ts";
import { istToday } from "@/lib/dates.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";

/** Status and body of `res`. */
async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** GET `path` as `who`; status and body. */
async function get(t: TestApp, who: TestUser | undefined, path: string) {
  return await answer(await t.fetch(path, { headers: who?.headers ?? {} }));
}

Deno.test("refusals: guest, unverified, unknown, hidden, link, closed, own listing, no resume", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const internship = await platformInternship(t, member);
  const body = answersFor(internship);
  const student = await applicant(t);

  assertEquals((await sendApplication(t, undefined, internship.id, body)).status, 401);
  const unverified = await createTestUser(t);
  await updateUser(t.kv, unverified.user.id, { emailVerified: false });
  assertEquals(await answer(await sendApplication(t, unverified, internship.id, body)), {
    status: 403,
    body: { error: "Verify your e-mail address to apply" },
  });
  assertEquals((await sendApplication(t, student, "no-such-internship", body)).status, 404);

  const [link] = await addInternships(t, member, [{}]);
  assertEquals(await answer(await sendApplication(t, student, link.id, {})), {
    status: 400,
    body: { error: "This internship takes applications on its own site" },
  });
  const yesterday = istToday(new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
  const closed = await platformInternship(t, member, { deadline: yesterday });
  assertEquals(await answer(await sendApplication(t, student, closed.id, answersFor(closed))), {
    status: 400,
    body: { error: "This internship is closed" },
  });
  const inactive = await platformInternship(t, member);
  await t.json("PUT", `/api/internships/${inactive.id}`, { body: { isActive: false }, headers: admin.headers });
  assertEquals((await sendApplication(t, student, inactive.id, answersFor(inactive))).status, 404);
  const held = await platformInternship(t, member, { description: "A registration fee of ₹500 applies." });
  assertEquals((await sendApplication(t, student, held.id, answersFor(held))).status, 404);

  await createTestUser(t);
  const res = await sendApplication(t, member, internship.id, body);
  assertEquals(res.status, 403, "the poster cannot apply to their own listing");
  await res.body?.cancel();

  const noResume = await createTestUser(t);
  assertEquals(await answer(await sendApplication(t, noResume, internship.id, body)), {
    status: 400,
    body: { error: "Upload your resume first" },
  });
  assertEquals(
    (await get(t, student, "/api/me/applications")).body,
    { applications: [], nextCursor: null },
    "nothing was made",
  );
});

Deno.test("bad input: a missing required answer, unknown questions, long answers, unknown fields", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const [required, optional] = internship.questions;
  const student = await applicant(t);

  const missing = await answer(
    await sendApplication(t, student, internship.id, { answers: [{ questionId: optional.id, answer: "x" }] }),
  );
  assertEquals(missing, {
    status: 400,
    body: {
      error: "Answer every required question",
      fields: [{
        field: `answers.${required.id}`,
        message: "Answer this question.",
        messageKey: "fields.answerQuestion",
      }],
    },
  });
  const blank = await sendApplication(t, student, internship.id, {
    answers: [{ questionId: required.id, answer: "   " }],
  });
  assertEquals((await answer(blank)).body.error, "Answer every required question", "blank is no answer");
  const unknown = await answer(
    await sendApplication(t, student, internship.id, {
      answers: [{ questionId: required.id, answer: "x" }, { questionId: "q12345678", answer: "y" }],
    }),
  );
  assertEquals(unknown, {
    status: 400,
    body: {
      error: "Unknown question",
      fields: [{
        field: "answers.q12345678",
        message: "This question is not asked here.",
        messageKey: "fields.questionNotAsked",
      }],
    },
  });
  // A page in Hindi shows both sentences in Hindi, as every other field's (`fieldText`).
  const hindi = translatorFor("hi");
  assertEquals(
    [...missing.body.fields, ...unknown.body.fields].map((problem) => fieldText(hindi, problem)),
    ["इस सवाल का जवाब दें।", "यह सवाल यहाँ पूछा ही नहीं गया है।"],
  );
  const twice = await sendApplication(t, student, internship.id, {
    answers: [{ questionId: required.id, answer: "x" }, { questionId: required.id, answer: "y" }],
  });
  assertEquals((await answer(twice)).body.error, "Unknown question", "one answer per question");
  for (
    const body of [
      { answers: [{ questionId: required.id, answer: "x".repeat(1001) }] },
      { ...answersFor(internship), coverNote: "x".repeat(2001) },
      { ...answersFor(internship), status: "hired" },
      { answers: "yes" },
      { answers: [{ questionId: required.id }] },
    ]
  ) {
    const res = await sendApplication(t, student, internship.id, body);
    assertEquals(res.status, 400, JSON.stringify(body).slice(0, 80));
    await res.body?.cancel();
  }
  const malformed = await t.fetch(`/api/internships/${internship.id}/applications`, {
    method: "POST",
    headers: { ...student.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(malformed.status, 400);
  await malformed.body?.cancel();
  const exact = await sendApplication(t, student, internship.id, {
    answers: [{ questionId: required.id, answer: "x".repeat(1000) }],
    coverNote: "y".repeat(2000),
  });
  assertEquals(exact.status, 201, "1,000 and 2,000 characters are fine");
  await exact.body?.cancel();
});

Deno.test("an application copies the resume, makes the tracker item applied, and a second one is 409", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const saver = await applicant(t, "Sara Student");
  const saved = await t.json("PUT", `/api/me/saved/internships/${internship.id}`, {
    body: { note: "Dream job" },
    headers: saver.headers,
  });
  assertEquals(saved.status, 200);
  await saved.body?.cancel();

  const res = await sendApplication(t, saver, internship.id, {
    answers: [{ questionId: internship.questions[0].id, answer: "  Because I love it.  " }],
    coverNote: "Line one\nLine two",
  });
  assertEquals(res.status, 201);
  const { application } = await res.json();
  assertEquals(Object.keys(application).sort(), [
    "answers",
    "coverNote",
    "createdAt",
    "history",
    "id",
    "internshipId",
    "resume",
    "status",
    "stipendReport",
    "updatedAt",
  ]);
  assertEquals([application.internshipId, application.status, application.coverNote], [
    internship.id,
    "applied",
    "Line one\nLine two",
  ]);
  assertEquals(application.answers, [{
    questionId: internship.questions[0].id,
    question: "Why do you want this internship?",
    answer: "Because I love it.",
  }]);
  assertEquals(application.resume, { name: "resume.pdf", size: 4096 });
  assertEquals(application.history, [{ status: "applied", at: application.createdAt, by: "applicant", message: null }]);

  const items = (await get(t, saver, "/api/me/saved")).body.items;
  assertEquals(items.map((i: { id: string; status: string; note: string }) => [i.id, i.status, i.note]), [[
    internship.id,
    "applied",
    "Dream job",
  ]]);

  const again = await answer(await sendApplication(t, saver, internship.id, answersFor(internship)));
  assertEquals(again, { status: 409, body: { error: "You have already applied" } });

  // A student who had not saved it gets a tracker item made.
  const other = await applicant(t);
  await applyTo(t, other, internship);
  const made = (await get(t, other, "/api/me/saved")).body.items;
  assertEquals(made.map((i: { id: string; status: string }) => [i.id, i.status]), [[internship.id, "applied"]]);
});

Deno.test("two concurrent applications by one person make exactly one", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const student = await applicant(t);
  const results = await Promise.all(
    Array.from({ length: 10 }, () => sendApplication(t, student, internship.id, answersFor(internship))),
  );
  const statuses = await Promise.all(results.map(async (res) => {
    await res.body?.cancel();
    return res.status;
  }));
  assertEquals(statuses.filter((s) => s === 201).length, 1, statuses.join(","));
  assertEquals(statuses.filter((s) => s === 409).length, 9);
  let records = 0;
  for await (const _ of t.kv.list({ prefix: ["applications"] })) records++;
  assertEquals(records, 1, "one record");
  let indexed = 0;
  for await (const _ of t.kv.list({ prefix: ["applications_by_internship", internship.id] })) indexed++;
  assertEquals(indexed, 1, "one index entry");
  assertEquals((await get(t, student, "/api/me/applications")).body.applications.length, 1);
});

Deno.test("an application racing its applicant's account deletion is not made: no snapshot, no resume copy", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const student = await applicant(t);
  // The deletion's first step (the user record goes) lands between the application's reads and its write.
  let raced = false;
  const kv = new Proxy(t.kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            if (!raced) {
              raced = true;
              await target.delete(userKey(student.user.id));
            }
            return await commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  await assertRejects(
    () => applyDirectly(kv, { internshipId: internship.id, applicant: student.user, body: answersFor(internship) }),
    UnauthenticatedError,
  );
  assert(raced, "the deletion came between the reads and the write");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["applications"] })), [], "no application");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["applications_by_person", student.user.id] })), []);
  const holders = (await Array.fromAsync(t.kv.list({ prefix: ["resume_file_refs"] }))).map((entry) => entry.key[2]);
  assertEquals(holders, [`user:${student.user.id}`], "the resume is held by the person only, for the deletion to drop");
});

Deno.test("the applicant's list, withdrawal, and the ids that mark cards applied", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const first = await platformInternship(t, member, { title: "First" });
  const second = await platformInternship(t, member, { title: "Second" });
  const student = await applicant(t);
  const a = await applyTo(t, student, first);
  const b = await applyTo(t, student, second);

  assertEquals((await get(t, undefined, "/api/me/applications")).status, 401);
  const mine = (await get(t, student, "/api/me/applications")).body.applications;
  assertEquals(mine.map((x: { id: string; internship: { title: string } }) => [x.id, x.internship.title]), [
    [b.id, "Second"],
    [a.id, "First"],
  ]);
  assertEquals((await get(t, student, "/api/me/applications?status=withdrawn")).body.applications, []);
  assertEquals((await get(t, student, "/api/me/applications?status=nope")).status, 400);
  const other = await createTestUser(t);
  assertEquals((await get(t, other, "/api/me/applications")).body.applications, [], "only one's own");

  const asked = `${first.id},${second.id},${crypto.randomUUID()}`;
  const ids = (await get(t, student, `/api/me/saved/ids?internships=${asked}`)).body;
  assertEquals(ids.applied, { [first.id]: a.createdAt, [second.id]: b.createdAt });
  assertEquals((await get(t, student, `/api/me/saved/ids?internships=${second.id}`)).body.applied, {
    [second.id]: b.createdAt,
  });
  assertEquals((await get(t, student, "/api/me/saved/ids")).body.applied, {}, "only the internships asked about");
  assertEquals((await get(t, other, `/api/me/saved/ids?internships=${asked}`)).body.applied, {}, "only one's own");

  const foreign = await answer(
    await t.json("POST", `/api/me/applications/${a.id}/withdraw`, { headers: other.headers }),
  );
  assertEquals(foreign, { status: 404, body: { error: "Application not found" } });
  const unknown = await t.json("POST", "/api/me/applications/nope/withdraw", { headers: student.headers });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();

  const withdrawn = await answer(
    await t.json("POST", `/api/me/applications/${a.id}/withdraw`, { headers: student.headers }),
  );
  assertEquals(withdrawn.status, 200);
  assertEquals(withdrawn.body.application.status, "withdrawn");
  assertEquals(withdrawn.body.application.history.at(-1).by, "applicant");
  const twice = await answer(
    await t.json("POST", `/api/me/applications/${a.id}/withdraw`, { headers: student.headers }),
  );
  assertEquals(twice, { status: 400, body: { error: "This application can no longer change" } });
  const filtered = (await get(t, student, "/api/me/applications?status=withdrawn")).body.applications;
  assertEquals(filtered.map((x: { id: string }) => x.id), [a.id]);
  const again = await answer(await sendApplication(t, student, first.id, answersFor(first)));
  assertEquals(again.status, 409, "a withdrawn application still counts as the one application");
});

Deno.test("the poster gets one new_applicant notification per internship per day, its count updated", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Design Intern" });
  const notices = async () =>
    (await get(t, member, "/api/me/notifications")).body.notifications.filter((n: { type: string }) =>
      n.type === "new_applicant"
    );
  await applyTo(t, await applicant(t), internship);
  const [first, ...none] = await notices();
  assertEquals(none, []);
  assertEquals(first.title, "1 new applicant for Design Intern today");
  assertEquals(first.url, `/internships/${internship.id}/applicants`);
  await t.json("POST", "/api/me/notifications/read", { body: {}, headers: member.headers });
  const together = await Promise.all(Array.from({ length: 6 }, () => applicant(t)));
  await Promise.all(together.map((person) => applyTo(t, person, internship)));
  const after = await notices();
  assertEquals(after.length, 1, "never one per application");
  assertEquals([after[0].id, after[0].title, after[0].readAt], [
    first.id,
    "7 new applicants for Design Intern today",
    null,
  ]);
  const hindi = (await get(t, member, "/api/me/notifications?lang=hi")).body.notifications[0];
  assertEquals(hindi.title, "आज Design Intern के लिए 7 नए आवेदक", "the revised count in the reader's language");
  const other = await platformInternship(t, member, { title: "Other" });
  await applyTo(t, await applicant(t), other);
  assertEquals((await notices()).length, 2, "one per internship");
});

Deno.test("the internship page says Applied on …; the apply form works without JavaScript, errors all at once", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const [required, optional] = internship.questions;
  const student = await createTestUser(t);

  const guest = await t.fetch(`/internships/${internship.id}/apply`, { redirect: "manual" });
  assertEquals(guest.status, 302);
  assert(guest.headers.get("location")!.startsWith("/sign-in"));
  await guest.body?.cancel();

  const form = await (await t.fetch(`/internships/${internship.id}/apply`, { headers: student.headers })).text();
  assert(form.includes('enctype="multipart/form-data"'));
  assert(form.includes(`name="answers.${required.id}"`) && form.includes(`name="answers.${optional.id}"`));

  const post = (body: FormData) =>
    t.fetch(`/internships/${internship.id}/apply`, {
      method: "POST",
      headers: student.headers,
      body,
      redirect: "manual",
    });
  const bad = new FormData();
  bad.set(`answers.${optional.id}`, "https://example.com/me");
  bad.set("coverNote", "x".repeat(2001));
  const refused = await post(bad);
  assertEquals(refused.status, 400);
  const html = await refused.text();
  for (const id of ["apply-file-error", `apply-answers-${required.id}-error`, "apply-coverNote-error"]) {
    assert(html.includes(`id="${id}"`), id);
  }
  assert(html.includes("Upload your resume first.") && html.includes("Answer this question."));
  assert(html.includes("Use at most 2,000 characters."));
  assert(html.includes("https://example.com/me"), "what was typed stays");
  assertEquals((await get(t, student, "/api/me/applications")).body.applications, [], "nothing was sent");
  // A file that is not a PDF and a PDF over 2 MB are each told what is wrong with them.
  for (
    const [bytes, said] of [
      [new TextEncoder().encode("just some text"), "This file is not a PDF: upload your resume as a PDF."],
      [pdfBytes(MAX_RESUME_BYTES + 1), "This file is larger than 2 MB: upload a PDF of at most 2 MB."],
    ] as const
  ) {
    const wrongFile = new FormData();
    wrongFile.set("file", new File([new Uint8Array(bytes)], "cv.pdf", { type: "application/pdf" }));
    wrongFile.set(`answers.${required.id}`, "Because.");
    const page = await post(wrongFile);
    assertEquals(page.status, 400);
    const fieldError = (await page.text()).match(/id="apply-file-error"[^>]*>([^<]*)</)?.[1];
    assertEquals(fieldError, said);
  }

  const good = new FormData();
  good.set("file", new File([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")], "cv.pdf", { type: "application/pdf" }));
  good.set(`answers.${required.id}`, "Because.");
  const sent = await post(good);
  assertEquals([sent.status, sent.headers.get("location")], [303, `/internships/${internship.id}?applied=1`]);
  const pageHtml = await (await t.fetch(`/internships/${internship.id}?applied=1`, { headers: student.headers }))
    .text();
  assert(pageHtml.includes("Applied on") && pageHtml.includes("Your application is sent"));
  assert(!pageHtml.includes(`href="/internships/${internship.id}/apply"`), "no Apply button once applied");
  assertEquals((await get(t, student, "/api/me/resume")).body.resume.name, "cv.pdf", "the file became the resume");

  const already = await (await t.fetch(`/internships/${internship.id}/apply`, { headers: student.headers })).text();
  assert(already.includes("You have already applied"));
  const tracker = await (await t.fetch("/me/tracker", { headers: student.headers })).text();
  assert(tracker.includes(internship.title) && tracker.includes("Withdraw application"));
  // One application, one status: the saved board leaves out the item the application moves (kept for the API).
  assertEquals((await get(t, student, "/api/me/saved")).body.items.map((item: { id: string }) => item.id), [
    internship.id,
  ]);
  assert(!tracker.includes(`id="tracker-internships-${internship.id}"`), "the saved board leaves it out");
  // Withdrawing asks first, without JavaScript too: the form's button sits inside a closed <details> with the warning.
  const [application] = (await get(t, student, "/api/me/applications")).body.applications;
  const action = `action="/me/applications/${application.id}/withdraw"`;
  const asks = tracker.match(/<details[^>]*>\s*<summary[^>]*>Withdraw application<\/summary>([\s\S]*?)<\/details>/);
  assert(asks && asks[1].includes(action), "the withdraw form is inside the <details>");
  assert(asks[1].includes("be undone: you cannot apply to this internship again") && asks[1].includes("Yes, withdraw"));
  const withdrawn = await postForm(t, student, `/me/applications/${application.id}/withdraw`, {});
  assertEquals(withdrawn.status, 303);
  await withdrawn.body?.cancel();
  const after = await (await t.fetch(`/internships/${internship.id}/apply`, { headers: student.headers })).text();
  assert(after.includes("You withdrew this application") && after.includes("be sent again"));
  assert(!after.includes("You have already applied"), "a withdrawn application is not called sent");
  const listing = await (await t.fetch(`/internships/${internship.id}`, { headers: student.headers })).text();
  assert(listing.includes("You withdrew your application on"), "nor on its page");
  assert(!/>✓ Applied on /.test(listing), "which does not say Applied on");
});

Deno.test("a send that failed asks for the chosen file again: sent as it comes back, the stored resume would go", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const student = await applicant(t);
  const kv = t.services.kv;
  // Every write of an application loses its race: the send fails with "please try again".
  t.services.kv = kvWithCommits(
    kv,
    (_n, apply, sets) => sets.some(([kind]) => kind === "applications") ? Promise.resolve({ ok: false }) : apply(),
  );
  const body = new FormData();
  body.set(
    "file",
    new File([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")], "new-cv.pdf", { type: "application/pdf" }),
  );
  body.set(`answers.${internship.questions[0].id}`, "Because.");
  const page = await t.fetch(`/internships/${internship.id}/apply`, { method: "POST", headers: student.headers, body });
  t.services.kv = kv;
  assertEquals(page.status, 503);
  const fieldError = (await page.text()).match(/id="apply-file-error"[^>]*>([^<]*)</)?.[1];
  assertEquals(fieldError, translatorFor("en")("applications.apply.chooseAgainStored", { name: "new-cv.pdf" }));
  assertEquals((await get(t, student, "/api/me/applications")).body.applications, [], "nothing was sent");
});

Deno.test("Save without JavaScript on an internship applied to says it is under Sent here, in Hindi too", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member);
  const student = await applicant(t);
  await applyTo(t, student, internship);
  const save = { intent: "save", kind: "internships", id: internship.id, save: "1" };
  const saved = await postForm(t, student, "/me/tracker", save);
  assertEquals([saved.status, saved.headers.get("location")], [303, "/me/tracker?done=applied"]);
  const tracker = await (await t.fetch("/me/tracker?done=applied", { headers: student.headers })).text();
  assert(tracker.includes("You applied to this internship here, so it is under “Sent here” above"), tracker);
  assert(!/>\s*Saved to My applications\.\s*</.test(tracker), "not told it was saved to a board that leaves it out");
  assert(tracker.includes("Change a status or a note, then press “Save”."), "the hint before the island hydrates");
  const hindi = await (await t.fetch("/me/tracker?done=applied&lang=hi", { headers: student.headers })).text();
  assert(hindi.includes("इसलिए यह ऊपर “यहाँ भेजे गए आवेदन” में है"), "in Hindi");
  const other = await platformInternship(t, member, { title: "Not applied" });
  const plain = await postForm(t, student, "/me/tracker", { ...save, id: other.id });
  assertEquals(plain.headers.get("location"), `/me/tracker?done=saved#tracker-internships-${other.id}`);
});

Deno.test("applications racing their listing's close or deletion, here or in another process: none lands after", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  // A second handle on the same KV with its own read model, as another process has (synced up to a second late).
  const other = withLatency(t.kv, 0);
  await internshipStore(other);
  const students = await Promise.all(Array.from({ length: 4 }, () => applicant(t)));
  const refused = { closed: 0, meanwhile: 0 };
  for (let round = 0; round < 12; round++) {
    const internship = await platformInternship(t, member, { title: `Round ${round}` });
    const elsewhere = round % 2 === 1;
    const end = round % 4 < 2
      ? () =>
        updateInternship(elsewhere ? other : t.kv, { id: internship.id, actor: member.user, patch: { closed: true } })
      : () => deleteInternship(elsewhere ? other : t.kv, { id: internship.id, actor: member.user });
    const apply = (who: TestUser) => sendApplication(t, who, internship.id, answersFor(internship));
    // Two applications with the close, and two right after it, while this process may still read the listing open.
    const [answers] = await Promise.all([
      Promise.all(students.slice(0, 2).map(apply)),
      end(),
    ]);
    answers.push(...await Promise.all(students.slice(2).map(apply)));
    const ended = await t.kv.get(["internships_closed", internship.id]);
    assert(ended.versionstamp, "the close moved the listing to the archive");
    for (const res of answers) {
      const { status, body } = await answer(res);
      if (status === 201) {
        const made = await t.kv.get(["applications", body.application.id]);
        assert(made.versionstamp! < ended.versionstamp!, `round ${round}: an application landed after the close`);
      } else if (status === 409) {
        assertEquals(body, { error: CLOSED_MEANWHILE });
        refused.meanwhile++;
      } else {
        const closed = round % 4 < 2 ? [400, { error: CLOSED }] : [404, { error: "Internship not found" }];
        assertEquals([status, body], closed, `round ${round}`);
        refused.closed++;
      }
    }
  }
  assert(refused.closed + refused.meanwhile > 0, "applications after the close are refused");
});
