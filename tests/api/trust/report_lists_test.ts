/**
 * The admin list of reports reads what it shows (docs/decisions.md, Trust, "The reports list reads its page";
 * docs/performance.md, Admin lists at scale): the open view reads the open targets' entries, not every summary kept;
 * the resolved view a page of its index, the latest resolved first; summaries kept before the entries are indexed once
 * by `report-targets-index`. Counted with a KV that records reads, at 2,000 resolved targets and 20 open. A resolved
 * target says what resolved it and when.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { updateUser } from "@/lib/users/users.ts";
import { call } from "./helpers.ts";

/** A summary as `lib/reports/reports.ts` kept them before the views' entries (no `resolvedAt`). */
function oldSummary(i: number, open: number) {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    kind: "post",
    targetId: `post-${String(i).padStart(5, "0")}`,
    title: `Post ${i}`,
    open,
    openReasons: open ? { spam: open } : {},
    holdReports: 0,
    resolved: open ? 0 : 2,
    resolvedReasons: open ? {} : { spam: 2 },
    lastReportedAt: at,
  };
}

Deno.test("2,000 resolved targets and 20 open: each view reads its page, not every summary; old ones indexed once", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  for (let from = 0; from < 2_020; from += 100) {
    const op = t.kv.atomic();
    for (let i = from; i < Math.min(from + 100, 2_020); i++) {
      const summary = oldSummary(i, i % 101 === 100 ? 3 : 0);
      op.set(["report_targets", summary.kind, summary.targetId], summary);
    }
    await op.commit();
  }
  // Before the job has run, the views read every summary as before: no old target is missing meanwhile.
  const before = await call(t, admin, "GET", "/api/admin/reports?limit=20");
  assertEquals([before.body.pagination.total, before.body.targets.length], [20, 20]);
  const beforeResolved = await call(t, admin, "GET", "/api/admin/reports?limit=20&status=resolved&offset=40");
  assertEquals(
    [beforeResolved.body.pagination.total, beforeResolved.body.targets[0].title],
    [2_000, `Post ${2_019 - 40 - 1}`],
  );

  const indexed = await runJob(findJob("report-targets-index")!, t.services);
  assertEquals(indexed, { job: "report-targets-index", indexed: 2_020 });
  assertEquals(await runJob(findJob("report-targets-index")!, t.services), { job: "report-targets-index", indexed: 0 });

  const view = async (query: string) => {
    await t.settled(); // what the last request started in the background (a notice's delivery) reads too
    [reads.keys.length, reads.lists.length, reads.listed] = [0, 0, 0];
    const list = await call(t, admin, "GET", `/api/admin/reports?limit=20${query}`);
    assertEquals(list.status, 200);
    // The session's and the page's reads, without the summaries' list.
    const summaries = reads.keys.filter((key) => key[0] === "report_targets").length;
    return { body: list.body, summaries, listed: reads.listed };
  };
  const open = await view("");
  assertEquals(open.body.pagination, { limit: 20, offset: 0, total: 20, hasMore: false });
  assertEquals(open.body.targets.length, 20);
  assert(open.body.targets.every((x: { openReports: number }) => x.openReports === 3));
  assertEquals([open.summaries, open.listed], [20, 20], "the open view reads the 20, not the 2,020");

  const resolved = await view("&status=resolved&offset=40");
  assertEquals(resolved.body.pagination, { limit: 20, offset: 40, total: 2_000, hasMore: true });
  // The latest resolved first: an old summary counts as resolved at its last report.
  assertEquals(resolved.body.targets[0].title, `Post ${2_019 - 40 - 1}`);
  assertEquals([resolved.summaries, resolved.listed], [20, 60], "the resolved view reads keys up to its page");
  const ofKind = await view("&status=resolved&kind=internship");
  assertEquals([ofKind.body.targets, ofKind.body.pagination.total], [[], 0]);

  // Live writes keep the entries: a report opens a target (and reopens a resolved one), a resolution moves it.
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const listing = await postInternship(t, member, { title: "Fresh" });
  await call(t, student, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "spam" });
  assertEquals((await view("&kind=internship")).body.targets.map((x: { title: string }) => x.title), [
    "Fresh at Example Labs",
  ]);
  const resolve = `/api/admin/reports/internship/${listing.id}/resolve`;
  assertEquals((await call(t, admin, "POST", resolve, { action: "dismiss" })).body, { resolved: 1 });
  assertEquals((await view("&kind=internship")).body.targets, []);
  const latest = await view("&status=resolved");
  assertEquals([latest.body.targets[0].title, latest.body.pagination.total], ["Fresh at Example Labs", 2_001]);
  const other = await createTestUser(t, "user");
  await call(t, other, "POST", "/api/reports", { kind: "internship", id: listing.id, reason: "misleading" });
  assertEquals((await view("&status=resolved&kind=internship")).body.pagination.total, 0);
  assertEquals((await view("")).body.pagination.total, 21);
});

