/**
 * Reports of listings that are removed (docs/decisions.md, Trust, "Reports of what is removed"): a reported internship
 * deleted by its poster or an admin, an internship or opportunity an admin rejects in the moderation queue, and the
 * listings a suspension hides leave the admin's queue with their reports resolved as removed by whom, their reporters
 * told in their language; another listing's reports stay open; nothing new is reported of what is gone; many reports
 * of one listing are resolved in bounded writes, by the job when the request stopped.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { people } from "@/tests/fixtures/people.ts";
import { reportedBy } from "@/tests/fixtures/reports.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { call } from "./helpers.ts";
import { checkReport, createReport } from "@/lib/reports/reports.ts";
import { deleteInternship, moderateInternship } from "@/lib/internships/writes.ts";
import { moderateOpportunity } from "@/lib/opportunities/opportunities.ts";
import { NotFoundError } from "@/lib/errors.ts";
import { updateUser } from "@/lib/users/users.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { decideListing } from "@/lib/moderation/admin.ts";
import { createLogger } from "@/lib/log.ts";

function report(t: TestApp, who: TestUser, kind: string, id: string, reason = "spam") {
  return call(t, who, "POST", "/api/reports", { kind, id, reason });
}

/** The targets of the admin's open queue, as `kind id` with their open reports. */
async function queue(t: TestApp, admin: TestUser): Promise<string[]> {
  const res = await call(t, admin, "GET", "/api/admin/reports?limit=100");
  assertEquals(res.status, 200);
  return res.body.targets.map((target: { kind: string; targetId: string; openReports: number }) =>
    `${target.kind} ${target.targetId} ${target.openReports}`
  ).sort();
}

/** The reports of `kind`/`id` as the admin reads them: each report's status and resolution. */
async function resolutions(t: TestApp, admin: TestUser, kind: string, id: string) {
  const res = await call(t, admin, "GET", `/api/admin/reports/${kind}/${id}`);
  assertEquals(res.status, 200);
  return (res.body.reports as { status: string; resolution: { action: string; by?: string } | null }[])
    .map(({ status, resolution }) => [status, resolution && `${resolution.action} ${resolution.by ?? ""}`]);
}

/** The `report_resolved` notifications of `who`, as they read them in `lang`. */
async function told(t: TestApp, who: TestUser, lang = "en") {
  const res = await call(t, who, "GET", `/api/me/notifications?limit=100&lang=${lang}`);
  return (res.body.notifications as { type: string; title: string; body: string; url: string }[])
    .filter((n) => n.type === "report_resolved");
}

Deno.test("a reported internship its poster deletes leaves the queue: resolved as removed by its author", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const other = await createTestUser(t, "user");
  const doomed = await postInternship(t, member, { title: "Data Intern" });
  const kept = await postInternship(t, member, { title: "Design Intern" });
  assertEquals((await report(t, student, "internship", doomed.id)).status, 201);
  assertEquals((await report(t, other, "internship", doomed.id, "misleading")).status, 201);
  assertEquals((await report(t, student, "internship", kept.id)).status, 201);

  assertEquals((await call(t, member, "DELETE", `/api/internships/${doomed.id}`)).status, 200);
  assertEquals(await queue(t, admin), [`internship ${kept.id} 1`], "only the other listing is left to decide");
  assertEquals(await resolutions(t, admin, "internship", doomed.id), [
    ["resolved", "removed author"],
    ["resolved", "removed author"],
  ]);
  assertEquals(await resolutions(t, admin, "internship", kept.id), [["open", null]], "another listing untouched");

  const [notice] = await told(t, student);
  assertEquals([notice.title, notice.url], ["The internship you reported was removed", "/internships"]);
  assert(notice.body.includes("“Data Intern” was deleted by the person who posted it"), notice.body);
  await updateUser(t.kv, other.user.id, { language: "hi" });
  const [hindi] = await told(t, other, "hi");
  assertEquals(hindi.title, "आपकी रिपोर्ट की गई इंटर्नशिप हटा दी गई");
  assert(hindi.body.includes("“Data Intern” को पोस्ट करने वाले ने ख़ुद डिलीट कर दिया"), hindi.body);

  const late = await report(t, await createTestUser(t, "user"), "internship", doomed.id);
  assertEquals(late.status, 404, "a deleted listing is not reported again");
  const page = await t.fetch(`/admin/reports/internship/${doomed.id}`, { headers: admin.headers });
  assert((await page.text()).includes("resolved: its author deleted it"), "the admin page says who removed it");
});

