/**
 * Suspending with "Also remove their comments" (docs/decisions.md, Admin, "Suspension"): the request removes the first
 * batch, the `comment-purges` job the rest, as an admin removes a comment (placeholders, counters, redacted reply
 * notifications, the audit log); none without the tick; a lift and a new suspension while a run is under way; the
 * deletion of the suspending admin and of the suspended person.
 */
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { commentCountOf, commentsOf } from "@/lib/comments/store.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { GROUP_KEPT, notificationsOf } from "@/lib/notifications/notifications.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { liftSuspension, suspendUser } from "@/lib/users/suspension.ts";
import { BATCH, purgeComments } from "@/lib/moderation/comment_purges.ts";
import { lastMailTo } from "./auth/helpers.ts";
import { deleteAccount } from "@/lib/account/deletion.ts";
import { getUser } from "@/lib/users/users.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";

const REASON = "Spammed every post with links";

function suspend(t: TestApp, admin: TestUser, id: string, body: Record<string, unknown>) {
  return t.json("POST", `/api/admin/users/${id}/suspension`, {
    body: { reason: REASON, ...body },
    headers: admin.headers,
  });
}

/** Writes `count` comments by `author` under `postId`, every third a reply to `parentId` when given; their ids. */
async function writeComments(
  t: TestApp,
  { author, postId, count, parentId }: { author: TestUser; postId: string; count: number; parentId?: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const input = {
      content: `Spam ${i} https://spam.example`,
      parentId: parentId && i % 3 === 0 ? parentId : undefined,
    };
    const { comment } = await createComment(t.kv, { postId, author: author.user, input, appUrl: t.origin });
    ids.push(comment.id);
    await t.kv.delete(["comment_rate", author.user.id]); // the rate window is not what this test is about
  }
  return ids;
}

/** The `comment.delete` entries of the audit log in the name of `adminId`: their target ids. */
async function removalsLogged(t: TestApp, adminId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const query = adminLogQuerySchema.parse({ action: "comment.delete", adminId, limit: "100", cursor });
    const page = await listAdminLog(t.kv, query);
    ids.push(...page.entries.map((entry) => entry.targetId!));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** The suspended rows of the users table as the API answers them, by user id. */
async function suspendedRows(t: TestApp, admin: TestUser) {
  const res = await t.json("GET", "/api/admin/users?suspended=true", { headers: admin.headers });
  assertEquals(res.status, 200);
  const { users } = await res.json();
  return new Map<string, { commentRemoval: unknown }>(users.map((u: { id: string }) => [u.id, u]));
}

Deno.test("a suspension with the tick removes all 250 comments across batches, none of anyone else's", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const spammer = await createTestUser(t, "member");
  const student = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  const [question] = await writeComments(t, { author: student, postId: post.id, count: 1 });
  const spam = await writeComments(t, { author: spammer, postId: post.id, count: 250, parentId: question });
  // The student answers one of the spammer's top-level comments: it stays as a placeholder for their reply.
  const answered = spam[1];
  await writeComments(t, { author: student, postId: post.id, count: 2, parentId: answered });
  assertEquals(await commentCountOf(t.kv, spammer.user.id), 250);
  const told = await notificationsOf(t.kv, student.user);
  // Of the 250 replies to the student under the post, the newest GROUP_KEPT notifications are kept.
  const spamTold = told.filter((n) => JSON.stringify(n).includes("Spam "));
  assertEquals(spamTold.length, GROUP_KEPT, "the student was told of the newest replies");
  assert(spamTold.some((n) => JSON.stringify(n).includes("Spam 249 ")), "the newest among them");

  const res = await suspend(t, admin, spammer.user.id, { hideListings: false, removeComments: true });
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.commentRemoval, { total: 250, removed: BATCH, done: false }, "the request removes one batch");
  assertEquals((await suspendedRows(t, admin)).get(spammer.user.id)?.commentRemoval, body.commentRemoval);
  const page = await (await t.fetch("/admin/users?suspended=1", { headers: admin.headers })).text();
  assert(page.includes(`Removing ${250 - BATCH} comments…`), "the row says how many are left");

  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 250 - BATCH });
  assertEquals(await commentCountOf(t.kv, spammer.user.id), 0);
  assertEquals((await commentsOf(t.kv, student.user.id)).length, 3, "the student's comments stay");
  const threads = await (await t.fetch(`/api/ungatekeep/${post.id}/comments?limit=100`)).json();
  const shown = threads.comments.flatMap((c: { id: string; replies: { id: string }[] }) => [c, ...c.replies]);
  assertEquals(
    shown.map((c: { id: string; isDeleted: boolean }) => [c.id, c.isDeleted]),
    [[question, false], [answered, true], ...shown.slice(2).map((c: { id: string }) => [c.id, false])],
  );
  assertEquals(shown.length, 4, "the question, the placeholder and the student's two replies");
  const counted = await (await t.fetch(`/api/ungatekeep/${post.id}`)).json();
  assertEquals(counted.post.commentCount, 3, "the counters moved with every removal");
  const redacted = await notificationsOf(t.kv, student.user);
  assert(!redacted.some((n) => JSON.stringify(n).includes("Spam ")), "no notification keeps a removed reply's words");

  const logged = await removalsLogged(t, admin.user.id);
  assertEquals(logged.sort(), [...spam].sort(), "each removal logged once, in the suspending admin's name");
  assertEquals(
    (await suspendedRows(t, admin)).get(spammer.user.id)?.commentRemoval,
    { total: 250, removed: 250, done: true },
  );
  const done = await (await t.fetch("/admin/users?suspended=1", { headers: admin.headers })).text();
  assert(done.includes("250 comments of theirs were removed."));
  const mail = await lastMailTo(t, spammer.user.email);
  assert(mail.text.includes(translatorFor("en")("mail.suspended.commentsRemoved")), mail.text);
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 0 });
});

