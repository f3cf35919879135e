/**
 * A listing its owner no longer answers stays open while a manager of its verified organization answers it; once the
 * last such manager is suspended or deletes their account, it closes and its waiting applicants hear back 15 days
 * later (docs/decisions.md, Admin, "Suspension"; Data rights, "Deletion"): unless another manager not suspended
 * remains, or its owner answers it. The suspension's request runs the close, the `manager-closes` job finishes one
 * it left, and a lift stops one still to do without reopening what closed.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { verifyOrganizationOf } from "@/tests/fixtures/organizations.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { istToday } from "@/lib/dates.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import { liftSuspension, suspendUser } from "@/lib/users/suspension.ts";
import { closeManagedListings } from "@/lib/internships/manager_closes.ts";
import { addManagerOps, getOrganization, touchOrganization } from "@/lib/organizations/store.ts";
import type { Organization } from "@/lib/organizations/schema.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";

const DAY = 24 * 60 * 60 * 1000;

/** Deletes the account of `who` (signed in just now, no password) and runs its cascade, both passes. */
async function deleteOf(t: TestApp, who: TestUser) {
  await deleteAccount(t.services, { user: who.user, session: { createdAt: new Date().toISOString() } }, {
    confirm: who.user.email,
  });
  await t.settled();
  await sweepDeletions(t);
}

const isClosed = async (t: TestApp, id: string) => !!(await internshipRecord(t.kv, id))!.record.closedAt;

/**
 * A poster's listing at Big Co (verified, managed by the poster and `managers`), applied to, whose poster then deletes
 * their account: it stays open, as a manager answers it.
 */
async function orphaned(t: TestApp, managers: TestUser[]) {
  const { admin, member } = await people(t);
  const deadline = istToday(new Date(Date.now() + 100 * DAY));
  const listing = await platformInternship(t, member, { title: "Data Intern", hiringOrganization: "Big Co", deadline });
  await verifyOrganizationOf(t, listing, [member.user.id, ...managers.map((manager) => manager.user.id)]);
  const application = await applyTo(t, await applicant(t, "Jai Singh"), listing);
  await deleteOf(t, member);
  assertEquals(await isClosed(t, listing.id), false, "a manager of Big Co answers it");
  return { admin, listing, application };
}

async function suspend(t: TestApp, admin: TestUser, who: TestUser) {
  const res = await t.json("POST", `/api/admin/users/${who.user.id}/suspension`, {
    body: { reason: "Asked applicants for a fee", hideListings: false },
    headers: admin.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
}

Deno.test("the last manager suspended: a former member's listing they answered closes, its applicants hear back", async () => {
  await using t = await createTestApp();
  const manager = await createTestUser(t, "member");
  const { admin, listing } = await orphaned(t, [manager]);
  await suspend(t, admin, manager);
  assert(await isClosed(t, listing.id), "nobody answers it now");
  const ended = await runJob(findJob("applications-ended")!, t.services, new Date());
  assertEquals(ended.moved, 1, "its waiting applicant's end was recorded");
  const later = await runJob(findJob("applications-timeout")!, t.services, new Date(Date.now() + 16 * DAY));
  assertEquals(later.rejected, 1, "they hear back 15 days later");
});

Deno.test("a manager suspended while another manager not suspended remains: the listing stays open", async () => {
  await using t = await createTestApp();
  const [manager, other] = [await createTestUser(t, "member"), await createTestUser(t, "user")];
  const { admin, listing } = await orphaned(t, [manager, other]);
  await suspend(t, admin, manager);
  assertEquals(await isClosed(t, listing.id), false, "the other manager answers it");
  const run = await runJob(findJob("manager-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run, { job: "manager-closes", closed: 0 });
  assertEquals(await isClosed(t, listing.id), false);
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["manager_closes"] }))).length, 0, "the close is done");
});

Deno.test("the last manager deletes their account: the listing they answered closes", async () => {
  await using t = await createTestApp();
  const manager = await createTestUser(t, "member");
  const { listing } = await orphaned(t, [manager]);
  await deleteOf(t, manager);
  assert(await isClosed(t, listing.id), "nobody answers it now");
  const ended = await runJob(findJob("applications-ended")!, t.services, new Date());
  assertEquals(ended.moved, 1);
});

