/**
 * Push fan-out benchmark (docs/performance.md, Push benchmark): `deno run -A bench/push_fanout.ts`. The fake push service of
 * `tests/fakes/push.ts` runs in its own process (it decrypts every message and checks its VAPID JWT, as a push service
 * would) and hands out `BENCH_SUBSCRIPTIONS` subscriptions (default 10,000), one per person; a KV file gets 10,000
 * open internships, those subscriptions (each naming a session of its person, as one made now does), and one
 * notification per person (their push outbox messages due); the real
 * server (`main.ts`, `JOBS=off`) starts on it. It measures `GET /api/internships` p95 idle, then starts the drain as a
 * request does (any successful write: here `POST /api/me/notifications/read`) and, while one client keeps asking for
 * internship pages, waits until the service has taken every message; it prints the fan-out's time, the messages the
 * service took, the server's CPU by thread (the request thread, the encryption worker, the runtime's pool threads; a
 * thread that ended meanwhile is missing there, not from the process's total), and the list's p95 during it against
 * idle (target: within 60 s, p95 at most 2× idle). Also prints the service worker's size gzipped.
 */
import { gzipSync } from "node:zlib";
import { cpuMs, percentile, seedOwners, startPlatform, threadCpuMs, waitFor } from "./harness.ts";
import { createSession, type Session, SESSION_TTL_MS } from "@/lib/auth/sessions.ts";
import { randomToken, sha256Hex } from "@/lib/ids.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { createUser } from "@/lib/users/users.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import type { FakeSubscription } from "@/tests/fakes/push.ts";

const COUNT = Number(Deno.env.get("BENCH_SUBSCRIPTIONS") ?? 10_000);
const FAKE = "--fake-push-service";

if (Deno.args[0] === FAKE) {
  // The child: the service, its subscriptions written to the file named, then serving until killed.
  const service = await startFakePushService();
  const subscriptions: FakeSubscription[] = [];
  for (let i = 0; i < COUNT; i++) subscriptions.push(await service.subscribe());
  await Deno.writeTextFile(Deno.args[1], JSON.stringify({ env: service.env, origin: service.origin, subscriptions }));
  await new Promise(() => {});
}

const root = new URL("..", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "push-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

const handoff = `${dir}/service.json`;
const child = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "bench/push_fanout.ts", FAKE, handoff],
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
let service: { env: Record<string, string>; origin: string; subscriptions: FakeSubscription[] } | null = null;
while (!service) {
  await new Promise((r) => setTimeout(r, 200));
  service = await Deno.readTextFile(handoff).then(JSON.parse).catch(() => null);
}

// Seed: internships, people with one subscription each, and one notification each (due now).
const kv = await Deno.openKv(kvPath);
const owners = await seedOwners(kv);
await importInternships(kv, generateInternships(10_000, owners.map((o) => o.id), { seed: 5 }));
const admin = await createUser(kv, {
  name: "Bench admin",
  email: "admin@bench.example",
  emailVerified: true,
  role: "admin",
});
const cookie = `session=${(await createSession(kv, admin.id)).token}`;
for (let i = 0; i < COUNT; i += 50) {
  const op = kv.atomic();
  for (let j = i; j < Math.min(COUNT, i + 50); j++) {
    const userId = `bench-person-${j}`;
    const { endpoint, keys } = service.subscriptions[j];
    // The phone's session, as a sign-in leaves it (the people have no user record, so `createSession` cannot make it);
    // its subscription names it, so the outbox reads the person's sessions as it does for every subscription made now.
    const now = Date.now();
    const session: Session = {
      id: crypto.randomUUID(),
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
      persistent: true,
      epoch: 0,
    };
    const hash = await sha256Hex(`${userId}.${randomToken()}`);
    op.set(["sessions", hash], session, { expireIn: SESSION_TTL_MS })
      .set(["sessions_by_user", userId, hash], session.id, { expireIn: SESSION_TTL_MS });
    const subscription = { endpoint, keys, createdAt: session.createdAt, epoch: 0, sessionId: session.id };
    op.set(["push_subscriptions", userId], [subscription]);
    addNotification(op, {
      userId,
      type: "opportunity_reviewed",
      title: "Your opportunity was approved",
      body: `"Campus Hack ${j}" is now published for everyone to see.`,
      url: `/opportunities/bench-${j}`,
    });
  }
  if (!(await op.commit()).ok) throw new Error("seed commit failed");
}
kv.close();

