/**
 * Applications benchmark (docs/performance.md, Applications benchmark): seeds, in a child process, one internship with
 * `BENCH_PIPELINE` applications (default 10,000) spread over every status, and an organization, "Bench Co", with
 * `BENCH_RECORD` applications (default 100,000) over 1,000 of its internships by 1,000 students, all waiting past their
 * due time; starts the real server (`main.ts`, `JOBS=off`) on the file and measures over HTTP:
 * - p50/p95 of the poster's list (`GET /api/internships/{id}/applications`) for every status tab, each sample another
 *   page, and of the applicants page;
 * - p50/p95 of the organization's page and of `GET /api/organizations/{slug}`, whose track record counts every
 *   application;
 * - the `applications-timeout` job over every waiting application (run by hand), while a client reads
 *   `GET /api/internships` at `BENCH_READ_RATE` reads a second (default 200, each sent on time whatever the answers'
 *   speed; 0: one at a time, back to back): the whole run's time (its moves and then its messages to the applicants),
 *   the server's CPU time meanwhile (per thread: the event loop and KV's writer), the job's own CPU (less the reads, at
 *   what a read cost idle), and the reads' p95 over the whole run against their p95 idle (3,000 reads by the same
 *   client at the same rate, every page read once before, as the reads during the job find every page's body kept).
 * Prints a table with the targets and the machine's load average (a shared machine), then stops the server and
 * removes the file.
 */
import {
  cpuMs,
  HOST,
  latencyOf,
  percentile,
  SEED_INTO,
  seedInChild,
  seedOwners,
  startPlatform,
  threadCpuMs,
  waitFor,
} from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { createUser } from "@/lib/users/users.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { internshipRecord } from "@/lib/internships/internships.ts";
import { linkOrganizations } from "@/lib/organizations/link.ts";
import { applicationOps } from "@/lib/applications/store.ts";
import { APPLICATION_STATUSES, type ApplicationRecord, type ApplicationStatus } from "@/lib/applications/schema.ts";

const PIPELINE = Number(Deno.env.get("BENCH_PIPELINE") ?? 10_000);
const RECORD = Number(Deno.env.get("BENCH_RECORD") ?? 100_000);
const STUDENTS = 1_000;
/** Reads of the public list idle, against which the reads during the timeout job are set. */
const IDLE_READS = 3_000;
/**
 * Reads a second of the public list, idle and during the job (the traffic benchmark's rate: 200 students, a request a
 * second each); 0 for one read at a time, back to back.
 */
const READ_RATE = Number(Deno.env.get("BENCH_READ_RATE") ?? 200);
const ORGANIZATION_INTERNSHIPS = 1_000;
const DAY_MS = 86_400_000;
/** Applications per atomic write of the seed (each about 25 mutations with the track record's counters). */
const PER_WRITE = 25;

/** The share of each status among the pipeline's applications, in course order. */
const MIX: [ApplicationStatus, number][] = [
  ["applied", 0.5],
  ["shortlisted", 0.2],
  ["interview", 0.1],
  ["offer", 0.05],
  ["hired", 0.05],
  ["rejected", 0.08],
  ["withdrawn", 0.02],
];
const FIRST = ["Aarav", "Diya", "Kabir", "Meera", "Rohan", "Sara", "Vihaan", "Ananya", "Ishaan", "Tara"];
const LAST = ["Sharma", "Iyer", "Khan", "Nair", "Das", "Gupta", "Reddy", "Singh", "Menon", "Rao"];
const COLLEGES = ["IIT Madras", "NIT Trichy", "Delhi University", "BITS Pilani", "Anna University", "VIT Vellore"];

function statusOf(i: number, count: number): ApplicationStatus {
  let edge = 0;
  for (const [status, share] of MIX) {
    edge += share * count;
    if (i < edge) return status;
  }
  return "applied";
}

