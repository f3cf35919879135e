/**
 * Reports of what is removed (docs/decisions.md, Trust, "Reports of what is removed"): a reported comment deleted by its
 * author, by an admin, by a suspension's removal of its author's comments, or with its post, and a reported post
 * deleted, leave the admin's queue with their reports resolved as removed by whom, their reporters told in their
 * language; another target's reports stay open; nothing new is reported of what is gone, not even by a report read
 * before the removal; 300 reports of one comment are resolved in bounded writes, by the job when the request stopped.
 */
import { assert, assertEquals, assertRejects } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { people } from "@/tests/fixtures/people.ts";
import { reportedBy } from "@/tests/fixtures/reports.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { call } from "./helpers.ts";
import { checkReport, createReport } from "@/lib/reports/reports.ts";
import { removeComment } from "@/lib/comments/comments.ts";
import { deleteConversation } from "@/lib/comments/store.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { updateUser } from "@/lib/users/users.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { NotFoundError } from "@/lib/errors.ts";

function report(t: TestApp, who: TestUser, kind: string, id: string, reason = "spam") {
  return call(t, who, "POST", "/api/reports", { kind, id, reason });
}

async function comment(t: TestApp, who: TestUser, postId: string, content: string): Promise<string> {
  const res = await call(t, who, "POST", `/api/ungatekeep/${postId}/comments`, { content });
  assertEquals(res.status, 201);
  return res.body.comment.id;
}

/** The targets of the admin's open queue, as `kind id` with their open reports. */
async function queue(t: TestApp, admin: TestUser): Promise<string[]> {
  const res = await call(t, admin, "GET", "/api/admin/reports?limit=100");
  assertEquals(res.status, 200);
  return res.body.targets.map((target: { kind: string; targetId: string; openReports: number }) =>
    `${target.kind} ${target.targetId} ${target.openReports}`
  );
}

/** The reports of `kind`/`id` as the admin reads them: the target's state and each report's status and resolution. */
async function resolutions(t: TestApp, admin: TestUser, kind: string, id: string) {
  const res = await call(t, admin, "GET", `/api/admin/reports/${kind}/${id}`);
  assertEquals(res.status, 200);
  return {
    status: res.body.target.status as string,
    reports: (res.body.reports as { status: string; resolution: { action: string; by?: string; note: null } }[])
      .map(({ status, resolution }) => [status, resolution && `${resolution.action} ${resolution.by ?? ""}`]),
  };
}

/** The `report_resolved` notifications of `who`, as they read them in `lang`. */
async function told(t: TestApp, who: TestUser, lang = "en") {
  const res = await call(t, who, "GET", `/api/me/notifications?limit=100&lang=${lang}`);
  return (res.body.notifications as { type: string; title: string; body: string; url: string }[])
    .filter((n) => n.type === "report_resolved");
}

Deno.test("a reported comment its author deletes leaves the queue: resolved as removed by its author, reporters told", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const other = await createTestUser(t, "user");
  const post = await createPost(t, admin, { title: "Stipends" });
  const doomed = await comment(t, member, post.id, "Buy followers at spam.example");
  const kept = await comment(t, member, post.id, "Another one");
  assertEquals((await report(t, student, "comment", doomed)).status, 201);
  assertEquals((await report(t, other, "comment", doomed, "offensive")).status, 201);
  assertEquals((await report(t, student, "comment", kept)).status, 201);
  assertEquals((await queue(t, admin)).length, 2);

  assertEquals((await call(t, member, "DELETE", `/api/ungatekeep/comments/${doomed}`)).status, 200);
  assertEquals(await queue(t, admin), [`comment ${kept} 1`], "only the other comment is left to decide");
  assertEquals(await resolutions(t, admin, "comment", doomed), {
    status: "resolved",
    reports: [["resolved", "removed author"], ["resolved", "removed author"]],
  });
  assertEquals((await resolutions(t, admin, "comment", kept)).reports, [["open", null]], "another target untouched");
  const resolved = await call(t, admin, "GET", "/api/admin/reports?status=resolved");
  assertEquals(resolved.body.targets.map((target: { targetId: string }) => target.targetId), [doomed]);

  const [notice] = await told(t, student);
  assertEquals([notice.title, notice.url], ["The comment you reported was removed", "/ungatekeep"]);
  assert(notice.body.includes("was deleted by its author") && !notice.body.includes("Buy followers"), notice.body);
  await updateUser(t.kv, other.user.id, { language: "hi" });
  const [hindi] = await told(t, other, "hi");
  assertEquals(hindi.title, "आपका रिपोर्ट किया कमेंट हटा दिया गया");
  assert(hindi.body.includes("उसके लेखक ने ख़ुद डिलीट कर दिया"), hindi.body);

  const late = await report(t, await createTestUser(t, "user"), "comment", doomed);
  assertEquals(late.status, 404, "a removed comment is not reported again");
  const page = await t.fetch(`/admin/reports/comment/${doomed}`, { headers: admin.headers });
  assert((await page.text()).includes("resolved: its author deleted it"), "the admin page says who removed it");
});

