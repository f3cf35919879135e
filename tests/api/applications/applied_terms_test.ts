/**
 * Terms applied under (docs/decisions.md, Applications, "Terms applied under"): an application keeps its listing's
 * title, organization, stipend, deadline, location, work type and screening questions as they read when it was made;
 * the applicant's list and the export carry them, and the tracker says "You applied under:" with the parts that read
 * otherwise now, as they were → as they are. An application made before they were kept has none and shows nothing; one
 * made before the title, organization and work type were kept lists the first two null, the type absent, and shows
 * neither a rename nor a new work type.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { htmlDocument, page } from "@/tests/fixtures/html.ts";

/**
 * The "You applied under:" part of application `id` in `who`'s tracker (in `lang`): its heading, its sentence and each
 * part as "label value" (questions one after another, " / " between); empty when absent.
 */
async function appliedUnder(t: TestApp, who: TestUser, id: string, lang = "en"): Promise<string[]> {
  const { html } = await page(t, `/me/tracker?lang=${lang}`, who);
  const part = htmlDocument(html).querySelector(`#application-${id} section`);
  if (!part) return [];
  const text = (element: Element) => (element.textContent ?? "").replace(/\s+/g, " ").trim();
  return [
    ...[...part.querySelectorAll("h4, p")].map(text),
    ...[...part.querySelectorAll("dl > div")].map((row) => {
      const items = [...row.querySelectorAll("li")].map(text);
      return `${text(row.querySelector("dt")!)} ${
        items.length > 0 ? items.join(" / ") : text(row.querySelector("dd")!)
      }`;
    }),
  ];
}

/** `who`'s applications as `GET /api/me/applications` answers them. */
async function listed(t: TestApp, who: TestUser) {
  const res = await t.fetch("/api/me/applications", { headers: who.headers });
  assertEquals(res.status, 200);
  return (await res.json()).applications;
}

Deno.test("an application keeps the terms it was made under; the tracker shows those that changed, the export all", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 12000, deadline: "2099-01-20", location: "Pune" });
  const sara = await applicant(t, "Sara Shah");
  const sent = await applyTo(t, sara, internship);
  const terms = {
    title: "Backend Intern",
    organization: "Example Labs",
    stipend: 12000,
    deadline: "2099-01-20",
    location: "Pune",
    type: null,
    questions: internship.questions,
  };
  assertEquals((await listed(t, sara))[0].appliedTerms, terms);
  assertEquals(await appliedUnder(t, sara, sent.id), [], "nothing while the listing reads the same");

  // Another title, a better stipend, another city and work type, one question fewer; the organization and deadline stay.
  const res = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: {
      title: "Backend Engineer Intern",
      stipend: 15000,
      location: "Mumbai",
      type: "hybrid",
      questions: [internship.questions[0]],
    },
    headers: member.headers,
  });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  const [mine] = await listed(t, sara);
  assertEquals([mine.appliedTerms, mine.internship.stipend], [terms, 15000]);
  assertEquals(await appliedUnder(t, sara, sent.id), [
    "You applied under:",
    "The listing reads differently now. Each part as it was when you applied → as it reads now; the questions as they were asked.",
    "Title: Backend Intern → now Backend Engineer Intern",
    "Stipend: ₹12,000 a month → now ₹15,000 a month",
    "Location: Pune → now Mumbai",
    "Work type: not stated → now Hybrid",
    "Questions from the organization: Why do you want this internship? / Link to your portfolio (optional)",
  ]);
  const hindi = await appliedUnder(t, sara, sent.id, "hi");
  assertEquals([hindi[0], hindi[3]], ["आपने इन शर्तों पर आवेदन किया था:", "स्टाइपेंड: ₹12,000 हर महीने → अब ₹15,000 हर महीने"]);

  const exported = await (await t.fetch("/api/me/export", { headers: sara.headers })).json();
  assertEquals(exported.applications[0].appliedTerms, terms);
  assertEquals(exported.applications[0].internship.location, "Mumbai");
});

Deno.test("an application made before its terms were kept shows nothing and lists appliedTerms null", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { stipend: 12000 });
  const ravi = await applicant(t, "Ravi Rao");
  const sent = await applyTo(t, ravi, internship);
  const entry = await t.kv.get<Record<string, unknown>>(["applications", sent.id]);
  const { appliedTerms: _, ...older } = entry.value!;
  await t.kv.set(entry.key, older);
  const res = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: { stipend: 6000 },
    headers: member.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  assertEquals((await listed(t, ravi))[0].appliedTerms, null);
  assertEquals(await appliedUnder(t, ravi, sent.id), []);
});

Deno.test("an application kept before its title, organization and work type shows no rename or new type", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Acme" });
  const ravi = await applicant(t, "Ravi Rao");
  const sent = await applyTo(t, ravi, internship);
  const entry = await t.kv.get<{ appliedTerms: Record<string, unknown> }>(["applications", sent.id]);
  const { title: _, organization: __, type: ___, ...kept } = entry.value!.appliedTerms;
  await t.kv.set(entry.key, { ...entry.value, appliedTerms: kept });
  const res = await t.json("PUT", `/api/internships/${internship.id}`, {
    body: { title: "Sales Intern", hiringOrganization: "Other Co", location: "Delhi", type: "onsite" },
    headers: member.headers,
  });
  assertEquals(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  const [mine] = await listed(t, ravi);
  assertEquals([mine.appliedTerms.title, mine.appliedTerms.organization, "type" in mine.appliedTerms], [
    null,
    null,
    false,
  ]);
  assertEquals((await appliedUnder(t, ravi, sent.id)).slice(2), ["Location: not stated → now Delhi"]);
});
