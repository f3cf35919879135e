/**
 * Toolkit checkout benchmark (`deno task bench`, after the internship one): starts the fake
 * Razorpay orders API (`tests/fakes/razorpay.ts`, in this process) and the real server
 * (`main.ts`, a separate process on 127.0.0.1 over a temporary KV file, pointed at the fake
 * through `RAZORPAY_API_URL`), and measures over HTTP:
 * - checkout initiation (`POST /api/toolkits/{id}`, a gateway order each) p50/p95 from one client,
 *   each sample a different buyer, after warm-up requests;
 * - the coupon race: 200 buyers at once on a coupon with usage limit 50 → exactly 50 reservations
 *   (checked in the answers and in the coupon's `usedCount`) and how long the burst took.
 * Prints a table, then stops the server and removes the files. `BENCH_BUYERS` and
 * `BENCH_COUPON_LIMIT` override the race's figures.
 */
import { HOST, percentile, startPlatform, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { CouponCreateSchema, createCoupon } from "@/lib/coupons/coupons.ts";
import { createToolkit, ToolkitCreateSchema, updateToolkit } from "@/lib/toolkits/catalog.ts";
import { createUser } from "@/lib/users/users.ts";
import { startFakeRazorpay } from "@/tests/fakes/razorpay.ts";

const WARMUP = 20;
const SAMPLES = 300;
const BUYERS = Number(Deno.env.get("BENCH_BUYERS") ?? 200);
const LIMIT = Number(Deno.env.get("BENCH_COUPON_LIMIT") ?? 50);

const dir = await Deno.makeTempDir({ prefix: "toolkits-bench-" });
const kvPath = `${dir}/kv.sqlite3`;

const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;

/** An admin, a toolkit, the race coupon and a session per buyer, written straight into the KV file. */
async function seed() {
  const kv = await Deno.openKv(kvPath);
  const admin = await createUser(kv, {
    name: "Bench admin",
    email: "admin@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const toolkit = await createToolkit(kv, {
    creator: admin,
    input: ToolkitCreateSchema.parse({ title: "Bench kit", description: "x", price: 499 }),
  });
  await updateToolkit(kv, { id: toolkit.id, patch: { isActive: true } });
  await createCoupon(
    kv,
    CouponCreateSchema.parse({ code: "RACE", discountType: "percentage", discountValue: 20, usageLimit: LIMIT }),
  );
  const cookieOf = async (id: string) => `session=${(await createSession(kv, id)).token}`;
  const buyers: string[] = [];
  for (let i = 0; i < WARMUP + SAMPLES + BUYERS; i++) {
    const user = await createUser(kv, {
      name: `Buyer ${i}`,
      email: `buyer${i}@bench.example`,
      emailVerified: true,
      role: "user",
    });
    buyers.push(await cookieOf(user.id));
  }
  const adminCookie = await cookieOf(admin.id);
  kv.close();
  return { toolkitId: toolkit.id, buyers, adminCookie };
}

await using fake = startFakeRazorpay();
const { toolkitId, buyers, adminCookie } = await seed();
const { origin, process: server } = startPlatform(kvPath, { ...fake.env, RATE_LIMITS: "off" });

try {
  await waitFor(`${origin}/api/health`);
  const start = (cookie: string, couponCode?: string) =>
    fetch(`${origin}/api/toolkits/${toolkitId}`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/json" },
      body: JSON.stringify(couponCode ? { couponCode } : {}),
    });

  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const started = performance.now();
    const res = await start(buyers[i]);
    await res.body?.cancel();
    if (res.status !== 200) throw new Error(`checkout answered ${res.status}`);
    if (i >= WARMUP) samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);

  const racers = buyers.slice(WARMUP + SAMPLES);
  const raceStarted = performance.now();
  const answers = await Promise.all(racers.map(async (cookie) => {
    const res = await start(cookie, "RACE");
    return { status: res.status, body: await res.json() };
  }));
  const raceMs = performance.now() - raceStarted;
  const reserved = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 400 && a.body.error === "Coupon usage limit reached").length;
  const coupons = await (await fetch(`${origin}/api/admin/coupons?search=RACE`, { headers: { cookie: adminCookie } }))
    .json();
  const usedCount = coupons.coupons[0].usedCount;

  console.log(`\nToolkit checkout benchmark (fake gateway on ${HOST}, ${SAMPLES} samples after ${WARMUP} warm-up)\n`);
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  console.log(
    `| POST /api/toolkits/{id} (checkout initiation) | p50 ${ms(percentile(samples, 50))} / p95 ${
      ms(percentile(samples, 95))
    } | | |`,
  );
  const exact = reserved === LIMIT && usedCount === LIMIT && refused === BUYERS - LIMIT;
  console.log(
    `| Coupon race: ${BUYERS} buyers at once, usage limit ${LIMIT} | ${reserved} reserved, ${refused} refused, usedCount ${usedCount}, ${
      Math.round(raceMs)
    } ms | exactly ${LIMIT} | ${exact ? "yes" : "NO"} |`,
  );
  if (!exact) Deno.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