Deno.test("the request that suspends removes the first 10 comments itself, one after another; the job the rest", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const spammer = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  await writeComments(t, { author: spammer, postId: post.id, count: 30 });
  const res = await suspend(t, admin, spammer.user.id, { removeComments: true });
  assertEquals((await res.json()).commentRemoval, { total: 30, removed: 10, done: false });
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 20 });
});

Deno.test("the e-mail of a person without comments says nothing of removing them, even with the tick", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const quiet = await createTestUser(t, "member");
  const res = await suspend(t, admin, quiet.user.id, { removeComments: true });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const { text } = await lastMailTo(t, quiet.user.email);
  const en = translatorFor("en");
  assert(text.includes(en("mail.suspended.listingsHidden")), text);
  assert(!text.includes(en("mail.suspended.listingsAndComments")), text);
});

Deno.test("without the tick none is removed; a single full batch is done at once; lifting brings none back", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const kept = await createTestUser(t, "member");
  const gone = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  await writeComments(t, { author: kept, postId: post.id, count: 3 });
  await writeComments(t, { author: gone, postId: post.id, count: BATCH });

  const without = await suspend(t, admin, kept.user.id, {});
  assertEquals([without.status, (await without.json()).commentRemoval], [200, null]);
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 0 });
  assertEquals(await commentCountOf(t.kv, kept.user.id), 3);
  assertEquals((await suspendedRows(t, admin)).get(kept.user.id)?.commentRemoval, null);
  const mail = await lastMailTo(t, kept.user.email);
  assert(!mail.text.includes(translatorFor("en")("mail.suspended.listingsAndComments")), mail.text);

  const wrong = await suspend(t, admin, gone.user.id, { removeComments: "yes" });
  assertEquals(wrong.status, 400);
  await wrong.body?.cancel();
  const removed = await suspend(t, admin, gone.user.id, { removeComments: true });
  const exactly = (await removed.json()).commentRemoval;
  assertEquals(exactly, { total: BATCH, removed: BATCH, done: true }, "one full batch, and done");
  assert(
    (await lastMailTo(t, gone.user.email)).text.includes(translatorFor("en")("mail.suspended.listingsAndComments")),
  );
  const lift = await t.json("DELETE", `/api/admin/users/${gone.user.id}/suspension`, { headers: admin.headers });
  assertEquals(lift.status, 200);
  await lift.body?.cancel();
  assertEquals(await commentCountOf(t.kv, gone.user.id), 0, "lifting brings none back");
  assertEquals((await (await t.fetch(`/api/ungatekeep/${post.id}`)).json()).post.commentCount, 3);
});

