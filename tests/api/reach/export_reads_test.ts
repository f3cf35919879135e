/**
 * What the export, "Your data" and the deletion read grows with the person's records, not with everyone's
 * (docs/decisions.md, Data rights; docs/performance.md, Scale): counts of keys and entries read, never timings.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { type KvReads, kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { fileReport, reportsBy } from "@/lib/reports/reports.ts";
import { ReportCreateSchema } from "@/lib/reports/schema.ts";
import { createPost as createPostAs, deletePost, forgetPostAuthor, postsBy } from "@/lib/ungatekeep/posts.ts";
import { PostCreateSchema } from "@/lib/ungatekeep/schema.ts";
import { postBody } from "@/tests/fixtures/posts.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { internshipsOwnedBy } from "@/lib/internships/internships.ts";
import { internshipStore } from "@/lib/internships/store.ts";
import { closeInternships, createInternships, forgetInternshipOwner } from "@/lib/internships/writes.ts";
import { generateInternships } from "@/lib/internships/fixtures.ts";
import { internshipInput } from "@/tests/fixtures/internships.ts";
import {
  closeOpportunities,
  forgetOpportunityOwner,
  opportunitiesOwnedBy,
  submitOpportunity,
} from "@/lib/opportunities/opportunities.ts";
import { OpportunityCreateSchema } from "@/lib/opportunities/schema.ts";
import { opportunityBody } from "@/tests/fixtures/opportunities.ts";
import { createComment } from "@/lib/comments/comments.ts";
import { htmlDocument, page } from "@/tests/fixtures/html.ts";
import { addNotification, NOTIFICATION_TTL_MS } from "@/lib/notifications/notifications.ts";
import { EXPORT_SECTIONS } from "@/lib/account/export.ts";

/** `reads` emptied, to count what comes next. */
function cleared(reads: KvReads): KvReads {
  reads.keys.length = 0;
  reads.lists.length = 0;
  reads.listed = 0;
  reads.maxInFlight = 0;
  return reads;
}

Deno.test("the export reads a person's reports together, not one round trip each", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const reporter = await createTestUser(t);
  const REPORTS = 25;
  for (let i = 0; i < REPORTS; i++) {
    const post = await createPost(t, admin, { title: `Post ${i}` });
    const input = ReportCreateSchema.parse({ kind: "post", id: post.id, reason: "other", details: `Report ${i}` });
    await fileReport(t.kv, reporter.user, input);
  }
  const reads = kvReads();
  const reports = await reportsBy(recordingReads(t.kv, reads), reporter.user.id);
  assertEquals(reports.length, REPORTS);
  assertEquals(new Set(reports.map((report) => report.details)).size, REPORTS);
  assert(reports.every((r, i) => i === 0 || reports[i - 1].createdAt >= r.createdAt), "newest first");
  assertEquals(reads.keys.length, REPORTS, "each report read once");
  assert(reads.maxInFlight > 1, "the reports are read together, not one after another");
});