Deno.test("a reported comment an admin deletes, by the API or the moderation page: resolved as removed by an admin", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const post = await createPost(t, admin);
  const byApi = await comment(t, member, post.id, "Spam one");
  const byPage = await comment(t, member, post.id, "Spam two");
  const kept = await comment(t, member, post.id, "Fine");
  for (const id of [byApi, byPage, kept]) assertEquals((await report(t, student, "comment", id)).status, 201);

  assertEquals((await call(t, admin, "DELETE", `/api/ungatekeep/comments/${byApi}`)).status, 200);
  const form = await postForm(t, admin, "/admin/comments", { intent: "delete", id: byPage });
  assertEquals(form.status, 303, "the moderation page's plain form");
  await form.body?.cancel();

  assertEquals(await queue(t, admin), [`comment ${kept} 1`]);
  for (const id of [byApi, byPage]) {
    assertEquals(await resolutions(t, admin, "comment", id), {
      status: "resolved",
      reports: [["resolved", "removed admin"]],
    });
  }
  const notices = await told(t, student);
  assertEquals(notices.length, 2);
  assert(notices.every((n) => n.body.includes("was removed by an admin")), notices[0].body);
  assertEquals((await report(t, await createTestUser(t, "user"), "comment", byPage)).status, 404);
});

Deno.test("a suspension that removes its person's comments resolves their reports as removed by the suspension", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const spammer = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  const spam = await comment(t, spammer, post.id, "Spam");
  const kept = await comment(t, member, post.id, "Someone else's");
  assertEquals((await report(t, student, "comment", spam)).status, 201);
  assertEquals((await report(t, student, "comment", kept)).status, 201);

  const suspended = await call(t, admin, "POST", `/api/admin/users/${spammer.user.id}/suspension`, {
    reason: "Spammed every post",
    removeComments: true,
  });
  assertEquals(suspended.status, 200);
  assertEquals(await queue(t, admin), [`comment ${kept} 1`]);
  assertEquals(await resolutions(t, admin, "comment", spam), {
    status: "resolved",
    reports: [["resolved", "removed suspension"]],
  });
  const [notice] = await told(t, student);
  assert(notice.body.includes("was removed by an admin"), "the reporter is not told of another's suspension");
});

Deno.test("a reported post deleted: its reports removed by an admin, its comments' with the post; others stay", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const other = await createTestUser(t, "user");
  const doomed = await createPost(t, admin, { title: "Doomed post" });
  const kept = await createPost(t, admin, { title: "Kept post" });
  const under = await comment(t, member, doomed.id, "Under the doomed post");
  const reply = (await call(t, member, "POST", `/api/ungatekeep/${doomed.id}/comments`, {
    content: "A reply",
    parentId: under,
  })).body.comment.id;
  const elsewhere = await comment(t, member, kept.id, "Under the kept post");
  for (const [kind, id] of [["post", doomed.id], ["comment", under], ["comment", reply], ["comment", elsewhere]]) {
    assertEquals((await report(t, student, kind, id)).status, 201);
  }
  assertEquals((await report(t, other, "comment", under)).status, 201);

  assertEquals((await call(t, admin, "DELETE", `/api/admin/ungatekeep/${doomed.id}`)).status, 200);
  assertEquals(await queue(t, admin), [`comment ${elsewhere} 1`]);
  assertEquals((await resolutions(t, admin, "post", doomed.id)).reports, [["resolved", "removed admin"]]);
  assertEquals((await resolutions(t, admin, "comment", under)).reports, [
    ["resolved", "removed post"],
    ["resolved", "removed post"],
  ]);
  assertEquals((await resolutions(t, admin, "comment", reply)).reports, [["resolved", "removed post"]]);
  const bodies = (await told(t, student)).map((n) => n.body);
  assertEquals(bodies.length, 3);
  assert(bodies.some((body) => body.includes("“Doomed post” was removed by an admin")), bodies.join("\n"));
  assertEquals(bodies.filter((body) => body.includes("was removed with the post it was under")).length, 2);
  assertEquals((await report(t, other, "post", doomed.id)).status, 404);
  assertEquals((await report(t, other, "comment", reply)).status, 404);
});

