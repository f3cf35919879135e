/**
 * A stranger's listings under an organization's name once it is verified (docs/decisions.md, Trust, "Who lists under a
 * verified name"): verified by a claim or by an admin, the `organizations-unlink` job unlinks the listings of owners
 * who neither manage it nor are admins (live and archived), moves its listing count, and takes their applications off
 * its track record; an admin's listing stays linked; a later application counts toward nobody; a second run does
 * nothing; organizations verified before the rule are queued by the first run. Before the job runs, every read shows
 * a stranger's listing as the job will leave it (no seal, not under `verifiedOnly`, off the organization's page and
 * alerts), and a manager's own listing with its seal.
 */
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { trackRecordOf } from "@/lib/applications/track_record.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { InternshipQuerySchema, newInternships } from "@/lib/internships/internships.ts";
import { istToday } from "@/lib/dates.ts";
import { forgetInternshipOwner } from "@/lib/internships/writes.ts";
import { addManagerOps, forgetManager } from "@/lib/organizations/store.ts";
import { unlinkStrangers } from "@/lib/organizations/unlink.ts";
import { organizationProfile } from "@/lib/organizations/organizations.ts";
import { strangersAmong } from "@/lib/organizations/pending_links.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import { call, confirmClaim } from "./helpers.ts";

const DAY = 24 * 60 * 60 * 1000;

/** Runs the unlink job `minutes` from now. */
const unlink = (t: TestApp, minutes = 0) =>
  runJob(findJob("organizations-unlink")!, t.services, new Date(Date.now() + minutes * 60_000));

/** The organization a listing answers now, or null. */
async function organizationOf(t: TestApp, id: string) {
  return (await call(t, undefined, "GET", `/api/internships/${id}`)).body.internship.organization;
}

Deno.test("a claim verifies Infosys: a stranger's listings are unlinked, their applications leave its record", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const open = await platformInternship(t, stranger, { title: "Dev Intern", hiringOrganization: "Infosys" });
  const closed = await platformInternship(t, stranger, { title: "QA Intern", hiringOrganization: "Infosys" });
  const official = await platformInternship(t, admin, { title: "Ops Intern", hiringOrganization: "Infosys" });
  const organization = open.organization!;
  assertEquals([closed.organization?.id, official.organization?.id], [organization.id, organization.id]);
  for (const name of ["A One", "B Two", "C Three", "D Four", "E Five"]) {
    await applyTo(t, await applicant(t, name), open);
  }
  await applyTo(t, await applicant(t, "F Six"), official);
  // One of the stranger's listings closed (archived), with an application sent before.
  await applyTo(t, await applicant(t, "G Seven"), closed);
  assertEquals((await call(t, stranger, "PUT", `/api/internships/${closed.id}`, { closed: true })).status, 200);
  assertEquals((await internshipStore(t.kv)).model.slotOf(closed.id), undefined, "in the archive");
  const later = Date.now() + 8 * DAY;
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 7);
  assertEquals(
    (await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, {
      website: "https://www.infosys.com",
    })).status,
    200,
  );
  assertEquals((await unlink(t)).organizations, 0, "nothing is queued before a verification");

  // Someone at Infosys claims its page.
  const employee = await createTestUser(t, "user", { name: "Ira Infosys" });
  const claimed = await call(t, employee, "POST", `/api/organizations/${organization.slug}/claim`, {
    email: "ira@infosys.com",
  });
  assertEquals(claimed.status, 202);
  await t.settled();
  assertEquals((await confirmClaim(t, employee, new URL(t.mails.at(-1)!.link).pathname)).status, 200);

  const run = await unlink(t);
  assertEquals([run.organizations, run.listings, run.applications], [0, 2, 0]);
  assertEquals([await organizationOf(t, open.id), await organizationOf(t, closed.id)], [null, null]);
  assertEquals(await organizationOf(t, official.id), { ...organization, isVerified: true }, "an admin's stays");
  const profile = (await call(t, undefined, "GET", `/api/organizations/${organization.slug}`)).body;
  assertEquals(profile.stats.internships, 1, "the listing count moved with them");
  // Their applications are taken off a minute later (an application that read the listing linked has landed by then).
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 7);
  const settled = await unlink(t, 2);
  assertEquals([settled.organizations, settled.listings, settled.applications], [1, 0, 6]);
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 1, "only the admin's listing's");

  // The stranger's open listing takes applications still, counted toward nobody; the listing stays unlinked.
  await applyTo(t, await applicant(t, "H Eight"), open);
  const edited = await call(t, stranger, "PUT", `/api/internships/${open.id}`, { title: "Developer Intern" });
  assertEquals([edited.status, edited.body.internship?.organization ?? null], [200, null]);
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 1);
  const again = await unlink(t, 4);
  assertEquals([again.organizations, again.listings, again.applications], [0, 0, 0]);
});