/** A stored application as the seed writes it: `status` with the history that leads there. */
function applicationOf(
  { id, internshipId, organizationId, applicantId, n, status, createdMs, dueMs }: {
    id: string;
    internshipId: string;
    organizationId: string | null;
    applicantId: string;
    n: number;
    status: ApplicationStatus;
    createdMs: number;
    dueMs: number | null;
  },
): ApplicationRecord {
  const createdAt = new Date(createdMs).toISOString();
  const history: ApplicationRecord["history"] = [{ status: "applied", at: createdAt, by: "applicant", message: null }];
  const answeredAt = new Date(createdMs + (1 + n % 9) * DAY_MS).toISOString();
  if (status !== "applied") {
    history.push({
      status,
      at: answeredAt,
      by: status === "withdrawn" ? "applicant" : "poster",
      message: status === "rejected" ? "Thank you for applying; we went with another profile." : null,
    });
  }
  const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]}`;
  return {
    id,
    internshipId,
    organizationId,
    applicantId,
    applicant: {
      name,
      image: null,
      collegeInstitute: COLLEGES[n % COLLEGES.length],
      currentRole: "Student",
      fieldOfStudy: "Computer Science",
      fieldInterests: ["Data Science"],
      email: `student${n}@bench.example`,
      contactNumber: "+91 98765 43210",
    },
    status,
    answers: [{ questionId: "q00000001", question: "Why this internship?", answer: "I like the work you do." }],
    coverNote: "I would love to learn with your team.",
    resume: null,
    createdAt,
    updatedAt: status === "applied" ? createdAt : answeredAt,
    history,
    firstResponseAt: status === "applied" || status === "withdrawn" ? null : answeredAt,
    dueAt: dueMs !== null && (status === "applied" || status === "shortlisted") ? new Date(dueMs).toISOString() : null,
    stipendReport: null,
  };
}

async function writeAll(kv: Deno.Kv, records: ApplicationRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += PER_WRITE) {
    const op = kv.atomic();
    for (const record of records.slice(i, i + PER_WRITE)) {
      op.set(["applications_by_person", record.applicantId!, record.internshipId], {
        id: record.id,
        createdAt: record.createdAt,
      });
      applicationOps(op, null, record, Date.parse(record.createdAt));
    }
    const { ok } = await op.commit();
    if (!ok) throw new Error("a seed write failed");
  }
}

if (Deno.args[0] === SEED_INTO) {
  console.log(JSON.stringify(await seed(Deno.args[1])));
  Deno.exit(0);
}

/** Seeds the owners, the students, the internships (linked to their organizations) and the applications into `path`. */
async function seed(path: string) {
  const started = performance.now();
  const kv = await Deno.openKv(path);
  const owners = await seedOwners(kv);
  const now = Date.now();
  const internships = generateInternships(1 + ORGANIZATION_INTERNSHIPS + 2_000, owners.map((o) => o.id), {
    seed: 34,
    now,
  }).map((record, i) => ({
    ...record,
    isActive: true,
    deletedAt: null,
    deadline: new Date(now + 30 * DAY_MS).toISOString().slice(0, 10),
    ...(i <= ORGANIZATION_INTERNSHIPS
      ? {
        // The organization's internships whose applications are past due have no deadline (the job judges a due time
        // by the deadline as it is then: 30 days after applying without one).
        ...(i > 0 ? { deadline: null } : {}),
        applyMode: "platform" as const,
        questions: [{ id: "q00000001", text: "Why this internship?", required: true }],
        hiringOrganization: "Bench Co",
        userId: owners[1].id,
      }
      : {}),
  }));
  await importInternships(kv, internships);
  await linkOrganizations({ kv, now: new Date(), requests: { giveWay: () => Promise.resolve() } as never });
  const pipeline = (await internshipRecord(kv, internships[0].id))!;
  const organizationId = pipeline.view.organization!.id;

  // One internship with PIPELINE applications over every status.
  const records: ApplicationRecord[] = [];
  for (let n = 0; n < PIPELINE; n++) {
    records.push(applicationOf({
      id: crypto.randomUUID(),
      internshipId: pipeline.record.id,
      organizationId,
      applicantId: `bench-applicant-${n}`,
      n,
      status: statusOf(n, PIPELINE),
      createdMs: now - 20 * DAY_MS + n * 60_000,
      dueMs: now + 45 * DAY_MS,
    }));
  }
  await writeAll(kv, records);

  // RECORD applications by STUDENTS real students to the organization's other internships, all past due.
  const students: string[] = [];
  for (let s = 0; s < STUDENTS; s++) {
    const user = await createUser(kv, {
      name: `${FIRST[s % 10]} ${LAST[Math.floor(s / 10) % 10]}`,
      email: `student${s}@bench.example`,
      emailVerified: true,
      role: "user",
    });
    students.push(user.id);
  }
  const perInternship = Math.ceil(RECORD / ORGANIZATION_INTERNSHIPS);
  for (let from = 0; from < RECORD; from += 10_000) {
    const slice: ApplicationRecord[] = [];
    for (let n = from; n < Math.min(RECORD, from + 10_000); n++) {
      const internship = internships[1 + Math.floor(n / perInternship) % ORGANIZATION_INTERNSHIPS];
      const student = (Math.floor(n / perInternship) * 7 + n % perInternship) % STUDENTS;
      slice.push(applicationOf({
        id: crypto.randomUUID(),
        internshipId: internship.id,
        organizationId,
        applicantId: students[student],
        n,
        status: n % 3 === 0 ? "shortlisted" : "applied",
        // Sent 41 to 80 days ago: due by their internship (no deadline) 11 to 50 days ago.
        createdMs: now - 80 * DAY_MS + (n % 40) * DAY_MS,
        dueMs: now - DAY_MS - n,
      }));
    }
    await writeAll(kv, slice);
  }
  const { token } = await createSession(kv, owners[1].id);
  const admin = await createSession(kv, owners[0].id);
  kv.close();
  return {
    seedMs: performance.now() - started,
    internshipId: pipeline.record.id,
    slug: pipeline.view.organization!.slug,
    poster: `session=${token}`,
    admin: `session=${admin.token}`,
  };
}

const dir = await Deno.makeTempDir({ prefix: "applications-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const ms = (n: number) => `${fmt(n, 2)} ms`;
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const rows: [string, string, string, string][] = [];
const ok = (met: boolean) => met ? "yes" : "NO";
const row = (measure: string, result: string, target = "", met = "") => rows.push([measure, result, target, met]);
let server: Deno.ChildProcess | undefined;
let loadBefore = load();

try {
  console.error(`Seeding ${fmt(PIPELINE, 0)} + ${fmt(RECORD, 0)} applications into ${kvPath} ...`);
  const seeded = await seedInChild<Awaited<ReturnType<typeof seed>>>(new URL(import.meta.url), kvPath);
  console.error(`Seeded in ${fmt(seeded.seedMs / 1000)} s`);

  const platform = startPlatform(kvPath, { JOBS: "off", RATE_LIMITS: "off" });
  server = platform.process;
  const { origin } = platform;
  await waitFor(`${origin}/api/health`, 120_000);
  await waitFor(`${origin}/api/internships`, 120_000);
  loadBefore = load();
  const poster = { cookie: seeded.poster };
  const list = `${origin}/api/internships/${seeded.internshipId}/applications`;

  // The poster's list: every tab, each sample another page of 20.
  let worst = 0;
  for (const status of [undefined, ...APPLICATION_STATUSES]) {
    const count = status ? Math.round((MIX.find(([name]) => name === status)?.[1] ?? 0) * PIPELINE) : PIPELINE;
    const pages = Math.max(1, Math.ceil(count / 20));
    const { p50, p95 } = await latencyOf(
      (i) => `${list}?${status ? `status=${status}&` : ""}offset=${(i * 37 % pages) * 20}`,
      { headers: poster },
    );
    worst = Math.max(worst, p95);
    row(`Poster's list, ${status ?? "all"} (${fmt(count, 0)}), any page`, `p50 ${ms(p50)} / p95 ${ms(p95)}`);
  }
  const searched = await latencyOf((i) => `${list}?search=${FIRST[i % 10].toLowerCase()}&offset=${(i % 40) * 20}`, {
    headers: poster,
  });
  row("Poster's list, search by name", `p50 ${ms(searched.p50)} / p95 ${ms(searched.p95)}`);
  row("Poster's list, worst tab p95", ms(worst), "≤ 30 ms", ok(worst <= 30));
  const pageTimes: number[] = [];
  for (let i = 0; i < 120; i++) {
    const started = performance.now();
    const res = await fetch(
      `${origin}/internships/${seeded.internshipId}/applicants?status=applied&offset=${(i * 37 % 250) * 20}`,
      { headers: poster },
    );
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`applicants page answered ${res.status}`);
    if (i >= 20) pageTimes.push(performance.now() - started);
  }
  pageTimes.sort((a, b) => a - b);
  row(
    "Applicants page (HTML), any page",
    `p50 ${ms(percentile(pageTimes, 50))} / p95 ${ms(percentile(pageTimes, 95))}`,
  );

  // The organization's track record over every application.
  const api = await latencyOf(() => `${origin}/api/organizations/${seeded.slug}`);
  const record = (api.body as { stats: Record<string, unknown> }).stats;
  row(
    `GET /api/organizations/${seeded.slug} (${fmt(PIPELINE + RECORD, 0)} applications)`,
    `p50 ${ms(api.p50)} / p95 ${ms(api.p95)}; ${JSON.stringify(record)}`,
    "≤ 30 ms",
    ok(api.p95 <= 30),
  );
  const htmlTimes: number[] = [];
  for (let i = 0; i < 220; i++) {
    const started = performance.now();
    const res = await fetch(`${origin}/organizations/${seeded.slug}`);
    await res.arrayBuffer();
    if (i >= 20) htmlTimes.push(performance.now() - started);
  }
  htmlTimes.sort((a, b) => a - b);
  const orgPage = percentile(htmlTimes, 95);
  row(
    `/organizations/${seeded.slug} (HTML)`,
    `p50 ${ms(percentile(htmlTimes, 50))} / p95 ${ms(orgPage)}`,
    "≤ 30 ms",
    ok(orgPage <= 30),
  );

  // The timeout job over every waiting application, while a client reads the public list (200 pages) at `READ_RATE`
  // reads a second, each sent on time whether the last was answered or not, as independent students send theirs; with
  // `READ_RATE` 0, one read at a time, the next sent when the last is answered. Idle, the same client reads them the
  // same way first: once each (the server keeps each page's body until the listings change), then `IDLE_READS` times,
  // so that both p95s are of reads of kept pages.
  const read = (i: number) => `${origin}/api/internships?offset=${(i * 10) % 2000}`;
  let readErrors = 0;
  /** One read of page `i`: its time (ms) from sending to the body read is added to `times`. */
  const readOnce = async (i: number, times: number[]) => {
    const started = performance.now();
    try {
      const res = await fetch(read(i));
      await res.arrayBuffer();
      if (res.status !== 200) readErrors++;
    } catch {
      readErrors++;
    }
    times.push(performance.now() - started);
  };
  /** Reads the list while `more(i)`, at `READ_RATE` reads a second (or one at a time), into `times`. */
  const readWhile = async (more: (i: number) => boolean, times: number[]) => {
    if (READ_RATE === 0) {
      for (let i = 0; more(i); i++) await readOnce(i, times);
      return;
    }
    const sent: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; more(i); i++) {
      const wait = start + (i * 1000) / READ_RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sent.push(readOnce(i, times));
    }
    await Promise.all(sent);
  };
  await readWhile((i) => i < 200, []);
  const idleReads: number[] = [];
  const idleCpuBefore = cpuMs(platform.process.pid);
  await readWhile((i) => i < IDLE_READS, idleReads);
  // What a read costs the server alone: the job's own CPU is the run's less its reads'.
  const cpuPerRead = (cpuMs(platform.process.pid) - idleCpuBefore) / IDLE_READS;
  idleReads.sort((a, b) => a - b);
  const idle = { p95: percentile(idleReads, 95) };
  let running = true;
  const reads: number[] = [];
  const reader = readWhile(() => running, reads);
  const jobStarted = performance.now();
  const jobStartedAt = Date.now();
  const cpuBefore = cpuMs(platform.process.pid);
  const threadsBefore = threadCpuMs(platform.process.pid);
  const asked = fetch(`${origin}/api/admin/jobs/applications-timeout/run`, {
    method: "POST",
    headers: { cookie: seeded.admin, origin },
  }).then(async (res) => res.ok ? await res.json() : null).catch(() => null);
  // The answer may outlive the connection's idle deadline: the run is over, telling included, once the due-time index
  // is empty up to now and the run let its lease go (it takes it before its first move and drops it after its last
  // message).
  const watcher = await Deno.openKv(kvPath);
  const due = { start: ["applications_due"], end: ["applications_due", jobStartedAt] };
  const waitMs = Number(Deno.env.get("BENCH_JOB_WAIT_S") ?? 900) * 1000;
  let left = 1;
  let leased = true;
  while ((left > 0 || leased) && performance.now() - jobStarted < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = 0;
    for await (const _ of watcher.list(due, { limit: 1 })) left++;
    leased = left > 0 || (await watcher.get(["applications_timeout_lease"])).versionstamp !== null;
  }
  if (left > 0) {
    left = 0;
    for await (const _ of watcher.list(due)) left++;
  }
  const jobMs = performance.now() - jobStarted;
  const jobCpuMs = cpuMs(platform.process.pid) - cpuBefore;
  const threadsAfter = threadCpuMs(platform.process.pid);
  const threadSeconds = (kind: string) => fmt(((threadsAfter[kind] ?? 0) - (threadsBefore[kind] ?? 0)) / 1000);
  running = false;
  await reader;
  const answer = left > 0
    ? null
    : await Promise.race([asked, new Promise((resolve) => setTimeout(() => resolve(null), 30_000))]);
  watcher.close();
  // A run longer than the header gate's idle deadline (75 s) loses its connection; the client sends the request again,
  // and that second run finds the first one's lease and answers zeros: not the run's figures.
  const counted = answer as { rejected?: number } | null;
  const said = !counted
    ? ""
    : counted.rejected === 0 && RECORD > 0
    ? ", answer lost (the request was sent again and found the run's lease)"
    : `, ${JSON.stringify(answer)}`;
  reads.sort((a, b) => a - b);
  const busy = percentile(reads, 95);
  row(
    `Timeout job over ${fmt(RECORD, 0)} waiting applications, messages included`,
    `${left > 0 ? `NOT DONE: ${fmt(RECORD - left, 0)} rejected in ` : ""}${fmt(jobMs / 1000)} s (server CPU ${
      fmt(jobCpuMs / 1000)
    } s with the reads: event loop ${threadSeconds("request")} s, KV ${threadSeconds("sw")} s; the job alone about ${
      fmt((jobCpuMs - reads.length * cpuPerRead) / 1000)
    } s, the reads at ${fmt(cpuPerRead, 2)} ms each idle)${said}`,
    "≤ 60 s",
    ok(left === 0 && jobMs <= 60_000),
  );
  row(
    "GET /api/internships p95 idle / during the whole job",
    `${ms(idle.p95)} / ${ms(busy)} (${fmt(IDLE_READS, 0)} / ${fmt(reads.length, 0)} reads, ${
      READ_RATE ? `${READ_RATE} a second` : "back to back"
    }, ${readErrors} errors)`,
    "≤ 2× idle",
    ok(busy <= 2 * idle.p95 && readErrors === 0),
  );
} finally {
  console.log(`\nApplications benchmark (${HOST}, load average ${loadBefore} before, ${load()} after)\n`);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c].length), 8));
  console.log(["Measure", "Result", "Target", "Met"].map((h, c) => h.padEnd(widths[c])).join("  "));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
  if (server) {
    server.kill("SIGTERM");
    await server.status;
  }
  await Deno.remove(dir, { recursive: true });
}
