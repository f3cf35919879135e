/**
 * Every text field strips NUL, zero-width characters and bidi overrides (docs/decisions.md,
 * Text fields): names, titles, descriptions and the other free text of every write endpoint
 * are stored and answered without them, and a field made only of them counts as empty.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { PASSWORD } from "@/tests/fixtures/people.ts";
import { signInSocially, socialSetup } from "./auth/social_helpers.ts";
import { NEXT_YEAR } from "@/tests/fixtures/opportunities.ts";

/** `text` with invisible characters around and inside it: NUL, zero-width, bidi override and isolate. */
function dirty(text: string): string {
  return `\u200B${text.slice(0, 1)}\u202E\u0000${text.slice(1, 2)}\u200D${text.slice(2)}\u2066\uFEFF`;
}

// deno-lint-ignore no-control-regex
const INVISIBLE = /[\u0000\u200B-\u200D\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

/** Fails when any string in `value` holds an invisible character; returns every string in it. */
function strings(value: unknown, path = "body"): string[] {
  if (typeof value === "string") {
    assert(!INVISIBLE.test(value), `${path} keeps an invisible character: ${JSON.stringify(value)}`);
    return [value];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  }
  return [];
}

async function send(t: TestApp, method: string, path: string, body: unknown, headers: HeadersInit) {
  const res = await t.json(method, path, { body, headers });
  const json = await res.json();
  assert(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Asserts that `answer` carries `expected` and no invisible character, and that no value in KV
 * holds one either.
 */
async function assertClean(t: TestApp, label: string, answer: unknown, expected: string[]) {
  const answered = strings(answer, label);
  for await (const entry of t.kv.list({ prefix: [] })) strings(entry.value, `${label}: KV ${String(entry.key)}`);
  for (const text of expected) {
    assert(answered.some((s) => s.includes(text)), `${label}: the answer lacks ${JSON.stringify(text)}`);
  }
}

Deno.test("names, profile and onboarding text are stored without invisible characters", async () => {
  await using t = await createTestApp({ env: { RATE_LIMITS: "off" } });
  const signUp = await send(t, "POST", "/api/auth/sign-up/email", {
    name: dirty("Asha Rao"),
    email: "asha@example.com",
    password: PASSWORD,
  }, {});
  await assertClean(t, "sign-up", signUp, ["Asha Rao"]);

  const user = await createTestUser(t);
  const profile = await send(t, "POST", "/api/profile", {
    name: dirty("Priya Nair"),
    collegeInstitute: dirty("College of Engineering"),
    currentRole: dirty("Student"),
    fieldInterests: [dirty("Design")],
  }, user.headers);
  await assertClean(t, "profile", profile, ["Priya Nair", "College of Engineering", "Student", "Design"]);

  const onboarding = await send(t, "POST", "/api/onboarding", {
    persona: "student",
    locationType: "city",
    locationValue: dirty("Kochi"),
    fieldOfStudy: "Other",
    fieldOther: dirty("Marine biology"),
    struggles: [dirty("Finding mentors")],
  }, user.headers);
  await assertClean(t, "onboarding", onboarding, ["Kochi", "Marine biology", "Finding mentors"]);

  const blank = await t.json("POST", "/api/profile", { body: { name: "\u200B\u202E\u0000" }, headers: user.headers });
  assertEquals(blank.status, 400, "a name of invisible characters only is empty");
  await blank.body?.cancel();
});

Deno.test("internship, opportunity and API key text is stored without invisible characters", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const internship = await send(t, "POST", "/api/internships", {
    title: dirty("Backend Intern"),
    link: "https://careers.example.com/jobs/1",
    hiringOrganization: dirty("Example Labs"),
    description: dirty("Build services"),
    location: dirty("Pune"),
    tags: [dirty("golang")],
  }, member.headers);
  const stored = await (await t.fetch(`/api/internships/${internship.data.id}`)).json();
  await assertClean(t, "internship", stored, [
    "Backend Intern",
    "Example Labs",
    "Build services",
    "Pune",
    "golang",
  ]);

  const opportunity = await send(t, "POST", "/api/opportunities", {
    title: dirty("Smart India Hackathon"),
    description: dirty("Build solutions"),
    location: dirty("Bengaluru"),
    organizer: dirty("AICTE"),
    type: "hackathon",
    startDate: `${NEXT_YEAR}-03-01`,
    endDate: `${NEXT_YEAR}-03-02`,
  }, member.headers);
  await assertClean(t, "opportunity", opportunity, ["Smart India Hackathon", "Build solutions", "Bengaluru", "AICTE"]);

  const apiKey = await send(t, "POST", "/api/admin/api-keys", { name: dirty("Job board") }, admin.headers);
  await assertClean(t, "API key", apiKey, ["Job board"]);
});

Deno.test("toolkit, lesson, Ungatekeep post and banner text is stored without invisible characters", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const toolkit = await send(t, "POST", "/api/admin/toolkits", {
    title: dirty("Resume Toolkit"),
    description: dirty("Write a resume"),
    category: dirty("Careers"),
    highlights: [dirty("Templates")],
    price: 499,
  }, admin.headers);
  await assertClean(t, "toolkit", toolkit, ["Resume Toolkit", "Write a resume", "Careers", "Templates"]);

  const lesson = await send(t, "POST", "/api/admin/toolkit-content-items", {
    toolkitId: toolkit.id,
    title: dirty("First lesson"),
    type: "article",
    content: `<p>${dirty("Lesson body")}</p>`,
  }, admin.headers);
  await assertClean(t, "lesson", lesson, ["First lesson", "Lesson body"]);

  const post = await send(t, "POST", "/api/admin/ungatekeep", {
    title: dirty("Hello"),
    content: dirty("First line"),
    linkUrl: "https://example.com/",
    linkTitle: dirty("Example"),
    tag: "announcement",
    isPublished: true,
  }, admin.headers);
  await assertClean(t, "post", post, ["Hello", "First line", "Example"]);

  const banner = await send(t, "POST", "/api/admin/banners", { title: dirty("Welcome") }, admin.headers);
  await assertClean(t, "banner", banner, ["Welcome"]);
});

Deno.test("a name from a social sign-in provider is stored without invisible characters", async () => {
  await using s = await socialSetup();
  s.google.identity = { sub: "g-1", email: "meera@example.com", email_verified: true, name: dirty("Meera Das") };
  const res = await signInSocially(s.t, "google");
  assertEquals(res.status, 302);
  await assertClean(s.t, "social", {}, []);
  const names = (await Array.fromAsync(s.t.kv.list<{ name: string }>({ prefix: ["users"] }))).map((e) => e.value.name);
  assertEquals(names, ["Meera Das"]);
});
