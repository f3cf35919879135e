/**
 * Posting and editing an internship as plain forms (docs/decisions.md, Islands, "Forms work without JavaScript"):
 * `/internships/new` and `/internships/{id}/edit` post to themselves, check what `POST /api/internships` and
 * `PUT /api/internships/{id}` check, and answer 303 to the listing; a refusal comes back (400) with what was typed and
 * a sentence at each field; a `user` cannot post, and nobody but the owner or an admin can edit; another site cannot
 * post either.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { addInternships } from "@/tests/fixtures/internships.ts";
import { getInternship, InternshipQuerySchema, listInternships } from "@/lib/internships/internships.ts";
import { APPLY_MODE_FIELD } from "@/lib/internships/form.ts";

/** Posts `fields` to `path` as a urlencoded form, as `who`. */
function postForm(t: TestApp, who: TestUser, path: string, fields: Record<string, string>, headers = {}) {
  return t.fetch(path, {
    method: "POST",
    headers: { ...who.headers, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** The form's fields as a browser sends the new-listing form (every field, empty ones included). */
const NEW = {
  title: "  Data Analyst Intern ",
  hiringOrganization: "Acme Analytics",
  link: "acme.example/careers/data",
  description: "",
  type: "remote",
  timing: "",
  location: "Pune",
  stipend: "₹15,000 /month",
  duration: "3 months",
  experience: "",
  deadline: "",
  hiringManager: "",
  tags: "sql, Python, sql",
  [APPLY_MODE_FIELD]: "link",
};

/** The error sentence shown under the control `id`, if any. */
function errorAt(html: string, id: string): string | undefined {
  return htmlDocument(html).getElementById(`${id}-error`)?.textContent?.trim();
}

async function owned(t: TestApp, who: TestUser) {
  return (await listInternships(t.kv, { query: InternshipQuerySchema.parse({ mine: "true" }), viewer: who.user }))
    .internships;
}

Deno.test("a member posts an internship with a plain form: 303 to the listing, stored as the API stores it", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const page = await (await t.fetch("/internships/new", { headers: member.headers })).text();
  assert(/<form method="post"/.test(page), "the page holds a plain form");
  assert(/<button type="submit" class=/.test(page), "its submit button works before the script");

  const res = await postForm(t, member, "/internships/new", NEW);
  assertEquals(res.status, 303);
  const id = res.headers.get("location")!.replace("/internships/", "").replace("?posted=1", "");
  assertEquals(res.headers.get("location"), `/internships/${id}?posted=1`);
  const told = await (await t.fetch(`/internships/${id}?posted=1`, { headers: member.headers })).text();
  assert(told.includes("Your internship is posted"), "the listing says it was posted");
  assert(told.includes(`href="/internships/${id}"`) && told.includes("This is the page students see."), "its address");
  // The chip students see beside a new organization, what it means and where to verify it.
  const slug = told.match(/href="\/organizations\/([\w-]+)#work-heading"/)?.[1];
  assert(slug && told.includes("Students see “Organization not verified” beside it"), "the chip explained");
  assert(told.includes("usually within a day"), "and how long the Checked tick takes");
  const hindi = await (await t.fetch(`/internships/${id}?posted=1&lang=hi`, { headers: member.headers })).text();
  assert(hindi.includes("“संस्था वेरिफ़ाइड नहीं”") && hindi.includes("#work-heading"), "the same in Hindi");
  assert((await t.fetch(`/organizations/${slug}`)).status === 200, "the link leads to the organization's page");
  const stranger = await (await t.fetch(`/internships/${id}?posted=1`)).text();
  assert(!stranger.includes("Your internship is posted"), "only its poster reads that");
  const stored = await getInternship(t.kv, { id, viewer: member.user, audience: "owner" });
  assertEquals(
    [stored.title, stored.link, stored.stipend, stored.tags, stored.type, stored.timing, stored.description],
    ["Data Analyst Intern", "https://acme.example/careers/data", 15000, ["sql", "Python"], "remote", null, null],
  );
  assertEquals([stored.userId, stored.applyMode, stored.isVerified, stored.isActive], [
    member.user.id,
    "link",
    false,
    true,
  ]);
});

Deno.test("a refused plain post comes back with what was typed and a sentence at each field, nothing stored", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const res = await postForm(t, member, "/internships/new", {
    ...NEW,
    title: "",
    link: "not a link",
    stipend: "lots",
    deadline: "2026-02-30",
  });
  assertEquals(res.status, 400);
  const html = await res.text();
  assertEquals(errorAt(html, "internship-stipend"), "Enter a number.");
  for (const field of ["title", "link", "deadline"]) {
    assert(errorAt(html, `internship-${field}`), `the ${field}'s problem in the same round as the stipend's`);
  }
  const refused = await postForm(t, member, "/internships/new", { ...NEW, title: "", link: "not a link" });
  const again = await refused.text();
  assert(errorAt(again, "internship-title"), "the title's problem at the title");
  assert(errorAt(again, "internship-link"), "the link's problem at the link");
  assertEquals(errorAt(again, "internship-location"), undefined);
  const document = htmlDocument(again);
  assertEquals(
    (document.getElementById("internship-location") as unknown as HTMLInputElement).getAttribute("value"),
    "Pune",
  );
  assertEquals(document.getElementById("internship-title")?.getAttribute("aria-invalid"), "true");
  assert(document.querySelector('[role="alert"]'), "a summary names the fields");
  assertEquals(await owned(t, member), []);

  const hindi = await postForm(t, member, "/internships/new?lang=hi", { ...NEW, stipend: "lots" });
  assertEquals(hindi.status, 400);
  assert(
    errorAt(await hindi.text(), "internship-stipend") !== "Enter a number.",
    "the sentence in the page's language",
  );
});

Deno.test("a plain post or edit to a deadline already past is refused at the deadline; one left as it was saves", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const past = await postForm(t, member, "/internships/new", { ...NEW, deadline: "2020-06-30" });
  assertEquals(past.status, 400);
  assertEquals(
    errorAt(await past.text(), "internship-deadline"),
    "This day has passed, so students could no longer apply. Choose today or a later day.",
  );
  assertEquals(await owned(t, member), [], "nothing posted closed");
  const hindi = await postForm(t, member, "/internships/new?lang=hi", { ...NEW, deadline: "2020-06-30", stipend: "x" });
  const html = await hindi.text();
  assert(errorAt(html, "internship-deadline")?.includes("आज या आगे"), "in Hindi, beside the stipend's problem");
  assert(errorAt(html, "internship-stipend"));

  const [listing] = await addInternships(t, member, [{ title: "Archive Intern", deadline: "2099-06-30" }]);
  const fields = { ...NEW, title: "Archive Intern", deadline: "2099-06-30" };
  const moved = await postForm(t, member, `/internships/${listing.id}/edit`, { ...fields, deadline: "2020-06-30" });
  assertEquals(moved.status, 400);
  assert(errorAt(await moved.text(), "internship-deadline"), "moving the deadline into the past is refused");
  const [closed] = await addInternships(t, member, [{ title: "Old Intern", deadline: "2020-06-30" }]);
  const kept = await postForm(t, member, `/internships/${closed.id}/edit`, {
    ...NEW,
    title: "Old Intern (2020)",
    deadline: "2020-06-30",
  });
  assertEquals(kept.status, 303, "a deadline that passed long ago, left as it was, does not stop an edit");
});

Deno.test("a plain post with screening questions needs the platform mode, as the API", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const ok = await postForm(t, member, "/internships/new", {
    ...NEW,
    [APPLY_MODE_FIELD]: "platform",
    question0: "Why this role?",
    question0Required: "on",
    question1: "",
    question2: "Your portfolio link",
  });
  assertEquals(ok.status, 303);
  const id = ok.headers.get("location")!.replace("/internships/", "").replace("?posted=1", "");
  const stored = await getInternship(t.kv, { id, viewer: member.user, audience: "owner" });
  assertEquals(stored.questions.map((q) => [q.text, q.required]), [["Why this role?", true], [
    "Your portfolio link",
    false,
  ]]);
  const noLink = await postForm(t, member, "/internships/new", { ...NEW, link: "", [APPLY_MODE_FIELD]: "platform" });
  assertEquals(noLink.status, 303, "a listing that takes applications here needs no link");
  const here = noLink.headers.get("location")!.replace("/internships/", "").replace("?posted=1", "");
  assertEquals((await getInternship(t.kv, { id: here, viewer: member.user, audience: "owner" })).link, null);
  const needed = await postForm(t, member, "/internships/new", { ...NEW, link: "" });
  assertEquals(needed.status, 400);
  assert(errorAt(await needed.text(), "internship-link"), "a listing applied to on its own site needs its link");
  const wrong = await postForm(t, member, "/internships/new", { ...NEW, [APPLY_MODE_FIELD]: "carrier pigeon" });
  assertEquals(wrong.status, 400);
  assert(errorAt(await wrong.text(), "internship-applyMode"), "the mode's problem at the mode");
});

