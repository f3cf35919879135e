/**
 * Opportunity list benchmark (part of `deno task bench`): seeds `BENCH_COUNT` (default 100,000)
 * opportunities of every type and review state into a temporary KV file, starts the real server
 * (`main.ts`) on it, and measures from one client over HTTP the p50/p95 latency of the public
 * list filtered by type and search, and of the admin queue with its counts per state (each
 * sample another page). Prints a table, then stops the server and removes the file.
 */
import { latencyOf, startPlatform, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { type Opportunity, OPPORTUNITY_TYPES } from "@/lib/opportunities/schema.ts";
import { opportunityStore } from "@/lib/opportunities/store.ts";
import { createUser } from "@/lib/users/users.ts";

const COUNT = Number(Deno.env.get("BENCH_COUNT") ?? 100_000);
const SAMPLES = 300;
const dir = await Deno.makeTempDir({ prefix: "opportunities-bench-" });
const kvPath = `${dir}/kv.sqlite3`;

const WORDS = ["robotics", "climate", "fintech", "health", "campus", "open", "source", "startup", "design", "data"];

/** Seeds the opportunities (a tenth awaiting review, a twentieth rejected) and an admin session; returns its cookie. */
async function seed(): Promise<string> {
  const kv = await Deno.openKv(kvPath);
  const admin = await createUser(kv, {
    name: "Bench Admin",
    email: "admin@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const { writer } = await opportunityStore(kv);
  const start = Date.now() - COUNT * 1000;
  for (let i = 0; i < COUNT; i += 100) {
    const batch: Opportunity[] = [];
    for (let j = i; j < Math.min(COUNT, i + 100); j++) {
      const at = new Date(start + j * 1000).toISOString();
      batch.push({
        id: crypto.randomUUID(),
        title: `${WORDS[j % 10]} ${WORDS[(j * 7) % 10]} challenge ${j}`,
        description: `A ${WORDS[(j * 3) % 10]} opportunity for students, number ${j}.`,
        location: ["Bengaluru", "Pune", "Online", "Delhi"][j % 4],
        type: OPPORTUNITY_TYPES[j % 4],
        startDate: "2099-01-01",
        endDate: "2099-01-02",
        link: null,
        organizer: `Organizer ${j % 50}`,
        userId: admin.id,
        isVerified: j % 10 !== 0,
        isActive: j % 20 !== 5,
        createdAt: at,
        updatedAt: at,
      });
    }
    await writer.insert(batch);
  }
  const { token } = await createSession(kv, admin.id);
  kv.close();
  return `session=${token}`;
}

const fmt = (n: number) => n.toFixed(2);
let server: Deno.ChildProcess | undefined;
try {
  console.error(`Seeding ${COUNT.toLocaleString("en-US")} opportunities ...`);
  const cookie = await seed();
  const platform = startPlatform(kvPath);
  const { origin } = platform;
  server = platform.process;
  await waitFor(`${origin}/api/opportunities?limit=1`, 60_000);
  const rows: string[][] = [];
  const latency = (url: (i: number) => string, headers: HeadersInit = {}) =>
    latencyOf(url, { headers, samples: SAMPLES });
  const row = (label: string, { p50, p95 }: { p50: number; p95: number }) =>
    rows.push([label, `p50 ${fmt(p50)} / p95 ${fmt(p95)} ms`, "p95 ≤ 25 ms", p95 <= 25 ? "yes" : "NO"]);
  row("GET /api/opportunities (first page)", await latency((i) => `${origin}/api/opportunities?offset=${i + 20}`));
  row(
    "GET /api/opportunities?type=grant&search=climate",
    await latency((i) => `${origin}/api/opportunities?type=grant&search=climate&offset=${i}`),
  );
  const admin = { cookie };
  row(
    "GET /api/admin/opportunities (pending, with counts)",
    await latency((i) => `${origin}/api/admin/opportunities?offset=${i}`, admin),
  );
  row(
    "GET /api/admin/opportunities?status=all&search=robotics",
    await latency((i) => `${origin}/api/admin/opportunities?status=all&search=robotics&offset=${i}`, admin),
  );
  console.log(`\nOpportunity benchmark: ${COUNT.toLocaleString("en-US")} opportunities, one client over HTTP\n`);
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  if (server) {
    server.kill("SIGTERM");
    await server.status;
  }
  await Deno.remove(dir, { recursive: true });
}
