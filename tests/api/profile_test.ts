import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { getUser } from "@/lib/users/users.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { translatorOf } from "@/lib/i18n/translator.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { PROFILE_FORM_TEXT } from "@/islands/ProfileForm.tsx";

const PROFILE_KEYS = [
  "collegeInstitute",
  "contactNumber",
  "currentRole",
  "dateOfBirth",
  "email",
  "fieldInterests",
  "id",
  "image",
  "name",
  "opportunityInterests",
];

const FULL = {
  name: "Asha Rao",
  image: "https://cdn.example.com/a.png",
  fieldInterests: ["Design", "Data"],
  opportunityInterests: ["internships"],
  dateOfBirth: "2001-04-30",
  collegeInstitute: "IIT (BHU) - St. Xavier's & Co.",
  contactNumber: "9876543210",
  currentRole: "Student",
};

async function post(t: TestApp, who: TestUser, body: unknown): Promise<Response> {
  return await t.json("POST", "/api/profile", { body, headers: { cookie: who.cookie } });
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

/** Posts `body` as `who` and expects 200 with `body[field]` stored and answered as sent. */
async function expectStored(t: TestApp, who: TestUser, body: Record<string, unknown>, field: string): Promise<void> {
  const res = await post(t, who, body);
  assertEquals(res.status, 200, `${field}: ${JSON.stringify(body)}`);
  assertEquals((await res.json()).user[field], body[field], field);
}

/** The profile `who` has with only `name` set: every other profile field unset (null or []). */
function unsetProfile(who: TestUser, name: string) {
  return {
    id: who.user.id,
    name,
    email: who.user.email,
    image: null,
    fieldInterests: [],
    opportunityInterests: [],
    dateOfBirth: null,
    collegeInstitute: null,
    contactNumber: null,
    currentRole: null,
  };
}

Deno.test("guests get 401 on GET and POST /api/profile", async () => {
  await using t = await createTestApp();
  const get = await t.fetch("/api/profile");
  assertEquals(get.status, 401);
  assertEquals(get.headers.get("content-type"), "application/json");
  assertEquals(await get.json(), { error: "Unauthorized" });
  const res = await t.json("POST", "/api/profile", { body: { name: "X" } });
  assertEquals(res.status, 401);
  assertEquals(await res.json(), { error: "Unauthorized" });
});

Deno.test("GET /api/profile shows exactly the profile fields, unset ones as null and []", async () => {
  await using t = await createTestApp();
  for (const role of ["user", "member", "admin"] as const) {
    const who = await createTestUser(t, role, { name: "Ravi" });
    const res = await t.fetch("/api/profile", { headers: who.headers });
    assertEquals(res.status, 200, role);
    assertEquals(res.headers.get("content-type"), "application/json");
    const { user } = await res.json();
    assertEquals(Object.keys(user).sort(), PROFILE_KEYS);
    assertEquals(user, unsetProfile(who, "Ravi"));
  }
});

Deno.test("POST /api/profile stores every field and answers the updated profile", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await post(t, who, FULL);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  const { user } = await res.json();
  assertEquals(Object.keys(user).sort(), PROFILE_KEYS);
  assertEquals(user, { id: who.user.id, email: who.user.email, ...FULL });
  const again = await (await t.fetch("/api/profile", { headers: who.headers })).json();
  assertEquals(again.user, user);
  const stored = await getUser(t.kv, who.user.id);
  assert(stored && stored.updatedAt > stored.createdAt, "updatedAt moves on a profile change");
});

Deno.test("absent fields are kept, null and blank text clear, [] clears an array", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await post(t, who, FULL);
  const kept = await (await post(t, who, { name: "Asha R" })).json();
  assertEquals(kept.user, { id: who.user.id, email: who.user.email, ...FULL, name: "Asha R" });
  const cleared = await post(t, who, {
    name: "Asha R",
    image: null,
    fieldInterests: [],
    opportunityInterests: null,
    dateOfBirth: "",
    collegeInstitute: "   ",
    contactNumber: null,
    currentRole: "",
  });
  assertEquals(cleared.status, 200);
  assertEquals((await cleared.json()).user, unsetProfile(who, "Asha R"));
});