Deno.test("a person's posts are read from the index of posts by author, kept by every write and backfilled", async () => {
  await using t = await createTestApp();
  const [author, other, student] = [
    await createTestUser(t, "admin"),
    await createTestUser(t, "admin"),
    await createTestUser(t),
  ];
  const { kv, services: { files, log } } = t;
  const write = (by: typeof author, title: string) =>
    createPostAs(kv, {
      files,
      author: by.user,
      input: PostCreateSchema.parse(postBody({ title, content: "Advice. ".repeat(400) })),
    });
  const mine = [await write(author, "Mine 0"), await write(author, "Mine 1"), await write(author, "Mine 2")];
  const OTHERS = 120;
  for (let i = 0; i < OTHERS; i++) await write(other, `Other ${i}`);
  // As an earlier version stored them: no entries by author, no backfill yet. Every post is read, the answer right.
  for await (const { key } of kv.list({ prefix: ["ungatekeep_posts_by_user"] })) await kv.delete(key);
  const ids = (posts: { id: string }[]) => posts.map((post) => post.id).toSorted();
  assertEquals(ids(await postsBy(kv, author.user.id)), ids(mine));

  const job = findJob("posts-author-index")!;
  assertEquals(await runJob(job, t.services), { job: "posts-author-index", indexed: OTHERS + 3 });
  assertEquals(await runJob(job, t.services), { job: "posts-author-index", indexed: 0 });

  let reads = kvReads();
  assertEquals(await postsBy(recordingReads(kv, reads), student.user.id), []);
  assertEquals(reads.listed, 0, "a person who wrote nothing reads no post");
  assert(reads.keys.length <= 1, `only the backfill's marker: ${JSON.stringify(reads.keys)}`);
  reads = kvReads();
  assertEquals(ids(await postsBy(recordingReads(kv, reads), author.user.id)), ids(mine));
  assertEquals(reads.listed, 3, "their index entries only");

  await deletePost(kv, { files, log, id: mine[0].id });
  assertEquals(ids(await postsBy(kv, author.user.id)), ids(mine.slice(1)), "a deleted post leaves the index");
  await forgetPostAuthor(kv, author.user.id);
  assertEquals(await postsBy(kv, author.user.id), []);
  assertEquals((await Array.fromAsync(kv.list({ prefix: ["ungatekeep_posts_by_user", author.user.id] }))).length, 0);
  assertEquals((await postsBy(kv, other.user.id)).length, OTHERS, "the other author's posts are theirs still");
});

Deno.test("a person's closed listings are read from the archives' owner index, kept by the archive's writes and backfilled", async () => {
  await using t = await createTestApp();
  const [member, student] = [await createTestUser(t, "member"), await createTestUser(t)];
  const { kv } = t;
  const CLOSED = 3000;
  const theirs = generateInternships(2, [member.user.id], { seed: 9 });
  await (await internshipStore(kv)).archive.seed([
    ...generateInternships(CLOSED, ["someone-else"], { seed: 5 }),
    ...theirs,
  ]);
  // As an earlier version archived them: no owner entries, no backfill yet. Every block is read, the answer right.
  for await (const { key } of kv.list({ prefix: ["internships_closed_by_owner"] })) await kv.delete(key);
  const ids = (records: { id: string }[]) => records.map((record) => record.id);
  const newest = (records: { id: string; createdAt: string }[]) =>
    ids(records.toSorted((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1)));
  assertEquals(ids(await internshipsOwnedBy(kv, member.user.id)), newest(theirs));

  const job = findJob("closed-owners-index")!;
  assertEquals(await runJob(job, t.services), {
    job: "closed-owners-index",
    internships: CLOSED + 2,
    opportunities: 0,
  });
  assertEquals(await runJob(job, t.services), { job: "closed-owners-index", internships: 0, opportunities: 0 });

  // Archived from now on by the close-listings move: indexed in its commit.
  const [posted] = await createInternships(kv, member.user, [
    internshipInput({ title: "Closed later", deadline: "2030-01-01" }),
  ]);
  const submitted = await submitOpportunity(kv, member.user, OpportunityCreateSchema.parse(opportunityBody()));
  const giveWay = () => Promise.resolve();
  assertEquals(await closeInternships(kv, { today: "2999-01-01", giveWay }), 1);
  assertEquals(await closeOpportunities(kv, { today: "2999-01-01", giveWay }), 1);

  const reads = kvReads();
  const far = recordingReads(kv, reads);
  await internshipStore(far);
  cleared(reads);
  assertEquals(await internshipsOwnedBy(far, student.user.id), []);
  assertEquals(reads.listed, 0, "a person who posted nothing reads no block");
  assert(
    reads.lists.every(({ selector }) => "prefix" in selector && selector.prefix[0] === "internships_closed_by_owner"),
    JSON.stringify(reads.lists),
  );
  cleared(reads);
  const owned = await internshipsOwnedBy(far, member.user.id);
  assertEquals(ids(owned), newest([...theirs, posted]));
  assertEquals(reads.listed, 3, "their index entries only");
  assertEquals(ids(await opportunitiesOwnedBy(kv, member.user.id)), [submitted.id]);

  await forgetInternshipOwner(kv, member.user.id);
  await forgetOpportunityOwner(kv, member.user.id);
  assertEquals(await internshipsOwnedBy(kv, member.user.id), []);
  assertEquals(await opportunitiesOwnedBy(kv, member.user.id), []);
  for (const prefix of ["internships_closed_by_owner", "opportunities_closed_by_owner"]) {
    assertEquals((await Array.fromAsync(kv.list({ prefix: [prefix, member.user.id] }))).length, 0, prefix);
  }
  const others =
    async () => (await Array.fromAsync(kv.list({ prefix: ["internships_closed_by_owner", "someone-else"] })));
  const [gone] = await others();
  await (await internshipStore(kv)).archive.write({ drop: [gone.key[2] as string] });
  assertEquals((await others()).length, CLOSED - 1, "a record leaving the archive leaves the index");
});

