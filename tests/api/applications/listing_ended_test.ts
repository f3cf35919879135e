/**
 * A listing that ends early answers its waiting applicants early (docs/decisions.md, Applications, "Every applicant
 * hears back"): closed, deleted or with its deadline brought forward, the `applications-ended` job brings its waiting
 * applications' due times forward to 15 days after the end, so the `applications-timeout` job answers them then, not
 * 15 days after the deadline they applied under; an answered one, another listing's, and a listing opened again before
 * the job ran are left as they were; a listing with more applications than one write is walked page by page; listings
 * closed before ends were recorded are found in the archive; a poster's account deletion, and their suspension with
 * their listings hidden, close the listings nobody else answers.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { PASSWORD, people } from "@/tests/fixtures/people.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { verifyOrganizationOf } from "@/tests/fixtures/organizations.ts";
import type { Internship } from "@/lib/internships/schema.ts";
import { applicant, applyTo, editInternship, moderate, platformInternship } from "@/tests/fixtures/applications.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { bringDueTimesForward } from "@/lib/applications/ended.ts";
import { applicationOps, recordKey } from "@/lib/applications/store.ts";
import { answeredByTimeoutAt, type ApplicationRecord, timeoutDueAt } from "@/lib/applications/applications.ts";
import { page } from "@/tests/fixtures/html.ts";
import { istToday } from "@/lib/dates.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { updateInternship } from "@/lib/internships/writes.ts";
import { withLatency } from "@/tests/helpers/kv_latency.ts";

const DAY = 24 * 60 * 60 * 1000;

const runAt = (t: TestApp, name: string, ms: number) => runJob(findJob(name)!, t.services, new Date(ms));

async function statusOf(t: TestApp, id: string) {
  return (await t.kv.get<ApplicationRecord>(recordKey(id))).value!.status;
}

async function markers(t: TestApp) {
  return (await Array.fromAsync(t.kv.list({ prefix: ["listing_ended"] }))).length;
}

Deno.test("a listing closed or deleted months before its deadline: its waiting applicants hear back 15 days after", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const [closed, deleted, open] = [
    await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline }),
    await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline }),
    await platformInternship(t, member, { title: "Design Intern", hiringOrganization: "Slow Co", deadline }),
  ];
  const [first, second] = [await applicant(t, "Jai Singh"), await applicant(t, "Kavya Das")];
  const toClosed = await applyTo(t, first, closed);
  const answered = await applyTo(t, second, closed);
  const toDeleted = await applyTo(t, first, deleted);
  const toOpen = await applyTo(t, first, open);
  const moved = await t.json("PATCH", `/api/applications/${answered.id}`, {
    body: { status: "interview" },
    headers: member.headers,
  });
  assertEquals(moved.status, 200);
  await moved.body?.cancel();
  await editInternship(t, member, closed.id, { closed: true });
  const gone = await t.json("DELETE", `/api/internships/${deleted.id}`, { headers: member.headers });
  assertEquals(gone.status, 200);
  await gone.body?.cancel();
  assertEquals(await markers(t), 2, "the close and the deletion each recorded their listing's end");

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.moved, run.listings], [2, 2]);
  assertEquals(await markers(t), 0);
  const again = await runAt(t, "applications-ended", Date.now());
  assertEquals([again.walked, again.moved], [0, 0], "nothing is left to walk");

  // 14 days after the end nothing is due; 16 days after, the closed and deleted listings' waiting applications are.
  const early = await runAt(t, "applications-timeout", Date.now() + 14 * DAY);
  assertEquals(early.rejected, 0);
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals([later.rejected, later.told], [2, 1]);
  assertEquals(
    [await statusOf(t, toClosed.id), await statusOf(t, toDeleted.id), await statusOf(t, answered.id)],
    ["rejected", "rejected", "interview"],
  );
  assertEquals(await statusOf(t, toOpen.id), "applied", "an open listing's applicant waits for its deadline");
});

Deno.test("a listing an admin rejected: its waiting applicants hear back 15 days after, unless it is approved again", async () => {
  await using t = await createTestApp();
  const { member, admin } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const [rejected, approved] = [
    await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline }),
    await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline }),
  ];
  const person = await applicant(t, "Jai Singh");
  const [toRejected, toApproved] = [await applyTo(t, person, rejected), await applyTo(t, person, approved)];
  await moderate(t, admin, rejected.id, "reject");
  await moderate(t, admin, approved.id, "reject");
  await moderate(t, admin, approved.id, "approve");
  // The tracker and the poster's list (its poster's, an admin's) say the day the rejection gives.
  const mine = await (await t.fetch("/api/me/applications", { headers: person.headers })).json();
  const told = mine.applications.find((a: { id: string }) => a.id === toRejected.id).answerBy;
  assert(Date.parse(told) < Date.now() + 17 * DAY, "15 days after the rejection, not after the deadline");
  for (const reader of [member, admin]) {
    const res = await t.fetch(`/api/internships/${rejected.id}/applications`, { headers: reader.headers });
    assertEquals((await res.json()).applications[0].answerBy, told);
  }

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals(run.moved, 1, "the one approved again before the run keeps its due time");
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals(later.rejected, 1);
  assertEquals([await statusOf(t, toRejected.id), await statusOf(t, toApproved.id)], ["rejected", "applied"]);
});

Deno.test("a listing without a deadline closed a week after applying: its applicants hear back 15 days after", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const listing = await platformInternship(t, member, {
    title: "Ops Intern",
    hiringOrganization: "Slow Co",
    deadline: null,
  });
  const person = await applicant(t, "Jai Singh");
  const sent = await applyTo(t, person, listing);
  const mine = async () => {
    const res = await t.fetch("/api/me/applications", { headers: person.headers });
    return (await res.json()).applications[0].answerBy as string;
  };
  assert(Date.parse(await mine()) > Date.now() + 29 * DAY, "30 days after applying while it is open");
  await editInternship(t, member, listing.id, { closed: true });
  assert(Date.parse(await mine()) < Date.now() + 17 * DAY, "the tracker says 15 days after the close");

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.moved, run.listings], [1, 1]);
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals([later.rejected, later.postponed], [1, 0]);
  assertEquals(await statusOf(t, sent.id), "rejected", "answered 15 days after the close, not 30 after applying");
});

Deno.test("a deadline removed: its applicants hear back 30 days after applying at the latest, as the tracker says", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const [recent, early] = [await applicant(t, "Jai Singh"), await applicant(t, "Isha Paul")];
  const toRecent = await applyTo(t, recent, listing);
  const toEarly = await applyTo(t, early, listing);
  // Isha applied 40 days ago (her due time still by the deadline, as the job keeps it).
  const entry = await t.kv.get<ApplicationRecord>(recordKey(toEarly.id));
  const createdAt = new Date(Date.now() - 40 * DAY).toISOString();
  const op = t.kv.atomic().check(entry);
  applicationOps(op, entry.value!, {
    ...entry.value!,
    createdAt,
    history: [{ ...entry.value!.history[0], at: createdAt }],
  });
  assert((await op.commit()).ok);
  await editInternship(t, member, listing.id, { deadline: null });
  const answerBy = async (who: typeof recent) => {
    const res = await t.fetch("/api/me/applications", { headers: who.headers });
    return (await res.json()).applications[0].answerBy as string;
  };
  assertEquals(await answerBy(recent), answeredByTimeoutAt(timeoutDueAt({ deadline: null }, toRecent.createdAt)));
  const past = Date.parse(await answerBy(early));
  assert(
    past >= Date.now() - 60_000 && past < Date.now() + DAY,
    "past its 30 days: the job's next run, not a day gone",
  );

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.moved, run.listings], [2, 1], "both due times come forward from 15 days after the old deadline");
  const next = await runAt(t, "applications-timeout", Date.now() + DAY);
  assertEquals([next.rejected, next.postponed], [1, 0]);
  const later = await runAt(t, "applications-timeout", Date.now() + 31 * DAY);
  assertEquals([later.rejected, later.postponed], [1, 0]);
  assertEquals([await statusOf(t, toEarly.id), await statusOf(t, toRecent.id)], ["rejected", "rejected"]);
});

Deno.test("a deadline brought forward brings the due times forward; a listing opened again keeps them", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const far = istToday(new Date(Date.now() + 100 * DAY));
  const [sooner, reopened] = [
    await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline: far }),
    await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline: far }),
  ];
  const person = await applicant(t, "Jai Singh");
  const [toSooner, toReopened] = [await applyTo(t, person, sooner), await applyTo(t, person, reopened)];
  await editInternship(t, member, sooner.id, { deadline: istToday(new Date(Date.now() + 5 * DAY)) });
  await editInternship(t, member, reopened.id, { closed: true });
  await editInternship(t, member, reopened.id, { closed: false });

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.moved, run.listings], [1, 2], "the reopened listing's walk moves nothing");
  const later = await runAt(t, "applications-timeout", Date.now() + 22 * DAY);
  assertEquals(later.rejected, 1);
  assertEquals([await statusOf(t, toSooner.id), await statusOf(t, toReopened.id)], ["rejected", "applied"]);
});

Deno.test("a listing closed by another process just before the run: its applicants are moved all the same", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  // A second handle on the same KV with its own read model, as the process a close request ran in has; this one's
  // catches up with that close up to a second late.
  const other = withLatency(t.kv, 0);
  await internshipStore(other);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  await applyTo(t, await applicant(t, "Jai Singh"), listing);
  await updateInternship(other, { id: listing.id, actor: member.user, patch: { closed: true } });

  const run = await bringDueTimesForward(t.kv, { giveWay: () => Promise.resolve() });
  assertEquals([run.moved, run.listings, await markers(t)], [1, 1, 0]);
  const [due] = await Array.fromAsync(t.kv.list({ prefix: ["applications_due"] }));
  assert((due.key[1] as number) < Date.now() + 16 * DAY, "due 15 days after the close, not after the deadline");
});

Deno.test("a closed listing's applications are walked a page a write, each moved once", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const sent = [];
  for (let i = 0; i < 23; i++) sent.push(await applyTo(t, await applicant(t, `Student ${i}`), listing));
  const shortlisted = await t.json("PATCH", `/api/applications/${sent[3].id}`, {
    body: { status: "shortlisted" },
    headers: member.headers,
  });
  assertEquals(shortlisted.status, 200);
  await shortlisted.body?.cancel();
  await editInternship(t, member, listing.id, { closed: true });

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.walked, run.moved, run.listings], [23, 23, 1]);
  const due = await Array.fromAsync(t.kv.list<boolean>({ prefix: ["applications_due"] }));
  assertEquals(due.length, 23, "one due entry each");
  const dueMs = due.map((entry) => entry.key[1] as number);
  assertEquals(Math.max(...dueMs) < Date.now() + 16 * DAY, true, "every due time 15 days after the close");
});

Deno.test("a run whose time is up writes no new page: the next goes on from the marker's place", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  for (let i = 0; i < 12; i++) await applyTo(t, await applicant(t, `Student ${i}`), listing);
  await editInternship(t, member, listing.id, { closed: true });
  // A run given no time writes one page, so each run makes progress and none runs on past its budget.
  const spent = () => bringDueTimesForward(t.kv, { giveWay: () => Promise.resolve(), until: 0 });
  assertEquals([(await spent()).walked, await markers(t)], [10, 1], "one page, its place kept");
  const next = await spent();
  assertEquals([next.walked, next.moved, next.listings, await markers(t)], [2, 2, 1, 0]);
});

Deno.test("a long walk does not keep a later close waiting: each run starts after the listing the last one left", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listings = [
    await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline }),
    await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline }),
  ];
  const sent: string[][] = [[], []];
  for (let i = 0; i < 24; i++) {
    sent[i % 2].push((await applyTo(t, await applicant(t, `Student ${i}`), listings[i % 2])).id);
  }
  const dueOf = async (id: string) => (await t.kv.get<ApplicationRecord>(recordKey(id))).value!.dueAt!;
  const before = await Promise.all(sent.flat().map(dueOf));
  for (const listing of listings) await editInternship(t, member, listing.id, { closed: true });
  // Runs given no time write one page each: the first a page of one listing, the second a page of the other.
  const spent = () => bringDueTimesForward(t.kv, { giveWay: () => Promise.resolve(), until: 0 });
  assertEquals([(await spent()).walked, (await spent()).walked], [10, 10]);
  const moved = async (ids: string[]) =>
    (await Promise.all(ids.map(dueOf))).filter((due) => !before.includes(due)).length;
  assertEquals([await moved(sent[0]), await moved(sent[1])], [10, 10], "each listing had its turn");
  assertEquals([(await spent()).walked, (await spent()).walked, await markers(t)], [2, 2, 0]);
});

Deno.test("a listing closed before ends were recorded is found in the archive once, and its applicants moved", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const [closed, open] = [
    await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline }),
    await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Slow Co", deadline }),
  ];
  const person = await applicant(t, "Jai Singh");
  const [toClosed, toOpen] = [await applyTo(t, person, closed), await applyTo(t, person, open)];
  const longAgo = await platformInternship(t, member, { title: "Old Intern", hiringOrganization: "Slow Co", deadline });
  await editInternship(t, member, closed.id, { closed: true });
  await editInternship(t, member, longAgo.id, { closed: true });
  // As a store written before ends were recorded holds them: archived, no marker, no backfill progress; one closed
  // more than 380 days ago, longer than any application waits, needs no marker.
  const old = await t.kv.get<Internship>(["internships_closed", longAgo.id]);
  await t.kv.set(old.key, { ...old.value!, closedAt: new Date(Date.now() - 381 * DAY).toISOString() });
  for (const id of [closed.id, longAgo.id]) await t.kv.delete(["listing_ended", id]);
  await t.kv.delete(["listing_ended_meta", "backfill"]);

  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals([run.marked, run.moved, run.listings], [1, 1, 1]);
  const again = await runAt(t, "applications-ended", Date.now());
  assertEquals([again.marked, again.walked], [0, 0], "the backfill is done");
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals(later.rejected, 1);
  assertEquals([await statusOf(t, toClosed.id), await statusOf(t, toOpen.id)], ["rejected", "applied"]);
});

Deno.test("a poster who deletes their account closes their listings nobody else answers: applicants hear back", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const alone = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Solo Co", deadline });
  const managed = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Big Co", deadline });
  const own = await platformInternship(t, member, { title: "Web Intern", hiringOrganization: "Own Co", deadline });
  const stranger = await platformInternship(t, member, { title: "Art Intern", hiringOrganization: "Far Co", deadline });
  const elsewhere = await postInternship(t, member, { title: "Sales Intern", hiringOrganization: "Solo Co", deadline });
  // Big Co is verified and another manages it: they answer its listings' applicants after the poster leaves. Own Co
  // is verified too, but its only manager was the poster: nobody answers its listing. Far Co was verified after the
  // poster, who never managed it, listed under its name: the unlink job takes the listing from it, so nobody answers.
  const [manager, person] = [await createTestUser(t, "member"), await applicant(t, "Jai Singh")];
  await verifyOrganizationOf(t, managed, [member.user.id, manager.user.id]);
  await verifyOrganizationOf(t, own, [member.user.id]);
  await verifyOrganizationOf(t, stranger, [manager.user.id]);
  const [toAlone, toManaged, toOwn, toStranger] = [
    await applyTo(t, person, alone),
    await applyTo(t, person, managed),
    await applyTo(t, person, own),
    await applyTo(t, person, stranger),
  ];

  await deleteAccount(t.services, { user: member.user, session: { createdAt: new Date().toISOString() } }, {
    confirm: member.user.email,
    password: PASSWORD,
  });
  await t.settled();
  await sweepDeletions(t);
  const read = async (id: string) => (await (await t.fetch(`/api/internships/${id}`)).json()).internship;
  assertEquals(
    await Promise.all([alone, managed, own, stranger, elsewhere].map(async ({ id }) => (await read(id)).isClosed)),
    [true, false, true, true, false],
    "only the listings taking applications here that nobody answers close",
  );
  const unlinked = await runAt(t, "organizations-unlink", Date.now());
  assertEquals(unlinked.listings, 1, "the job took the listing from Far Co, which its poster never managed");
  for (const { id } of [managed, own]) {
    assert((await read(id)).organization, "Big Co's and Own Co's stay linked: their poster managed them when leaving");
  }
  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals(run.moved, 3);
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals(later.rejected, 3);
  assertEquals(
    await Promise.all([toAlone, toManaged, toOwn, toStranger].map(({ id }) => statusOf(t, id))),
    ["rejected", "applied", "rejected", "rejected"],
  );
});

Deno.test("a poster who deletes their account: a suspended co-manager answers nobody, so their listing closes", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Big Co", deadline });
  const manager = await createTestUser(t, "member");
  await verifyOrganizationOf(t, listing, [member.user.id, manager.user.id]);
  const suspended = await t.json("POST", `/api/admin/users/${manager.user.id}/suspension`, {
    body: { reason: "Asked applicants for a fee", hideListings: false },
    headers: admin.headers,
  });
  assertEquals(suspended.status, 200);
  await suspended.body?.cancel();
  await deleteAccount(t.services, { user: member.user, session: { createdAt: new Date().toISOString() } }, {
    confirm: member.user.email,
    password: PASSWORD,
  });
  await t.settled();
  await sweepDeletions(t);
  assert((await internshipRecord(t.kv, listing.id))!.record.closedAt, "nobody who can sign in answers it");
});

Deno.test("a poster suspended with their listings hidden: their applicants hear back, a verified organization's too", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const alone = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Solo Co", deadline });
  const managed = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Big Co", deadline });
  // Big Co is verified, and another manages it with the poster: hidden, its listing is no longer theirs to answer.
  const manager = await createTestUser(t, "member");
  await verifyOrganizationOf(t, managed, [member.user.id, manager.user.id]);
  const person = await applicant(t, "Jai Singh");
  const [toAlone, toManaged] = [await applyTo(t, person, alone), await applyTo(t, person, managed)];

  const res = await t.json("POST", `/api/admin/users/${member.user.id}/suspension`, {
    body: { reason: "Asked applicants for a fee" },
    headers: admin.headers,
  });
  assertEquals([res.status, (await res.json()).hiddenListings], [200, 2]);
  const move = await t.json("PATCH", `/api/applications/${toManaged.id}`, {
    body: { status: "shortlisted" },
    headers: manager.headers,
  });
  assertEquals(move.status, 403, "only an admin moves a hidden listing's applications");
  await move.body?.cancel();
  const closed = async (id: string) => !!(await internshipRecord(t.kv, id))!.record.closedAt;
  assertEquals([await closed(alone.id), await closed(managed.id)], [true, true], "nobody but an admin answers them");
  const run = await runAt(t, "applications-ended", Date.now());
  assertEquals(run.moved, 2);
  const later = await runAt(t, "applications-timeout", Date.now() + 16 * DAY);
  assertEquals(later.rejected, 2);
  assertEquals([await statusOf(t, toAlone.id), await statusOf(t, toManaged.id)], ["rejected", "rejected"]);
});

Deno.test("a poster suspended with their listings left listed: those nobody else answers close, still listed", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const alone = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Solo Co", deadline });
  const managed = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Big Co", deadline });
  const elsewhere = await postInternship(t, member, { title: "Link Intern" });
  // Big Co is verified, and another manages it with the poster: that manager answers its applicants.
  await verifyOrganizationOf(t, managed, [member.user.id, (await createTestUser(t, "member")).user.id]);
  const person = await applicant(t, "Jai Singh");
  await applyTo(t, person, alone);
  const res = await t.json("POST", `/api/admin/users/${member.user.id}/suspension`, {
    body: { reason: "Rude in comments", hideListings: false },
    headers: admin.headers,
  });
  assertEquals([res.status, (await res.json()).hiddenListings], [200, 0]);
  const closed = async (id: string) => !!(await internshipRecord(t.kv, id))!.record.closedAt;
  assertEquals(
    [await closed(alone.id), await closed(managed.id), await closed(elsewhere.id)],
    [true, false, false],
    "a suspended poster answers nobody; the other manager does; one taking applications elsewhere waits on nobody",
  );
  const listed = await t.fetch(`/api/internships/${alone.id}`);
  assertEquals([listed.status, (await listed.json()).internship.isClosed], [200, true], "still listed, closed");
  assertEquals((await runAt(t, "applications-ended", Date.now())).moved, 1, "its applicant hears back 15 days later");
});

Deno.test("tracker and poster say until when a waiting application waits at most: sooner once closed, none once answered", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const person = await applicant(t, "Jai Singh");
  const sent = await applyTo(t, person, listing);
  const mine = async () => {
    const res = await t.fetch("/api/me/applications", { headers: person.headers });
    return (await res.json()).applications[0].answerBy as string | null;
  };
  const tracker = async () => (await page(t, "/me/tracker", person)).html;
  const posters = async () => {
    const res = await t.fetch(`/api/internships/${listing.id}/applications`, { headers: member.headers });
    return (await res.json()).applications[0].answerBy as string | null;
  };
  const applicants = async () => (await page(t, `/internships/${listing.id}/applicants`, member)).html;
  assertEquals(await mine(), answeredByTimeoutAt(timeoutDueAt({ deadline, closedAt: null }, sent.createdAt)));
  assertEquals(await posters(), await mine(), "the poster reads the same day");
  assert((await tracker()).includes("No answer by"), "the tracker says it");
  assert((await applicants()).includes("Answer by"), "the poster's list says it");
  // Both say the rule as the jobs keep it: 15 days after applications close, whenever that is.
  assert(
    (await page(t, `/internships/${listing.id}`)).html.includes("or we tell you 15 days after applications close"),
  );
  assert((await applicants()).includes("15 days after applications close (at the deadline, or when you close the"));
  // And the bound without a deadline, which holds while the listing stays open.
  assert(
    (await page(t, `/internships/${listing.id}`)).html.includes("(30 days after you apply when there is no deadline)"),
  );
  assert((await applicants()).includes("without a deadline, 30 days after applying at the latest"));
  const closed = await editInternship(t, member, listing.id, { closed: true });
  const sooner = await mine();
  assertEquals(sooner, answeredByTimeoutAt(timeoutDueAt({ deadline, closedAt: closed.closedAt }, sent.createdAt)));
  assert(Date.parse(sooner!) < Date.now() + 17 * DAY, "15 days after the close, at the next 09:00 IST");
  const moved = await t.json("PATCH", `/api/applications/${sent.id}`, {
    body: { status: "interview" },
    headers: member.headers,
  });
  assertEquals(moved.status, 200);
  await moved.body?.cancel();
  assertEquals([await mine(), await posters()], [null, null]);
  assert(!(await tracker()).includes("No answer by"), "nothing once answered");
  assert(!(await applicants()).includes("Answer by"), "nothing for the poster either");
});

Deno.test("a listing held from students with its deadline moved later: the tracker says the day the job keeps", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Slow Co", deadline });
  const person = await applicant(t, "Jai Singh");
  const sent = await applyTo(t, person, listing);
  // The poster moves the deadline later and asks for a fee in the same edit: the listing is held from the public.
  const later = istToday(new Date(Date.now() + 200 * DAY));
  const held = await editInternship(t, member, listing.id, {
    deadline: later,
    description: "Pay a registration fee of Rs 500 to take part.",
  });
  assertEquals(held.moderation.status, "held");
  const res = await t.fetch("/api/me/applications", { headers: person.headers });
  const [mine] = (await res.json()).applications;
  assertEquals(mine.internship, null, "the public no longer reads it");
  assertEquals(mine.answerBy, answeredByTimeoutAt(timeoutDueAt({ deadline: later, closedAt: null }, sent.createdAt)));

  // On the day it said before, the timeout job moves the application on rather than answer it.
  const run = await runAt(t, "applications-timeout", Date.now() + 116 * DAY);
  assertEquals([run.rejected, run.postponed], [0, 1]);
});

Deno.test("the timeout job answers at its first daily run (09:00 IST) at or after the due time", () => {
  assertEquals(answeredByTimeoutAt("2026-12-01T03:30:00.000Z"), "2026-12-01T03:30:00.000Z");
  assertEquals(answeredByTimeoutAt("2026-12-01T03:30:00.001Z"), "2026-12-02T03:30:00.000Z");
  assertEquals(answeredByTimeoutAt("2026-11-30T20:00:00.000Z"), "2026-12-01T03:30:00.000Z");
});

Deno.test("the answer-by date is a run of the timeout job as its cron is registered", () => {
  const [minute, hour] = findJob("applications-timeout")!.schedule.split(" ").map(Number);
  const run = Date.UTC(2026, 11, 1, hour, minute);
  const at = (ms: number) => answeredByTimeoutAt(new Date(ms).toISOString());
  assertEquals(at(run), new Date(run).toISOString(), "a due time at a run: that run");
  assertEquals(at(run + 1), new Date(run + DAY).toISOString(), "just after a run: the next day's");
  assertEquals(at(run - 1), new Date(run).toISOString(), "just before a run: that run");
});
