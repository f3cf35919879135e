/**
 * Student space benchmark (`deno run -A bench/student_space.ts`): seeds, in a child process, 100,000 internships
 * (about 8 % hidden) and 10,000 students into a temporary KV file, each student with an onboarding profile (a domain,
 * a city, struggles) and one daily alert that last ran an hour ago, then 100 internships created now, some matching
 * the alerts. It measures:
 * - recommendations: p50/p95 of `recommend(kv, student, "internships", 10)` for 300 different students, in process
 *   on the same KV file, after a first call that loads the read model (whose time is printed too);
 * - the digest under load: the real server (`main.ts`, `JOBS=off`, no SMTP: mails go to the log-only mailer)
 *   answers `GET /api/internships` pages from one client, idle (300 samples) and while
 *   `POST /api/admin/jobs/alerts-digest/run` runs the digest for the 10,000 alerts; the digest's wall time, its
 *   counts, and a second run's (which sends nothing).
 * Targets: recommendations p95 ≤ 20 ms; the digest ≤ 60 s with the list's p95 during it ≤ 2× idle. `BENCH_COUNT`
 * and `BENCH_STUDENTS` override the sizes. Prints a table, then removes the files.
 */
import { freePort, HOST, percentile, SEED_INTO, seedInChild, seedOwners, SERVER_ARGS, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { InternshipCreateSchema } from "@/lib/internships/internships.ts";
import { createInternships } from "@/lib/internships/writes.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { DOMAIN_PREFERENCES, saveOnboardingProfile, STRUGGLES } from "@/lib/onboarding/onboarding.ts";
import { createAlert } from "@/lib/alerts/alerts.ts";
import { recommend } from "@/lib/recommendations/recommendations.ts";
import { createUser, getUser } from "@/lib/users/users.ts";

const COUNT = Number(Deno.env.get("BENCH_COUNT") ?? 100_000);
const STUDENTS = Number(Deno.env.get("BENCH_STUDENTS") ?? 10_000);
const SAMPLES = 300;
const CITIES = ["Bengaluru", "Mumbai", "Pune", "Hyderabad", "Chennai", "New Delhi", "Kolkata", "Remote"];
const SEARCHES = ["data", "software", "design", "marketing", "finance", "research", "product", "content"];

/** Seeds everything into `path`; returns the admin's session cookie and the students' ids. */
async function seed(path: string) {
  const kv = await Deno.openKv(path);
  const owners = await seedOwners(kv);
  await importInternships(kv, generateInternships(COUNT, owners.map((o) => o.id), { seed: 7, withHidden: true }));
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  const students: string[] = [];
  const one = async (i: number) => {
    const user = await createUser(kv, {
      name: `Student ${i}`,
      email: `student${i}@bench.example`,
      emailVerified: true,
      role: "user",
    });
    const city = CITIES[i % CITIES.length];
    await saveOnboardingProfile(kv, user.id, {
      persona: "student",
      locationType: "city",
      locationValue: city === "Remote" ? "Goa" : city,
      educationLevel: "Undergraduate",
      fieldOfStudy: "Engineering",
      fieldOther: null,
      opportunityInterests: ["internships", "hackathons"],
      domainPreferences: [DOMAIN_PREFERENCES[i % DOMAIN_PREFERENCES.length], DOMAIN_PREFERENCES[(i * 7) % 10]],
      struggles: [STRUGGLES[i % STRUGGLES.length]],
    });
    const alert = await createAlert(kv, {
      userId: user.id,
      input: {
        kind: "internships",
        query: { search: SEARCHES[i % SEARCHES.length], location: city },
        frequency: "daily",
      },
    });
    const key = ["alerts", user.id, alert.id];
    const record = (await kv.get<Record<string, unknown>>(key)).value!;
    await kv.set(key, { ...record, lastRunAt: hourAgo });
    students.push(user.id);
  };
  for (let i = 0; i < STUDENTS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, STUDENTS - i) }, (_, j) => one(i + j)));
  }
  const fresh = Array.from({ length: 100 }, (_, i) =>
    InternshipCreateSchema.parse({
      title: `${SEARCHES[i % SEARCHES.length]} intern ${i}`,
      hiringOrganization: "Fresh Labs",
      link: "https://jobs.example.com/fresh",
      location: CITIES[i % CITIES.length],
      tags: [SEARCHES[i % SEARCHES.length]],
      deadline: "2099-12-31",
    }));
  await createInternships(kv, owners[0], fresh);
  const { token } = await createSession(kv, owners[0].id);
  kv.close();
  return { cookie: `session=${token}`, students };
}