Deno.test("Your data counts the listings, posts and comments a person keeps from index entries, not their records", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const { kv, services: { files } } = t;
  const LISTINGS = 40, CLOSING = 10;
  const items = Array.from({ length: LISTINGS }, (_, i) =>
    internshipInput({
      title: `Listing ${i}`,
      description: "A long description of the work. ".repeat(60),
      ...(i < CLOSING ? { deadline: "2030-01-01" } : {}),
    }));
  await createInternships(kv, admin.user, items);
  assertEquals(await closeInternships(kv, { today: "2999-01-01", giveWay: () => Promise.resolve() }), CLOSING);
  const input = PostCreateSchema.parse(postBody({ content: "Advice. ".repeat(400) }));
  const [post] = [
    await createPostAs(kv, { files, author: admin.user, input }),
    await createPostAs(kv, { files, author: admin.user, input }),
  ];
  for (const content of ["First", "Second"]) {
    await createComment(kv, { postId: post.id, author: admin.user, input: { content }, appUrl: t.origin });
  }
  for (const job of ["posts-author-index", "closed-owners-index"]) await runJob(findJob(job)!, t.services);

  cleared(reads);
  const { res, html } = await page(t, "/me/data", admin);
  assertEquals(res.status, 200);
  const counts = Object.fromEntries(
    [...htmlDocument(html).querySelectorAll("main dl div")].map((row) => [
      row.querySelector("dt")?.textContent?.trim(),
      row.querySelector("dd")?.textContent?.trim(),
    ]),
  );
  assertEquals(
    [counts["Internships you posted"], counts["Ungatekeep posts"], counts["Comments"]],
    [String(LISTINGS), "2", "2"],
  );
  const records = ["internships_chunks", "internships_closed", "ungatekeep_posts", "comment_threads"];
  const read = reads.keys.filter((key) => records.includes(key[0] as string));
  assertEquals(read, [], "no listing, post or comment record is read to be counted");
});

Deno.test("Your data counts the notifications still kept without reading those past 90 days", async () => {
  await using t = await createTestApp();
  const person = await createTestUser(t);
  const KEPT = 4, PAST = 3;
  const past = new Date(Date.now() - NOTIFICATION_TTL_MS - 24 * 60 * 60 * 1000);
  for (let i = 0; i < KEPT + PAST; i++) {
    const op = t.kv.atomic();
    // KV's own expiry counts from the write, so the past ones are still stored: only the read skips them.
    addNotification(
      op,
      { userId: person.user.id, type: "comment_reply", url: "/", title: `N ${i}`, body: "" },
      i < PAST ? past : new Date(),
    );
    assert((await op.commit()).ok);
  }
  const reads = kvReads();
  const section = EXPORT_SECTIONS.find((s) => s.name === "notifications")!;
  assert(section.count, "the notifications section has a count");
  assertEquals(await section.count(recordingReads(t.kv, reads), person.user), KEPT);
  assertEquals(reads.listed, KEPT, "only the kept notifications are listed");
  assertEquals((await section.collect(t.kv, person.user) as unknown[]).length, KEPT, "the export gives as many");

  const { res, html } = await page(t, "/me/data", person);
  assertEquals(res.status, 200);
  const row = [...htmlDocument(html).querySelectorAll("main dl div")]
    .find((div) => div.querySelector("dt")?.textContent?.trim() === "Notifications");
  assertEquals(row?.querySelector("dd")?.textContent?.trim(), String(KEPT));
});