Deno.test("text is trimmed before it is checked and stored", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await post(t, who, { name: "  Asha  ", currentRole: `  ${"r".repeat(60)}  `, fieldInterests: [" AI "] });
  assertEquals(res.status, 200);
  const { user } = await res.json();
  assertEquals([user.name, user.currentRole, user.fieldInterests], ["Asha", "r".repeat(60), ["AI"]]);
});

Deno.test("name is required on every call and must be non-empty text of at most 100 characters", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (
    const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: null },
      { name: 42 },
      { name: ["A"] },
      {
        name: "x".repeat(101),
      },
      { currentRole: "Student" },
      { name: "Eve\nUrgent: reset your password at evil.example" },
      { name: "\u0000\u200B\u202E" },
    ]
  ) {
    await expectInvalid(t, who, body, "name");
  }
  assertEquals((await post(t, who, { name: "x".repeat(100) })).status, 200);
});

Deno.test("a body that is not an object is refused as a missing name", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const body of [null, [], "Asha", 7]) await expectInvalid(t, who, body, "name");
});

Deno.test("image must be an http(s) URL or a site path of at most 2048 characters, never an upload", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const appUrl = t.services.config.appUrl;
  for (
    const image of [
      // The site's uploads belong to banners, posts and toolkits, whose clean-up reads no profile.
      "/api/files/abc",
      "/API/FILES/abc",
      `${appUrl}/api/files/abc`,
      42,
      true,
      ["https://a.example/x.png"],
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "ftp://a.example/x.png",
      "//evil.example/x.png",
      "not a url",
      `https://a.example/${"x".repeat(2048)}`,
    ]
  ) {
    await expectInvalid(t, who, { name: "A", image }, "image");
  }
  for (
    const image of ["https://a.example/x.png", "http://a.example/x.png", "https://a.example/api/files/abc", "/me.png"]
  ) {
    await expectStored(t, who, { name: "A", image }, "image");
  }
});

Deno.test("fieldInterests and opportunityInterests must be arrays of at most 20 short strings", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const field of ["fieldInterests", "opportunityInterests"]) {
    for (
      const value of [
        "AI",
        42,
        { 0: "AI" },
        [1, 2],
        ["AI", null],
        [""],
        ["x".repeat(101)],
        Array.from({ length: 21 }, (_, i) => `i${i}`),
      ]
    ) {
      await expectInvalid(t, who, { name: "A", [field]: value }, field);
    }
    const max = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, "x"));
    await expectStored(t, who, { name: "A", [field]: max }, field);
  }
});

Deno.test("dateOfBirth must be a real past calendar date YYYY-MM-DD", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const tomorrowEverywhere = new Date(Date.now() + 38 * 3_600_000).toISOString().slice(0, 10);
  for (
    const dateOfBirth of [
      "2023-02-30",
      "2023-02-29",
      "2001-13-01",
      "2001-00-10",
      "2001-04-31",
      "2001-4-3",
      "01-04-2001",
      "2001/04/30",
      "2001-04-30T00:00:00Z",
      "yesterday",
      tomorrowEverywhere,
      "2999-01-01",
      "1899-12-31",
      20010430,
      ["2001-04-30"],
    ]
  ) {
    await expectInvalid(t, who, { name: "A", dateOfBirth }, "dateOfBirth");
  }
  const today = new Date().toISOString().slice(0, 10);
  for (const dateOfBirth of ["2024-02-29", "2000-01-01", today]) {
    await expectStored(t, who, { name: "A", dateOfBirth }, "dateOfBirth");
  }
});

Deno.test("collegeInstitute allows letters, digits, spaces and . & ' ( ) - but not digits only", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (
    const collegeInstitute of [
      "12345",
      "123 456",
      "...",
      "IIT <Delhi>",
      "IIT@Delhi",
      "IIT, Delhi",
      "IIT_Delhi",
      "College; DROP TABLE",
      "x".repeat(151),
      42,
    ]
  ) {
    await expectInvalid(t, who, { name: "A", collegeInstitute }, "collegeInstitute");
  }
  for (const collegeInstitute of ["IIT Delhi", "St. Xavier's College (Autonomous) - Mumbai", "R&D 101", "Université"]) {
    await expectStored(t, who, { name: "A", collegeInstitute }, "collegeInstitute");
  }
});

