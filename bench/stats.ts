/**
 * Dashboard benchmark (`deno task bench`): writes 10,000 purchases (`BENCH_PURCHASES`) through the real checkout and
 * confirmation path (the demo's offline gateway and `buy`, in this process) into a temporary KV file: 1,000 buyers, 10
 * toolkits, a coupon on every fifth purchase, every twentieth refunded. Then starts the real server (`main.ts`, a
 * separate process on 127.0.0.1 over that file) and measures `GET /api/admin/stats?days=30` and `?days=365` over
 * HTTP as an admin, p50/p95 after warm-up. The figures do not grow with the number of purchases: the endpoint reads
 * counters (docs/decisions.md, Money operations). Prints a table, then stops the server and removes the files.
 */
import { latencyOf, startPlatform, waitFor } from "./harness.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { CouponCreateSchema, createCoupon } from "@/lib/coupons/coupons.ts";
import { buy, offlineGateway } from "@/lib/demo/money.ts";
import type { PaymentContext } from "@/lib/purchases/payment_context.ts";
import { refundPayment } from "@/lib/purchases/refunds.ts";
import { createToolkit, ToolkitCreateSchema, updateToolkit } from "@/lib/toolkits/catalog.ts";
import { createUser } from "@/lib/users/users.ts";

const PURCHASES = Number(Deno.env.get("BENCH_PURCHASES") ?? 10_000);
const TOOLKITS = 10;
const BUYERS = Math.ceil(PURCHASES / TOOLKITS);
const WARMUP = 20;
const SAMPLES = 300;
const TARGET_P95_MS = 50;

const dir = await Deno.makeTempDir({ prefix: "stats-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;

/** The admin, toolkits, coupon, buyers and their purchases, written through the platform's own functions. */
async function seed(): Promise<{ adminCookie: string; seconds: number }> {
  const started = performance.now();
  const kv = await Deno.openKv(kvPath);
  const ctx: PaymentContext = { kv, payments: offlineGateway(), appUrl: "http://localhost:8000" };
  const admin = await createUser(kv, {
    name: "Bench admin",
    email: "admin@bench.example",
    emailVerified: true,
    role: "admin",
  });
  const toolkits = [];
  for (let i = 0; i < TOOLKITS; i++) {
    const kit = await createToolkit(kv, {
      creator: admin,
      input: ToolkitCreateSchema.parse({ title: `Bench kit ${i}`, description: "x", price: 199 + 100 * i }),
    });
    toolkits.push(await updateToolkit(kv, { id: kit.id, patch: { isActive: true } }));
  }
  await createCoupon(
    kv,
    CouponCreateSchema.parse({ code: "BENCH10", discountType: "percentage", discountValue: 10, perUserLimit: 10 }),
  );
  let made = 0;
  for (let b = 0; b < BUYERS && made < PURCHASES; b++) {
    const buyer = await createUser(kv, {
      name: `Buyer ${b}`,
      email: `buyer${b}@bench.example`,
      emailVerified: b % 3 !== 0,
      role: "user",
    });
    await Promise.all(
      toolkits.slice(0, Math.min(TOOLKITS, PURCHASES - made)).map(async (kit, k) => {
        const n = made + k;
        const purchaseId = await buy(ctx, { buyer, toolkit: kit, couponCode: n % 5 === 0 ? "BENCH10" : undefined });
        if (n % 20 === 0) {
          await refundPayment(ctx, { by: admin, target: { purchaseId: purchaseId! }, reason: "bench" });
        }
      }),
    );
    made += Math.min(TOOLKITS, PURCHASES - made);
  }
  const adminCookie = `session=${(await createSession(kv, admin.id)).token}`;
  kv.close();
  return { adminCookie, seconds: (performance.now() - started) / 1000 };
}

const { adminCookie, seconds } = await seed();
const { origin, process: server } = startPlatform(kvPath, { RATE_LIMITS: "off", JOBS: "off" });

try {
  await waitFor(`${origin}/api/health`);
  const rows: string[] = [];
  let met = true;
  for (const days of [30, 365]) {
    const { p50, p95, body: answer } = await latencyOf(() => `${origin}/api/admin/stats?days=${days}`, {
      headers: { cookie: adminCookie },
      warmup: WARMUP,
      samples: SAMPLES,
    });
    const body = answer as { totals: { revenue: number; refunds: number }; topToolkits: unknown[] };
    met &&= p95 <= TARGET_P95_MS;
    rows.push(
      `| GET /api/admin/stats?days=${days} | p50 ${ms(p50)} / p95 ${ms(p95)} | ≤ ${TARGET_P95_MS} ms | ${
        p95 <= TARGET_P95_MS ? "yes" : "NO"
      } |`,
    );
    if (days === 30) {
      rows.push(
        `| Figures answered | revenue ₹${body.totals.revenue}, refunds ₹${body.totals.refunds}, ${body.topToolkits.length} top toolkits | | |`,
      );
    }
  }
  console.log(
    `\nDashboard benchmark: ${PURCHASES} purchases by ${BUYERS} buyers (written in ${
      Math.round(seconds)
    } s), ${SAMPLES} samples after ${WARMUP} warm-up\n`,
  );
  console.log("| Measure | Result | Target | Met |\n|---|---|---|---|");
  for (const row of rows) console.log(row);
  if (!met) Deno.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
