/**
 * Recommendations (docs/api.md, Recommendations; docs/decisions.md, Recommendations): ranking by onboarding and
 * profile answers with reasons, what is left out (closed, hidden, saved, bought), the newest open listings for someone
 * who declared nothing, and bad queries.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import { people } from "@/tests/fixtures/people.ts";
import type { RecommendationReason } from "@/lib/recommendations/recommendations.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

async function recommendations(t: TestApp, who: TestUser | undefined, query: string) {
  const res = await t.fetch(`/api/me/recommendations?${query}`, { headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

async function onboard(t: TestApp, who: TestUser, fields: Record<string, unknown>) {
  const res = await t.json("POST", "/api/onboarding", {
    body: { persona: "student", ...fields },
    headers: who.headers,
  });
  assertEquals(res.status, 200, JSON.stringify(await res.clone().json()));
  await res.body?.cancel();
}

type Item = { listing: { id: string; title: string }; score: number; reasons: RecommendationReason[] };
const titles = (items: Item[]) => items.map((item) => item.listing.title);

Deno.test("recommendations need a session, a known kind and a limit of 1 to 50", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  assertEquals((await recommendations(t, undefined, "kind=internships")).status, 401);
  for (
    const query of ["", "kind=jobs", "kind=internships&limit=0", "kind=internships&limit=51", "kind=toolkits&limit=x"]
  ) {
    const res = await recommendations(t, student, query);
    assertEquals(res.status, 400, query);
    assert(Array.isArray(res.body.error));
  }
  assertEquals((await recommendations(t, student, "kind=opportunities&limit=50")).status, 200);
});

Deno.test("internships rank by interest and place with reasons; closed, inactive and saved ones are left out", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  await onboard(t, student, {
    locationType: "city",
    locationValue: "Pune",
    domainPreferences: ["Data & AI"],
    fieldOfStudy: "Design",
  });
  const posted = [];
  for (
    const fields of [
      { title: "Pune Data Intern", tags: ["data"], location: "Pune, Maharashtra" },
      { title: "Remote Sales Intern", tags: ["ML"], type: "remote" },
      { title: "Mumbai Sales Intern", tags: ["sales"], location: "Mumbai" },
      { title: "Poona Office Intern", tags: ["sales"], location: "Poona" },
      { title: "Figma Intern", tags: ["ux"], location: "Delhi" },
      { title: "Closed Data Intern", tags: ["data"], location: "Pune", deadline: "2020-01-01" },
      { title: "Hidden Data Intern", tags: ["data"], location: "Pune" },
      { title: "Saved Data Intern", tags: ["data"], location: "Pune" },
      { title: "Newest Plain Intern", location: "Chennai" },
    ]
  ) posted.push(...await postInternships(t, member, [fields]));
  const byTitle = new Map(posted.map((i) => [i.title, i]));
  const hidden = byTitle.get("Hidden Data Intern")!;
  assertEquals(
    (await t.json("PUT", `/api/internships/${hidden.id}`, { body: { isActive: false }, headers: admin.headers }))
      .status,
    200,
  );
  const saved = byTitle.get("Saved Data Intern")!;
  assertEquals(
    (await t.json("PUT", `/api/me/saved/internships/${saved.id}`, { body: {}, headers: student.headers })).status,
    200,
  );

  const { status, body } = await recommendations(t, student, "kind=internships");
  assertEquals(status, 200);
  const items: Item[] = body.items;
  assertEquals(titles(items), [
    "Pune Data Intern",
    "Remote Sales Intern",
    "Figma Intern",
    "Poona Office Intern",
    "Mumbai Sales Intern",
    "Newest Plain Intern",
  ]);
  assertEquals(items[0].reasons, [{ code: "interest", label: "Data & AI" }, { code: "place", place: "Pune" }]);
  assertEquals(items[0].score, 1);
  // The chosen interest, remote, ranks above the field of study alone, which counts half.
  assertEquals([items[1].score, items[1].reasons], [0.55, [
    { code: "interest", label: "Data & AI" },
    { code: "remote" },
  ]]);
  assertEquals([items[2].score, items[2].reasons], [0.35, [{ code: "field", label: "Design" }]]);
  assertEquals([items[3].score, items[3].reasons], [0.3, [{ code: "place", place: "Pune" }]]);
  assertEquals([items[4].score, items[4].reasons], [0.15, [{ code: "state", state: "Maharashtra" }]]);
  assertEquals([items[5].score, items[5].reasons], [0, []]);
  for (const item of items) assert(item.score >= 0 && item.score <= 1);
  for (let i = 1; i < items.length; i++) assert(items[i - 1].score >= items[i].score);
  assertEquals(titles((await recommendations(t, student, "kind=internships&limit=2")).body.items), [
    "Pune Data Intern",
    "Remote Sales Intern",
  ]);
});

Deno.test("the declared place wins over remote: a city written with its state, a state alone, and its cities", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const inPune = await createTestUser(t, "user");
  const inState = await createTestUser(t, "user");
  await onboard(t, inPune, {
    locationType: "city",
    locationValue: "Pune, Maharashtra",
    domainPreferences: ["Finance"],
  });
  await onboard(t, inState, { locationType: "state", locationValue: "Maharashtra" });
  for (
    const fields of [
      { title: "Pune Finance Intern", tags: ["finance"], location: "Pune" },
      { title: "Puneet's Finance Intern", tags: ["finance"], location: "Puneet Nagar, Delhi" },
      { title: "Nagpur Finance Intern", tags: ["finance"], location: "Nagpur" },
      { title: "Remote Finance Intern", tags: ["finance"], type: "remote" },
    ]
  ) await postInternships(t, member, [fields]);

  const pune: Item[] = (await recommendations(t, inPune, "kind=internships")).body.items;
  assertEquals(titles(pune), [
    "Pune Finance Intern",
    "Remote Finance Intern",
    "Nagpur Finance Intern",
    "Puneet's Finance Intern",
  ]);
  assertEquals([pune[0].score, pune[0].reasons], [1, [{ code: "interest", label: "Finance" }, {
    code: "place",
    place: "Pune, Maharashtra",
  }]]);
  assertEquals([pune[1].score, pune[2].score, pune[3].score], [0.85, 0.85, 0.7]);
  assertEquals(pune[2].reasons, [{ code: "interest", label: "Finance" }, { code: "state", state: "Maharashtra" }]);

  const state: Item[] = (await recommendations(t, inState, "kind=internships")).body.items;
  assertEquals(titles(state), [
    "Nagpur Finance Intern",
    "Pune Finance Intern",
    "Remote Finance Intern",
    "Puneet's Finance Intern",
  ]);
  assertEquals(state.map((item) => [item.score, item.reasons]), [
    [0.3, [{ code: "place", place: "Maharashtra" }]],
    [0.3, [{ code: "place", place: "Maharashtra" }]],
    [0.15, [{ code: "remote" }]],
    [0, []],
  ]);
});

Deno.test("someone who declared nothing gets the newest open listings with score 0 and no reasons", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  for (const title of ["First", "Second", "Third"]) await postInternships(t, member, [{ title, tags: ["data"] }]);
  await postInternships(t, member, [{ title: "Closed", deadline: "2020-01-01" }]);
  const { body } = await recommendations(t, student, "kind=internships");
  assertEquals(titles(body.items), ["Third", "Second", "First"]);
  for (const item of body.items) assertEquals([item.score, item.reasons], [0, []]);
});

Deno.test("profile interests count too; opportunities rank by type, interest and place, only published open ones", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const submitter = await createTestUser(t, "user");
  await onboard(t, student, { locationType: "city", locationValue: "Bengaluru", opportunityInterests: ["hackathons"] });
  const profile = await t.json("POST", "/api/profile", {
    body: { name: "Asha", fieldInterests: ["Finance"] },
    headers: student.headers,
  });
  assertEquals(profile.status, 200);
  await profile.body?.cancel();
  const create = async (who: TestUser, fields: Record<string, unknown>) => {
    const res = await t.json("POST", "/api/opportunities", {
      body: {
        type: "grant",
        startDate: `${NEXT_YEAR}-01-01`,
        endDate: `${NEXT_YEAR}-01-02`,
        ...fields,
      },
      headers: who.headers,
    });
    assertEquals(res.status, 201);
    return (await res.json()).opportunity;
  };
  await create(member, { title: "Fintech Hackathon", type: "hackathon", location: "Bangalore" });
  await create(member, { title: "Online Hack", type: "hackathon", location: "Online" });
  await create(member, { title: "Finance Grant", description: "For banking ideas", location: "Delhi" });
  await create(member, { title: "Art Grant", location: "Delhi" });
  await create(member, { title: "Old Hack", type: "hackathon", startDate: "2020-01-01", endDate: "2020-01-02" });
  await create(submitter, { title: "Pending Hack", type: "hackathon", location: "Bengaluru" });
  const { body } = await recommendations(t, student, "kind=opportunities");
  assertEquals(titles(body.items), ["Fintech Hackathon", "Online Hack", "Finance Grant", "Art Grant"]);
  assertEquals(body.items[0].reasons, [
    { code: "interest", label: "hackathons" },
    { code: "interest", label: "Finance" },
    { code: "place", place: "Bengaluru" },
  ]);
  assertEquals(body.items[0].score, 1);
  assertEquals(body.items[1].reasons, [{ code: "interest", label: "hackathons" }, { code: "remote" }]);
  assertEquals(body.items[2].reasons, [{ code: "interest", label: "Finance" }]);
});

Deno.test("toolkits match the struggles by category and title; bought and inactive ones are left out", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await onboard(t, student, {
    struggles: ["Building a resume", "Preparing for interviews"],
    domainPreferences: ["Design"],
  });
  const kit = (fields: Record<string, unknown>, isActive = true) =>
    addToolkit({ t, admin }, { description: "D", price: 0, ...fields, isActive });
  await kit({ title: "Resume Clinic", category: "Careers" });
  await kit({ title: "Crack the Interview", category: "Interview prep", description: "UX design rounds" });
  await kit({ title: "Pitch Deck Basics", category: "Startups" });
  await kit({ title: "Resume Drafts", category: "Careers" }, false);
  const bought = await kit({ title: "Resume Templates", category: "Resume" });
  const buy = await t.json("POST", `/api/toolkits/${bought.id}`, { body: {}, headers: student.headers });
  assert(buy.status < 300, `free checkout: ${buy.status}`);
  await buy.body?.cancel();
  const { body } = await recommendations(t, student, "kind=toolkits");
  assertEquals(titles(body.items), ["Crack the Interview", "Resume Clinic", "Pitch Deck Basics"]);
  assertEquals(body.items[0].reasons, [{ code: "helpsWith", label: "Preparing for interviews" }, {
    code: "interest",
    label: "Design",
  }]);
  assertEquals(body.items[0].score, 1);
  assertEquals(body.items[1].reasons, [{ code: "helpsWith", label: "Building a resume" }]);
  assertEquals(body.items[2].score, 0);
});

Deno.test("the home page words the reasons in the reader's language, English and Hindi", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  await onboard(t, student, {
    locationType: "city",
    locationValue: "Pune",
    domainPreferences: ["Data & AI"],
    struggles: ["Building a resume"],
  });
  await postInternships(t, member, [{ title: "Pune Data Intern", tags: ["data"], location: "Pune, Maharashtra" }]);
  await addToolkit({ t, admin }, { title: "Resume Clinic", category: "Careers", description: "D", price: 0 });
  const home = async (lang: string) => await (await t.fetch(`/?lang=${lang}`, { headers: student.headers })).text();
  const english = await home("en");
  assert(english.includes("Matches your interest in Data &amp; AI · In Pune"), "the internship's reasons");
  assert(english.includes("Helps with building a resume"), "the toolkit's reason");
  const hindi = await home("hi");
  assert(hindi.includes("डेटा और AI में आपकी रुचि से मेल खाता है · Pune में"), "the internship's reasons in Hindi");
  assert(hindi.includes("इसमें मदद करता है: रिज़्यूमे बनाना"), "the toolkit's reason in Hindi");
  assert(!hindi.includes("Matches your interest") && !hindi.includes("Helps with"), "no English reason");
});

Deno.test("/internships shows For you above the plain list's first page only, not above a search or a later page", async () => {
  await using t = await createTestApp();
  const { member, student } = await people(t);
  await onboard(t, student, { locationType: "city", locationValue: "Pune", domainPreferences: ["Data & AI"] });
  await postInternships(t, member, [{ title: "Pune Data Intern", tags: ["data"], location: "Pune, Maharashtra" }]);
  const page = async (query: string) =>
    await (await t.fetch(`/internships${query}`, { headers: student.headers })).text();
  assert((await page("")).includes('id="for-you"'), "the plain list shows For you");
  for (const query of ["?search=zzzqqq&minStipend=90000", "?types=remote", "?sort=deadline", "?offset=20"]) {
    assert(!(await page(query)).includes('id="for-you"'), `no For you at ${query}`);
  }
});
