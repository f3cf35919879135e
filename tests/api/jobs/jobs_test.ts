/**
 * The jobs' last runs (docs/decisions.md, Background work, "Last runs"): `GET /api/admin/jobs` for admins only, a run
 * by hand and a run from the schedule each recorded, a failing run's error kept shortened and shown while newer than
 * the last success, `JOBS=off` said, and `/admin/jobs`'s plain "Run now" form answered by a redirect whose page tells
 * what the run did or its error; a forged origin runs nothing; a record that cannot be written leaves the run as it
 * ran.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { assertHtml, htmlDocument, page } from "@/tests/fixtures/html.ts";
import { findJob, JOBS, runJob, runJobByAdmin, runScheduled } from "@/lib/jobs/registry.ts";
import { ERROR_LENGTH, type JobStatus, recordRun, REMOVED_JOB_AFTER_MS } from "@/lib/jobs/runs.ts";
import type { Job } from "@/lib/jobs/job.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { apiDocs as runDocs } from "@/routes/api/admin/jobs/[name]/run.ts";

/** The jobs as `admin` reads them through the API. */
async function readJobs(t: TestApp, admin: TestUser): Promise<{ scheduled: boolean; jobs: JobStatus[] }> {
  const res = await t.fetch("/api/admin/jobs", { headers: admin.headers });
  assertEquals(res.status, 200);
  return await res.json();
}

/** The status of the job `name`. */
async function statusOf(t: TestApp, admin: TestUser, name: string): Promise<JobStatus> {
  return (await readJobs(t, admin)).jobs.find((job) => job.name === name)!;
}

/** Runs `work` while `job`'s runs throw `error`. */
async function whileFailing<T>(job: Job, error: Error, work: () => Promise<T>): Promise<T> {
  const run = job.run;
  job.run = () => Promise.reject(error);
  try {
    return await work();
  } finally {
    job.run = run;
  }
}

/** The card of the job `name` on a served jobs page, as text. */
function cardText(html: string, name: string): string {
  return htmlDocument(html).getElementById(`job-${name}`)?.textContent?.replace(/\s+/g, " ") ?? "";
}

Deno.test("GET /api/admin/jobs lists every job for admins only; JOBS=off gives no next run", async () => {
  await using t = await createTestApp({ env: { JOBS: "off" } });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  assertEquals((await t.fetch("/api/admin/jobs")).status, 401);
  const refused = await t.fetch("/api/admin/jobs", { headers: student.headers });
  assertEquals([refused.status, await refused.json()], [403, { error: "Forbidden" }]);
  const { scheduled, jobs } = await readJobs(t, admin);
  assertEquals(scheduled, false);
  assertEquals(jobs.map((job) => [job.name, job.schedule]), JOBS.map((job) => [job.name, job.schedule]));
  assert(jobs.every((job) => job.nextRunAt === null && job.lastRun === null && job.lastFailure === null));

  await using on = await createTestApp();
  const other = await createTestUser(on, "admin");
  const before = Date.now();
  const listed = await readJobs(on, other);
  assertEquals(listed.scheduled, true);
  const outbox = listed.jobs.find((job) => job.name === "outbox")!;
  const next = Date.parse(outbox.nextRunAt!);
  assert(next > before && next <= Date.now() + 60_000 && next % 60_000 === 0, "the outbox's next minute");
});

Deno.test("a run by hand and one from the schedule are recorded; a failure keeps its error, shortened", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const ran = await t.json("POST", "/api/admin/jobs/close-listings/run", { headers: admin.headers });
  assertEquals(ran.status, 200);
  await ran.body?.cancel();
  const byHand = (await statusOf(t, admin, "close-listings")).lastRun!;
  assertEquals([byHand.trigger, byHand.counts], ["hand", { internships: 0, opportunities: 0 }]);
  assert(byHand.ms >= 0 && Date.parse(byHand.startedAt) <= Date.now());

  const deletions = findJob("account-deletions")!;
  await runScheduled(deletions, t.services);
  const scheduled = await statusOf(t, admin, "account-deletions");
  assertEquals([scheduled.lastRun?.trigger, scheduled.lastRun?.counts], ["schedule", {
    resumed: 0,
    swept: 0,
    failed: 0,
  }]);
  assertEquals(scheduled.lastFailure, null);

  // The cron's run fails: logged as before, its error recorded on one line, shortened; the success stays.
  await whileFailing(
    deletions,
    new Error(`KV is\nunreachable ${"x".repeat(500)}`),
    () => runScheduled(deletions, t.services),
  );
  const failed = await statusOf(t, admin, "account-deletions");
  assertEquals(failed.lastRun, scheduled.lastRun);
  assertEquals(failed.lastFailure?.trigger, "schedule");
  assertMatch(failed.lastFailure!.error, /^Error: KV is unreachable x+…$/);
  assertEquals(failed.lastFailure!.error.length, ERROR_LENGTH);
  assert(failed.lastFailure!.startedAt >= failed.lastRun!.startedAt);
  const shown = await page(t, "/admin/jobs", admin);
  assert(cardText(shown.html, "account-deletions").includes("Last failure"), "the failure is newer: shown");
  assert(cardText(shown.html, "account-deletions").includes("Error: KV is unreachable"));

  // A success after it: the page no longer shows the failure, the API still answers it.
  await runScheduled(deletions, t.services);
  const again = await statusOf(t, admin, "account-deletions");
  assertEquals(again.lastFailure, failed.lastFailure);
  assert(again.lastRun!.startedAt > failed.lastFailure!.startedAt);
  const after = await page(t, "/admin/jobs", admin);
  assert(!cardText(after.html, "account-deletions").includes("Last failure"), "an older failure is not shown");
});

