/**
 * Trust benchmark (docs/performance.md, Trust benchmark): seeds `BENCH_OPEN` open internships (default 100,000) named
 * after `BENCH_ORGANIZATIONS` organizations (default 1,000), as a store holds them before organizations existed (no
 * `organizationId`; one in 200 asks applicants to pay), in a child process; starts the real server (`main.ts`,
 * `JOBS=off`) on the file and measures over HTTP:
 * - the one-time link of every listing (`POST /api/admin/jobs/organizations-link/run`), while one client keeps reading
 *   list pages: the link's time, and the reads' count, p50/p95/max and errors meanwhile;
 * - with a tenth of the organizations verified, p50/p95 of list filters (each sample another page) alone and with
 *   `verifiedOnly=true`, `paidOnly=true` and both, and each filter's first request;
 * - p50/p95 of a create (API key, one listing naming one of the organizations or a new one, with the never-pay check).
 * Prints a table with the targets and the machine's load average (a shared machine), then stops the server and
 * removes the file.
 */
import {
  percentile,
  type Platform,
  requestLatency,
  SEED_INTO,
  seedInChild,
  seedOwners,
  startPlatform,
  stopPlatform,
  waitFor,
} from "./harness.ts";
import { createApiKey } from "@/lib/api_keys/api_keys.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";

const OPEN = Number(Deno.env.get("BENCH_OPEN") ?? 100_000);
const ORGANIZATIONS = Number(Deno.env.get("BENCH_ORGANIZATIONS") ?? 1_000);
const DAY_MS = 86_400_000;

const PREFIXES = [
  "Zeta",
  "Kisan",
  "Byteloom",
  "Swasth",
  "Pragati",
  "CloudNine",
  "Urban",
  "Vidya",
  "Tarang",
  "GreenGrid",
  "Nimbus",
  "Sarthi",
  "Indus",
  "Pay",
  "Mitti",
  "Chalo",
  "Kalakaar",
  "Arogya",
  "Yatra",
  "Shakti",
  "Quantum",
  "Desi",
  "Saksham",
  "Bharat",
  "Neev",
  "Akash",
  "Prithvi",
  "Jal",
  "Vayu",
  "Agni",
  "Surya",
  "Chandra",
  "Tara",
  "Megh",
  "Sagar",
  "Parvat",
  "Nadi",
  "Van",
  "Kshitij",
  "Disha",
];
const SUFFIXES = [
  "Labs",
  "Fintech",
  "Systems",
  "Health",
  "Foundation",
  "Analytics",
  "Logistics",
  "Robotics",
  "Media",
  "Energy",
  "EdTech",
  "Ventures",
  "Studio",
  "Organics",
  "Mobility",
  "AI",
  "Works",
  "Networks",
  "Solutions",
  "Technologies",
  "Retail",
  "Capital",
  "Foods",
  "Designs",
  "Consulting",
];

/** The name of organization `i`: a prefix and a suffix, distinct for the first 1,000 (then numbered). */
function organizationName(i: number): string {
  const base = `${PREFIXES[i % PREFIXES.length]} ${SUFFIXES[Math.floor(i / PREFIXES.length) % SUFFIXES.length]}`;
  const round = Math.floor(i / (PREFIXES.length * SUFFIXES.length));
  return round === 0 ? base : `${base} ${round + 1}`;
}

if (Deno.args[0] === SEED_INTO) {
  console.log(JSON.stringify(await seed(Deno.args[1])));
  Deno.exit(0);
}

/** Seeds owners, an API key, an admin session and the listings (unlinked) into `path`. */
async function seed(path: string) {
  const started = performance.now();
  const kv = await Deno.openKv(path);
  const owners = await seedOwners(kv);
  const now = Date.now();
  const SLICE = 50_000;
  for (let from = 0; from < OPEN; from += SLICE) {
    const records = generateInternships(Math.min(SLICE, OPEN - from), owners.map((o) => o.id), {
      seed: 11 + from,
      now,
    }).map((record, j) => {
      const i = from + j;
      const createdAt = new Date(now - (i % 60) * DAY_MS - (i % 86_400) * 1000).toISOString();
      const deadline = record.deadline === null
        ? null
        : new Date(now + (1 + i % 75) * DAY_MS).toISOString().slice(0, 10);
      const description = i % 200 === 0
        ? `${record.description} A registration fee of ₹499 applies.`
        : record.description;
      return {
        ...record,
        hiringOrganization: organizationName(i % ORGANIZATIONS),
        description,
        createdAt,
        updatedAt: createdAt,
        deadline,
      };
    });
    await importInternships(kv, records);
  }
  const { key } = await createApiKey(kv, owners[0], { name: "bench" });
  const { token } = await createSession(kv, owners[0].id);
  kv.close();
  return { seedMs: performance.now() - started, apiKey: key, cookie: `session=${token}` };
}

