/**
 * Concurrent batch posting (docs/performance.md, Scale): eight API-key clients (`BENCH_CLIENTS`) post batches of 100
 * internships at once to the real server (`main.ts`, on a fresh KV file) until `BENCH_TOTAL` (default 1,000,000) are
 * stored. A tenth of the items are open (a deadline ahead, so they enter the read model), the rest closed (a past
 * deadline, so they go to the archive): an import of a board's history. Prints the seeding rate per tenth of the
 * total and overall, every answer other than 201 (a 409 or a 503 would be a lost race the service gave up on), the
 * server's RSS at the end and the load average.
 */
import { type Platform, rssMb, startPlatform, stopPlatform, waitFor } from "./harness.ts";
import { random } from "./listings.ts";
import { createApiKey } from "@/lib/api_keys/api_keys.ts";
import { createUser } from "@/lib/users/users.ts";

const TOTAL = Number(Deno.env.get("BENCH_TOTAL") ?? 1_000_000);
const CLIENTS = Number(Deno.env.get("BENCH_CLIENTS") ?? 8);
const BATCH = 100;
const DAY_MS = 86_400_000;

const ROLES = ["Data Analyst Intern", "Backend Developer Intern", "UI/UX Design Intern", "Marketing Intern"];
const CITIES = ["Bengaluru, Karnataka", "Pune, Maharashtra", "Mumbai, Maharashtra", "New Delhi, Delhi", "Remote"];
const TAGS = ["python", "sql", "react", "design", "marketing", "data", "finance"];

/** One batch of items as a client posts them (`open` of them with a deadline ahead). */
function batch(next: () => number, n: number): unknown[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const now = Date.now();
  return Array.from({ length: BATCH }, (_, i) => {
    const open = next() < 0.1;
    const days = open ? 1 + Math.floor(next() * 75) : -(1 + Math.floor(next() * 1000));
    const title = pick(ROLES);
    return {
      title,
      description: `Join our team as a ${title.toLowerCase()}: real projects, weekly mentoring, batch ${n}, item ${i}.`,
      link: `https://careers.example.com/jobs/${n}-${i}`,
      hiringOrganization: `Company ${Math.floor(next() * 500)}`,
      type: pick(["remote", "hybrid", "onsite"]),
      tags: [pick(TAGS), pick(TAGS)],
      stipend: pick([null, 0, 5000, 10000, 15000, 25000]),
      location: pick(CITIES),
      deadline: new Date(now + days * DAY_MS).toISOString().slice(0, 10),
    };
  });
}

const dir = await Deno.makeTempDir({ prefix: "ingest-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
let platform: Platform | undefined;

try {
  const kv = await Deno.openKv(kvPath);
  const admin = await createUser(kv, {
    name: "Importer",
    email: "importer@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const { key } = await createApiKey(kv, admin, { name: "ingest" });
  kv.close();

  platform = startPlatform(kvPath, { RATE_LIMITS: "off" });
  const { origin } = platform;
  await waitFor(`${origin}/api/health`, 60_000);

  const answers = new Map<number, number>();
  const rates: string[] = [];
  let stored = 0, posted = 0;
  const started = performance.now();
  let stepStart = started, stepStored = 0;
  const step = TOTAL / 10;
  const loadAt: string[] = [];
  await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
    const next = random(client + 1);
    while (posted < TOTAL) {
      posted += BATCH;
      const res = await fetch(`${origin}/api/internships`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(batch(next, posted / BATCH)),
      });
      await res.arrayBuffer();
      answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
      if (res.status !== 201) continue;
      stored += BATCH;
      if (stored - stepStored >= step) {
        const now = performance.now();
        rates.push(`${fmt(stored)}: ${fmt((stored - stepStored) / ((now - stepStart) / 1000))}/s`);
        loadAt.push(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
        console.error(`${fmt(stored)} stored, ${rates.at(-1)}, load ${loadAt.at(-1)}`);
        stepStart = now;
        stepStored = stored;
      }
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const rss = rssMb(platform.process.pid, "VmRSS");
  const others = [...answers].filter(([status]) => status !== 201);
  console.log(
    `\nIngest: ${CLIENTS} API-key clients posting batches of ${BATCH} to ${fmt(TOTAL)} internships (a tenth open), ` +
      `${navigator.hardwareConcurrency} CPUs, load average ${loadAt.join(" → ")}\n`,
  );
  console.log(`Stored ${fmt(stored)} in ${fmt(seconds, 1)} s: ${fmt(stored / seconds)} listings/s overall`);
  console.log(`Rate per tenth (stored so far: rate over the last tenth): ${rates.join("; ")}`);
  console.log(`Answers: 201 × ${fmt(answers.get(201) ?? 0)}${others.map(([s, n]) => `, ${s} × ${fmt(n)}`).join("")}`);
  console.log(`409 answers: ${fmt(answers.get(409) ?? 0)}; server RSS at the end ${fmt(rss)} MB`);
} finally {
  await stopPlatform(platform);
  await Deno.remove(dir, { recursive: true });
}