/** The machine's load average over the last minute, as /proc/loadavg gives it. */
function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
}

/** Latencies (ms) of sequential `GET /api/internships` pages of the server at `origin` until `stop()` says so or `samples` are taken. */
async function listLatencies(origin: string, samples: number, stop: () => boolean = () => false): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; times.length < samples && !stop(); i++) {
    const started = performance.now();
    const res = await fetch(`${origin}/api/internships?limit=20&offset=${(i * 20) % 5000}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const platform = startPlatform(kvPath, { ...service.env, JOBS: "off", RATE_LIMITS: "off" });
try {
  await waitFor(`${platform.origin}/api/health`, 60_000);

  await listLatencies(platform.origin, 50);
  const idleThreads = threadCpuMs(platform.process.pid).request;
  const idle = percentile(await listLatencies(platform.origin, 300), 95);
  const listCpuMs = (threadCpuMs(platform.process.pid).request - idleThreads) / 300;
  const loadBefore = loadAverage();
  const cpuBefore = { server: cpuMs(platform.process.pid), service: cpuMs(child.pid) };
  const threadsBefore = threadCpuMs(platform.process.pid);
  let done = false;
  const started = performance.now();
  const during = listLatencies(platform.origin, Number.MAX_SAFE_INTEGER, () => done);
  const write = await fetch(`${platform.origin}/api/me/notifications/read`, {
    method: "POST",
    headers: { cookie, origin: platform.origin, "content-type": "application/json" },
    body: "{}",
  });
  if (write.status !== 200) throw new Error(`the write answered ${write.status}`);
  await write.body?.cancel();
  let stats = { taken: 0, refused: 0, posts: 0 };
  const deadline = Date.now() + 300_000;
  while (stats.taken + stats.refused < COUNT && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    stats = await (await fetch(`${service.origin}/stats`)).json();
  }
  const fanoutMs = performance.now() - started;
  const cpu = {
    server: cpuMs(platform.process.pid) - cpuBefore.server,
    service: cpuMs(child.pid) - cpuBefore.service,
  };
  const threads = Object.entries(threadCpuMs(platform.process.pid))
    .map(([kind, ms]) => [kind, ms - (threadsBefore[kind] ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
  done = true;
  const busy = await during;
  const worker = await Deno.readFile(`${root}_build/sw.js`).catch(() => null);

  console.log(
    `Push fan-out to ${
      fmt(COUNT)
    } subscriptions (one per person), load average ${loadBefore} before, ${loadAverage()} after`,
  );
  console.log(
    `  fan-out time                ${fmt(fanoutMs / 1000, 2)} s (target ≤ 60 s)`,
  );
  console.log(
    `  CPU during the fan-out       server ${fmt(cpu.server / 1000, 1)} s (${
      fmt(cpu.server / COUNT, 2)
    } ms a message), push service ${fmt(cpu.service / 1000, 1)} s`,
  );
  console.log(
    `  server threads               ${
      threads.map(([kind, ms]) => `${kind} ${fmt(ms / 1000, 1)} s`).join(", ")
    } (the ${busy.length} list requests included; ${fmt(listCpuMs, 2)} ms of the request thread each when idle)`,
  );
  console.log(`  messages taken by service   ${fmt(stats.taken, 0)} (refused ${stats.refused}, posts ${stats.posts})`);
  console.log(
    `  GET /api/internships p95    idle ${fmt(idle, 2)} ms, during ${
      fmt(percentile(busy, 95), 2)
    } ms over ${busy.length} requests (${fmt(percentile(busy, 95) / idle, 2)}×, target ≤ 2×)`,
  );
  if (worker) {
    console.log(
      `  service worker /sw.js       ${fmt(gzipSync(worker, { level: 9 }).byteLength / 1024, 2)} KB gzipped (${
        fmt(worker.byteLength / 1024, 2)
      } KB)`,
    );
  }
} finally {
  platform.process.kill("SIGTERM");
  await platform.process.status;
  child.kill("SIGTERM");
  await child.status;
  await Deno.remove(dir, { recursive: true });
}