Deno.test("a reported internship an admin deletes: resolved as removed by an admin", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const listing = await postInternship(t, member);
  assertEquals((await report(t, student, "internship", listing.id)).status, 201);

  assertEquals((await call(t, admin, "DELETE", `/api/internships/${listing.id}`)).status, 200);
  assertEquals(await queue(t, admin), []);
  assertEquals(await resolutions(t, admin, "internship", listing.id), [["resolved", "removed admin"]]);
  const [notice] = await told(t, student);
  assert(notice.body.includes("was removed by an admin"), notice.body);
});

Deno.test("a reported listing an admin rejects in the moderation queue: resolved as the admin's reject", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const internship = await postInternship(t, member, { title: "Sales Intern" });
  const approved = await postInternship(t, member, { title: "Kept Intern" });
  const opportunity = await submitOpportunity(t, admin, "Hackathon");
  for (
    const [kind, id] of [["internship", internship.id], ["internship", approved.id], ["opportunity", opportunity.id]]
  ) {
    assertEquals((await report(t, student, kind, id)).status, 201);
  }

  const decide = (kinds: string, id: string, decision: string) =>
    call(t, admin, "POST", `/api/admin/moderation/${kinds}/${id}`, { decision, note: "Not a real internship" });
  assertEquals((await decide("internships", internship.id, "reject")).status, 200);
  assertEquals((await decide("opportunities", opportunity.id, "reject")).status, 200);
  assertEquals((await decide("internships", approved.id, "approve")).status, 200);
  assertEquals(await queue(t, admin), [`internship ${approved.id} 1`], "an approval leaves the reports to decide");
  assertEquals(await resolutions(t, admin, "internship", internship.id), [["resolved", "removed moderation"]]);
  assertEquals(await resolutions(t, admin, "opportunity", opportunity.id), [["resolved", "removed moderation"]]);

  const notices = await told(t, student);
  assertEquals(notices.map((n) => n.title).sort(), [
    "The internship you reported was removed",
    "The opportunity you reported was removed",
  ]);
  assert(notices.every((n) => n.body.includes("was removed by an admin")), notices[0].body);
  assertEquals((await report(t, await createTestUser(t, "user"), "opportunity", opportunity.id)).status, 404);
  const page = await t.fetch(`/admin/reports/opportunity/${opportunity.id}`, { headers: admin.headers });
  assert((await page.text()).includes("resolved: an admin rejected it in moderation"), "the admin page says so");
});

Deno.test("a suspension that hides its poster's listings resolves their reports as removed by the suspension", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const scammer = await createTestUser(t, "member");
  const internship = await postInternship(t, scammer, { title: "Pay to apply" });
  const opportunity = await submitOpportunity(t, admin, "Someone else's");
  const kept = await postInternship(t, member);
  for (const [kind, id] of [["internship", internship.id], ["internship", kept.id], ["opportunity", opportunity.id]]) {
    assertEquals((await report(t, student, kind, id)).status, 201);
  }

  const suspended = await call(t, admin, "POST", `/api/admin/users/${scammer.user.id}/suspension`, {
    reason: "Asked students for fees",
  });
  assertEquals(suspended.status, 200);
  assertEquals(suspended.body.hiddenListings, 1);
  assertEquals(await queue(t, admin), [`internship ${kept.id} 1`, `opportunity ${opportunity.id} 1`].sort());
  assertEquals(await resolutions(t, admin, "internship", internship.id), [["resolved", "removed suspension"]]);
  const [notice] = await told(t, student);
  assert(notice.body.includes("was removed by an admin"), "the reporter is not told of another's suspension");
  const exported = await (await t.fetch("/api/me/export", { headers: student.headers })).json();
  const resolution = exported.reports.find((r: { targetId: string }) => r.targetId === internship.id).resolution;
  assertEquals([resolution.action, resolution.by], ["removed", "admin"], "nor by their data export");
  const page = await t.fetch(`/admin/reports/internship/${internship.id}`, { headers: admin.headers });
  assert((await page.text()).includes("resolved: removed when its author was suspended"), "the admin page says so");
});

