/**
 * The opportunity pages without a browser: `/opportunities` keeps its type and search filters when
 * the offset is not a number; guests are sent to sign in from the submit form and "My
 * submissions"; an unpublished opportunity's page is 404 for anyone but its owner and admins.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";

const BASE = { startDate: `${NEXT_YEAR}-03-01`, endDate: `${NEXT_YEAR}-03-02` };

Deno.test("/opportunities keeps the type and search filters when the offset is not a number", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  for (const [title, type] of [["Seed Grant", "grant"], ["Code Sprint", "hackathon"]]) {
    await submitOpportunity(t, member, { ...BASE, title, type });
  }
  for (const query of ["type=grant", "type=grant&offset=abc", "type=grant&offset=-5", "search=seed&offset=1e3"]) {
    const res = await t.fetch(`/opportunities?${query}`);
    assertEquals(res.status, 200, query);
    const html = await res.text();
    assert(html.includes("Seed Grant"), query);
    assert(!html.includes("Code Sprint"), query);
  }
});

Deno.test("guests are sent to sign in from the submit form and My submissions; unpublished pages are 404 to others", async () => {
  await using t = await createTestApp();
  for (const path of ["/opportunities/new", "/opportunities/mine"]) {
    const res = await t.fetch(path);
    assertEquals([res.status, res.headers.get("location")], [302, `/sign-in?callbackURL=${encodeURIComponent(path)}`]);
  }
  const user = await createTestUser(t);
  const other = await createTestUser(t);
  const opportunity = await submitOpportunity(t, user, { ...BASE, title: "Pending", type: "ideathon" });
  const path = `/opportunities/${opportunity.id}`;
  assertEquals((await t.fetch(path)).status, 404);
  assertEquals((await t.fetch(path, { headers: other.headers })).status, 404);
  const own = await t.fetch(path, { headers: user.headers });
  assertEquals(own.status, 200);
  assert((await own.text()).includes("Awaiting review"));
});

Deno.test("the submit form works without JavaScript: refusals at their fields, then 303 to My submissions", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const post = (fields: Record<string, string>) =>
    t.fetch("/opportunities/new", {
      method: "POST",
      headers: { ...student.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  const refused = await post({
    title: "Campus Hack",
    type: "hackathon",
    startDate: `${NEXT_YEAR}-03-02`,
    endDate: `${NEXT_YEAR}-03-01`,
  });
  assertEquals(refused.status, 400);
  const html = await refused.text();
  assert(html.includes('id="endDate-error"') && html.includes("The end date must not be before the start date."));
  assert(html.includes('value="Campus Hack"'), "what was typed is kept");
  const done = await post({
    title: "Campus Hack",
    type: "hackathon",
    startDate: `${NEXT_YEAR}-03-01`,
    endDate: `${NEXT_YEAR}-03-02`,
  });
  assertEquals([done.status, done.headers.get("location")], [303, "/opportunities/mine?submitted=1"]);
  const mine = await (await t.fetch("/api/opportunities?mine=true", { headers: student.headers })).json();
  assertEquals(mine.opportunities.map((o: { title: string }) => o.title), ["Campus Hack"]);
  const told = await (await t.fetch("/opportunities/mine?submitted=1", { headers: student.headers })).text();
  assert(told.includes("An admin checks it before it is public"), "a student's submission waits for review");
  assert(!told.includes("students can see it now"), "and is not said to be live");
});

Deno.test("in Hindi the submit form, its refusals, My submissions and the edit page read in Hindi", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const hindi = { ...student.headers, cookie: `${student.cookie}; lang=hi` };
  const form = await (await t.fetch("/opportunities/new", { headers: hindi })).text();
  assert(form.includes("अवसर सबमिट करें") && form.includes("आवेदन करने या ज़्यादा जानने का लिंक"), "the form");
  assert(form.includes("आयोजक (ज़रूरी नहीं)") && form.includes(">टाइटल<"), "optional fields marked, and only those");
  assert(form.includes("पहले एक एडमिन इसे जाँचेगा"), "a user is told an admin reviews it");
  const refused = await t.fetch("/opportunities/new", {
    method: "POST",
    headers: { ...hindi, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      title: "",
      type: "hackathon",
      startDate: `${NEXT_YEAR}-03-02`,
      endDate: `${NEXT_YEAR}-03-01`,
    }),
  });
  assertEquals(refused.status, 400);
  const html = await refused.text();
  assert(html.includes("ख़त्म होने की तारीख़ शुरू होने की तारीख़ से पहले नहीं हो सकती।"), "the end date's sentence");
  assert(html.includes("यह जानकारी भरें।"), "the title's sentence");
  assert(!html.includes("The end date must not be before the start date."), "not the English sentence");

  const opportunity = await submitOpportunity(t, student, { ...BASE, title: "Campus Hack", type: "hackathon" });
  const mine = await (await t.fetch("/opportunities/mine?submitted=1", { headers: hindi })).text();
  for (
    const words of [
      "मेरे सबमिशन",
      "आपका अवसर सबमिट हो गया। पब्लिक होने से पहले एडमिन इसकी जाँच करेंगे",
      "जाँच बाकी है",
      'बदलें<span class="sr-only">: Campus Hack',
    ]
  ) {
    assert(mine.includes(words), `My submissions: ${words}`);
  }
  const edit = await (await t.fetch(`/opportunities/${opportunity.id}/edit`, { headers: hindi })).text();
  assert(edit.includes("बदलें और फिर से सबमिट करें") && edit.includes("फिर से जाँच के लिए सबमिट करें"), "the edit page");
});

Deno.test("My submissions tells a member whose submission publishes at once that it is live", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const sent = await t.fetch("/opportunities/new", {
    method: "POST",
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      title: "Open Data Grant",
      type: "grant",
      startDate: `${NEXT_YEAR}-03-01`,
      endDate: `${NEXT_YEAR}-03-02`,
    }),
    redirect: "manual",
  });
  assertEquals([sent.status, sent.headers.get("location")], [303, "/opportunities/mine?submitted=1"]);
  const told = await (await t.fetch("/opportunities/mine?submitted=1", { headers: member.headers })).text();
  assert(told.includes("Your opportunity is published: students can see it now."), "a member's is live");
  assert(!told.includes("An admin checks it"), "and does not wait for review");
});
