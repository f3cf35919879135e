import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { needsOnboarding } from "@/lib/onboarding/onboarding.ts";
import { getUser } from "@/lib/users/users.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { ONBOARDING_TEXT } from "@/islands/OnboardingWizard.tsx";

const PROFILE_KEYS = [
  "createdAt",
  "domainPreferences",
  "educationLevel",
  "fieldOfStudy",
  "fieldOther",
  "id",
  "locationType",
  "locationValue",
  "opportunityInterests",
  "persona",
  "struggles",
  "updatedAt",
  "userId",
];

const STUDENT = {
  persona: "student",
  locationType: "city",
  locationValue: "Pune",
  educationLevel: "Undergraduate",
  fieldOfStudy: "Computer Science",
  opportunityInterests: ["internships", "hackathons"],
  domainPreferences: ["Data & AI"],
  struggles: ["Networking", "Building a resume"],
};

async function post(t: TestApp, who: TestUser, body: unknown): Promise<Response> {
  return await t.json("POST", "/api/onboarding", { body, headers: { cookie: who.cookie } });
}

async function expectInvalid(t: TestApp, who: TestUser, body: unknown, field: string): Promise<void> {
  const res = await post(t, who, body);
  assertEquals(res.status, 400, `${field}: ${JSON.stringify(body)}`);
  assertEquals(res.headers.get("content-type"), "application/json");
  // The `error` text names the first invalid field; `fields` lists each with a sentence.
  const { error, fields } = await res.json();
  assertEquals({ error, first: fields?.[0]?.field }, { error: `Invalid ${field}`, first: field }, JSON.stringify(body));
  assert(fields.every((f: { message: string }) => /^[A-Z].*\.$/.test(f.message)), JSON.stringify(fields));
}

Deno.test("guests get 401 on GET and POST /api/onboarding", async () => {
  await using t = await createTestApp();
  const get = await t.fetch("/api/onboarding");
  assertEquals(get.status, 401);
  assertEquals(get.headers.get("content-type"), "application/json");
  assertEquals(await get.json(), { error: "Unauthorized" });
  const res = await t.json("POST", "/api/onboarding", { body: STUDENT });
  assertEquals(res.status, 401);
  assertEquals(await res.json(), { error: "Unauthorized" });
});

Deno.test("GET /api/onboarding is {profile: null} before onboarding, for every role", async () => {
  await using t = await createTestApp();
  for (const role of ["user", "member", "admin"] as const) {
    const who = await createTestUser(t, role);
    const res = await t.fetch("/api/onboarding", { headers: who.headers });
    assertEquals(res.status, 200, role);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { profile: null });
  }
});

Deno.test("a student profile is created with every field and read back", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await post(t, who, STUDENT);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  const { profile } = await res.json();
  assertEquals(Object.keys(profile).sort(), PROFILE_KEYS);
  const { id, createdAt, updatedAt, ...rest } = profile;
  assertMatch(id, /^[0-9a-f-]{36}$/);
  assertEquals(createdAt, updatedAt);
  assertEquals(rest, { userId: who.user.id, ...STUDENT, fieldOther: null });
  const read = await (await t.fetch("/api/onboarding", { headers: who.headers })).json();
  assertEquals(read, { profile });
});

Deno.test("posting again replaces the profile and keeps its id and createdAt", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const first = (await (await post(t, who, STUDENT)).json()).profile;
  await new Promise((resolve) => setTimeout(resolve, 5));
  const res = await post(t, who, { persona: "student", educationLevel: "PhD" });
  assertEquals(res.status, 200);
  const second = (await res.json()).profile;
  assertEquals([second.id, second.createdAt], [first.id, first.createdAt]);
  assert(second.updatedAt > first.updatedAt, "updatedAt moves");
  assertEquals(second.educationLevel, "PhD");
  assertEquals([second.locationType, second.locationValue, second.struggles], [null, null, []]);
});

Deno.test("a society profile stores the student-only fields as null and [] whatever is sent", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await post(t, who, STUDENT);
  const res = await post(t, who, { ...STUDENT, persona: "society", locationType: "moon", struggles: 5 });
  assertEquals(res.status, 200);
  const { profile } = await res.json();
  assertEquals(profile.persona, "society");
  assertEquals(
    [profile.locationType, profile.locationValue, profile.educationLevel, profile.fieldOfStudy, profile.fieldOther],
    [null, null, null, null, null],
  );
  assertEquals([profile.opportunityInterests, profile.domainPreferences, profile.struggles], [[], [], []]);
});