Deno.test("/admin/jobs: a card a job, JOBS=off said, and Run now answered by a redirect that tells the run", async () => {
  await using t = await createTestApp({ env: { JOBS: "off" } });
  const admin = await createTestUser(t, "admin");
  const { res, html } = await page(t, "/admin/jobs", admin);
  assertHtml(res);
  assertEquals(
    [...htmlDocument(html).querySelectorAll("main li[id^=job-]")].map((card) => card.id),
    JOBS.map((job) => `job-${job.name}`),
  );
  assert(html.includes('href="/admin/jobs" aria-current="page"'), "in the admin menu");
  assert(html.includes("JOBS=off") && html.includes("Scheduled runs are off here"));
  assert(cardText(html, "outbox").includes("Sends the e-mails that are due"));
  assert(cardText(html, "outbox").includes("Every minute"));
  assert(cardText(html, "alerts-digest").includes("Every day at 9:00 am IST"));
  assert(cardText(html, "close-listings").includes("Every hour, at 35 minutes past"));
  assert(cardText(html, "outbox").includes("None: scheduled runs are off"));
  assert(cardText(html, "outbox").includes("Not run yet"));
  const hindi = await page(t, "/admin/jobs?lang=hi", admin);
  assert(cardText(hindi.html, "alerts-digest").includes("रोज़ सुबह 9:00 IST"), cardText(hindi.html, "alerts-digest"));

  const ran = await postForm(t, admin, "/admin/jobs", { job: "close-listings" });
  assertEquals(ran.status, 303);
  const location = new URL(ran.headers.get("location")!, t.origin);
  assertEquals(location.pathname, "/admin/jobs");
  assertEquals(location.searchParams.get("ran"), "close-listings");
  const told = await page(t, `${location.pathname}${location.search}`, admin);
  const notice = htmlDocument(told.html).querySelector("section [role=status]")?.textContent ?? "";
  assertMatch(notice, /close-listings ran.*by hand, in \d+ ms/);
  assertMatch(notice, /Internships: 0.*Opportunities: 0/);
  assert(cardText(told.html, "close-listings").includes("by hand"), "the card shows the run");
  const { entries } = await listAdminLog(t.kv, adminLogQuerySchema.parse({}));
  assertEquals(entries.map((e) => [e.action, e.targetId]), [["job.run", "close-listings"]]);
  assert((await page(t, "/admin/log", admin)).html.includes('href="/admin/jobs#job-close-listings"'), "log links card");

  // A run that fails: the redirect's page says so, with the error.
  const job = findJob("post-deletions")!;
  const failed = await whileFailing(
    job,
    new Error("The store is down"),
    () => postForm(t, admin, "/admin/jobs", { job: job.name }),
  );
  assertEquals(failed.status, 303);
  const error = await page(t, failed.headers.get("location")!, admin);
  const alert = htmlDocument(error.html).querySelector("section [role=alert]")?.textContent ?? "";
  assertMatch(alert, /post-deletions failed.*Error: The store is down/);

  // A run that a later one replaced: said, without another run's counts.
  const stale = await page(
    t,
    `/admin/jobs?ran=post-deletions&at=${encodeURIComponent(new Date(0).toISOString())}`,
    admin,
  );
  assert(stale.html.includes("a run that ended later has replaced its record"));
  const unknown = await postForm(t, admin, "/admin/jobs", { job: "no-such-job" });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("/admin/jobs says every job's counts in words in both languages, and a schedule it cannot word in UTC", async () => {
  await using t = await createTestApp({ env: { JOBS: "off" } });
  const admin = await createTestUser(t, "admin");
  // The counts of every job of the registry, as its run answers them (each at 0 on an empty store).
  const names = new Set<string>();
  for (const job of JOBS) {
    const { job: _, ...counts } = await runJob(job, t.services);
    assert(Object.keys(counts).length > 0, job.name);
    for (const name of Object.keys(counts)) names.add(name);
  }
  for (const lang of ["en", "hi"] as const) {
    const words = translatorFor(lang);
    assertEquals(
      [...names].filter((name) => !words.has(`admin.jobs.count.${name}`)),
      [],
      `${lang}: counts without words`,
    );
  }
  const english = cardText((await page(t, "/admin/jobs", admin)).html, "outbox");
  assert(english.includes("Sent: 0") && english.includes("To retry: 0"), english);
  const hindi = cardText((await page(t, "/admin/jobs?lang=hi", admin)).html, "outbox");
  assert(hindi.includes("भेजे गए: 0") && hindi.includes("फिर से कोशिश होगी: 0"), hindi);

  // A schedule not put in words shows its cron text, and says that it is in UTC and how IST differs.
  const job = findJob("close-listings")!;
  const schedule = job.schedule;
  job.schedule = "0 3 * * 1";
  try {
    const card = cardText((await page(t, "/admin/jobs", admin)).html, job.name);
    assert(card.includes("On the cron schedule 0 3 * * 1, in UTC (IST is 5 hours 30 minutes ahead)"), card);
    const hindiCard = cardText((await page(t, "/admin/jobs?lang=hi", admin)).html, job.name);
    assert(hindiCard.includes("क्रॉन शेड्यूल 0 3 * * 1 पर, UTC समय में (IST इससे 5 घंटे 30 मिनट आगे है)"), hindiCard);
  } finally {
    job.schedule = schedule;
  }
});

Deno.test("the run endpoint's description says what every job's run answers, as it answers it", async () => {
  await using t = await createTestApp({ env: { JOBS: "off" } });
  const description = runDocs.POST!.description ?? "";
  const unsaid: string[] = [];
  for (const job of JOBS) {
    const { job: name, ...counts } = await runJob(job, t.services);
    const answer = `\`${name}\` \`{${["job", ...Object.keys(counts)].join(", ")}}\``;
    if (!description.includes(answer)) unsaid.push(answer);
  }
  assertEquals(unsaid, [], "answers the description does not give");
});

Deno.test("Run now and the API's run refuse a student, a guest and a forged origin, and record nothing", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  assertEquals((await page(t, "/admin/jobs")).res.status, 302, "a guest is sent to sign in");
  assertHtml((await page(t, "/admin/jobs", student)).res, 403);
  const byStudent = await postForm(t, student, "/admin/jobs", { job: "close-listings" });
  assertEquals(byStudent.status, 403);
  await byStudent.body?.cancel();
  const byGuest = await t.fetch("/admin/jobs", {
    method: "POST",
    headers: { origin: t.origin, "content-type": "application/x-www-form-urlencoded" },
    body: "job=close-listings",
  });
  assertEquals(byGuest.status, 401);
  await byGuest.body?.cancel();
  const forged = { origin: "https://attacker.example" };
  const form = await postForm(t, admin, "/admin/jobs", { job: "close-listings" }, forged);
  assertEquals(form.status, 403);
  await form.body?.cancel();
  const api = await t.fetch("/api/admin/jobs/close-listings/run", {
    method: "POST",
    headers: { ...admin.headers, ...forged },
  });
  assertEquals([api.status, await api.json()], [403, { error: "Invalid origin" }]);
  assertEquals((await statusOf(t, admin, "close-listings")).lastRun, null, "nothing ran");
});

Deno.test("a run whose record cannot be written answers as it ran, and the record's failure is logged", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const kv = new Proxy(t.kv, {
    get(target, name) {
      if (name === "set") return () => Promise.reject(new Error("KV refused the write"));
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const ran = await runJob(findJob("close-listings")!, { ...t.services, kv });
  assertEquals(ran, { job: "close-listings", internships: 0, opportunities: 0 });
  const logged = logLines.map((line) => JSON.parse(line)).find((line) => line.msg === "job run not recorded");
  assertEquals([logged?.level, logged?.job, logged?.error], ["error", "close-listings", "Error: KV refused the write"]);
});

Deno.test("an admin's run whose audit entry cannot be written answers as it ran, or its own error", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const admin = await createTestUser(t, "admin");
  const kv = kvWithCommits(
    t.kv,
    (_n, apply, sets) =>
      sets.some((key) => key[0] === "admin_log") ? Promise.reject(new Error("KV refused the entry")) : apply(),
  );
  const services = { ...t.services, kv };
  const ran = await runJobByAdmin(services, { job: findJob("close-listings")!, adminId: admin.user.id });
  assertEquals(ran, { job: "close-listings", internships: 0, opportunities: 0 }, "the run stands");
  const job = findJob("post-deletions")!;
  const failed = await whileFailing(
    job,
    new Error("The store is down"),
    () => runJobByAdmin(services, { job, adminId: admin.user.id }).catch((error) => error),
  );
  assertEquals(String(failed), "Error: The store is down", "the run's own error stands");
  const logged = logLines.map((line) => JSON.parse(line)).filter((line) => line.msg === "job run not audited");
  assertEquals(
    logged.map((line) => [line.level, line.job, line.outcome, line.error]),
    [
      ["error", "close-listings", "succeeded", "Error: KV refused the entry"],
      ["error", "post-deletions", "failed", "Error: KV refused the entry"],
    ],
  );
});

Deno.test("the jobs' records are read in one list, whatever the number of jobs, by the API and the page", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  for (const job of JOBS.slice(0, 3)) await runJob(job, t.services);
  for (const path of ["/api/admin/jobs", "/admin/jobs"]) {
    reads.keys.length = 0;
    reads.lists.length = 0;
    assertEquals((await t.fetch(path, { headers: admin.headers })).status, 200, path);
    const ofJobs = reads.lists.filter(({ selector }) => "prefix" in selector && selector.prefix[0] === "job_runs");
    assertEquals(ofJobs.map(({ listed }) => listed), [3], `${path}: one list, the three records`);
    assertEquals(reads.keys.filter((key) => key[0] === "job_runs"), [], `${path}: no read a job`);
  }
});

Deno.test("an admin's run is in the audit log with its outcome, from the API and from Run now, failed or not", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const ran = await t.json("POST", "/api/admin/jobs/close-listings/run", { headers: admin.headers });
  assertEquals(ran.status, 200);
  await ran.body?.cancel();
  const job = findJob("post-deletions")!;
  const failed = await whileFailing(
    job,
    new Error("The store is down"),
    () => t.json("POST", `/api/admin/jobs/${job.name}/run`, { headers: admin.headers }),
  );
  assertEquals([failed.status, await failed.json()], [500, { error: "Internal server error" }]);
  await whileFailing(job, new Error("The store is down"), () => postForm(t, admin, "/admin/jobs", { job: job.name }));
  await postForm(t, admin, "/admin/jobs", { job: job.name });
  const { entries } = await listAdminLog(t.kv, adminLogQuerySchema.parse({ action: "job.run" }));
  assertEquals(entries.map((e) => [e.adminId, e.targetId, e.summary]).reverse(), [
    [admin.user.id, "close-listings", "succeeded"],
    [admin.user.id, "post-deletions", "failed"],
    [admin.user.id, "post-deletions", "failed"],
    [admin.user.id, "post-deletions", "succeeded"],
  ]);
  const log = htmlDocument((await page(t, "/admin/log?action=job.run", admin)).html).querySelector("tbody")
    ?.textContent ?? "";
  assert(log.includes("failed") && log.includes("succeeded"), log);
  const hindi = (await page(t, "/admin/log?action=job.run&lang=hi", admin)).html;
  assert(hindi.includes("नाकाम रहा") && hindi.includes("पूरा हुआ"), "the outcome in the reader's language");
});

