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
