/**
 * What the export, "Your data" and the deletion read grows with the person's records, not with everyone's
 * (docs/decisions.md, Data rights; docs/performance.md, Scale): counts of keys and entries read, never timings.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { kvReads, recordingReads } from "@/tests/helpers/kv_reads.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { fileReport, reportsBy } from "@/lib/reports/reports.ts";
import { ReportCreateSchema } from "@/lib/reports/schema.ts";
import { createPost as createPostAs, deletePost, forgetPostAuthor, postsBy } from "@/lib/ungatekeep/posts.ts";
import { PostCreateSchema } from "@/lib/ungatekeep/schema.ts";
import { postBody } from "@/tests/fixtures/posts.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";

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