Deno.test("a job removed from the registry is neither listed nor shown; reading writes nothing, removed-jobs deletes", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const startedAt = new Date(Date.now() - REMOVED_JOB_AFTER_MS - 60_000).toISOString();
  await recordRun(t.kv, "old-backfill", { run: { startedAt, ms: 5, trigger: "schedule", counts: { indexed: 3 } } });
  await recordRun(t.kv, "old-backfill", { failure: { startedAt, ms: 5, trigger: "hand", error: "Error: gone" } });
  const stored = () => Array.fromAsync(t.kv.list({ prefix: [] }));
  const before = await stored();
  const { html } = await page(t, "/admin/jobs", admin);
  assertEquals(htmlDocument(html).getElementById("job-old-backfill"), null);
  assert(!html.includes("old-backfill"));
  assertEquals((await readJobs(t, admin)).jobs.map((job) => job.name), JOBS.map((job) => job.name));
  assertEquals(await stored(), before, "a GET of the page or the API changes nothing in KV");
  // The job that deletes them does, once they are a week old.
  const ran = await t.json("POST", "/api/admin/jobs/removed-jobs/run", { headers: admin.headers });
  assertEquals([ran.status, await ran.json()], [200, { job: "removed-jobs", removed: 2 }]);
  assertEquals(await Array.fromAsync(t.kv.list({ prefix: ["job_runs", "old-backfill"] })), []);
});