Deno.test("contactNumber must be exactly 10 digits", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (
    const contactNumber of [
      "987654321",
      "98765432101",
      "98765 43210",
      "+919876543210",
      "98765-4321",
      "abcdefghij",
      9876543210,
    ]
  ) {
    await expectInvalid(t, who, { name: "A", contactNumber }, "contactNumber");
  }
  await expectStored(t, who, { name: "A", contactNumber: "0123456789" }, "contactNumber");
});

Deno.test("currentRole is text of at most 60 characters", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  for (const currentRole of ["r".repeat(61), 42, { title: "dev" }, ["dev"]]) {
    await expectInvalid(t, who, { name: "A", currentRole }, "currentRole");
  }
  assertEquals((await post(t, who, { name: "A", currentRole: "r".repeat(60) })).status, 200);
});

Deno.test("the first invalid field in request order is the one reported, and nothing is stored", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  await expectInvalid(t, who, { currentRole: "r".repeat(61), contactNumber: "1", name: "" }, "name");
  await expectInvalid(t, who, { name: "B", currentRole: "r".repeat(61), contactNumber: "1" }, "contactNumber");
  await expectInvalid(t, who, { name: "B", contactNumber: "1", dateOfBirth: "2023-02-30" }, "dateOfBirth");
  const { user } = await (await t.fetch("/api/profile", { headers: who.headers })).json();
  assertEquals([user.name, user.contactNumber, user.dateOfBirth], [who.user.name, null, null]);
});

Deno.test("role, email, id and emailVerified in the body are ignored", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await post(t, who, {
    name: "A",
    role: "admin",
    email: "boss@example.com",
    id: "other",
    emailVerified: false,
    createdAt: "2000-01-01T00:00:00.000Z",
  });
  assertEquals(res.status, 200);
  const stored = await getUser(t.kv, who.user.id);
  assertEquals(
    [stored?.role, stored?.email, stored?.emailVerified, stored?.createdAt],
    ["user", who.user.email, true, who.user.createdAt],
  );
  assertEquals((await t.fetch("/api/admin/users", { headers: who.headers })).status, 403);
});

Deno.test("malformed JSON is 400 Invalid JSON body", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await t.fetch("/api/profile", {
    method: "POST",
    headers: { ...who.headers, "content-type": "application/json" },
    body: '{"name": "A",',
  });
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(await res.json(), { error: "Invalid JSON body" });
});

Deno.test("a profile change from a foreign origin with the session cookie is refused", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await t.fetch("/api/profile", {
    method: "POST",
    headers: { cookie: who.cookie, origin: "https://evil.example", "content-type": "application/json" },
    body: JSON.stringify({ name: "Hacked" }),
  });
  assertEquals(res.status, 403);
  assertEquals(await res.json(), { error: "Invalid origin" });
  assertEquals((await getUser(t.kv, who.user.id))?.name, who.user.name);
});

Deno.test("every problem the profile API answers is worded in Hindi by the profile form's own text", async () => {
  await using t = await createTestApp();
  const who = await createTestUser(t);
  const res = await post(t, who, {
    name: "",
    image: "not a url",
    fieldInterests: Array(21).fill("x"),
    dateOfBirth: "2023-02-30",
    collegeInstitute: "1234",
    contactNumber: "98765",
    currentRole: "r".repeat(61),
  });
  const { fields } = await res.json();
  assertEquals(fields.length, 7, JSON.stringify(fields));
  const page = translatorFor("hi");
  const island = translatorOf(page.island(PROFILE_FORM_TEXT));
  for (const problem of fields) {
    const hindi = fieldText(page, problem);
    assert(hindi !== problem.message, `${problem.field} has a Hindi sentence`);
    assertEquals(fieldText(island, problem), hindi, problem.field);
  }
  const plain = await postForm(t, who, "/profile?lang=hi", { name: "A", contactNumber: "98765", image: "not a url" });
  assertEquals(plain.status, 400);
  const html = await plain.text();
  for (const key of ["profile.problem.contactNumber", "profile.problem.image"] as const) {
    assert(html.includes(page(key)), `${key} in Hindi without JavaScript`);
  }
});
