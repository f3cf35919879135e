/**
 * The never-pay rule and the moderation queue (docs/api.md, Trust; docs/decisions.md, Trust, "The never-pay rule";
 * docs/decisions.md, Trust, "Moderation"): listings that ask applicants to pay are held on create, update and ingest
 * (phrases with extra spaces, punctuation and case, and in Hindi), only their owner and admins read them, admins
 * approve or reject them with a note, and the owner is told. Every endpoint per role, with bad input.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { call, CLEAR, HELD_TO_PAY } from "./helpers.ts";
import { people } from "@/tests/fixtures/people.ts";
import { page } from "@/tests/fixtures/html.ts";

Deno.test("a listing that asks applicants to pay is held on create, whatever the spacing, case or language", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const texts = [
    { description: "Pay the registration fee of ₹500 to confirm your seat." },
    { description: "REGISTRATION   -   FEES apply" },
    { title: "Intern (security, deposit needed)" },
    { description: "Refundable deposit for the laptop" },
    { description: "pay rs. 1,500 only" },
    { description: "चयन के बाद पंजीकरण शुल्क जमा करें।" },
    { description: "सुरक्षा  जमा  आवश्यक" },
    { description: "प्रशिक्षण शुल्क: ₹2000" },
  ];
  for (const fields of texts) {
    const internship = await postInternship(t, member, fields);
    assertEquals(internship.moderation, HELD_TO_PAY, JSON.stringify(fields));
  }
  const clean = await postInternship(t, member, { description: "Stipend ₹10,000 a month. No fees of any kind." });
  assertEquals(clean.moderation, CLEAR);
});

Deno.test("every text a student reads is checked: an internship's fields and questions, an opportunity's organizer", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  const fee = "Remote. Selected candidates: pay Rs 499 registration fee to UPI acme@upi";
  const fields = [
    { location: fee },
    { experience: "Freshers; a training fee applies" },
    { duration: "3 months after the joining fee" },
    { hiringManager: "Ravi (collects the security deposit)" },
    { hiringOrganization: "Registration Fee Pvt Ltd" },
    { tags: ["remote", "processing fee"] },
    {
      applyMode: "platform",
      questions: [{ text: "Have you paid the Rs 499 registration fee to acme@upi? Paste the UPI reference." }],
    },
  ];
  for (const field of fields) {
    assertEquals((await postInternship(t, member, field)).moderation, HELD_TO_PAY, JSON.stringify(field));
  }
  const listing = await postInternship(t, member, { location: "Remote" });
  assertEquals(listing.moderation, CLEAR);
  const put = (body: unknown) => call(t, member, "PUT", `/api/internships/${listing.id}`, body);
  assertEquals((await put({ location: "Pune" })).body.internship.moderation, CLEAR);
  assertEquals((await put({ location: fee })).body.internship.moderation, HELD_TO_PAY, "an update of the location");
  const own = (await page(t, `/internships/${listing.id}`, member)).html;
  assert(own.includes("“registration fee”"), "the owner's page names the phrase found in the location");
  const other = await postInternship(t, member, { applyMode: "platform", questions: [{ text: "Why this role?" }] });
  const asked = await call(t, member, "PUT", `/api/internships/${other.id}`, {
    questions: [{ text: "Why this role?" }, { text: "Have you paid the security deposit?" }],
  });
  assertEquals([asked.status, asked.body.internship.moderation], [200, HELD_TO_PAY], "an update of the questions");

  const organizer = await submitOpportunity(t, member, { organizer: "Pay Rs 299 registration fee at hack.example" });
  assertEquals(organizer.moderation, HELD_TO_PAY);
  const located = await submitOpportunity(t, member, { location: "Delhi; refundable deposit at the gate" });
  assertEquals(located.moderation, HELD_TO_PAY);
  const pending = await submitOpportunity(t, student, { organizer: "Campus Club", location: "Online" });
  assertEquals(pending.moderation, CLEAR);
  const resubmitted = await call(t, student, "PUT", `/api/opportunities/${pending.id}`, {
    title: pending.title,
    type: pending.type,
    startDate: pending.startDate,
    endDate: pending.endDate,
    organizer: "Campus Club (entry fee of Rs 100 per team)",
  });
  assertEquals([resubmitted.status, resubmitted.body.opportunity.moderation], [200, HELD_TO_PAY], "on resubmission");
});

Deno.test("a held internship: only its owner and admins read it; the public list and the page leave it out", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const other = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const held = await postInternship(t, member, { title: "Data intern", description: "Training fee ₹999" });
  const clean = await postInternship(t, member, { title: "Design intern" });

  for (const who of [undefined, student, other]) {
    const res = await call(t, who, "GET", `/api/internships/${held.id}`);
    assertEquals([res.status, res.body], [404, { error: "Internship not found" }]);
  }
  for (const who of [member, admin]) {
    const res = await call(t, who, "GET", `/api/internships/${held.id}`);
    assertEquals([res.status, res.body.internship.moderation], [200, HELD_TO_PAY]);
  }
  for (const who of [undefined, student, admin]) {
    const list = await call(t, who, "GET", "/api/internships");
    assertEquals(list.body.internships.map((i: { id: string }) => i.id), [clean.id]);
  }
  const mine = await call(t, member, "GET", "/api/internships?mine=true");
  assertEquals(mine.body.internships.map((i: { id: string }) => i.id), [clean.id, held.id]);
  const all = await call(t, admin, "GET", "/api/internships?includeInactive=true");
  assertEquals(all.body.internships.map((i: { id: string }) => i.id), [clean.id, held.id]);

  assertEquals((await t.fetch(`/internships/${held.id}`)).status, 404);
  const ownPage = await t.fetch(`/internships/${held.id}`, { headers: member.headers });
  const html = await ownPage.text();
  assertEquals(ownPage.status, 200);
  assert(html.includes("This internship is held for review"), "the owner reads that it is held");
  assert(html.includes("Asks applicants to pay") && html.includes("“training fee”"), "and why");
  assert(!html.includes('"JobPosting"'), "a held listing carries no JobPosting");
  const minePage = await (await t.fetch("/internships/mine", { headers: member.headers })).text();
  assert(minePage.includes("Held for review") && minePage.includes("“training fee”"), "My internships says why");
});

Deno.test("an update that adds a phrase holds the listing; one an admin approved is held only for a new phrase", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const listing = await postInternship(t, member, { description: "Work on dashboards." });
  const put = (body: unknown) => call(t, member, "PUT", `/api/internships/${listing.id}`, body);

  assertEquals((await put({ stipend: 5000 })).body.internship.moderation, CLEAR);
  const held = await put({ description: "Work on dashboards. A joining fee of Rs 200 applies." });
  assertEquals([held.status, held.body.internship.moderation], [200, HELD_TO_PAY]);

  const approved = await call(t, admin, "POST", `/api/admin/moderation/internships/${listing.id}`, {
    decision: "approve",
    note: "The fee is a disclosed hostel charge.",
  });
  assertEquals([approved.status, approved.body.item.moderation], [200, CLEAR]);
  assertEquals(
    (await put({ description: "Work on dashboards. A joining fee of Rs 200 applies. Remote." })).body.internship
      .moderation,
    CLEAR,
    "the approved phrase stays",
  );
  assertEquals((await put({ title: "Data intern" })).body.internship.moderation, CLEAR);
  const again = await put({ title: "Data intern (security deposit)" });
  assertEquals(again.body.internship.moderation, HELD_TO_PAY, "a phrase it did not have holds it again");
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 404);
});

Deno.test("internships from an ingest API key are held the same way", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { body: { key } } = await call(t, admin, "POST", "/api/admin/api-keys", { name: "Feed" });
  const res = await t.fetch("/api/internships", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify([
      { title: "Ops intern", link: "https://example.com/a", hiringOrganization: "Feed Co", description: "Kit charges" },
      { title: "QA intern", link: "https://example.com/b", hiringOrganization: "Feed Co" },
    ]),
  });
  assertEquals(res.status, 201);
  const { data } = await res.json();
  assertEquals(data.map((i: { moderation: unknown }) => i.moderation), [HELD_TO_PAY, CLEAR]);
  const queue = await call(t, admin, "GET", "/api/admin/moderation?kind=internships");
  assertEquals(queue.body.items.map((item: { listing: { id: string } }) => item.listing.id), [data[0].id]);
});

Deno.test("the moderation queue: admins only, held first (longest waiting on top), then rejected; bad queries 400", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const tick = () => new Promise((resolve) => setTimeout(resolve, 3));
  const first = await postInternship(t, member, { title: "First", description: "processing fee" });
  await tick();
  const opportunity = await submitOpportunity(t, member, { title: "Paid hack", description: "Entry fee ₹100" });
  await tick();
  const third = await postInternship(t, member, { title: "Third", description: "laptop deposit" });
  await postInternship(t, member, { title: "Clean" });

  assertEquals((await call(t, undefined, "GET", "/api/admin/moderation")).status, 401);
  assertEquals((await call(t, student, "GET", "/api/admin/moderation")).status, 403);
  assertEquals((await call(t, member, "GET", "/api/admin/moderation")).status, 403);

  const queue = await call(t, admin, "GET", "/api/admin/moderation");
  assertEquals(queue.status, 200);
  assertEquals(
    queue.body.items.map((item: { kind: string; listing: { id: string } }) => [item.kind, item.listing.id]),
    [["internships", first.id], ["opportunities", opportunity.id], ["internships", third.id]],
  );
  assertEquals(queue.body.counts, { held: 3, rejected: 0 });
  assertEquals(queue.body.pagination, { limit: 50, offset: 0, total: 3, hasMore: false });
  const item = queue.body.items[0];
  assertEquals([item.moderation, typeof item.heldAt], [HELD_TO_PAY, "string"]);

  await call(t, admin, "POST", `/api/admin/moderation/internships/${first.id}`, { decision: "reject" });
  const after = await call(t, admin, "GET", "/api/admin/moderation?limit=2");
  assertEquals(after.body.items.map((i: { listing: { id: string } }) => i.listing.id), [opportunity.id, third.id]);
  assertEquals(after.body.pagination.hasMore, true);
  const rejected = await call(t, admin, "GET", "/api/admin/moderation?status=rejected");
  assertEquals(rejected.body.items.map((i: { listing: { id: string } }) => i.listing.id), [first.id]);
  assertEquals(rejected.body.items[0].moderation, { status: "rejected", reasons: ["Asks applicants to pay"] });
  const opportunities = await call(t, admin, "GET", "/api/admin/moderation?kind=opportunities");
  assertEquals(opportunities.body.items.map((i: { kind: string }) => i.kind), ["opportunities"]);

  for (
    const query of ["kind=toolkits", "status=clear", "limit=0", "limit=101", "offset=-1", "limit=ten", "extra=1"]
  ) {
    const res = await call(t, admin, "GET", `/api/admin/moderation?${query}`);
    assertEquals(res.status, 400, query);
    assert(Array.isArray(res.body.error), query);
  }
});

Deno.test("a decision: admins only; bad decision or note 400; unknown kind or listing 404; the owner is told", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const listing = await postInternship(t, member, { title: "Sales intern", description: "Registration fee ₹300" });
  const path = `/api/admin/moderation/internships/${listing.id}`;

  assertEquals((await call(t, undefined, "POST", path, { decision: "approve" })).status, 401);
  assertEquals((await call(t, student, "POST", path, { decision: "approve" })).status, 403);
  assertEquals((await call(t, member, "POST", path, { decision: "approve" })).status, 403);
  for (
    const body of [{}, { decision: "maybe" }, { decision: "approve", note: "x".repeat(1001) }, {
      decision: "approve",
      extra: 1,
    }, { decision: "approve", note: 5 }]
  ) {
    assertEquals((await call(t, admin, "POST", path, body)).status, 400, JSON.stringify(body));
  }
  const malformed = await t.fetch(path, {
    method: "POST",
    headers: { ...admin.headers, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(malformed.status, 400);
  await malformed.body?.cancel();
  assertEquals(
    (await call(t, admin, "POST", `/api/admin/moderation/toolkits/${listing.id}`, { decision: "approve" })).status,
    404,
  );
  const unknown = await call(t, admin, "POST", `/api/admin/moderation/internships/${crypto.randomUUID()}`, {
    decision: "approve",
  });
  assertEquals([unknown.status, unknown.body], [404, { error: "Internship not found" }]);
  assertEquals((await call(t, member, "GET", "/api/me/notifications")).body.unreadCount, 0);

  const rejected = await call(t, admin, "POST", path, { decision: "reject", note: "  Fees are not allowed.  " });
  assertEquals(rejected.status, 200);
  assertEquals(rejected.body.item.kind, "internships");
  assertEquals(rejected.body.item.moderation, { status: "rejected", reasons: ["Asks applicants to pay"] });
  assertEquals(rejected.body.item.listing.id, listing.id);
  assertEquals((await call(t, admin, "POST", path, { decision: "reject" })).status, 200, "repeating changes nothing");
  const told = await call(t, member, "GET", "/api/me/notifications");
  assertEquals(told.body.unreadCount, 1);
  const [notification] = told.body.notifications;
  assertEquals([notification.type, notification.title], ["listing_moderated", "Your internship was not approved"]);
  assert(notification.body.includes("Sales intern") && notification.body.includes("Fees are not allowed."));
  assertEquals(notification.url, `/internships/${listing.id}`);
  assertEquals((await call(t, undefined, "GET", "/api/internships")).body.pagination.total, 0);
  assertEquals((await call(t, member, "GET", `/api/internships/${listing.id}`)).status, 200);

  const approved = await call(t, admin, "POST", path, { decision: "approve" });
  assertEquals(approved.body.item.moderation, CLEAR);
  const public_ = await call(t, undefined, "GET", `/api/internships/${listing.id}`);
  assertEquals([public_.status, public_.body.internship.moderation], [200, CLEAR]);
  const last = (await call(t, member, "GET", "/api/me/notifications")).body.notifications[0];
  assertEquals([last.title, last.body], [
    "Your internship was approved",
    "“Sales intern” passed review and is now listed for everyone.",
  ]);
  // Rejecting a listing nothing held keeps it out too, with its own reason.
  const clean = await postInternship(t, member, { title: "Clean" });
  const out = await call(t, admin, "POST", `/api/admin/moderation/internships/${clean.id}`, { decision: "reject" });
  assertEquals(out.body.item.moderation, { status: "rejected", reasons: ["Rejected by an admin"] });
});

Deno.test("an opportunity that asks for money is held even from a member; approving publishes it", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const held = await submitOpportunity(t, member, { title: "Quiz", description: "Entry fee: ₹50 per team" });
  assertEquals([held.isVerified, held.moderation], [true, { status: "held", reasons: ["Asks applicants to pay"] }]);
  assertEquals((await submitOpportunity(t, member, { title: "Free hack" })).moderation, CLEAR);
  assertEquals((await call(t, undefined, "GET", `/api/opportunities/${held.id}`)).status, 404);
  assertEquals((await call(t, student, "GET", `/api/opportunities/${held.id}`)).status, 404);
  assertEquals((await call(t, member, "GET", `/api/opportunities/${held.id}`)).status, 200);
  const titles = async () =>
    (await call(t, undefined, "GET", "/api/opportunities")).body.opportunities.map((o: { title: string }) => o.title);
  assertEquals(await titles(), ["Free hack"]);
  const pending = await call(t, admin, "GET", "/api/admin/opportunities");
  assertEquals(pending.body.opportunities.map((o: { id: string }) => o.id), [held.id], "it waits in the review queue");
  assertEquals(pending.body.opportunities[0].moderation.reasons, ["Asks applicants to pay"]);

  const approved = await call(t, admin, "PATCH", `/api/admin/opportunities/${held.id}`, { action: "approve" });
  assertEquals([approved.status, approved.body.opportunity.moderation], [200, CLEAR]);
  assert((await titles()).includes("Quiz"), "approving in the review queue clears the hold");
  assertEquals((await call(t, admin, "GET", "/api/admin/moderation")).body.items, []);

  const second = await submitOpportunity(t, student, { title: "Deposit hack", description: "security deposit" });
  const decided = await call(t, admin, "POST", `/api/admin/moderation/opportunities/${second.id}`, {
    decision: "approve",
  });
  assertEquals([decided.status, decided.body.item.listing.isVerified], [200, true]);
  assert((await titles()).includes("Deposit hack"));
  const note = (await call(t, student, "GET", "/api/me/notifications")).body.notifications[0];
  assertEquals([note.type, note.url], ["listing_moderated", `/opportunities/${second.id}`]);
  const third = await submitOpportunity(t, member, { title: "Fee hack", description: "registration fee" });
  await call(t, admin, "POST", `/api/admin/moderation/opportunities/${third.id}`, { decision: "reject" });
  const rejected = await call(t, member, "GET", `/api/opportunities/${third.id}`);
  assertEquals([rejected.body.opportunity.isActive, rejected.body.opportunity.moderation.status], [false, "rejected"]);
});

Deno.test("the reasons in the reader's language: the owner's pages and the admin queues in Hindi", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const held = await postInternship(t, member, {
    title: "Data intern",
    description: "Training fee, pay ₹499 first, then a fee of Rs 200",
  });
  const clean = await postInternship(t, member, { title: "Design intern" });
  await call(t, admin, "POST", `/api/admin/moderation/internships/${clean.id}`, { decision: "reject" });
  const opportunity = await submitOpportunity(t, member, { title: "Paid hack", description: "Entry fee ₹100" });

  const why = "आवेदन करने वालों से पैसे माँगे गए हैं (इसमें “training fee”, “pay ₹… (कोई रकम)”, “a fee of ₹… (कोई रकम)” लिखा है)।";
  const own = (await page(t, `/internships/${held.id}?lang=hi`, member)).html;
  assert(own.includes("यह इंटर्नशिप जाँच के लिए रोकी गई है") && own.includes(why), "the owner's page says why");
  assert(!own.includes("Asks applicants to pay") && !own.includes("an amount"), "no English reason");
  const mine = (await page(t, "/internships/mine?lang=hi", member)).html;
  assert(mine.includes(why) && mine.includes("एडमिन ने इसे नामंज़ूर किया।"), "My internships says why");
  assert(
    (await page(t, "/opportunities/mine?lang=hi", member)).html.includes("(इसमें “entry fee” लिखा है)।"),
    "My submissions says why",
  );
  const queue = (await page(t, "/admin/moderation?lang=hi", admin)).html;
  assert(queue.includes(why) && queue.includes("एडमिन ने इसे नामंज़ूर किया।"), "the admin queue in Hindi");
  const english = (await page(t, "/admin/moderation?lang=en", admin)).html;
  assert(english.includes("Asks applicants to pay (it mentions “training fee”, “pay ₹…”, “a fee of ₹…”)."));
  const review = (await page(t, "/admin/opportunities?lang=hi", admin)).html;
  assert(review.includes("आवेदन करने वालों से पैसे माँगे गए हैं"), "the review queue island gets the reasons' words");
  assertEquals(opportunity.moderation.reasons, ["Asks applicants to pay"], "the API keeps the reason's code");
});
