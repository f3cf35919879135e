/**
 * A held listing is out of every public surface (docs/decisions.md, Trust, "Moderation"): the list (API and page), its
 * page and `GET` by id for anyone but its owner and admins, the sitemap, the RSS feed, JSON-LD, the alerts digest,
 * recommendations and "For you", and saving; a listing saved before it was held shows as hidden, and one rejected
 * and then closed stays hidden in the saved list, the applicant's applications and the tracker. Each surface is
 * checked against a clear listing made beside it, so a surface that shows nothing at all cannot pass.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { call, HELD_TO_PAY } from "./helpers.ts";
import { sitemap } from "@/lib/seo/sitemap.ts";
import { people } from "@/tests/fixtures/people.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";

const HELD = "Scam Analyst Intern";
const CLEAN = "Real Analyst Intern";
const HELD_HACK = "Scam Hack";
const CLEAN_HACK = "Real Hack";

/** A member's clear and held internship and opportunity, created after a student's alerts ran once. */
async function setUp(t: TestApp) {
  const { admin, member, student } = await people(t);
  for (const alert of [{ kind: "internships", query: { search: "analyst" } }, { kind: "opportunities", query: {} }]) {
    assertEquals((await call(t, student, "POST", "/api/me/alerts", alert)).status, 201);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  const clean = await postInternship(t, member, { title: CLEAN, tags: ["data"] });
  const held = await postInternship(t, member, { title: HELD, tags: ["data"], description: "Pay Rs 499 to join" });
  const cleanHack = await submitOpportunity(t, member, { title: CLEAN_HACK });
  const heldHack = await submitOpportunity(t, member, { title: HELD_HACK, description: "Registration fee ₹99" });
  assertEquals([held.moderation, heldHack.moderation], [HELD_TO_PAY, HELD_TO_PAY]);
  return { member, student, admin, clean, held, cleanHack, heldHack };
}

Deno.test("a held listing is absent from the lists, its page and GET by id, for guests and students", async () => {
  await using t = await createTestApp();
  const { student, member, held, heldHack } = await setUp(t);
  for (const who of [undefined, student]) {
    const list = await call(t, who, "GET", "/api/internships?search=analyst");
    assertEquals(list.body.internships.map((i: { title: string }) => i.title), [CLEAN]);
    const hacks = await call(t, who, "GET", "/api/opportunities");
    assertEquals(hacks.body.opportunities.map((o: { title: string }) => o.title), [CLEAN_HACK]);
    assertEquals((await call(t, who, "GET", `/api/internships/${held.id}`)).status, 404);
    assertEquals((await call(t, who, "GET", `/api/opportunities/${heldHack.id}`)).status, 404);
    for (const path of ["/internships", "/internships?search=analyst", "/opportunities", "/"]) {
      const res = await t.fetch(path, { headers: who?.headers });
      const html = await res.text();
      assertEquals(res.status, 200, path);
      assert(!html.includes(HELD) && !html.includes(HELD_HACK), `${path} leaves the held listings out`);
    }
    const listPage = await (await t.fetch("/internships", { headers: who?.headers })).text();
    assert(listPage.includes(CLEAN), "the list page shows the clear one");
    for (const path of [`/internships/${held.id}`, `/opportunities/${heldHack.id}`]) {
      const res = await t.fetch(path, { headers: who?.headers });
      await res.body?.cancel();
      assertEquals(res.status, 404, path);
    }
  }
  const own = await (await t.fetch(`/opportunities/${heldHack.id}`, { headers: member.headers })).text();
  assert(own.includes("This opportunity is held for review") && own.includes("“registration fee”"));
  assert(!own.includes('"Event"'), "a held opportunity carries no Event JSON-LD");
});

Deno.test("a held listing that closed stays out of the lists that include closed ones", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const closed = { deadline: "2020-01-01", tags: ["data"] };
  await postInternship(t, member, { ...closed, title: CLEAN });
  const held = await postInternship(t, member, { ...closed, title: HELD, description: "security deposit" });
  for (const query of ["includeClosed=true", "includeClosed=true&tags=data", "includeClosed=true&search=analyst"]) {
    const list = await call(t, undefined, "GET", `/api/internships?${query}`);
    assertEquals(list.body.internships.map((i: { title: string }) => i.title), [CLEAN], query);
  }
  const mine = await call(t, member, "GET", "/api/internships?mine=true");
  assertEquals(mine.body.internships.map((i: { id: string }) => i.id)[0], held.id, "its owner still lists it");
});