Deno.test("the owner edits with a plain form: only changed fields saved, question ids kept, 303 to the listing", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{
    title: "Design Intern",
    location: "Mumbai",
    applyMode: "platform",
    questions: [{ text: "Show us one design", required: true }],
  }]);
  const before = await getInternship(t.kv, { id: listing.id, viewer: member.user, audience: "owner" });
  const page = htmlDocument(
    await (await t.fetch(`/internships/${listing.id}/edit`, { headers: member.headers })).text(),
  );
  const fields: Record<string, string> = {};
  for (const control of page.querySelectorAll("form input, form textarea, form select")) {
    const name = control.getAttribute("name");
    const type = control.getAttribute("type");
    if (!name || ((type === "radio" || type === "checkbox") && !control.hasAttribute("checked"))) continue;
    fields[name] = control.tagName === "TEXTAREA"
      ? control.textContent ?? ""
      : control.tagName === "SELECT"
      ? control.querySelector("option[selected]")?.getAttribute("value") ?? ""
      : control.getAttribute("value") ?? "";
  }
  assertEquals([fields.title, fields[APPLY_MODE_FIELD], fields.question0], [
    "Design Intern",
    "platform",
    "Show us one design",
  ]);

  const res = await postForm(t, member, `/internships/${listing.id}/edit`, {
    ...fields,
    location: "",
    question0: "Show us one design you are proud of",
  });
  assertEquals([res.status, res.headers.get("location")], [303, `/internships/${listing.id}?saved=1`]);
  const saved = await (await t.fetch(`/internships/${listing.id}?saved=1&lang=hi`, { headers: member.headers })).text();
  assert(saved.includes("आपके बदलाव सेव हो गए"), "the listing says the changes were saved, in Hindi too");
  const after = await getInternship(t.kv, { id: listing.id, viewer: member.user, audience: "owner" });
  assertEquals([after.title, after.location], ["Design Intern", null]);
  assertEquals(after.questions.map((q) => [q.id, q.text]), [[
    before.questions[0].id,
    "Show us one design you are proud of",
  ]]);

  const refused = await postForm(t, member, `/internships/${listing.id}/edit`, { ...fields, title: "x".repeat(201) });
  assertEquals(refused.status, 400);
  assert(errorAt(await refused.text(), "internship-title"), "the title's problem at the title");
  const unchanged = await postForm(t, member, `/internships/${listing.id}/edit`, fields);
  assertEquals(unchanged.status, 303, "nothing changed: back to the listing");
});

Deno.test("a user cannot post, only the owner or an admin edits, and another site cannot post", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const other = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const [listing] = await addInternships(t, member, [{ title: "Ops Intern" }]);
  const refused = await postForm(t, student, "/internships/new", NEW);
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  const foreign = await postForm(t, member, "/internships/new", NEW, { origin: "https://evil.example" });
  assertEquals(foreign.status, 403);
  await foreign.body?.cancel();
  assertEquals((await owned(t, member)).map((view) => view.id), [listing.id], "nothing new stored");
  const notOwner = await postForm(t, other, `/internships/${listing.id}/edit`, { ...NEW, title: "Taken over" });
  assertEquals(notOwner.status, 403);
  await notOwner.body?.cancel();
  const byAdmin = await postForm(t, admin, `/internships/${listing.id}/edit`, { ...NEW, title: "Ops Intern (Pune)" });
  assertEquals(byAdmin.status, 303);
  const stored = await getInternship(t.kv, { id: listing.id, viewer: admin.user, audience: "owner" });
  assertEquals(stored.title, "Ops Intern (Pune)");
});
