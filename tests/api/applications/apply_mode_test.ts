/**
 * Apply mode and screening questions (docs/api.md, Internships; docs/decisions.md, Applications, "Apply mode"): a
 * listing takes applications on its own site (`link`, the default) or here (`platform`) with up to five questions
 * whose ids the server makes and keeps across edits; bad input (a sixth question, questions on a `link` listing, a
 * question too long or empty); the internship page's Apply button and questions; `directApply` in JSON-LD.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { internshipBody } from "@/tests/fixtures/internships.ts";
import { htmlDocument, jsonLdOf, page } from "@/tests/fixtures/html.ts";
import { REFUSALS } from "@/lib/refusals.ts";

const NEED_PLATFORM = 'Screening questions need applyMode "platform"';

/** POST /api/internships as `who` with `fields` over a valid body; answers the status and body. */
async function post(t: TestApp, who: TestUser, fields: Record<string, unknown>) {
  const res = await t.json("POST", "/api/internships", { body: internshipBody(fields), headers: who.headers });
  return { status: res.status, body: await res.json() };
}

/** PUT /api/internships/{id} as `who` with `patch`; answers the status and body. */
async function put(t: TestApp, who: TestUser, id: string, patch: Record<string, unknown>) {
  const res = await t.json("PUT", `/api/internships/${id}`, { body: patch, headers: who.headers });
  return { status: res.status, body: await res.json() };
}

Deno.test("a listing takes applications on its own site by default; platform listings get server-made question ids", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const plain = await post(t, member, {});
  assertEquals(plain.status, 201);
  assertEquals([plain.body.data.applyMode, plain.body.data.questions], ["link", []]);

  const created = await post(t, member, {
    applyMode: "platform",
    questions: [
      { id: "mine", text: "  Why this role?  " },
      { text: "Link to your portfolio", required: false },
    ],
  });
  assertEquals(created.status, 201);
  const { questions } = created.body.data;
  assertEquals(created.body.data.applyMode, "platform");
  assertEquals(questions.map((q: { text: string; required: boolean }) => [q.text, q.required]), [
    ["Why this role?", true],
    ["Link to your portfolio", false],
  ]);
  for (const q of questions) assert(/^q[0-9a-f]{8}$/.test(q.id), q.id);
  assert(questions[0].id !== "mine" && questions[0].id !== questions[1].id, "the client does not choose ids");
  const read = await (await t.fetch(`/api/internships/${created.body.data.id}`)).json();
  assertEquals(read.internship.questions, questions);
});

Deno.test("bad input: a sixth question, questions on a link listing, a question empty or over 300 characters", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const six = Array.from({ length: 6 }, (_, i) => ({ text: `Question ${i + 1}` }));
  const sixth = await post(t, member, { applyMode: "platform", questions: six });
  assertEquals(sixth.status, 400);
  assertEquals(sixth.body.fields.map((f: { field: string }) => f.field), ["questions"]);
  const onLink = await post(t, member, { questions: [{ text: "Why?" }] });
  assertEquals(onLink.status, 400);
  assertEquals(onLink.body.fields, [{ field: "questions", message: NEED_PLATFORM }]);
  for (const text of ["", "   ", "x".repeat(301)]) {
    const bad = await post(t, member, { applyMode: "platform", questions: [{ text }] });
    assertEquals(bad.status, 400, JSON.stringify(text));
    assertEquals(bad.body.error[0].path, ["questions", "0", "text"]);
  }
  for (const applyMode of ["email", "", 1, null]) {
    assertEquals((await post(t, member, { applyMode })).status, 400, String(applyMode));
  }
  const batch = await t.json("POST", "/api/internships", {
    body: [internshipBody(), internshipBody({ questions: [{ text: "Why?" }] })],
    headers: member.headers,
  });
  assertEquals(batch.status, 400);
  assertEquals((await batch.json()).error[0].path, ["1", "questions"]);
  const exact = await post(t, member, {
    applyMode: "platform",
    questions: six.slice(0, 5).map((q) => ({ ...q, text: "x".repeat(300) })),
  });
  assertEquals(exact.status, 201, "five questions of 300 characters are fine");
});