Deno.test("a held listing is absent from the sitemap, the RSS feed and JSON-LD", async () => {
  await using t = await createTestApp();
  const { member, clean, held, cleanHack, heldHack } = await setUp(t);
  const urls = new TextDecoder().decode((await sitemap(t.kv, { origin: t.origin })).root.bytes);
  assert(urls.includes(`/internships/${clean.id}`) && urls.includes(`/opportunities/${cleanHack.id}`));
  assert(!urls.includes(held.id) && !urls.includes(heldHack.id), "the sitemap leaves them out");
  const served = await (await t.fetch("/sitemap.xml")).text();
  assert(!served.includes(held.id));
  for (const path of ["/internships/rss.xml", "/internships/rss.xml?search=analyst"]) {
    const rss = await (await t.fetch(path)).text();
    assert(rss.includes(CLEAN) && !rss.includes(HELD), path);
  }
  const ownPage = await (await t.fetch(`/internships/${held.id}`, { headers: member.headers })).text();
  assert(!ownPage.includes('"JobPosting"'), "the owner's view of a held listing carries no JobPosting");
  const cleanPage = await (await t.fetch(`/internships/${clean.id}`)).text();
  assert(cleanPage.includes('"JobPosting"'));
});

Deno.test("a held listing is absent from the alerts digest, recommendations and For you", async () => {
  await using t = await createTestApp();
  const { student, admin } = await setUp(t);
  const digest = await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run");
  assertEquals([digest.status, digest.body.sent], [200, 1]);
  await call(t, admin, "POST", "/api/admin/jobs/outbox/run");
  await t.settled();
  const mail = t.mails.find((m) => m.to === student.user.email)!;
  assert(mail.text.includes(CLEAN) && mail.text.includes(CLEAN_HACK), "the digest lists the clear ones");
  assert(!mail.text.includes(HELD) && !mail.html.includes(HELD_HACK), "and not the held ones");

  for (const kind of ["internships", "opportunities"]) {
    const res = await call(t, student, "GET", `/api/me/recommendations?kind=${kind}&limit=50`);
    const titles = res.body.items.map((item: { listing: { title: string } }) => item.listing.title);
    assertEquals(titles, [kind === "internships" ? CLEAN : CLEAN_HACK], kind);
  }
  const page = await (await t.fetch("/internships", { headers: student.headers })).text();
  assert(page.includes("For you") && !page.includes(HELD), "For you leaves it out");
});

Deno.test("a held listing cannot be saved; one saved before it was held shows as hidden", async () => {
  await using t = await createTestApp();
  const { student, member, clean, held, heldHack } = await setUp(t);
  for (const [kind, id] of [["internships", held.id], ["opportunities", heldHack.id]]) {
    assertEquals((await call(t, student, "PUT", `/api/me/saved/${kind}/${id}`, {})).status, 404, kind);
  }
  assertEquals((await call(t, student, "PUT", `/api/me/saved/internships/${clean.id}`, {})).status, 200);
  await call(t, member, "PUT", `/api/internships/${clean.id}`, { description: "A training fee of ₹1,000 applies." });
  const saved = await call(t, student, "GET", "/api/me/saved");
  assertEquals(saved.body.items.map((item: { id: string; listing: unknown }) => [item.id, item.listing]), [[
    clean.id,
    null,
  ]]);
  const ids = await call(t, student, "GET", "/api/me/saved/ids");
  assertEquals(ids.status, 200);
});

Deno.test("a rejected listing that closed stays hidden in the saved list and the applicant's applications", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const student = await applicant(t, "Sara Saver");
  const rejected = await platformInternship(t, member, { title: HELD });
  const clean = await platformInternship(t, member, { title: CLEAN });
  for (const listing of [rejected, clean]) {
    await applyTo(t, student, listing);
    assertEquals((await call(t, student, "PUT", `/api/me/saved/internships/${listing.id}`, {})).status, 200);
  }
  const decided = await call(t, admin, "POST", `/api/admin/moderation/internships/${rejected.id}`, {
    decision: "reject",
    note: "Asked applicants for a fee",
  });
  assertEquals(decided.status, 200);
  // Both close: they leave the read model for the archive.
  for (const listing of [rejected, clean]) {
    assertEquals((await call(t, member, "PUT", `/api/internships/${listing.id}`, { closed: true })).status, 200);
  }
  const saved = await call(t, student, "GET", "/api/me/saved");
  const listed = new Map(saved.body.items.map((item: { id: string; listing: { title: string } | null }) => [
    item.id,
    item.listing?.title ?? null,
  ]));
  assertEquals([listed.get(rejected.id), listed.get(clean.id)], [null, CLEAN]);
  const sent = await call(t, student, "GET", "/api/me/applications");
  const applied = new Map(sent.body.applications.map((a: { internshipId: string; internship: { title: string } }) => [
    a.internshipId,
    a.internship?.title ?? null,
  ]));
  assertEquals([applied.get(rejected.id), applied.get(clean.id)], [null, CLEAN]);
  const tracker = await (await t.fetch("/me/tracker", { headers: student.headers })).text();
  assert(tracker.includes(CLEAN) && !tracker.includes(HELD), "the tracker names the clear one only");
});