if (Deno.args[0] === SEED_INTO) {
  console.log(JSON.stringify(await seed(Deno.args[1])));
  Deno.exit(0);
}

const root = new URL("..", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "student-space-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const ok = (pass: boolean) => (pass ? "yes" : "NO");
let server: Deno.ChildProcess | undefined;

/** p50 and p95 of `samples` (ms). */
function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}

try {
  const started = performance.now();
  const { cookie, students } = await seedInChild<{ cookie: string; students: string[] }>(
    new URL(import.meta.url),
    kvPath,
  );
  console.error(
    `Seeded ${fmt(COUNT, 0)} internships and ${fmt(STUDENTS, 0)} students in ${
      fmt((performance.now() - started) / 1000)
    } s`,
  );
  const rows: string[][] = [];

  const kv = await Deno.openKv(kvPath);
  const first = performance.now();
  await recommend(kv, { user: (await getUser(kv, students[0]))!, kind: "internships", limit: 10 });
  const firstMs = performance.now() - first;
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const user = (await getUser(kv, students[(i * 37) % students.length]))!;
    const t0 = performance.now();
    const items = await recommend(kv, { user, kind: "internships", limit: 10 });
    times.push(performance.now() - t0);
    if (items.length !== 10) throw new Error(`recommendations: ${items.length} items`);
  }
  kv.close();
  const rec = stats(times);
  rows.push(["Recommendations, first call (loads the read model)", `${fmt(firstMs, 0)} ms`, "", ""]);
  rows.push([
    `Recommendations p50 / p95 (${rec.n} students)`,
    `${fmt(rec.p50)} / ${fmt(rec.p95)} ms`,
    "p95 ≤ 20 ms",
    ok(rec.p95 <= 20),
  ]);

  const port = freePort();
  const origin = `http://${HOST}:${port}`;
  server = new Deno.Command(Deno.execPath(), {
    args: SERVER_ARGS,
    cwd: root,
    env: {
      KV_PATH: kvPath,
      PORT: String(port),
      HOST,
      APP_URL: origin,
      RATE_LIMITS: "off",
      LOG_LEVEL: "error",
      JOBS: "off",
    },
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  await waitFor(`${origin}/api/internships`, 60_000);

  let page = 0;
  const listOnce = async () => {
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/internships?limit=10&offset=${(page++ % 5000) * 10}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`list: ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 50; i++) await listOnce();
  const idleTimes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) idleTimes.push(await listOnce());
  const idle = stats(idleTimes);

  const runDigest = async () => {
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/admin/jobs/alerts-digest/run`, {
      method: "POST",
      headers: { cookie, origin },
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`digest: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t0, body };
  };
  let done = false;
  const busyTimes: number[] = [];
  const digest = runDigest().finally(() => done = true);
  while (!done) busyTimes.push(await listOnce());
  const run1 = await digest;
  const busy = stats(busyTimes);
  const run2 = await runDigest();

  rows.push(["GET /api/internships p50 / p95, idle", `${fmt(idle.p50)} / ${fmt(idle.p95)} ms`, "", ""]);
  rows.push([
    `Digest of ${fmt(STUDENTS, 0)} alerts (${run1.body.sent} mails, ${run1.body.alerts} alerts listed)`,
    `${fmt(run1.ms / 1000)} s`,
    "≤ 60 s",
    ok(run1.ms <= 60_000),
  ]);
  rows.push([
    `GET /api/internships p50 / p95 during the digest (${busy.n} samples)`,
    `${fmt(busy.p50)} / ${fmt(busy.p95)} ms`,
    `p95 ≤ 2 × idle (${fmt(2 * idle.p95)} ms)`,
    ok(busy.p95 <= 2 * idle.p95),
  ]);
  rows.push([
    `Second digest run (${run2.body.sent} mails)`,
    `${fmt(run2.ms / 1000)} s`,
    "sends nothing",
    ok(run2.body.sent === 0),
  ]);

  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c].length), 6));
  console.log(`\nStudent space at ${fmt(COUNT, 0)} internships and ${fmt(STUDENTS, 0)} students\n`);
  console.log(["Figure", "Value", "Target", "Met"].map((h, i) => h.padEnd(widths[i])).join(" | "));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join(" | "));
} finally {
  if (server) {
    server.kill("SIGTERM");
    await server.status;
  }
  await Deno.remove(dir, { recursive: true });
}