Deno.test("a report of a listing read before its deletion or reject is refused when written after it", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const deleted = await postInternship(t, member);
  const rejected = await postInternship(t, member);
  const opportunity = await submitOpportunity(t, admin, "Hackathon");
  for (
    const [kind, listing, remove] of [
      ["internship", deleted, () => deleteInternship(t.kv, { id: deleted.id, actor: member.user })],
      [
        "internship",
        rejected,
        () => moderateInternship(t.kv, { id: rejected.id, admin: admin.user, decision: "reject", note: null }),
      ],
      [
        "opportunity",
        opportunity,
        () => moderateOpportunity(t.kv, { id: opportunity.id, decision: "reject", note: null }),
      ],
    ] as const
  ) {
    const input = { kind, id: listing.id, reason: "spam" as const, details: null };
    const checked = await checkReport(t.kv, student.user, input);
    assert("target" in checked);
    await remove();
    await assertRejects(() => createReport(t.kv, student.user, input, checked.target), NotFoundError);
  }
  assertEquals(await queue(t, admin), []);
});

Deno.test("a report of an opportunity filed while its reject is being written: resolved with it", async () => {
  await using t = await createTestApp();
  const { admin, student } = await people(t);
  const opportunity = await submitOpportunity(t, admin, "Hackathon");
  const input = { kind: "opportunity" as const, id: opportunity.id, reason: "spam" as const, details: null };
  // The report is read and written after the reject read the listing's report summary, before the reject's write.
  let filed = false;
  const racing = kvWithCommits(t.kv, async (_n, apply) => {
    if (!filed) {
      filed = true;
      const checked = await checkReport(t.kv, student.user, input);
      assert("target" in checked);
      await createReport(t.kv, student.user, input, checked.target);
    }
    return await apply();
  });
  await moderateOpportunity(racing, { id: opportunity.id, decision: "reject", note: null });
  assert(filed);
  assertEquals(await queue(t, admin), []);
  assertEquals(await resolutions(t, admin, "opportunity", opportunity.id), [["resolved", "removed moderation"]]);
});

Deno.test("a listing's removal reads its reports alongside the listing, not before it: a round trip less", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvLatencyMs: 10, kvReads: reads });
  const { admin, member, student } = await people(t);
  const [deleted, rejected] = [await postInternship(t, member), await postInternship(t, member)];
  const opportunity = await submitOpportunity(t, admin, "Hackathon");
  assertEquals((await report(t, student, "internship", deleted.id)).status, 201);
  for (
    const [kind, id, remove] of [
      ["internship", deleted.id, () => deleteInternship(t.kv, { id: deleted.id, actor: member.user })],
      [
        "internship",
        rejected.id,
        () => moderateInternship(t.kv, { id: rejected.id, admin: admin.user, decision: "reject", note: null }),
      ],
      [
        "opportunity",
        opportunity.id,
        () => moderateOpportunity(t.kv, { id: opportunity.id, decision: "reject", note: null }),
      ],
    ] as const
  ) {
    await t.settled();
    reads.maxInFlight = 0;
    const from = reads.keys.length;
    await remove();
    assert(reads.keys.slice(from).some((key) => key[0] === "report_targets" && key[2] === id), "its summary is read");
    assert(reads.maxInFlight > 1, `${kind} ${id}: the summary is read with the listing, not before it`);
  }
  assertEquals(await resolutions(t, admin, "internship", deleted.id), [["resolved", "removed author"]]);
});

