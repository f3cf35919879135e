/**
 * A listing renamed after applying (docs/decisions.md, Applications, "Terms changed after applying"), against the real
 * `smtp-server` fake: a new title, organization name, location or work type is recorded by the edit and told by the
 * `listing-changes` job to each open applicant once, old → new, in the app and by e-mail in their language; a second
 * rename a day later is told once more, from the name told last; a rename before anyone applied tells nobody, nor a
 * name written again with other capitals or spacing; a
 * change recorded before the title, organization and location were kept tells no rename it cannot know of.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import {
  applicant,
  applyTo,
  editInternship,
  moderate,
  platformInternship,
  recordedChanges,
  toldOf,
} from "@/tests/fixtures/applications.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { updateUser } from "@/lib/users/users.ts";
import { htmlDocument, page } from "@/tests/fixtures/html.ts";

const DAY = 24 * 60 * 60 * 1000;
const ADVICE =
  "Your application stays as you sent it. Its listing is linked from your applications: read it again to decide if it still suits you.";

const runChanges = (t: TestApp, now?: Date) => runJob(findJob("listing-changes")!, t.services, now);

Deno.test("a listing renamed after applying is told once, old and new, then once more for a second rename", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { member } = await people(t);
  const internship = await platformInternship(t, member, {
    title: "SDE Intern",
    hiringOrganization: "Google",
    location: "Bengaluru",
    type: "remote",
  });
  const sara = await applicant(t, "Sara Shah");
  const ravi = await applicant(t, "Ravi Rao");
  await updateUser(t.kv, ravi.user.id, { language: "hi" });
  await applyTo(t, sara, internship);
  await applyTo(t, ravi, internship);
  await t.settled();
  const before = smtp.messages.length;

  await editInternship(t, member, internship.id, { title: "Sales Associate", hiringOrganization: "Gooogle Jobs" });
  assertEquals(await recordedChanges(t), 1, "a rename is recorded by its edit");
  const start = Date.now();
  assertEquals((await runChanges(t, new Date(start))).told, 2);
  assertEquals((await runChanges(t, new Date(start + 60_000))).told, 0, "told once");
  const lines = ["Title: “SDE Intern” is now “Sales Associate”.", "Organization: Google is now Gooogle Jobs."];
  assertEquals(await toldOf(t, sara), [[
    "Gooogle Jobs changed Sales Associate after you applied",
    [...lines, ADVICE].join("\n"),
  ]]);
  const [[hindiTitle, hindiBody]] = await toldOf(t, ravi, "hi");
  assertEquals(hindiTitle, "आपके आवेदन के बाद Gooogle Jobs ने Sales Associate बदल दी");
  assert(hindiBody.includes("टाइटल: “SDE Intern” की जगह अब “Sales Associate”।"), hindiBody);
  assert(hindiBody.includes("संस्था: Google की जगह अब Gooogle Jobs।"), hindiBody);

  await runJob(findJob("outbox")!, t.services, new Date(start + 10 * 60 * 1000));
  const mails = smtp.messages.slice(before);
  const to = (who: TestUser) => mails.filter((m) => m.to.includes(who.user.email));
  assertEquals(to(sara).map((m) => m.subject), ["Gooogle Jobs changed Sales Associate after you applied"]);
  for (const line of lines) assert(to(sara)[0].text.includes(line), to(sara)[0].text);
  assertEquals(to(ravi).map((m) => m.subject), ["आपके आवेदन के बाद Gooogle Jobs ने Sales Associate बदल दी"]);

  // A second rename and a move: waits for the listing's day, then one more notice, from the name told last.
  await editInternship(t, member, internship.id, {
    hiringOrganization: "Gooogle Careers",
    location: "Delhi",
    type: "onsite",
  });
  assertEquals((await runChanges(t, new Date(start + 2 * 60_000))).told, 0, "not twice in a day");
  assertEquals((await runChanges(t, new Date(start + DAY + 60_000))).told, 2);
  assertEquals((await runChanges(t, new Date(start + DAY + 2 * 60_000))).told, 0);
  const told = await toldOf(t, sara);
  assertEquals(told.length, 2);
  assertEquals(told[0], [
    "Gooogle Careers changed Sales Associate after you applied",
    [
      "Organization: Gooogle Jobs is now Gooogle Careers.",
      "Location: Bengaluru is now Delhi.",
      "Work type: Remote is now On-site.",
      ADVICE,
    ].join("\n"),
  ]);
  const hindiSecond = (await toldOf(t, ravi, "hi"))[0][1];
  assert(hindiSecond.includes("जगह: Bengaluru के बदले अब Delhi।"), hindiSecond);
  assert(hindiSecond.includes("काम की जगह: रिमोट के बदले अब ऑफ़िस से।"), hindiSecond);
  await runJob(findJob("outbox")!, t.services, new Date(start + DAY + 10 * 60 * 1000));
  assertEquals(
    smtp.messages.slice(before).filter((m) => m.to.includes(sara.user.email)).map((m) => m.subject),
    [
      "Gooogle Jobs changed Sales Associate after you applied",
      "Gooogle Careers changed Sales Associate after you applied",
    ],
  );
});

Deno.test("a listing renamed before anyone applied, or renamed and named back, tells nobody", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, { title: "SDE Intern", hiringOrganization: "Google" });
  const renamed = await editInternship(t, member, internship.id, {
    title: "Sales Associate",
    hiringOrganization: "Gooogle",
  });
  const sara = await applicant(t, "Sara Shah");
  await applyTo(t, sara, renamed);
  assertEquals((await runChanges(t)).told, 0);
  assertEquals(await recordedChanges(t), 0, "the rename is dropped, told to nobody");

  await editInternship(t, member, internship.id, { title: "Data Intern" });
  await editInternship(t, member, internship.id, { title: "Sales Associate" });
  assertEquals((await runChanges(t)).told, 0, "named back before the run");
  assertEquals(await toldOf(t, sara), []);
});

Deno.test("a name written again with other capitals or spacing is no rename: nobody is told, the tracker says nothing", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const internship = await platformInternship(t, member, {
    title: "SDE Intern",
    hiringOrganization: "Google India",
    location: "Bengaluru",
  });
  const sara = await applicant(t, "Sara Shah");
  const sent = await applyTo(t, sara, internship);
  await editInternship(t, member, internship.id, {
    title: "sde  intern",
    hiringOrganization: "GOOGLE INDIA",
    location: "bengaluru",
  });
  assertEquals(await recordedChanges(t), 0, "nothing recorded");
  assertEquals((await runChanges(t)).told, 0);
  const { html } = await page(t, "/me/tracker", sara);
  const row = htmlDocument(html).querySelector(`#application-${sent.id}`);
  assert(row, "the application is in the tracker");
  assertEquals(row.querySelector("section"), null, 'the tracker shows no "You applied under"');
});

Deno.test("a change recorded before titles were kept tells no false rename, and a later rename is still told", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const first = await platformInternship(t, member, {
    title: "Data Intern",
    hiringOrganization: "Acme",
    stipend: 12000,
  });
  const second = await platformInternship(t, member, {
    title: "Design Intern",
    hiringOrganization: "Acme",
    stipend: 12000,
  });
  const [sara, ravi] = [await applicant(t, "Sara Shah"), await applicant(t, "Ravi Rao")];
  /** As an application and a recorded change were kept before the title, organization and location were. */
  const olden = async () => {
    for await (const entry of t.kv.list<{ appliedTerms: Record<string, unknown> }>({ prefix: ["applications"] })) {
      if (!entry.value?.appliedTerms) continue;
      const { title: _, organization: __, type: ___, ...kept } = entry.value.appliedTerms;
      await t.kv.set(entry.key, { ...entry.value, appliedTerms: kept });
    }
    for await (const entry of t.kv.list<Record<string, Record<string, unknown>>>({ prefix: ["listing_changes"] })) {
      const strip = ({ title: _, organization: __, location: ___, type: ____, ...terms }: Record<string, unknown>) =>
        terms;
      await t.kv.set(entry.key, { ...entry.value, before: strip(entry.value.before), after: strip(entry.value.after) });
    }
  };
  await applyTo(t, sara, first);
  await applyTo(t, ravi, second);
  await editInternship(t, member, first.id, { stipend: 6000 });
  await editInternship(t, member, second.id, { stipend: 6000 });
  await olden();
  assertEquals(await recordedChanges(t), 2);
  // Later edits record the title: the first listing's is the same (no rename), the second's is renamed.
  await editInternship(t, member, first.id, { deadline: "2099-01-20" });
  await editInternship(t, member, second.id, { title: "Design Lead Intern" });

  assertEquals((await runChanges(t)).told, 2);
  const stipend = "Stipend: ₹12,000 a month is now ₹6,000 a month.";
  assertEquals(await toldOf(t, sara), [[
    "Acme changed Data Intern after you applied",
    [stipend, "Apply by: there was no deadline, now it is 20 Jan 2099.", ADVICE].join("\n"),
  ]]);
  assertEquals(await toldOf(t, ravi), [[
    "Acme changed Design Lead Intern after you applied",
    ["Title: “Design Intern” is now “Design Lead Intern”.", stipend, ADVICE].join("\n"),
  ]]);
});

