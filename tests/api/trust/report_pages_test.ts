/**
 * The report pages work without JavaScript (docs/decisions.md, Trust, "Reports"): the "Report" control on listing,
 * organization and post pages and under comments, `/report` (the form, its refusals, the thanks), and the admin's
 * `/admin/reports` and target pages with their resolve forms.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship, postInternships } from "@/tests/fixtures/internships.ts";
import { call } from "./helpers.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { people } from "@/tests/fixtures/people.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";

function postForm(t: TestApp, who: TestUser, path: string, fields: Record<string, string>) {
  return t.fetch(path, {
    method: "POST",
    headers: { ...who.headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

Deno.test("listing, organization and post pages carry the Report control; comments a Report link; not the owner's", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const listing = await postInternship(t, member, { title: "Reportable Intern" });
  const signedIn = await (await t.fetch(`/internships/${listing.id}`, { headers: student.headers })).text();
  assert(signedIn.includes("<summary") && signedIn.includes("Report this internship"));
  assert(/<form method="post" action="\/report"/.test(signedIn), "the control holds a plain form");
  assert(signedIn.includes('type="radio" name="reason" value="asks_for_money"'), "the reasons are radio buttons");
  const guest = await (await t.fetch(`/internships/${listing.id}`)).text();
  assert(guest.includes(`href="/report?kind=internship&amp;id=${listing.id}`), "a guest gets a link that signs in");
  const own = await (await t.fetch(`/internships/${listing.id}`, { headers: member.headers })).text();
  assert(!own.includes("Report this internship"), "the owner does not report their own listing");
  const organization = await (await t.fetch(`/organizations/${listing.organization!.slug}`, {
    headers: student.headers,
  })).text();
  assert(organization.includes("Report this organization"));
  const post = await createPost(t, admin, { title: "A post" });
  await call(t, member, "POST", `/api/ungatekeep/${post.id}/comments`, { content: "Nice one" });
  const postPage = await (await t.fetch(`/ungatekeep/${post.id}`, { headers: student.headers })).text();
  assert(postPage.includes("Report this post"));
  assert(/href="\/report\?kind=comment&amp;id=[\w-]+&amp;back=/.test(postPage), "each comment has a Report link");
  assert(postPage.includes('value="offensive"') && !postPage.includes('value="stipend_not_paid"'), "a post's reasons");
  const commentId = postPage.match(/href="\/report\?kind=comment&amp;id=([\w-]+)/)![1];
  const commentForm = await (await t.fetch(`/report?kind=comment&id=${commentId}`, { headers: student.headers }))
    .text();
  for (const reason of ["asks_for_money", "fake_or_impersonation", "misleading", "offensive", "spam", "other"]) {
    assert(commentForm.includes(`name="reason" value="${reason}"`), `a comment can be reported as ${reason}`);
  }
  for (const reason of ["stipend_not_paid", "closed_or_broken_link"]) {
    assert(!commentForm.includes(`value="${reason}"`), `a comment has no ${reason}`);
  }
  assert(signedIn.includes('value="stipend_not_paid"') && signedIn.includes('value="closed_or_broken_link"'));
});

Deno.test("/report: a guest signs in first; the form, its refusals and the thanks work as plain HTML", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member, { title: "Scammy Intern" });
  const query = `kind=internship&id=${listing.id}&back=${encodeURIComponent(`/internships/${listing.id}`)}`;
  const guest = await t.fetch(`/report?${query}`, { redirect: "manual" });
  assertEquals(guest.status, 302);
  assert(guest.headers.get("location")!.startsWith("/sign-in?callbackURL=%2Freport"));
  const form = await t.fetch(`/report?${query}`, { headers: student.headers });
  const html = await form.text();
  assertEquals(form.status, 200);
  assert(html.includes("You are reporting: Scammy Intern at Example Labs"));
  const hindi = await (await t.fetch(`/report?${query}&lang=hi`, { headers: student.headers })).text();
  assert(hindi.includes("आप इसकी रिपोर्ट कर रहे हैं: Example Labs में Scammy Intern"), "the target named in Hindi");
  const unknown = await t.fetch(`/report?kind=internship&id=${crypto.randomUUID()}`, { headers: student.headers });
  assertEquals(unknown.status, 404);
  assert((await unknown.text()).includes("There is nothing to report here."));

  const fields = { kind: "internship", id: listing.id, back: `/internships/${listing.id}` };
  const noReason = await postForm(t, student, "/report", fields);
  assertEquals(noReason.status, 400);
  assert((await noReason.text()).includes("Choose what is wrong."));
  const noDetails = await postForm(t, student, "/report", { ...fields, reason: "other", details: " " });
  assertEquals(noDetails.status, 400);
  const noDetailsHtml = await noDetails.text();
  assert(
    noDetailsHtml.includes("Tell us what is wrong in a few words.") && /value="other"[^>]*checked/.test(noDetailsHtml),
  );
  const sent = await postForm(t, student, "/report", { ...fields, reason: "asks_for_money", details: "Asked ₹500" });
  assertEquals(sent.status, 303);
  const location = sent.headers.get("location")!;
  assertEquals(location, `/report?sent=1&back=${encodeURIComponent(`/internships/${listing.id}`)}`);
  const thanks = await (await t.fetch(location, { headers: student.headers })).text();
  assert(thanks.includes("Thank you for reporting") && thanks.includes(`href="/internships/${listing.id}"`));
  const mine = await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "spam" });
  assertEquals([mine.status, mine.body.report.details], [200, "Asked ₹500"], "the form filed the report");
  // One report is open at a time: the listing and /report say when it was sent instead of showing the form again.
  const listingPage = await (await t.fetch(`/internships/${listing.id}`, { headers: student.headers })).text();
  assert(listingPage.includes("You reported this on"), "the listing says it was reported");
  assert(!listingPage.includes('action="/report"'), "no second report form on the listing");
  const again = await postForm(t, student, "/report", { ...fields, reason: "spam", details: "More evidence" });
  assertEquals(again.headers.get("location"), `/report?${query}`, "a second report is not thanked for");
  const already = await (await t.fetch(`/report?${query}`, { headers: student.headers })).text();
  assert(already.includes("You reported this already") && already.includes("You reported this on"));
  assert(!already.includes("Thank you for reporting") && !already.includes('action="/report"'));
  const alreadyHindi = await (await t.fetch(`/report?${query}&lang=hi`, { headers: student.headers })).text();
  assert(alreadyHindi.includes("आप इसे पहले ही रिपोर्ट कर चुके हैं"), "said in Hindi too");
  const foreign = await postForm(t, student, "/report", {
    ...fields,
    back: "https://evil.example.com/",
    reason: "spam",
  });
  assertEquals(
    foreign.headers.get("location"),
    `/report?kind=internship&id=${listing.id}&back=%2F`,
    "a foreign back goes home",
  );
});

Deno.test("opportunity, organization and post pages say when the reader reported them, in place of the form", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const hack = await submitOpportunity(t, member, { title: "Campus Hack" });
  const listing = await postInternship(t, member, { title: "Org Intern" });
  const post = await createPost(t, admin, { title: "A post to report" });
  const targets = [
    { kind: "opportunity", id: hack.id, path: `/opportunities/${hack.id}` },
    { kind: "organization", id: listing.organization!.id, path: `/organizations/${listing.organization!.slug}` },
    { kind: "post", id: post.id, path: `/ungatekeep/${post.id}` },
  ];
  for (const { kind, id, path } of targets) {
    const page = async () => await (await t.fetch(path, { headers: student.headers })).text();
    assert((await page()).includes('action="/report"'), `the form before reporting the ${kind}`);
    const sent = await call(t, student, "POST", "/api/reports", { kind, id, reason: "misleading" });
    assertEquals(sent.status, 201);
    const reported = await page();
    assert(reported.includes("You reported this on") && !reported.includes('action="/report"'), kind);
  }
});

Deno.test("the admin reports pages list, show and resolve with plain forms", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const students = await Promise.all([1, 2].map((i) => createTestUser(t, "user", { name: `Student ${i}` })));
  const listing = await postInternship(t, member, { title: "Disputed Intern" });
  for (const student of students) {
    await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  }
  const list = await (await t.fetch("/admin/reports", { headers: admin.headers })).text();
  assert(list.includes("Disputed Intern at Example Labs") && list.includes("2 open reports"));
  assert(list.includes("misleading 2"));
  const studentView = await t.fetch("/admin/reports", { headers: students[0].headers });
  assertEquals(studentView.status, 403);
  await studentView.body?.cancel();
  const detail = await (await t.fetch(`/admin/reports/internship/${listing.id}`, { headers: admin.headers })).text();
  assert(detail.includes("Student 1") && detail.includes("Student 2"));
  const missing = await t.fetch(`/admin/reports/internship/${crypto.randomUUID()}`, { headers: admin.headers });
  assertEquals(missing.status, 404);
  await missing.body?.cancel();

  // Sent without its action, the form comes back on the page it is on, said at the form, the note as typed.
  const prefix = `resolve-internship-${listing.id}`;
  for (const from of ["/admin/reports?kind=internship", `/admin/reports/internship/${listing.id}`]) {
    const bad = await postForm(t, admin, from, {
      kind: "internship",
      targetId: listing.id,
      note: "The stipend is really unpaid & misleading.",
      from,
    });
    assertEquals(bad.status, 400, from);
    const html = await bad.text();
    assert(html.includes(`id="${prefix}-action-error"`) && html.includes("Choose what to do."), from);
    assert(html.includes(`aria-describedby="${prefix}-action-error"`), `${from}: the actions say why`);
    assert(html.includes(">The stipend is really unpaid &amp; misleading.</textarea>"), `${from}: the note is kept`);
    assert(html.includes(`action="${from.replace("&", "&amp;")}#${prefix}"`), `${from}: it posts to the page it is on`);
    assert(html.includes(`<form id="${prefix}"`), `${from}: whose fragment is the form, shown again`);
    // Its note is the form's default now, still not sent: leaving the page asks first.
    assertEquals(html.match(/<form[^>]*data-unsaved/g)?.length, 1, `${from}: the form holds an unsent note`);
  }
  const done = await postForm(t, admin, "/admin/reports", {
    kind: "internship",
    targetId: listing.id,
    action: "hide",
    note: "Misleading stipend.",
    from: `/admin/reports/internship/${listing.id}`,
  });
  assertEquals([done.status, done.headers.get("location")], [303, `/admin/reports/internship/${listing.id}?done=2`]);
  const after = await (await t.fetch(`/admin/reports/internship/${listing.id}?done=2`, { headers: admin.headers }))
    .text();
  assert(after.includes("Resolved 2 reports.") && after.includes("Misleading stipend."));
  assert(
    after.includes("resolved: hidden from students (“Misleading stipend.”)"),
    "what was done, not the button's words",
  );
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 404, "hidden");
});

Deno.test("a resolve goes back only to a reports page: a hostile way back or target answers the list", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t);
  const listing = await postInternship(t, member, { title: "Way Back Intern" });
  await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  // Dot segments resolve `/admin/reports/../..//evil.example` to `//evil.example`, another host to a browser.
  for (const from of ["/admin/reports/../..//evil.example/x", "//evil.example/admin/reports", "/admin/reportsX"]) {
    const sent = await postForm(t, admin, "/admin/reports", { kind: "internship", targetId: "x".repeat(3000), from });
    assertEquals(sent.status, 400, `${from}: an unknown target is refused at the list (${sent.status})`);
    await sent.body?.cancel();
  }
  const done = await postForm(t, admin, "/admin/reports", {
    kind: "internship",
    targetId: listing.id,
    action: "dismiss",
    from: "/admin/reports/../..//evil.example/x",
  });
  assertEquals([done.status, done.headers.get("location")], [303, "/admin/reports?done=1"]);
});

Deno.test("a resolve whose note is too long is refused at the note, in the reader's language, the note kept", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member, { title: "Wordy Intern" });
  await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  const prefix = `resolve-internship-${listing.id}`;
  const note = "Too long.\n".repeat(100) + "x";
  const said = {
    en: ["The note is too long: use at most 1,000 characters.", "Choose what to do."],
    hi: ["नोट बहुत लंबा है: ज़्यादा से ज़्यादा 1,000 अक्षर लिखें।", "चुनें कि क्या करना है।"],
  };
  for (const [lang, [tooLong, chooseAction]] of Object.entries(said)) {
    for (const from of [`/admin/reports?lang=${lang}`, `/admin/reports/internship/${listing.id}?lang=${lang}`]) {
      const res = await postForm(t, admin, from, {
        kind: "internship",
        targetId: listing.id,
        action: "hide",
        note,
        from,
      });
      assertEquals(res.status, 400, from);
      const html = await res.text();
      assert(
        html.includes(`<p id="${prefix}-note-error" class="mt-1 text-sm font-medium text-red-700">${tooLong}</p>`),
        from,
      );
      assert(html.includes(`aria-describedby="${prefix}-note-error"`), `${from}: the note says why`);
      assert(
        !html.includes(chooseAction) && !html.includes(`id="${prefix}-action-error"`),
        `${from}: the action was fine`,
      );
      assert(html.includes(`>${note}</textarea>`), `${from}: the note is kept`);
    }
  }
  assertEquals((await call(t, admin, "GET", `/api/admin/reports/internship/${listing.id}`)).body.target.openReports, 1);
  // The API names the field and what is wrong with it.
  const api = await call(t, admin, "POST", `/api/admin/reports/internship/${listing.id}/resolve`, {
    action: "hide",
    note,
  });
  assertEquals(api.status, 400);
  assertEquals(api.body.fields, [
    { field: "note", message: "Use at most 1,000 characters.", messageKey: "fields.maxChars", values: { max: 1000 } },
  ]);
});

Deno.test("a refused resolve of a target the list page lacks draws its form there; one resolved since says so", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const [early, late] = await Promise.all([1, 2].map(() => createTestUser(t, "user")));
  // 21 targets, one report each: the first reported is the last, the first of the list's second page.
  const listings = await postInternships(t, member, [...Array(21).keys()].map((i) => ({ title: `Intern ${i}` })));
  for (const [i, listing] of listings.entries()) {
    const sent = await call(t, i < 11 ? early : late, "POST", "/api/reports", {
      kind: "internship",
      id: listing.id,
      reason: "misleading",
    });
    assertEquals(sent.status, 201);
  }
  const [moved, other] = listings;
  const first = await (await t.fetch("/admin/reports", { headers: admin.headers })).text();
  assert(!first.includes(`id="resolve-internship-${moved.id}"`), "it is on the second page");
  const note = "Checked with the company.";
  const refused = await postForm(t, admin, "/admin/reports", {
    kind: "internship",
    targetId: moved.id,
    note,
    from: "/admin/reports",
  });
  assertEquals(refused.status, 400);
  const html = await refused.text();
  const prefix = `resolve-internship-${moved.id}`;
  assert(html.includes(`<form id="${prefix}"`), "its card and form are drawn on the page it was sent from");
  assert(html.includes(`id="${prefix}-action-error"`) && html.includes(">Intern 0 at Example Labs</a>"));
  assert(html.includes(`>${note}</textarea>`), "the note is kept");
  assert(html.includes("1–20 of 21"), "the page's own position stays");

  // Resolved by another admin since: the list and the target's page say so, not what the form lacked.
  const done = await call(t, admin, "POST", `/api/admin/reports/internship/${other.id}/resolve`, { action: "dismiss" });
  assertEquals(done.status, 200);
  for (
    const [lang, said, chooseAction] of [
      ["en", "These reports are resolved already: nothing is left to resolve.", "Choose what to do."],
      ["hi", "ये रिपोर्ट पहले ही निपटा दी गई हैं: निपटाने को कुछ नहीं बचा।", "चुनें कि क्या करना है।"],
    ]
  ) {
    for (const from of [`/admin/reports?lang=${lang}`, `/admin/reports/internship/${other.id}?lang=${lang}`]) {
      const res = await postForm(t, admin, from, { kind: "internship", targetId: other.id, note, from });
      assertEquals(res.status, 400, from);
      const page = await res.text();
      assert(page.includes(said) && !page.includes(chooseAction), `${from}: said plainly`);
      assert(!page.includes(`id="resolve-internship-${other.id}"`), `${from}: no form for it`);
    }
  }
});

Deno.test("the admin reports and moderation pages show a query they cannot read as the first page; the APIs 400", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { title: "Queried Intern" });
  await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "spam" });
  for (
    const [path, query] of [
      ["/admin/reports", "status=closed&kind=toolkit&offset=x"],
      ["/admin/moderation", "status=clear&kind=toolkits&offset=-1"],
    ]
  ) {
    const res = await t.fetch(`${path}?${query}`, { headers: admin.headers });
    assertEquals(res.status, 200, path);
    const html = await res.text();
    assert(html.includes(`href="${path}" aria-current="page"`), `${path}: the whole list's first page`);
    if (path === "/admin/reports") assert(html.includes("Queried Intern at Example Labs"), "its open target");
    const api = await call(t, admin, "GET", `/api${path}?${query}`);
    assertEquals(api.status, 400, path);
    assertEquals(api.body.fields.map((f: { field: string }) => f.field).sort(), ["kind", "offset", "status"], path);
  }
});

Deno.test("a resolve answered back to the target's page says what stopped it there too; one resolved since says so", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member, { title: "Twice Resolved Intern" });
  await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "spam" });
  const path = `/admin/reports/internship/${listing.id}`;
  const busy = await (await t.fetch(`${path}?problem=resolving`, { headers: admin.headers })).text();
  assert(busy.includes("Another admin is resolving these reports right now"), "the target's page tells the refusal");
  // Another admin resolved them between the page and the form: the answer says so, not "Resolved 0 reports".
  await call(t, admin, "POST", `/api/admin/reports/internship/${listing.id}/resolve`, { action: "dismiss" });
  for (const from of ["/admin/reports", path]) {
    const late = await postForm(t, admin, from, { kind: "internship", targetId: listing.id, action: "hide", from });
    assertEquals([late.status, late.headers.get("location")], [303, `${from}?problem=resolved`]);
    const html = await (await t.fetch(`${from}?problem=resolved`, { headers: admin.headers })).text();
    assert(html.includes("These reports are resolved already: nothing is left to resolve."), from);
  }
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 200, "not hidden");
});

Deno.test("a hand-made resolve refused while the resolved list is viewed comes back on the open list, its note kept", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const [open, closed] = await postInternships(t, member, [{ title: "Open Intern" }, { title: "Closed Intern" }]);
  for (const listing of [open, closed]) {
    await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  }
  await call(t, admin, "POST", `/api/admin/reports/internship/${closed.id}/resolve`, { action: "dismiss" });
  const prefix = `resolve-internship-${open.id}`;
  const note = "Asked the company first.";
  const from = "/admin/reports?status=resolved&kind=internship";
  const res = await postForm(t, admin, from, { kind: "internship", targetId: open.id, note, from });
  assertEquals(res.status, 400);
  const html = await res.text();
  const action = `/admin/reports?kind=internship#${prefix}`;
  assert(html.includes(`<form id="${prefix}" method="post" action="${action}"`), "its form, posting to the open list");
  assert(html.includes(`id="${prefix}-action-error"`) && html.includes(`>${note}</textarea>`), "the note is kept");
  assert(!html.includes(">Closed Intern at"), "the open list, where the form is");
});

Deno.test("a resolve refused on a target's page is about that target only: one naming another is drawn on its own", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const [here, other, closed] = await postInternships(t, member, [
    { title: "Here Intern" },
    { title: "Other Intern" },
    { title: "Closed Intern" },
  ]);
  for (const listing of [here, other, closed]) {
    await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  }
  await call(t, admin, "POST", `/api/admin/reports/internship/${closed.id}/resolve`, { action: "dismiss" });
  const page = `/admin/reports/internship/${here.id}`;
  const note = "Not this one.";
  const res = await postForm(t, admin, page, { kind: "internship", targetId: other.id, note, from: page });
  assertEquals(res.status, 400);
  const html = await res.text();
  const [herePrefix, otherPrefix] = [here, other].map((listing) => `resolve-internship-${listing.id}`);
  assert(!html.includes(`id="${herePrefix}"`), "this target's form does not take the other's refusal");
  const action = `/admin/reports/internship/${other.id}#${otherPrefix}`;
  assert(html.includes(`<form id="${otherPrefix}" method="post" action="${action}"`), "the other target's own form");
  assert(html.includes(`id="${otherPrefix}-action-error"`) && html.includes(`>${note}</textarea>`), "its note kept");
  assert(html.includes(">Other Intern at Example Labs</h1>"), "on its page");

  // One naming a target resolved since: its page says so, not this one.
  const late = await postForm(t, admin, page, { kind: "internship", targetId: closed.id, note, from: page });
  assertEquals(late.status, 400);
  const said = await late.text();
  assert(said.includes("These reports are resolved already: nothing is left to resolve."));
  assert(said.includes(">Closed Intern at Example Labs</h1>") && !said.includes(`id="${herePrefix}"`), "its page");
});