Deno.test("120 reports of one internship: the deletion's write resolves 50, the rest follow, or the job", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const first = await postInternship(t, member);
  const second = await postInternship(t, member);
  await reportedBy(t, { kind: "internship", id: first.id }, 120);
  await reportedBy(t, { kind: "internship", id: second.id }, 120);

  // The whole request: the write that deletes the listing resolves 50 reports, two more resolve the rest.
  const writes: number[] = [];
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    writes.push(sets.filter((key) => key[0] === "reports").length);
    return apply();
  });
  await deleteInternship(kv, { id: first.id, actor: member.user });
  assertEquals(writes.filter((count) => count > 0), [50, 50, 20]);
  assertEquals(await queue(t, admin), [`internship ${second.id} 120`]);

  // A request that stops after the deletion's write leaves the rest to the `report-removals` job.
  const stopping = kvWithCommits(t.kv, (n, apply) => n === 1 ? apply() : Promise.reject(new Error("KV went away")));
  await assertRejects(() => deleteInternship(stopping, { id: second.id, actor: admin.user }), Error, "KV went away");
  assertEquals(await queue(t, admin), [`internship ${second.id} 70`]);
  const later = new Date(Date.now() + 2 * 60_000);
  assertEquals((await runJob(findJob("report-removals")!, t.services, later)).resolved, 70);
  assertEquals(await queue(t, admin), []);
  const resolved = new Set((await resolutions(t, admin, "internship", second.id)).map((pair) => pair.join(" ")));
  assertEquals(resolved, new Set(["resolved removed admin"]));
});

Deno.test("a rejected listing approved again gets back the reports its removal resolved, not its hold", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const internship = await postInternship(t, member, { title: "Sales Intern" });
  const opportunity = await submitOpportunity(t, admin, "Hackathon");
  const others = [await createTestUser(t, "user"), await createTestUser(t, "user")];
  for (const who of [student, ...others]) {
    assertEquals((await report(t, who, "internship", internship.id, "asks_for_money")).status, 201);
  }
  assertEquals((await report(t, student, "opportunity", opportunity.id)).status, 201);
  const decide = (kinds: string, id: string, decision: string) =>
    call(t, admin, "POST", `/api/admin/moderation/${kinds}/${id}`, { decision, note: null });
  assertEquals((await decide("internships", internship.id, "reject")).status, 200);
  assertEquals((await decide("opportunities", opportunity.id, "reject")).status, 200);
  assertEquals(await queue(t, admin), []);

  // An admin lists them again (a suspension lifted, a reject undone): nobody decided on their reports.
  assertEquals((await decide("internships", internship.id, "approve")).status, 200);
  assertEquals(await queue(t, admin), [`internship ${internship.id} 3`], "the approval's request reopens them");
  const review = await call(t, admin, "PATCH", `/api/admin/opportunities/${opportunity.id}`, {
    action: "approve",
  });
  assertEquals(review.status, 200);
  assertEquals((await runJob(findJob("report-removals")!, t.services)).reopened, 1, "the job, for another approval");
  assertEquals(await queue(t, admin), [`internship ${internship.id} 3`, `opportunity ${opportunity.id} 1`].sort());
  assertEquals(await resolutions(t, admin, "internship", internship.id), [["open", null], ["open", null], [
    "open",
    null,
  ]]);
  const again = await report(t, student, "internship", internship.id, "asks_for_money");
  assertEquals([again.status, again.body.report.status], [200, "open"], "their open report, not a second one");
  // The approval vouched for it: the reports filed before it hold it no more, three new reporters do.
  const status = async () =>
    (await call(t, admin, "GET", `/api/internships/${internship.id}`)).body.internship
      .moderation.status;
  const later = [await createTestUser(t, "user"), await createTestUser(t, "user"), await createTestUser(t, "user")];
  for (const [n, who] of later.entries()) {
    assertEquals(await status(), "clear", `${n} reports since the approval do not hold it`);
    assertEquals((await report(t, who, "internship", internship.id, "asks_for_money")).status, 201);
  }
  assertEquals(await status(), "held", "three reporters of money since the approval hold it");
});