Deno.test("a change the never-pay rule holds is told nobody while held; approved, it is told; rejected, never", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const held = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Acme" });
  const rejected = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Acme" });
  const sara = await applicant(t, "Sara Shah");
  await applyTo(t, sara, held);
  await applyTo(t, sara, rejected);
  const scam = "pay a joining fee of Rs 999 at pay.example";
  assertEquals((await editInternship(t, member, held.id, { title: `Data Intern, ${scam}` })).moderation.status, "held");
  await editInternship(t, member, rejected.id, { title: `Ops Intern, ${scam}` });
  assertEquals((await runChanges(t)).told, 0, "what a held listing says reaches none of its applicants");
  assertEquals(await toldOf(t, sara), []);

  await moderate(t, admin, held.id, "approve");
  await moderate(t, admin, rejected.id, "reject");
  assertEquals((await runChanges(t)).told, 1, "approved, it is told; rejected, never");
  assertEquals((await toldOf(t, sara)).map(([title]) => title), [
    `Acme changed Data Intern, ${scam} after you applied`,
  ]);
  assertEquals(await recordedChanges(t), 0, "nothing is left to read every minute");
});

Deno.test("a held listing's moves and timeouts name it as applied to, not by the words the admin holds", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const listing = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Acme" });
  const [sara, ravi] = [await applicant(t, "Sara Shah"), await applicant(t, "Ravi Rao")];
  const [toSara, toRavi] = [await applyTo(t, sara, listing), await applyTo(t, ravi, listing)];
  const scam = "pay a joining fee of Rs 999 at pay.example";
  const edited = await editInternship(t, member, listing.id, {
    title: `Data Intern, ${scam}`,
    hiringOrganization: scam,
  });
  assertEquals(edited.moderation.status, "held");
  const moved = await t.json("PATCH", `/api/applications/${toSara.id}`, {
    body: { status: "interview" },
    headers: member.headers,
  });
  assertEquals(moved.status, 200, await moved.clone().text());
  await moved.body?.cancel();
  // Ravi's waits out his due time: the timeout job's notice names the listing as he applied to it too.
  const later = Date.parse(toRavi.createdAt) + 31 * DAY;
  assertEquals((await runJob(findJob("applications-timeout")!, t.services, new Date(later))).rejected, 1);
  await runJob(findJob("outbox")!, t.services, new Date(later + 60_000));
  await t.settled();
  for (const who of [sara, ravi]) {
    const res = await t.fetch("/api/me/notifications", { headers: who.headers });
    const said = JSON.stringify((await res.json()).notifications);
    assert(said.includes("Data Intern") && said.includes("Acme"), said);
    assert(!said.includes("joining fee"), `the held words reached an applicant: ${said}`);
  }
  const mails = t.mails.filter((m) => [sara, ravi].some((who) => m.to === who.user.email));
  assertEquals(mails.length, 2, "both were e-mailed");
  for (const mail of mails) assert(!`${mail.subject} ${mail.text}`.includes("joining fee"), mail.subject);
});