Deno.test("an admin's verification queues it too; the first run queues organizations verified before the rule", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const listing = await platformInternship(t, stranger, { hiringOrganization: "Wipro" });
  const other = await platformInternship(t, stranger, { hiringOrganization: "TCS" });
  const verify = (id: string) => call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true });
  assertEquals((await verify(listing.organization!.id)).status, 200);
  // TCS verified before the rule: as stored then, with no entry in the queue.
  assertEquals((await verify(other.organization!.id)).status, 200);
  await t.kv.delete(["organizations_unlink", other.organization!.id]);

  const run = await unlink(t);
  assertEquals([run.organizations, run.listings], [0, 2]);
  assertEquals([await organizationOf(t, listing.id), await organizationOf(t, other.id)], [null, null]);
  const settled = await unlink(t, 2);
  assertEquals([settled.organizations, settled.listings], [2, 0], "done once their applications were looked at");
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["organizations_unlink"] })), [], "the queue is empty");
});

Deno.test("a verification again keeps the listing of a manager who left: linked, its applications still count", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const seed = await platformInternship(t, member, { title: "Seed", hiringOrganization: "Infosys" });
  const organization = seed.organization!;
  const website = { website: "https://www.infosys.com" };
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, website)).status, 200);
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  const claimed = await call(t, hr, "POST", `/api/organizations/${organization.slug}/claim`, {
    email: "ira@infosys.com",
  });
  assertEquals(claimed.status, 202);
  await t.settled();
  assertEquals((await confirmClaim(t, hr, new URL(t.mails.at(-1)!.link).pathname)).status, 200);
  await unlink(t);
  await unlink(t, 2);
  // Infosys's HR posts while a manager; five students apply.
  const own = await platformInternship(t, hr, { title: "Official Intern", hiringOrganization: "Infosys" });
  assertEquals(own.organization?.id, organization.id);
  for (const name of ["A One", "B Two", "C Three", "D Four", "E Five"]) await applyTo(t, await applicant(t, name), own);
  const later = Date.now() + 8 * DAY;
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 5);
  // The HR account is deleted (its listings' owner forgotten, its management dropped), then Infosys is verified again.
  await forgetInternshipOwner(t.kv, hr.user.id);
  await forgetManager(t.kv, hr.user.id);
  for (const isVerified of [false, true]) {
    const patched = await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, { isVerified });
    assertEquals(patched.status, 200);
  }
  const run = await unlink(t, 4);
  const settled = await unlink(t, 6);
  assertEquals([run.listings, run.applications, settled.applications], [0, 0, 0]);
  assertEquals((await organizationOf(t, own.id))?.id, organization.id, "its own listing keeps the seal");
  assertEquals((await trackRecordOf(t.kv, organization.id, later)).applications, 5);
});

Deno.test("a stranger whose claim lands just before the unlink write keeps the listing linked", async () => {
  await using t = await createTestApp();
  const { admin, member: poster } = await people(t);
  const listing = await platformInternship(t, poster, { title: "Dev Intern", hiringOrganization: "Infosys" });
  const organization = listing.organization!;
  const website = { website: "https://www.infosys.com" };
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, website)).status, 200);
  assertEquals(
    (await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, { isVerified: true })).status,
    200,
  );
  // The poster becomes a manager in a write that lands just before the job's unlink write of their listing.
  let added = false;
  const kv = kvWithCommits(t.kv, async (_n, apply, sets) => {
    if (!added && sets.some((key) => key[0] === "organizations_unlinked")) {
      added = true;
      const claim = t.kv.atomic();
      addManagerOps(claim, organization.id, poster.user.id, new Date().toISOString());
      await claim.commit();
    }
    return await apply();
  });
  const run = await unlinkStrangers({ kv, requests: new InFlightRequests(), now: new Date() });
  assertEquals([added, run.listings], [true, 0]);
  assertEquals((await organizationOf(t, listing.id))?.id, organization.id);
});