Deno.test("persona is required and must be student or society", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (
    const body of [
      {},
      { persona: "" },
      { persona: "Student" },
      { persona: "teacher" },
      { persona: null },
      {
        persona: ["student"],
      },
      null,
      [],
      "student",
      { locationType: "city" },
    ]
  ) {
    await expectInvalid(t, who, body, "persona");
  }
  assertEquals(await (await t.fetch("/api/onboarding", { headers: who.headers })).json(), { profile: null });
});

Deno.test("locationType is city or state", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const locationType of ["country", "City", 1, ["city"]]) {
    await expectInvalid(t, who, { persona: "student", locationType }, "locationType");
  }
  for (const locationType of ["city", "state"]) {
    assertEquals(
      (await (await post(t, who, { persona: "student", locationType })).json()).profile.locationType,
      locationType,
    );
  }
});

Deno.test("text fields hold at most 100 characters", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await expectInvalid(t, who, { persona: "student", locationValue: "x".repeat(101) }, "locationValue");
  await expectInvalid(t, who, { persona: "student", locationValue: 5 }, "locationValue");
  await expectInvalid(
    t,
    who,
    { persona: "student", fieldOfStudy: "Other", fieldOther: "x".repeat(101) },
    "fieldOther",
  );
  const res = await post(t, who, { persona: "student", locationValue: "x".repeat(100) });
  assertEquals(res.status, 200);
});

Deno.test("educationLevel and fieldOfStudy must be one of the offered values", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const educationLevel of ["Kindergarten", "phd", 3, ["PhD"]]) {
    await expectInvalid(t, who, { persona: "student", educationLevel }, "educationLevel");
  }
  for (const fieldOfStudy of ["Astrology", "engineering", true]) {
    await expectInvalid(t, who, { persona: "student", fieldOfStudy }, "fieldOfStudy");
  }
  const res = await post(t, who, { persona: "student", educationLevel: "Graduate / working", fieldOfStudy: "Law" });
  assertEquals(res.status, 200);
  const { profile } = await res.json();
  assertEquals([profile.educationLevel, profile.fieldOfStudy], ["Graduate / working", "Law"]);
});

Deno.test("fieldOfStudy Other requires fieldOther, which is dropped for other fields", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await expectInvalid(t, who, { persona: "student", fieldOfStudy: "Other" }, "fieldOther");
  await expectInvalid(t, who, { persona: "student", fieldOfStudy: "Other", fieldOther: "  " }, "fieldOther");
  await expectInvalid(t, who, { persona: "student", fieldOfStudy: "Other", struggles: "x" }, "fieldOther");
  const other = await post(t, who, { persona: "student", fieldOfStudy: "Other", fieldOther: "Marine biology" });
  assertEquals(other.status, 200);
  assertEquals((await other.json()).profile.fieldOther, "Marine biology");
  const law = await post(t, who, { persona: "student", fieldOfStudy: "Law", fieldOther: "Marine biology" });
  assertEquals((await law.json()).profile.fieldOther, null);
});

Deno.test("array fields hold at most 20 items of at most 100 characters", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const field of ["opportunityInterests", "domainPreferences", "struggles"]) {
    for (
      const value of [
        "internships",
        7,
        { a: 1 },
        [1],
        [""],
        ["x".repeat(101)],
        Array.from({ length: 21 }, (_, i) => `${i}`),
      ]
    ) {
      await expectInvalid(t, who, { persona: "student", [field]: value }, field);
    }
    const max = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, "y"));
    const res = await post(t, who, { persona: "student", [field]: max });
    assertEquals(res.status, 200, field);
    assertEquals((await res.json()).profile[field], max);
  }
});

Deno.test("the first invalid field in request order is reported and nothing is stored", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await expectInvalid(
    t,
    who,
    { persona: "student", struggles: 1, locationType: "x", educationLevel: "y" },
    "locationType",
  );
  await expectInvalid(t, who, { persona: "student", struggles: 1, educationLevel: "y" }, "educationLevel");
  assertEquals(await (await t.fetch("/api/onboarding", { headers: who.headers })).json(), { profile: null });
});

Deno.test("malformed JSON is 400 Invalid JSON body", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await t.fetch("/api/onboarding", {
    method: "POST",
    headers: { ...who.headers, "content-type": "application/json" },
    body: "{persona: student}",
  });
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(await res.json(), { error: "Invalid JSON body" });
});

