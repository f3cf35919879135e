/**
 * Auth timing benchmark (`deno run -A bench/auth_timing.ts`): whether an answer's time tells that an e-mail has an
 * account (docs/decisions.md, Auth). Writes a verified and an unverified account with a password into a temporary KV
 * file, starts the real server (`main.ts`, a separate process on 127.0.0.1, rate limits off, e-mails to the log) and
 * times, over HTTP from one client, alternating a known and an unknown e-mail (so a change in the machine's load
 * weighs on both alike): a sign-in with a wrong password, a password-reset request and a verification-mail request,
 * `SAMPLES` of each after warm-up. Prints the medians side by side and their ratio (the API tests check that the
 * answers are the same and never wait for the mail server). Then stops the server and removes the files.
 */
import { HOST, startPlatform, waitFor } from "./harness.ts";
import { hashPassword } from "@/lib/auth/passwords.ts";
import { createUser } from "@/lib/users/users.ts";

const SAMPLES = 25;
const WARMUP = 3;
const PASSWORD = "correct horse battery";

const dir = await Deno.makeTempDir({ prefix: "auth-timing-bench-" });
const kvPath = `${dir}/kv.sqlite3`;
const ms = (n: number) => `${Math.round(n * 100) / 100} ms`;
const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];

const kv = await Deno.openKv(kvPath);
for (const [email, emailVerified] of [["known@bench.example", true], ["unverified@bench.example", false]] as const) {
  await createUser(kv, {
    name: "Bench person",
    email,
    emailVerified,
    role: "user",
    passwordHash: await hashPassword(PASSWORD),
  });
}
kv.close();

const platform = startPlatform(kvPath, { RATE_LIMITS: "off" });

/** Milliseconds until `path` has answered `body` as JSON (same-origin), with the answer's status. */
async function timed(path: string, body: unknown): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${platform.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: platform.origin },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return { ms: performance.now() - started, status: res.status };
}

/** Medians of `path` for the known e-mail and for unknown ones, alternating. */
async function compare(path: string, knownEmail: string, body: (email: string) => unknown) {
  const known: number[] = [];
  const unknown: number[] = [];
  const statuses = new Set<string>();
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const a = await timed(path, body(knownEmail));
    const b = await timed(path, body(`nobody${i}@bench.example`));
    statuses.add(`${a.status}/${b.status}`);
    if (i < WARMUP) continue;
    known.push(a.ms);
    unknown.push(b.ms);
  }
  const [k, u] = [median(known), median(unknown)];
  console.log(`| ${path} | ${ms(k)} | ${ms(u)} | ${(u / k).toFixed(2)} | ${[...statuses].join(", ")} |`);
}

try {
  await waitFor(`${platform.origin}/api/health`);
  console.log(`Answer times for a known and an unknown e-mail (${HOST}, medians of ${SAMPLES})\n`);
  console.log("| Request | Known e-mail | Unknown e-mail | Unknown / known | Statuses (known/unknown) |");
  console.log("| --- | --- | --- | --- | --- |");
  await compare("/api/auth/sign-in/email", "known@bench.example", (email) => ({ email, password: "wrong password" }));
  await compare("/api/auth/forget-password", "known@bench.example", (email) => ({ email }));
  await compare("/api/auth/send-verification-email", "unverified@bench.example", (email) => ({ email }));
} finally {
  platform.process.kill("SIGTERM");
  await platform.process.status;
  await Deno.remove(dir, { recursive: true });
}