/** Gives `organization` its website and has `who` claim it with `email` and follow the link: its first manager. */
async function claimAs(t: TestApp, who: TestUser, { id, slug }: { id: string; slug: string }, email: string) {
  const admin = (await people(t)).admin;
  const website = { website: `https://www.${email.split("@")[1]}` };
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, website)).status, 200);
  assertEquals((await call(t, who, "POST", `/api/organizations/${slug}/claim`, { email })).status, 202);
  await t.settled();
  assertEquals((await confirmClaim(t, who, new URL(t.mails.at(-1)!.link).pathname)).status, 200);
}

/** Takes organization `id`'s verification away and gives it again, as an admin. */
async function verifyAgain(t: TestApp, id: string) {
  const admin = (await people(t)).admin;
  for (const isVerified of [false, true]) {
    assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified })).status, 200);
  }
}

Deno.test("a verification again keeps a listing posted by a manager who no longer manages it; an unmarked one goes", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const organization = (await platformInternship(t, member, { hiringOrganization: "Infosys" })).organization!;
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  await claimAs(t, hr, organization, "ira@infosys.com");
  await unlink(t);
  const own = await platformInternship(t, hr, { title: "Official Intern", hiringOrganization: "Infosys" });
  const older = await platformInternship(t, hr, { title: "Older Intern", hiringOrganization: "Infosys" });
  // `older` as stored before listings were marked at link time.
  await (await internshipStore(t.kv)).writer.update(older.id, ({ linkedByManager: _, ...record }) => record);
  // Ira stops managing Infosys but keeps her account; then an admin verifies Infosys again.
  await forgetManager(t.kv, hr.user.id);
  await verifyAgain(t, organization.id);

  const run = await unlink(t, 2);
  assertEquals([run.listings, run.marked], [1, 0]);
  assertEquals((await organizationOf(t, own.id))?.id, organization.id, "posted while a manager: kept");
  assertEquals(await organizationOf(t, older.id), null, "no mark: judged by its owner as of now");
});

Deno.test("a deleted stranger's listing posted before the verification is unlinked; a manager's posted before it stays", async () => {
  await using t = await createTestApp();
  const { member: stranger } = await people(t);
  const theirs = await platformInternship(t, stranger, { title: "Dev Intern", hiringOrganization: "Infosys" });
  const organization = theirs.organization!;
  // Infosys's HR posts before claiming the page; the stranger deletes their account before the claim.
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  const early = await platformInternship(t, hr, { title: "Official Intern", hiringOrganization: "Infosys" });
  await forgetInternshipOwner(t.kv, stranger.user.id);
  await claimAs(t, hr, organization, "ira@infosys.com");

  const run = await unlink(t);
  assertEquals([run.listings, run.marked], [1, 1], "the stranger's unlinked, the HR's marked a manager's");
  assertEquals(await organizationOf(t, theirs.id), null);
  assertEquals((await organizationOf(t, early.id))?.id, organization.id);
  // Ira leaves (account deleted); Infosys is verified again: her listing keeps the seal.
  await forgetInternshipOwner(t.kv, hr.user.id);
  await forgetManager(t.kv, hr.user.id);
  await verifyAgain(t, organization.id);
  const again = await unlink(t, 2);
  assertEquals([again.listings, again.marked], [0, 0]);
  assertEquals((await organizationOf(t, early.id))?.id, organization.id);
});