Deno.test("onboarding from a foreign origin with the session cookie is refused", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await t.fetch("/api/onboarding", {
    method: "POST",
    headers: { cookie: who.cookie, origin: "https://evil.example", "content-type": "application/json" },
    body: JSON.stringify(STUDENT),
  });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), { error: "Invalid origin" });
  assertEquals(await (await t.fetch("/api/onboarding", { headers: who.headers })).json(), { profile: null });
});

Deno.test("each user has their own onboarding profile", async () => {
  await using t = await createTestApp();
  const a = await createTestUser(t);
  const b = await createTestUser(t);
  await post(t, a, STUDENT);
  await post(t, b, { persona: "society" });
  const pa = (await (await t.fetch("/api/onboarding", { headers: a.headers })).json()).profile;
  const pb = (await (await t.fetch("/api/onboarding", { headers: b.headers })).json()).profile;
  assertEquals([pa.userId, pa.persona, pb.userId, pb.persona], [a.user.id, "student", b.user.id, "society"]);
});

Deno.test("needsOnboarding: a new user or one without a profile needs it; completing it ends that", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  assertEquals(await needsOnboarding(t.kv, who.user), true);
  await post(t, who, { name: "x" });
  assertEquals(await needsOnboarding(t.kv, (await getUser(t.kv, who.user.id))!), true, "invalid body saves nothing");
  await t.json("POST", "/api/profile", { body: { name: "Renamed" }, headers: { cookie: who.cookie } });
  const renamed = (await getUser(t.kv, who.user.id))!;
  assert(renamed.createdAt !== renamed.updatedAt);
  assertEquals(await needsOnboarding(t.kv, renamed), true, "no onboarding profile yet");
  assertEquals((await post(t, who, { persona: "society" })).status, 200);
  assertEquals(await needsOnboarding(t.kv, (await getUser(t.kv, who.user.id))!), false);
});

Deno.test("completing onboarding as a brand-new user marks the user as no longer new", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  assertEquals(who.user.createdAt, who.user.updatedAt);
  assertEquals((await post(t, who, STUDENT)).status, 200);
  const user = (await getUser(t.kv, who.user.id))!;
  assert(user.updatedAt !== user.createdAt);
  assertEquals(await needsOnboarding(t.kv, user), false);
});

Deno.test("onboarding fills the profile's empty interests from its answers and keeps filled ones", async () => {
  await using t = await createTestApp();
  const fresh = await createTestUser(t);
  assertEquals((await post(t, fresh, STUDENT)).status, 200);
  const profile = await (await t.fetch("/api/profile", { headers: fresh.headers })).json();
  assertEquals(
    [profile.user.opportunityInterests, profile.user.fieldInterests],
    [["internships", "hackathons"], ["Data & AI"]],
  );

  const chosen = await createTestUser(t);
  const update = await t.json(
    "POST",
    "/api/profile",
    { body: { name: "Kiran Das", fieldInterests: ["Finance"] }, headers: chosen.headers },
  );
  assertEquals(update.status, 200);
  assertEquals((await post(t, chosen, STUDENT)).status, 200);
  const user = await getUser(t.kv, chosen.user.id);
  assertEquals([user?.opportunityInterests, user?.fieldInterests], [["internships", "hackathons"], ["Finance"]]);
  assert(user!.updatedAt !== user!.createdAt);
});

Deno.test("every problem the onboarding API answers is worded in Hindi by the wizard's own text", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const page = translatorFor("hi");
  const island = translatorOf(page.island(ONBOARDING_TEXT));
  const bodies = [
    { persona: "teacher" },
    {
      ...STUDENT,
      locationType: "village",
      locationValue: "p".repeat(101),
      educationLevel: "Kindergarten",
      fieldOfStudy: "Astrology",
      opportunityInterests: Array(21).fill("x"),
      domainPreferences: Array(21).fill("x"),
      struggles: Array(21).fill("x"),
    },
    { ...STUDENT, fieldOfStudy: "Other", fieldOther: "f".repeat(101) },
  ];
  const seen = new Set<string>();
  for (const body of bodies) {
    const { fields } = await (await post(t, who, body)).json();
    for (const problem of fields) {
      seen.add(problem.field);
      const hindi = fieldText(page, problem);
      assert(hindi !== problem.message, `${problem.field} has a Hindi sentence`);
      assertEquals(fieldText(island, problem), hindi, problem.field);
    }
  }
  assertEquals(seen.size, 9, [...seen].join());
});