Deno.test("the resolved view says what resolved each target and when; one resolved before that was kept, from its reports", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const kept = await postInternship(t, member, { title: "Kept" });
  const gone = await postInternship(t, member, { title: "Gone" });
  const post = await createPost(t, admin, { title: "Removed post" });
  const still = await postInternship(t, member, { title: "Still open" });
  for (
    const [kind, id] of [["internship", kept.id], ["internship", gone.id], ["post", post.id], ["internship", still.id]]
  ) {
    const filed = await call(t, student, "POST", "/api/reports", { kind, id, reason: "misleading" });
    assertEquals(filed.status, 201);
  }
  const resolve = (id: string, action: string) =>
    call(t, admin, "POST", `/api/admin/reports/internship/${id}/resolve`, { action, note: "Looked into it." });
  assertEquals((await resolve(kept.id, "dismiss")).body, { resolved: 1 });
  // Its summary as kept before it said what resolved it.
  const key = ["report_targets", "internship", kept.id];
  const { outcome, ...before } = (await t.kv.get<Record<string, unknown>>(key)).value!;
  assert(outcome, "a resolution keeps what it did on the summary");
  await t.kv.set(key, before);
  assertEquals((await resolve(gone.id, "delete")).body, { resolved: 1 });
  assertEquals((await call(t, admin, "DELETE", `/api/admin/ungatekeep/${post.id}`)).status, 200);

  const resolvedAt = async (kind: string, id: string) =>
    (await call(t, admin, "GET", `/api/admin/reports/${kind}/${id}`)).body.reports[0].resolvedAt as string;
  const [keptAt, goneAt, postAt] = [
    await resolvedAt("internship", kept.id),
    await resolvedAt("internship", gone.id),
    await resolvedAt("post", post.id),
  ];
  const list = await call(t, admin, "GET", "/api/admin/reports?status=resolved");
  assertEquals(list.body.targets.map((x: { title: string; outcome: unknown }) => [x.title, x.outcome]), [
    ["Removed post", { action: "removed", by: "admin", at: postAt }],
    ["Gone at Example Labs", { action: "delete", at: goneAt }],
    ["Kept at Example Labs", { action: "dismiss", at: keptAt }],
  ]);
  const detail = await call(t, admin, "GET", `/api/admin/reports/internship/${kept.id}`);
  assertEquals(detail.body.target.outcome, { action: "dismiss", at: keptAt });
  const open = await call(t, admin, "GET", "/api/admin/reports");
  assertEquals(open.body.targets.map((x: { title: string; outcome: unknown }) => [x.title, x.outcome]), [
    ["Still open at Example Labs", null],
  ]);

  const text = async () =>
    (await (await t.fetch("/admin/reports?status=resolved", { headers: admin.headers })).text())
      .replace(/<[^>]+>/g, "");
  const en = translatorFor("en");
  const page = await text();
  for (
    const line of [
      `Resolved ${en.dateTime(postAt)}: an admin deleted it`,
      `Resolved ${en.dateTime(goneAt)}: deleted`,
      `Resolved ${en.dateTime(keptAt)}: dismissed, nothing was wrong`,
    ]
  ) assert(page.includes(line), line);
  await updateUser(t.kv, admin.user.id, { language: "hi" });
  const hi = translatorFor("hi");
  const line = `${hi.dateTime(goneAt)} को निपटाई गई: ${hi("admin.reports.outcome.delete")}`;
  assert((await text()).includes(line), line);
});

Deno.test("report-summaries gives old resolved targets their outcome once; then the resolved view reads no report", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const old = await postInternship(t, member, { title: "Old" });
  const recent = await postInternship(t, member, { title: "Recent" });
  for (const id of [old.id, recent.id]) {
    assertEquals(
      (await call(t, student, "POST", "/api/reports", { kind: "internship", id, reason: "spam" })).status,
      201,
    );
    const resolve = `/api/admin/reports/internship/${id}/resolve`;
    assertEquals((await call(t, admin, "POST", resolve, { action: "dismiss" })).body, { resolved: 1 });
  }
  // The old target's summary as kept before summaries had their outcome.
  const key = ["report_targets", "internship", old.id];
  const { outcome, ...before } = (await t.kv.get<Record<string, unknown>>(key)).value!;
  await t.kv.set(key, before);

  const view = async () => {
    await t.settled();
    reads.lists.length = 0;
    const list = await call(t, admin, "GET", "/api/admin/reports?status=resolved");
    assertEquals(list.status, 200);
    const ofReports = reads.lists.filter(({ selector }) =>
      "prefix" in selector && selector.prefix[0] === "reports_by_target"
    );
    return {
      outcomes: list.body.targets.map((x: { title: string; outcome: unknown }) => [x.title, x.outcome]),
      reportLists: ofReports.length,
    };
  };
  const expected = [["Recent at Example Labs", { action: "dismiss", at: (await view()).outcomes[0][1].at }], [
    "Old at Example Labs",
    outcome,
  ]];
  // Until the job is done, the old target's outcome is read from its reports: the list stays right meanwhile.
  assertEquals(await view(), { outcomes: expected, reportLists: 1 });

  const job = findJob("report-summaries")!;
  assertEquals(await runJob(job, t.services), { job: "report-summaries", written: 1 });
  assertEquals((await t.kv.get<Record<string, unknown>>(key)).value, { ...before, outcome });
  assertEquals(await runJob(job, t.services), { job: "report-summaries", written: 0 });
  assertEquals(await view(), { outcomes: expected, reportLists: 0 }, "summaries only");
});