Deno.test("until the unlink job judges it, a new manager reaches no applicant of a stranger's listing", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const theirs = await platformInternship(t, stranger, { title: "Dev Intern", hiringOrganization: "Infosys" });
  const older = await platformInternship(t, stranger, { title: "Older Intern", hiringOrganization: "Infosys" });
  const official = await platformInternship(t, admin, { title: "Ops Intern", hiringOrganization: "Infosys" });
  const sent = await applyTo(t, await applicant(t, "A One"), theirs);
  const olderSent = await applyTo(t, await applicant(t, "C Three"), older);
  const control = await applyTo(t, await applicant(t, "B Two"), official);
  // `older` as stored before listings were marked at link time: the job judges it as unmarked, and so must the reads.
  await (await internshipStore(t.kv)).writer.update(older.id, ({ linkedByManager: _, ...record }) => record);
  const employee = await createTestUser(t, "user", { name: "Ira Infosys" });
  await claimAs(t, employee, theirs.organization!, "ira@infosys.com");
  assertEquals(await organizationOf(t, theirs.id), null, "read as the job will leave it, before it runs");

  const reach = async (who: TestUser, listingId: string, applicationId: string) => {
    const list = await call(t, who, "GET", `/api/internships/${listingId}/applications`);
    const resume = await t.fetch(`/api/applications/${applicationId}/resume`, { headers: who.headers });
    await resume.body?.cancel();
    const page = await t.fetch(`/internships/${listingId}/applicants`, { headers: who.headers });
    await page.body?.cancel();
    return [list.status, resume.status, page.status];
  };
  assertEquals(await reach(employee, official.id, control.id), [200, 200, 200], "the admin's listing is theirs");
  assertEquals(await reach(employee, theirs.id, sent.id), [404, 404, 404], "the stranger's is not");
  assertEquals(await reach(employee, older.id, olderSent.id), [404, 404, 404], "nor the stranger's unmarked one");
  const moved = await call(t, employee, "PATCH", `/api/applications/${sent.id}`, { status: "rejected" });
  assertEquals(moved.status, 404);
  const bulk = await call(t, employee, "POST", `/api/internships/${theirs.id}/applications/bulk`, {
    ids: [sent.id],
    status: "rejected",
  });
  assertEquals(bulk.status, 404);
  assertEquals(await reach(stranger, theirs.id, sent.id), [200, 200, 200], "its owner still reaches them");

  // The owner becomes a manager before the job judges it: the job keeps it, and so do the other managers.
  const added = t.kv.atomic();
  addManagerOps(added, theirs.organization!.id, stranger.user.id, new Date().toISOString());
  await added.commit();
  assertEquals(await reach(employee, theirs.id, sent.id), [200, 200, 200]);
});

Deno.test("an unmarked listing the unlink job keeps is its managers' before the job runs, as after", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const organization = (await platformInternship(t, stranger, { hiringOrganization: "Infosys" })).organization!;
  const official = await platformInternship(t, admin, { title: "Ops Intern", hiringOrganization: "Infosys" });
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  await claimAs(t, hr, organization, "ira@infosys.com");
  const late = await platformInternship(t, hr, { title: "Late Intern", hiringOrganization: "Infosys" });
  // Both as stored before listings were marked at link time: an admin's, and one posted after the verification by a
  // manager who then left (the job never judges a listing posted after the verification).
  const store = await internshipStore(t.kv);
  for (const { id } of [official, late]) await store.writer.update(id, ({ linkedByManager: _, ...record }) => record);
  const officialSent = await applyTo(t, await applicant(t, "A One"), official);
  const lateSent = await applyTo(t, await applicant(t, "B Two"), late);
  // Ravi joins Infosys's managers; Ira stops managing it but keeps her account.
  const ravi = await createTestUser(t, "user", { name: "Ravi Infosys" });
  const added = t.kv.atomic();
  addManagerOps(added, organization.id, ravi.user.id, new Date().toISOString());
  await added.commit();
  await forgetManager(t.kv, hr.user.id);

  const reach = async (listingId: string, applicationId: string) => {
    const list = await call(t, ravi, "GET", `/api/internships/${listingId}/applications`);
    const resume = await t.fetch(`/api/applications/${applicationId}/resume`, { headers: ravi.headers });
    await resume.body?.cancel();
    return [list.status, resume.status];
  };
  assertEquals(await reach(official.id, officialSent.id), [200, 200], "an admin's: the job marks it");
  assertEquals(await reach(late.id, lateSent.id), [200, 200], "posted after the verification: the job keeps it");
  const run = await unlink(t);
  assertEquals([run.listings, run.marked], [1, 1], "the stranger's unlinked, the admin's marked");
  assertEquals(await reach(official.id, officialSent.id), [200, 200]);
  assertEquals(await reach(late.id, lateSent.id), [200, 200]);
  assertEquals((await organizationOf(t, late.id))?.id, organization.id);
});