Deno.test("a listing whose owner posts and answers it stays open when the organization's last manager leaves", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const manager = await createTestUser(t, "member");
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Big Co" });
  await verifyOrganizationOf(t, listing, [manager.user.id]);
  await applyTo(t, await applicant(t, "Jai Singh"), listing);
  await suspend(t, admin, manager);
  assertEquals(await isClosed(t, listing.id), false, "its poster answers it");
  await deleteOf(t, manager);
  assertEquals(await isClosed(t, listing.id), false);
});

Deno.test("a close the suspension's request left is finished by the manager-closes job", async () => {
  await using t = await createTestApp();
  const manager = await createTestUser(t, "member");
  const { admin, listing } = await orphaned(t, [manager]);
  // The request that suspended stopped before running the close.
  const parties = { actorId: admin.user.id, targetId: manager.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...parties, reason: "Asked applicants for a fee", hideListings: false });
  assertEquals(await isClosed(t, listing.id), false);
  const early = await runJob(findJob("manager-closes")!, t.services, new Date());
  assertEquals(early, { job: "manager-closes", closed: 0 }, "the job leaves it to the request for 2 minutes");
  const run = await runJob(findJob("manager-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run, { job: "manager-closes", closed: 1 });
  assert(await isClosed(t, listing.id));
  assertEquals((await Array.fromAsync(t.kv.list({ prefix: ["manager_closes"] }))).length, 0, "then the close goes");
});

Deno.test("a suspension lifted before its close ran closes nothing", async () => {
  await using t = await createTestApp();
  const manager = await createTestUser(t, "member");
  const { admin, listing } = await orphaned(t, [manager]);
  const parties = { actorId: admin.user.id, targetId: manager.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...parties, reason: "Asked applicants for a fee", hideListings: false });
  await liftSuspension(t.kv, parties);
  const run = await runJob(findJob("manager-closes")!, t.services, new Date(Date.now() + 3 * 60_000));
  assertEquals(run, { job: "manager-closes", closed: 0 });
  assertEquals(await isClosed(t, listing.id), false, "the manager answers it again");
});

/** `t.kv` running `before` once, just before the first write of listing `id` commits: a write landing in between. */
function beforeWriteOf(t: TestApp, id: string, before: () => Promise<unknown>): Deno.Kv {
  let pending: (() => Promise<unknown>) | null = before;
  return kvWithCommits(t.kv, async (_n, apply, sets) => {
    const run = sets.some((key) => key.includes(id)) ? pending : null;
    if (run) pending = null;
    await run?.();
    return await apply();
  });
}

Deno.test("a manager confirmed after the close read the managers: the listing they answer now stays open", async () => {
  await using t = await createTestApp();
  const [manager, next] = [await createTestUser(t, "member"), await createTestUser(t, "user")];
  const { admin, listing } = await orphaned(t, [manager]);
  const parties = { actorId: admin.user.id, targetId: manager.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...parties, reason: "Asked applicants for a fee", hideListings: false });
  // A claim confirmed (as `followClaim` writes it) between the close's read of the managers and the listing's write.
  const organizationId = listing.organization!.id;
  const kv = beforeWriteOf(t, listing.id, async () => {
    const entry = await getOrganization(t.kv, organizationId) as Deno.KvEntry<Organization>;
    const at = new Date().toISOString();
    assert(await touchOrganization(t.kv, entry, (op) => addManagerOps(op, organizationId, next.user.id, at)));
  });
  assertEquals(await closeManagedListings(kv, manager.user.id), 0);
  assertEquals(await isClosed(t, listing.id), false, "the new manager answers it");
});

Deno.test("an owner's suspension lifted after the close read them: their listing stays open", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const manager = await createTestUser(t, "member");
  const listing = await platformInternship(t, member, { title: "Ops Intern", hiringOrganization: "Big Co" });
  await verifyOrganizationOf(t, listing, [manager.user.id]);
  const owner = { actorId: admin.user.id, targetId: member.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...owner, reason: "Asked applicants for a fee", hideListings: false });
  const parties = { actorId: admin.user.id, targetId: manager.user.id, appUrl: t.origin };
  await suspendUser(t.kv, { ...parties, reason: "Asked applicants for a fee", hideListings: false });
  // The poster's suspension lifted between the close's read of them and their listing's write.
  const kv = beforeWriteOf(t, listing.id, () => liftSuspension(t.kv, owner));
  assertEquals(await closeManagedListings(kv, manager.user.id), 0);
  assertEquals(await isClosed(t, listing.id), false, "its poster answers it again");
});
