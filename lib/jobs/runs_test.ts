import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { deleteRemovedRuns, ERROR_LENGTH, jobStatuses, READ_LENGTH, recordRun, shortError } from "./runs.ts";
import { JOBS } from "./registry.ts";
import type { Job } from "./job.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

Deno.test("every job has its description for the jobs page, in English and Hindi", () => {
  for (const lang of ["en", "hi"] as const) {
    const t = translatorFor(lang);
    for (const job of JOBS) assert(t.has(`admin.jobs.about.${job.name}`), `${lang}: ${job.name}`);
  }
});

Deno.test("a failure's error is one line of at most 300 characters", () => {
  assertEquals(shortError(new TypeError("x is\n  not a function")), "TypeError: x is not a function");
  const long = shortError(new Error("e".repeat(1000)));
  assertEquals([long.length, long.endsWith("…")], [ERROR_LENGTH, true]);
  assertEquals(shortError(Object.create(null)), "[object Object]");
});

Deno.test("a failure's error names no person: addresses, phone numbers and links' paths are masked before the cut", () => {
  const cases: [unknown, string][] = [
    [
      new Error("550 5.1.1 <sara.k+jobs@example.co.in>: Recipient address rejected"),
      "Error: 550 5.1.1 <***@***>: Recipient address rejected",
    ],
    [
      new TypeError(
        'unexpected payment {"id":"pay_1","email":"a@b.com","contact":"+919876543210","vpa":"sara@okaxis"}',
      ),
      'TypeError: unexpected payment {"id":"pay_1","email":"***@***","contact":"***","vpa":"***@***"}',
    ],
    [
      new Error("call 98765 43210, 098765-43210, (987) 654-3210 or +44 20 7946 0958"),
      "Error: call ***, ***, *** or ***",
    ],
    [
      new TypeError("error sending request for url (https://fcm.googleapis.com/fcm/send/dXk9:APA91b?x=1): closed"),
      "TypeError: error sending request for url (https://fcm.googleapis.com/***): closed",
    ],
    [
      new Error("connect smtp://mailer:s3cret@smtp.example.com:587 refused"),
      "Error: connect smtp://smtp.example.com:587 refused",
    ],
    // What names no one stays: times, ids, sizes.
    [
      new Error(
        "mail of 70000 bytes at 2026-11-29T13:00:00.000Z, entry 1764412345678-ab12cd34, order order_9876543210",
      ),
      "Error: mail of 70000 bytes at 2026-11-29T13:00:00.000Z, entry 1764412345678-ab12cd34, order order_9876543210",
    ],
  ];
  for (const [error, shown] of cases) assertEquals(shortError(error), shown);
  // An address the cut would split is masked whole first.
  const cut = shortError(new Error(`${"x".repeat(280)} sara.kapoor@example.com`));
  assert(!cut.includes("sara") && cut.length <= ERROR_LENGTH, cut);
});

Deno.test("a failure's error is read up to its bound: a long one is cut, and an address the bound splits is dropped", () => {
  // Nothing past the bound is read, even when masking a link's path leaves room for it.
  const link = "Error: GET https://push.example.com/";
  assertEquals(
    shortError(`${link}${"p".repeat(READ_LENGTH)} failed for sara@example.com`),
    "Error: GET https://push.example.com/***…",
  );
  // The bound falls inside "sara.kapoor": its first letters are not kept unmasked.
  const split = shortError(`${link}${"p".repeat(READ_LENGTH - link.length - 6)} sara.kapoor@example.com`);
  assertEquals(split, "Error: GET https://push.example.com/***…");
  // 10 MB, its address past the bound: the first characters, cut.
  assertEquals(
    shortError(new Error(`Upload failed: ${"x".repeat(10_000_000)} sara@example.com`)),
    `Error: Upload failed: ${"x".repeat(ERROR_LENGTH - 23)}…`,
  );
});

Deno.test("a job's status holds its last run and its last failure, each the latest written", async () => {
  await using kv = await Deno.openKv(":memory:");
  const jobs: Job[] = [
    { name: "a", schedule: "*/5 * * * *", run: () => Promise.resolve({}) },
    { name: "b", schedule: "30 3 * * *", run: () => Promise.resolve({}) },
  ];
  const now = new Date("2026-11-29T13:02:00Z");
  const run = { startedAt: "2026-11-29T13:00:00.000Z", ms: 12, trigger: "schedule" as const, counts: { sent: 2 } };
  await recordRun(kv, "a", { run: { ...run, counts: { sent: 1 } } });
  await recordRun(kv, "a", { run });
  const failure = { startedAt: "2026-11-29T12:55:00.000Z", ms: 3, trigger: "hand" as const, error: "E" };
  await recordRun(kv, "a", { failure });
  await recordRun(kv, "gone", { run }); // a job no longer in the registry
  assertEquals(await jobStatuses(kv, { jobs, scheduled: true, now }), [
    {
      name: "a",
      schedule: "*/5 * * * *",
      nextRunAt: "2026-11-29T13:05:00.000Z",
      lastRun: run,
      lastFailure: failure,
    },
    { name: "b", schedule: "30 3 * * *", nextRunAt: "2026-11-30T03:30:00.000Z", lastRun: null, lastFailure: null },
  ]);
  const off = await jobStatuses(kv, { jobs, scheduled: false, now });
  assertEquals(off.map((job) => job.nextRunAt), [null, null], "JOBS=off: no run from the schedule");
});

Deno.test("the records of a job removed from the registry are not shown, and deleted once a week old", async () => {
  await using kv = await Deno.openKv(":memory:");
  const jobs: Job[] = [{ name: "a", schedule: "* * * * *", run: () => Promise.resolve({}) }];
  const now = new Date("2026-11-29T13:00:00Z");
  const at = (days: number) => ({ startedAt: new Date(now.getTime() - days * DAY_MS).toISOString(), ms: 1 });
  await recordRun(kv, "a", { run: { ...at(30), trigger: "hand", counts: {} } });
  await recordRun(kv, "gone", { run: { ...at(8), trigger: "schedule", counts: { sent: 1 } } });
  await recordRun(kv, "gone", { failure: { ...at(9), trigger: "schedule", error: "E" } });
  // A job another deployment still runs (a preview's, or a revision still serving): its record is fresh.
  await recordRun(kv, "elsewhere", { run: { ...at(1), trigger: "schedule", counts: {} } });
  // More removed jobs than one commit deletes.
  for (let i = 0; i < 60; i++) await recordRun(kv, `old-${i}`, { run: { ...at(20), trigger: "hand", counts: {} } });
  const keys = () => Array.fromAsync(kv.list({ prefix: ["job_runs"] }), ({ key }) => key.join(" "));
  const all = await keys();
  const listed = await jobStatuses(kv, { jobs, scheduled: true, now });
  assertEquals(listed.map((job) => [job.name, job.lastRun?.startedAt]), [["a", at(30).startedAt]]);
  assertEquals(await keys(), all, "reading the statuses deletes nothing");
  assertEquals(await deleteRemovedRuns(kv, { jobs, now }), 62);
  assertEquals(await keys(), ["job_runs a run", "job_runs elsewhere run"]);
  assertEquals(await deleteRemovedRuns(kv, { jobs, now }), 0, "nothing left to delete");
});