Deno.test("edits keep the ids of the questions they name; switching to link drops the questions", async () => {
  await using t = await createTestApp();
  const { member, student, admin } = await people(t);
  const created = (await post(t, member, {
    applyMode: "platform",
    questions: [{ text: "Why this role?" }, { text: "Notice period?" }],
  })).body.data;
  const [why, notice] = created.questions;

  const edited = await put(t, member, created.id, {
    questions: [{ id: notice.id, text: "Notice period in weeks?", required: false }, {
      id: "q00000000",
      text: "City?",
    }],
  });
  assertEquals(edited.status, 200);
  const [first, second] = edited.body.internship.questions;
  assertEquals([first.id, first.text, first.required], [notice.id, "Notice period in weeks?", false]);
  assert(second.id !== "q00000000" && second.id !== why.id && second.id !== notice.id, "an unknown id gets a new one");

  const untouched = await put(t, member, created.id, { title: "Renamed" });
  assertEquals(untouched.body.internship.questions, edited.body.internship.questions, "other edits keep them");

  const refused = await put(t, member, created.id, { applyMode: "link", questions: [{ text: "Why?" }] });
  assertEquals([refused.status, refused.body.error], [400, NEED_PLATFORM]);
  const toLink = await put(t, member, created.id, { applyMode: "link" });
  assertEquals([toLink.body.internship.applyMode, toLink.body.internship.questions], ["link", []]);
  const onLink = await put(t, member, created.id, { questions: [{ text: "Why?" }] });
  assertEquals([onLink.status, onLink.body.error], [400, NEED_PLATFORM]);

  assertEquals((await put(t, student, created.id, { applyMode: "platform" })).status, 403);
  const byAdmin = await put(t, admin, created.id, { applyMode: "platform", questions: [{ text: "Why?" }] });
  assertEquals([byAdmin.status, byAdmin.body.internship.questions.length], [200, 1]);
});

Deno.test("the page of a platform listing has Apply and its questions; JSON-LD says directApply", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const platform = (await post(t, member, {
    applyMode: "platform",
    questions: [{ text: "Why this role?" }, { text: "Portfolio link", required: false }],
  })).body.data;
  const link = (await post(t, member, {})).body.data;

  const { res, html } = await page(t, `/internships/${platform.id}`);
  assertEquals(res.status, 200);
  const document = htmlDocument(html);
  const apply = document.querySelector(`a[href="/internships/${platform.id}/apply"]`);
  assert(apply && apply.textContent!.startsWith("Apply"), "an Apply button to the form");
  assertEquals(
    [...document.querySelectorAll("#questions-heading + ol li")].map((li) => li.textContent!.trim()),
    ["Why this role?", "Portfolio link (optional)"],
  );
  assertEquals(jsonLdOf(document)[0].directApply, true);

  const other = htmlDocument((await page(t, `/internships/${link.id}`)).html);
  assertEquals(other.querySelector(`a[href="/internships/${link.id}/apply"]`), null);
  assert(other.querySelector('a[href="https://careers.example.com/jobs/1"]')!.textContent!.includes("Apply on"));
  assertEquals(jsonLdOf(other)[0].directApply, false);
  assertEquals(other.querySelector("#questions-heading"), null);
});

Deno.test("a platform listing needs no application link; a link listing needs one, created or edited", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const here = await post(t, member, { applyMode: "platform", link: undefined });
  assertEquals([here.status, here.body.data.link], [201, null]);
  const cleared = await post(t, member, { applyMode: "platform", link: null });
  assertEquals([cleared.status, cleared.body.data.link], [201, null]);
  const document = htmlDocument((await page(t, `/internships/${here.body.data.id}`)).html);
  assert(document.querySelector(`a[href="/internships/${here.body.data.id}/apply"]`), "Apply here");
  assertEquals(document.querySelector('a[target="_blank"][rel~="nofollow"]'), null, "no organization's site");

  const required = [{ field: "link", message: "Fill in this field.", messageKey: "fields.required" }];
  for (const fields of [{ link: undefined }, { link: null }, { link: "" }, { applyMode: "link", link: undefined }]) {
    const refused = await post(t, member, fields);
    assertEquals(refused.status, 400, JSON.stringify(fields));
    assertEquals(refused.body.fields.slice(0, 1).map((f: { field: string }) => f.field), ["link"]);
  }
  assertEquals((await post(t, member, { link: undefined })).body.fields, required);

  const toLink = await put(t, member, here.body.data.id, { applyMode: "link" });
  assertEquals([toLink.status, toLink.body.error, toLink.body.fields], [400, REFUSALS.applyLinkNeeded, required]);
  const withLink = await put(t, member, here.body.data.id, { applyMode: "link", link: "https://zeta.example.in/jobs" });
  assertEquals([withLink.status, withLink.body.internship.link], [200, "https://zeta.example.in/jobs"]);
  const emptied = await put(t, member, here.body.data.id, { link: null });
  assertEquals([emptied.status, emptied.body.fields], [400, required]);
  const back = await put(t, member, here.body.data.id, { applyMode: "platform", link: null });
  assertEquals([back.status, back.body.internship.link], [200, null]);
});