Deno.test("deleting a post reads its own comments' open reports, not those of 300 comments reported elsewhere", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const post = await createPost(t, admin, { title: "Busy post" });
  const reported = await comment(t, member, post.id, "Reported here");
  await comment(t, member, post.id, "Not reported");
  assertEquals((await report(t, student, "comment", reported)).status, 201);
  // Comments reported under other posts, as their open reports leave them in the open view.
  const elsewhere = t.kv.atomic();
  const at = new Date().toISOString();
  for (let i = 0; i < 300; i++) {
    elsewhere.set(["report_targets_open", "comment", `elsewhere-${i}`], { open: 1, lastReportedAt: at });
  }
  assert((await elsewhere.commit()).ok);

  const reads = kvReads();
  await deleteConversation(recordingReads(t.kv, reads), post.id);
  const openView = reads.lists.filter(({ selector }) =>
    "prefix" in selector && selector.prefix[0] === "report_targets_open"
  );
  assertEquals(openView.map(({ listed }) => listed), [], "the open view is not listed");
  assert(reads.listed + reads.keys.length < 100, `${reads.listed} entries listed, ${reads.keys.length} keys read`);
  assertEquals((await resolutions(t, admin, "comment", reported)).reports, [["resolved", "removed post"]]);
});

Deno.test("a report read before the removal is refused when it is written after it", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const post = await createPost(t, admin);
  const id = await comment(t, member, post.id, "Spam");
  const under = await comment(t, member, post.id, "Under the post");
  const input = { kind: "comment" as const, id, reason: "spam" as const, details: null };
  const checked = await checkReport(t.kv, student.user, input);
  assert("target" in checked);
  await removeComment(t.kv, id, member.user);
  await assertRejects(() => createReport(t.kv, student.user, input, checked.target), NotFoundError);

  const underInput = { ...input, id: under };
  const beforePostGone = await checkReport(t.kv, student.user, underInput);
  assert("target" in beforePostGone);
  assertEquals((await call(t, admin, "DELETE", `/api/admin/ungatekeep/${post.id}`)).status, 200);
  await assertRejects(() => createReport(t.kv, student.user, underInput, beforePostGone.target), NotFoundError);
  assertEquals(await queue(t, admin), []);
});

Deno.test("300 reports of one comment: the removal's write resolves 50, the rest follow, or the job when it stopped", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const post = await createPost(t, admin);
  const first = await comment(t, member, post.id, "Reported by many");
  const second = await comment(t, member, post.id, "Reported by many too");
  await reportedBy(t, { kind: "comment", id: first }, 300, (i) => `Report ${i}`);
  await reportedBy(t, { kind: "comment", id: second }, 300, (i) => `Report ${i}`);

  // The whole request: one write removes the comment with 50 reports, five more resolve the rest.
  const writes: number[] = [];
  const kv = kvWithCommits(t.kv, (_n, apply, sets) => {
    writes.push(sets.filter((key) => key[0] === "reports").length);
    return apply();
  });
  await removeComment(kv, first, member.user);
  assertEquals(writes, [50, 50, 50, 50, 50, 50]);
  assertEquals((await resolutions(t, admin, "comment", first)).reports.filter(([s]) => s === "open").length, 0);

  // A request that stops after the removal's write leaves the rest to the `report-removals` job.
  const stopping = kvWithCommits(t.kv, (n, apply) => n === 1 ? apply() : Promise.reject(new Error("KV went away")));
  await assertRejects(() => removeComment(stopping, second, member.user), Error, "KV went away");
  assertEquals(await queue(t, admin), [`comment ${second} 250`]);
  const job = findJob("report-removals")!;
  assertEquals((await runJob(job, t.services)).resolved, 0, "the request's own minute is left to it");
  const later = new Date(Date.now() + 2 * 60_000);
  assertEquals((await runJob(job, t.services, later)).resolved, 250);
  assertEquals(await queue(t, admin), []);
  const { reports } = await resolutions(t, admin, "comment", second);
  assertEquals(
    new Set(reports.map(([status, resolution]) => `${status} ${resolution}`)),
    new Set([
      "resolved removed author",
    ]),
  );
});