Deno.test("from the verification on, a stranger's listing shows no seal anywhere, before the unlink job runs", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  const start = Date.now() - 60_000;
  const theirs = await platformInternship(t, stranger, { title: "Dev Intern", hiringOrganization: "Infosys" });
  // Infosys's HR posts under the name before claiming the page: the claim's run will find them a manager and keep it.
  const own = await platformInternship(t, hr, { title: "HR Intern", hiringOrganization: "Infosys" });
  const official = await platformInternship(t, admin, { title: "Ops Intern", hiringOrganization: "Infosys" });
  const organization = theirs.organization!;
  await claimAs(t, hr, organization, "ira@infosys.com");

  const seals = async () => {
    const ids = [theirs.id, own.id, official.id];
    const read = await Promise.all(ids.map((id) => organizationOf(t, id)));
    const listed = (await call(t, undefined, "GET", "/api/internships?search=intern&limit=100")).body.internships;
    const verified = (await call(t, undefined, "GET", "/api/internships?verifiedOnly=true&limit=100")).body.internships;
    const page = await organizationProfile(t.kv, { slug: organization.slug });
    const fresh = await newInternships(t.kv, { after: start, until: Date.now(), today: istToday() });
    const alerted = fresh.matching(InternshipQuerySchema.parse({ verifiedOnly: "true" }));
    const html = await (await t.fetch(`/internships/${theirs.id}`)).text();
    // deno-lint-ignore no-explicit-any
    const titles = (items: any[]) => items.map((item) => item.title).sort();
    return {
      read: read.map((found) => found?.isVerified ?? null),
      // deno-lint-ignore no-explicit-any
      listed: listed.map((item: any) => `${item.title}: ${item.organization?.isVerified ?? null}`).sort(),
      verified: titles(verified),
      page: [titles(page.internships), page.stats.internships],
      alerted: titles(alerted),
      sealOnPage: html.includes("the organization is verified"),
    };
  };
  const expected = {
    read: [null, true, true],
    listed: ["Dev Intern: null", "HR Intern: true", "Ops Intern: true"],
    verified: ["HR Intern", "Ops Intern"],
    page: [["HR Intern", "Ops Intern"], 3],
    alerted: ["HR Intern", "Ops Intern"],
    sealOnPage: false,
  };
  assertEquals(await seals(), expected, "right after the claim, the job not run");
  const run = await unlink(t);
  assertEquals([run.listings, run.marked], [1, 1]);
  assertEquals(await seals(), { ...expected, page: [["HR Intern", "Ops Intern"], 2] }, "once it unlinked it");
  assertEquals((await unlink(t, 2)).organizations, 1);
  assertEquals(await seals(), { ...expected, page: [["HR Intern", "Ops Intern"], 2] }, "once off the queue");
});

Deno.test("an admin verified it first: the claimer's own listing is listed verified from the claim, before the job", async () => {
  await using t = await createTestApp();
  const { admin, member: stranger } = await people(t);
  const hr = await createTestUser(t, "member", { name: "Ira Infosys" });
  await platformInternship(t, stranger, { title: "Dev Intern", hiringOrganization: "Infosys" });
  const own = await platformInternship(t, hr, { title: "HR Intern", hiringOrganization: "Infosys" });
  const organization = own.organization!;
  const verifiedOnly = async () =>
    (await call(t, undefined, "GET", "/api/internships?verifiedOnly=true")).body.internships.map(
      (item: { title: string }) => item.title,
    );
  const patch = { website: "https://www.infosys.com", isVerified: true };
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${organization.id}`, patch)).status, 200);
  assertEquals(await verifiedOnly(), [], "neither is its managers' yet");
  const claimed = await call(t, hr, "POST", `/api/organizations/${organization.slug}/claim`, {
    email: "ira@infosys.com",
  });
  assertEquals(claimed.status, 202);
  await t.settled();
  assertEquals((await confirmClaim(t, hr, new URL(t.mails.at(-1)!.link).pathname)).status, 200);
  assertEquals(await verifiedOnly(), ["HR Intern"], "the claim made Ira its manager");
  assertEquals((await organizationOf(t, own.id))?.isVerified, true);
});

Deno.test("listings in doubt are judged once per organization and owner: one key each, however many listings", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listings = Array.from({ length: 30 }, (_, i) => ({
    organizationId: "org-1",
    ownerId: [member.user.id, admin.user.id, null][i % 3],
  }));
  const reads = kvReads();
  const strangers = await strangersAmong(recordingReads(t.kv, reads), listings);
  assertEquals(strangers.slice(0, 3), [true, false, true], "a member's, an admin's, a forgotten owner's");
  assertEquals(reads.keys.length, 4, "two managers' keys and two users' records");
});
