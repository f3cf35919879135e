/**
 * `/onboarding` as a plain form (docs/decisions.md, Islands, "Forms work without JavaScript"): the page posts to
 * itself, saves the answers as `POST /api/onboarding` does and answers 303 to the return page; wrong answers come back
 * (400) with what was given and every problem at once; a foreign `callbackURL` stays on this origin; another site
 * cannot post it.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { getOnboardingProfile } from "@/lib/onboarding/onboarding.ts";

/** Posts `fields` to `/onboarding` (or `path`) as a urlencoded form, as `who`. */
function postOnboarding(
  t: TestApp,
  who: TestUser,
  fields: Record<string, string | string[]>,
  { path = "/onboarding", headers = {} }: { path?: string; headers?: Record<string, string> } = {},
) {
  return postForm(t, who, path, fields, headers);
}

const STUDENT = {
  persona: "student",
  locationType: "city",
  locationValue: " Pune ",
  educationLevel: "Undergraduate",
  fieldOfStudy: "Computer Science",
  fieldOther: "ignored unless Other",
  opportunityInterests: ["internships", "hackathons"],
  domainPreferences: ["Data & AI"],
  struggles: ["Networking"],
};

Deno.test("the onboarding page is a plain form that saves the answers and goes on with 303", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const page = await (await t.fetch("/onboarding?callbackURL=%2Finternships", { headers: student.headers })).text();
  assert(/<form method="post"/.test(page), "the page holds a plain form");
  assert(/type="radio" id="[\w-]+" name="persona" value="student"/.test(page), "every step's fields are in the form");
  assert(/type="checkbox" id="[\w-]+" name="struggles" value="Networking"/.test(page));
  assert(page.includes('name="callbackURL" value="/internships"'), "the return page goes along");
  assert(/<button type="submit" class=/.test(page), "the submit button works without JavaScript");

  const done = await postOnboarding(t, student, STUDENT);
  assertEquals(done.status, 303);
  assertEquals(done.headers.get("location"), "/?onboarded=1#for-you");
  const welcome = await (await t.fetch("/?onboarded=1", { headers: student.headers })).text();
  assert(welcome.includes("Welcome, ") && !welcome.includes("Welcome back"), "a new person gets a plain welcome");
  const hindi = await (await t.fetch("/?onboarded=1&lang=hi", { headers: student.headers })).text();
  assert(hindi.includes("स्वागत है, ") && !hindi.includes("फिर से स्वागत है"), "in Hindi too");
  const profile = await getOnboardingProfile(t.kv, student.user.id);
  assertEquals({ ...profile, id: undefined, userId: undefined, createdAt: undefined, updatedAt: undefined }, {
    id: undefined,
    userId: undefined,
    createdAt: undefined,
    updatedAt: undefined,
    persona: "student",
    locationType: "city",
    locationValue: "Pune",
    educationLevel: "Undergraduate",
    fieldOfStudy: "Computer Science",
    fieldOther: null,
    opportunityInterests: ["internships", "hackathons"],
    domainPreferences: ["Data & AI"],
    struggles: ["Networking"],
  });

  const back = await postOnboarding(t, student, { persona: "society", callbackURL: "/internships?types=remote" });
  assertEquals([back.status, back.headers.get("location")], [303, "/internships?types=remote"]);
  assertEquals((await getOnboardingProfile(t.kv, student.user.id))?.persona, "society");
  const fromQuery = await postOnboarding(t, student, { persona: "society" }, { path: "/onboarding?callbackURL=%2Fme" });
  assertEquals(fromQuery.headers.get("location"), "/me", "the page's own ?callbackURL= when the form has none");
});

Deno.test("wrong onboarding answers come back 400 with every problem and the answers kept", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const res = await postOnboarding(t, student, {
    ...STUDENT,
    locationValue: "Pune",
    locationType: "village",
    educationLevel: "Kindergarten",
    fieldOfStudy: "Other",
    fieldOther: " ",
    callbackURL: "/internships",
  });
  assertEquals(res.status, 400);
  const html = await res.text();
  for (
    const sentence of [
      "Choose city or state.",
      "Choose one of the offered education levels.",
      "Name your field of study, at most 100 characters.",
    ]
  ) {
    assert(html.includes(sentence), sentence);
  }
  assert(html.includes('value="Pune"'), "the typed location is kept");
  assert(/value="student"[^>]*checked/.test(html), "the persona stays chosen");
  assert(/value="Data &amp; AI"[^>]*checked/.test(html), "the chosen domains stay chosen");
  assert(html.includes('name="callbackURL" value="/internships"'), "the return page is kept");
  assertEquals(await getOnboardingProfile(t.kv, student.user.id), null, "nothing is saved");

  const noPersona = await postOnboarding(t, student, {});
  assertEquals(noPersona.status, 400);
  assert((await noPersona.text()).includes("Choose the option that describes you."));
});

Deno.test("a student's missing city, education and field come back 400 in the wizard's words, in Hindi too", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const res = await postOnboarding(t, student, {
    ...STUDENT,
    locationValue: " ",
    educationLevel: "",
    fieldOfStudy: "",
  });
  assertEquals(res.status, 400);
  const html = await res.text();
  for (const sentence of ["Enter your city.", "Choose your education level.", "Choose your field of study."]) {
    assert(html.includes(sentence), sentence);
  }
  assertEquals(await getOnboardingProfile(t.kv, student.user.id), null, "nothing is saved");
  const state = await postOnboarding(t, student, { persona: "student", locationType: "state" }, {
    headers: { cookie: `${student.cookie}; lang=hi` },
  });
  assertEquals(state.status, 400);
  assert((await state.text()).includes("अपना राज्य लिखें।"), "the state's sentence, in Hindi");
  assertEquals(await getOnboardingProfile(t.kv, student.user.id), null, "nothing is saved");
});

Deno.test("the onboarding form in Hindi shows its problems in Hindi", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const res = await postOnboarding(t, student, { persona: "nobody" }, {
    headers: { cookie: `${student.cookie}; lang=hi` },
  });
  assertEquals(res.status, 400);
  const html = await res.text();
  assert(!html.includes("Choose the option that describes you."), "not the English sentence");
  assert(/[\u0900-\u097F]/.test(html));
});

Deno.test("a foreign callbackURL on the onboarding form stays on this origin", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  for (const callbackURL of ["https://evil.example/x", "//evil.example", "/\\evil.example", "/..//evil.example"]) {
    const res = await postOnboarding(t, student, { persona: "society", callbackURL });
    assertEquals([res.status, res.headers.get("location")], [303, "/?onboarded=1#for-you"], callbackURL);
  }
  const query = await postOnboarding(t, student, { persona: "society" }, {
    path: `/onboarding?callbackURL=${encodeURIComponent("https://evil.example")}`,
  });
  assertEquals(query.headers.get("location"), "/?onboarded=1#for-you");
});

Deno.test("another site cannot post the onboarding form; a guest is not saved", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const foreign: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
  for (const headers of foreign) {
    const res = await postOnboarding(t, student, STUDENT, { headers });
    assertEquals(res.status, 403, JSON.stringify(headers));
  }
  assertEquals(await getOnboardingProfile(t.kv, student.user.id), null);
  const guest = await t.fetch("/onboarding", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ persona: "society" }),
    redirect: "manual",
  });
  assert([302, 303, 401].includes(guest.status), `guest: ${guest.status}`);
  await guest.body?.cancel();
});