const dir = await Deno.makeTempDir({ prefix: "trust-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const rows: [string, string, string, string][] = [];
const ok = (met: boolean) => met ? "yes" : "NO";
const ms = (n: number) => `${fmt(n, 2)} ms`;
const row = (measure: string, result: string, target = "", met = "") => rows.push([measure, result, target, met]);
let platform: Platform | undefined;

try {
  console.error(`Seeding ${fmt(OPEN, 0)} internships over ${fmt(ORGANIZATIONS, 0)} organizations into ${kvPath} ...`);
  const { seedMs, apiKey, cookie } = await seedInChild<Awaited<ReturnType<typeof seed>>>(
    new URL(import.meta.url),
    kvPath,
  );
  console.error(`Seeded in ${fmt(seedMs / 1000)} s`);

  platform = startPlatform(kvPath, { RATE_LIMITS: "off", JOBS: "off" });
  const { origin } = platform;
  await waitFor(`${origin}/api/health`, 120_000);
  await waitFor(`${origin}/api/internships?search=intern`, 120_000);
  const admin = { cookie, origin };
  const loadBefore = load();

  // The one-time link, while a client keeps reading list pages.
  let linking = true;
  const reads: number[] = [];
  let readErrors = 0;
  const reader = (async () => {
    for (let i = 0; linking; i++) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${origin}/api/internships?search=intern&offset=${(i * 10) % 5000}`);
        await res.arrayBuffer();
        if (res.status !== 200) readErrors++;
      } catch {
        readErrors++;
      }
      reads.push(performance.now() - t0);
    }
  })();
  // The run by hand answers when the link is done; a long one outlives the gate's idle deadline on the connection, so
  // the bench follows the link's progress record in the KV file instead of the answer.
  const linkStarted = performance.now();
  const asked = fetch(`${origin}/api/admin/jobs/organizations-link/run`, { method: "POST", headers: admin })
    .then((res) => res.body?.cancel()).catch(() => {});
  const watcher = await Deno.openKv(kvPath);
  let link: { linked: number; held: number; done: boolean } | null = null;
  while (!link?.done) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    link = (await watcher.get<{ linked: number; held: number; done: boolean }>(["organizations_meta", "link"])).value;
    if (performance.now() - linkStarted > 600_000) throw new Error("the link did not finish in 10 minutes");
  }
  const linkMs = performance.now() - linkStarted;
  watcher.close();
  linking = false;
  await Promise.all([reader, asked]);
  reads.sort((a, b) => a - b);
  row(
    `One-time link of ${fmt(OPEN, 0)} listings`,
    `${fmt(linkMs / 1000, 1)} s, ${fmt(link.linked, 0)} linked, ${fmt(link.held, 0)} held`,
    "≤ 60 s",
    ok(linkMs <= 60_000 && link.linked === OPEN),
  );
  row(
    "List reads during the link",
    `${fmt(reads.length, 0)} reads, p50 ${ms(percentile(reads, 50))} / p95 ${ms(percentile(reads, 95))}, max ${
      ms(reads.at(-1) ?? 0)
    }, ${readErrors} errors`,
    "reads go on, no errors",
    ok(reads.length > 0 && readErrors === 0),
  );

  // A tenth of the organizations verified.
  const organizations = await (await fetch(`${origin}/api/admin/organizations?limit=100`, { headers: admin })).json();
  for (const organization of organizations.organizations) {
    const res = await fetch(`${origin}/api/admin/organizations/${organization.id}`, {
      method: "PATCH",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ isVerified: true }),
    });
    await res.body?.cancel();
  }

  const FILTERS = [
    "",
    "types=remote",
    "tags=python",
    "location=bengaluru",
    "minStipend=10000",
    "search=data analyst",
    "types=hybrid,onsite&tags=react&minStipend=15000",
    "search=python&location=pune&maxStipend=20000",
  ];
  const TRUST = ["", "verifiedOnly=true", "paidOnly=true", "verifiedOnly=true&paidOnly=true"];
  let worst = 0;
  for (const trust of TRUST) {
    for (const filter of FILTERS) {
      const query = [filter, trust].filter(Boolean).join("&");
      const [p50, p95, first] = await requestLatency((i) =>
        fetch(`${origin}/api/internships?${query}${query ? "&" : ""}offset=${i * 10}`)
      );
      worst = Math.max(worst, p95);
      row(
        `GET ?${query || "(no filter)"}`,
        `p50 ${ms(p50)} / p95 ${ms(p95)}, first ${ms(first)}`,
        "p95 ≤ 10 ms",
        ok(p95 <= 10),
      );
    }
  }

  const [c50, c95] = await requestLatency((i) =>
    fetch(`${origin}/api/internships`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        title: `Bench Intern ${i}`,
        link: "https://example.com/apply",
        hiringOrganization: i % 10 === 0 ? `New Bench Co ${i}` : organizationName(i * 7 % ORGANIZATIONS),
        description: i % 20 === 0 ? "Pay Rs 500 to register." : "A real internship with a stipend of ₹10,000.",
        stipend: 10000,
      }),
    }), { expect: 201 });
  row(
    "POST /api/internships (API key; organization link and never-pay check)",
    `p50 ${ms(c50)} / p95 ${ms(c95)}`,
    "p95 ≤ 15 ms",
    ok(c95 <= 15),
  );

  console.log(`\nTrust benchmark: ${fmt(OPEN, 0)} internships over ${fmt(ORGANIZATIONS, 0)} organizations`);
  console.log(`Load average before: ${loadBefore}; after: ${load()} (2 shared cores)\n`);
  const widths = [0, 1, 2, 3].map((c) =>
    Math.max(...[["Measure", "Result", "Target", "Met"], ...rows].map((r) => r[c].length))
  );
  for (const r of [["Measure", "Result", "Target", "Met"] as [string, string, string, string], ...rows]) {
    console.log(`| ${r.map((cell, c) => cell.padEnd(widths[c])).join(" | ")} |`);
  }
  console.log(`\nWorst list filter p95: ${ms(worst)}`);
} finally {
  await stopPlatform(platform);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