Deno.test("a finished removal costs the job's every-minute runs no read; the row still says what was removed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const spammers = [await createTestUser(t, "member"), await createTestUser(t, "member")];
  const post = await createPost(t, admin);
  for (const spammer of spammers) {
    await writeComments(t, { author: spammer, postId: post.id, count: 2 });
    const res = await suspend(t, admin, spammer.user.id, { removeComments: true });
    assertEquals((await res.json()).commentRemoval, { total: 2, removed: 2, done: true });
  }
  // One written done by the code before finished removals had their own key: the job's next run moves it.
  const [, older] = spammers;
  const done = { total: 2, removed: 2, done: true };
  await t.kv.atomic().delete(["comment_purges_done", older.user.id])
    .set(["comment_purges", older.user.id], { ...done, adminId: admin.user.id, lease: null }).commit();
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 0 });

  const reads = kvReads();
  const services = { ...t.services, kv: recordingReads(t.kv, reads) };
  assertEquals(await runJob(findJob("comment-purges")!, services), { job: "comment-purges", removed: 0 });
  assertEquals(reads.listed, 0, "no finished removal is listed");
  const rows = await suspendedRows(t, admin);
  assertEquals(spammers.map((spammer) => rows.get(spammer.user.id)?.commentRemoval), [done, done]);

  const lift = await t.json("DELETE", `/api/admin/users/${older.user.id}/suspension`, { headers: admin.headers });
  assertEquals(lift.status, 200);
  await lift.body?.cancel();
  const again = await suspend(t, admin, older.user.id, { hideListings: false });
  assertEquals((await again.json()).commentRemoval, null);
  assertEquals((await suspendedRows(t, admin)).get(older.user.id)?.commentRemoval, null, "the lift forgot it");
});

Deno.test("a lift and a second suspension while a run removes: the old run stops, the new removal finishes", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const other = await createTestUser(t, "admin");
  const spammer = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  const spam = await writeComments(t, { author: spammer, postId: post.id, count: 100 });
  const res = await suspend(t, admin, spammer.user.id, { removeComments: true });
  assertEquals((await res.json()).commentRemoval, { total: 100, removed: BATCH, done: false });

  // The job's run claims the removal (commit 1) and removes comments; before its 5th write, another admin lifts the
  // suspension and suspends again with the tick, as the request does (its first batch right after).
  const parties = { actorId: other.user.id, targetId: spammer.user.id, appUrl: t.origin };
  const kv = kvWithCommits(t.kv, async (n, apply) => {
    if (n === 5) {
      await liftSuspension(t.kv, parties);
      await suspendUser(t.kv, { ...parties, reason: REASON, hideListings: false, removeComments: true });
    }
    return await apply();
  });
  assertEquals(await purgeComments(kv, { userId: spammer.user.id, now: Date.now() }), 3, "stopped at the new one");
  const left = 100 - BATCH - 3;
  assertEquals(await purgeComments(t.kv, { userId: spammer.user.id, now: Date.now(), batches: 1 }), BATCH);
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: left - BATCH });
  assertEquals(await commentCountOf(t.kv, spammer.user.id), 0);
  const byFirst = await removalsLogged(t, admin.user.id);
  const bySecond = await removalsLogged(t, other.user.id);
  assertEquals([byFirst.length, bySecond.length], [BATCH + 3, left]);
  assertEquals([...byFirst, ...bySecond].sort(), [...spam].sort(), "every comment removed once");
  assertEquals(
    (await suspendedRows(t, admin)).get(spammer.user.id)?.commentRemoval,
    { total: left, removed: left, done: true },
  );
});

Deno.test("deleting the suspending admin leaves the removal to finish under no admin; the person's deletion ends it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  await createTestUser(t, "admin"); // another admin stays
  const spammer = await createTestUser(t, "member");
  const post = await createPost(t, admin);
  await writeComments(t, { author: spammer, postId: post.id, count: BATCH + 10 });
  const res = await suspend(t, admin, spammer.user.id, { removeComments: true });
  assertEquals((await res.json()).commentRemoval, { total: BATCH + 10, removed: BATCH, done: false });

  const now = { createdAt: new Date().toISOString() };
  await deleteAccount(t.services, { user: admin.user, session: now }, { confirm: admin.user.email });
  await t.settled(); // the cascade runs after the answer
  const purge = ["comment_purges", spammer.user.id];
  assertEquals((await t.kv.get<{ adminId: string | null }>(purge)).value?.adminId, null);
  assertEquals(await runJob(findJob("comment-purges")!, t.services), { job: "comment-purges", removed: 10 });
  assertEquals(await commentCountOf(t.kv, spammer.user.id), 0);

  const suspended = (await getUser(t.kv, spammer.user.id))!;
  await deleteAccount(t.services, { user: suspended, session: now }, { confirm: suspended.email });
  await t.settled();
  assertEquals((await t.kv.get(purge)).versionstamp, null, "the removal goes with their account");
  const done = await t.kv.get(["comment_purges_done", spammer.user.id]);
  assertEquals(done.versionstamp, null, "and what it removed with it");
});