Deno.test("an approval whose reopening loses its races answers its success; the job reopens them", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member);
  await reportedBy(t, { kind: "internship", id: listing.id }, 3);
  await moderateInternship(t.kv, { id: listing.id, admin: admin.user, decision: "reject", note: null });
  assertEquals(await queue(t, admin), []);

  // The approval's write lands; every write of the reopening after it loses its race.
  const kv = kvWithCommits(t.kv, (n, apply) => n === 1 ? apply() : Promise.resolve({ ok: false } as const));
  const lines: string[] = [];
  const log = createLogger("warn", (line) => lines.push(line));
  const body = { decision: "approve", note: null } as const;
  const item = await decideListing({ kv, log }, { kind: "internships", id: listing.id, admin: admin.user, body });
  assertEquals(item.moderation.status, "clear", "the decision landed, and the admin is told so");
  assertEquals(lines.map((line) => JSON.parse(line).msg), ["an approval left its reports to reopen to the job"]);
  assertEquals(await queue(t, admin), [], "nothing reopened yet");
  assertEquals((await runJob(findJob("report-removals")!, t.services)).reopened, 3);
  assertEquals(await queue(t, admin), [`internship ${listing.id} 3`]);
});

Deno.test("a reject again before the reopening leaves the reports resolved; 120 are reopened in bounded writes", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const flipped = await postInternship(t, member);
  const many = await postInternship(t, member);
  await reportedBy(t, { kind: "internship", id: flipped.id }, 3);
  await reportedBy(t, { kind: "internship", id: many.id }, 120);
  const decide = (id: string, decision: "approve" | "reject") =>
    moderateInternship(t.kv, { id, admin: admin.user, decision, note: null });
  for (const id of [flipped.id, many.id]) await decide(id, "reject");
  await decide(flipped.id, "approve");
  await decide(flipped.id, "reject");
  await decide(many.id, "approve");
  assertEquals(await queue(t, admin), [], "the approvals' own requests did not reopen them");

  const writes: number[] = [];
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    writes.push(sets.filter((key) => key[0] === "reports").length);
    return apply();
  });
  assertEquals((await runJob(findJob("report-removals")!, { ...t.services, kv })).reopened, 120);
  assertEquals(writes.filter((count) => count > 0), [50, 50, 20]);
  assertEquals(await queue(t, admin), [`internship ${many.id} 120`], "the listing rejected again keeps them resolved");
});

Deno.test("an approval stops what a stopped reject left to resolve: the job resolves none of the listing listed again", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member);
  await reportedBy(t, { kind: "internship", id: listing.id }, 120);
  const stopping = kvWithCommits(t.kv, (n, apply) => n === 1 ? apply() : Promise.reject(new Error("KV went away")));
  const reject = () =>
    moderateInternship(stopping, { id: listing.id, admin: admin.user, decision: "reject", note: null });
  await assertRejects(reject, Error, "KV went away");
  assertEquals(await queue(t, admin), [`internship ${listing.id} 70`], "the reject's write resolved 50");

  const approved = await call(t, admin, "POST", `/api/admin/moderation/internships/${listing.id}`, {
    decision: "approve",
  });
  assertEquals(approved.status, 200);
  assertEquals(await queue(t, admin), [`internship ${listing.id} 120`]);
  const later = new Date(Date.now() + 2 * 60_000);
  assertEquals((await runJob(findJob("report-removals")!, t.services, later)).resolved, 0);
  assertEquals(await queue(t, admin), [`internship ${listing.id} 120`], "nothing resolved about a listing listed");
});
