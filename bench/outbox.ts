/**
 * Outbox benchmark (`deno run -A bench/outbox.ts`): a local SMTP sink (the `smtp-server` fake of
 * `tests/fakes/smtp.ts`, in this process) and a temporary KV file with 10,000 mails due, delivered by
 * `scripts/job.ts outbox` run as one process, then (over a fresh file of 10,000) as two processes at once.
 * Prints for each: mails per second, the sent counts, the delivering processes' peak resident memory, and
 * whether any mail was sent twice (every recipient is counted at the sink). Then the added cost of queueing a
 * mail inside a request: p95 of a request's own commit (a user-like record, checked) with and without the mail's
 * mutations (`queueMailOps`) on the KV file. `BENCH_MAILS` overrides 10,000.
 */
import { percentile } from "./harness.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";

const MAILS = Number(Deno.env.get("BENCH_MAILS") ?? 10_000);
const SAMPLES = 1000;
const root = new URL("..", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "outbox-bench-" });
const sink = await startFakeSmtp();

/** A KV file at `path` with `MAILS` mails due now, written 100 to a commit. */
async function seed(path: string): Promise<void> {
  const kv = await Deno.openKv(path);
  for (let i = 0; i < MAILS; i += 100) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(MAILS, i + 100); j++) {
      queueMailOps(op, {
        to: `student${j}@bench.example`,
        subject: `Your internship alerts (${j})`,
        text: "Three new internships match your alert.\n".repeat(20),
        html: "<p>Three new internships match your alert.</p>".repeat(20),
        link: `http://localhost:8000/internships?alert=${j}`,
        userId: null,
      });
    }
    const { ok } = await op.commit();
    if (!ok) throw new Error("seed commit failed");
  }
  kv.close();
}

/** Runs `processes` outbox job processes at once on `path`; their counts, the wall time and the peak RSS (MB). */
async function deliver(path: string, processes: number) {
  const started = performance.now();
  const children = Array.from({ length: processes }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/job.ts", "outbox"],
      cwd: root,
      env: { KV_PATH: path, SMTP_URL: sink.url, LOG_LEVEL: "error" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn());
  const peaks = children.map(() => 0);
  const sampler = setInterval(() => {
    children.forEach((child, i) => {
      try {
        const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
        peaks[i] = Math.max(peaks[i], kb / 1024);
      } catch {
        // exited
      }
    });
  }, 200);
  const outputs = await Promise.all(children.map((child) => child.output()));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const counts = outputs.map((out) => {
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    return JSON.parse(lines.at(-1)!) as Record<string, number>;
  });
  return { seconds, counts, peaks };
}

/** The sink's messages since `from`: how many, and how many recipients got more than one. */
function tally(from: number): { received: number; twice: number } {
  const seen = new Map<string, number>();
  for (const message of sink.messages.slice(from)) {
    for (const to of message.to) seen.set(to, (seen.get(to) ?? 0) + 1);
  }
  return { received: sink.messages.length - from, twice: [...seen.values()].filter((n) => n > 1).length };
}

/** p95 (ms) of a request's own commit, with or without a queued mail in it. */
async function commitP95(path: string, withMail: boolean): Promise<number> {
  const kv = await Deno.openKv(path);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES + 50; i++) {
    const id = crypto.randomUUID();
    const started = performance.now();
    const op = kv.atomic()
      .check({ key: ["bench_users_by_email", id], versionstamp: null })
      .set(["bench_users", id], { id, name: "Bench student", email: `${id}@bench.example`, createdAt: new Date() })
      .set(["bench_users_by_email", id], id);
    if (withMail) {
      queueMailOps(op, {
        to: `${id}@bench.example`,
        subject: "Verify your email address",
        text: "Open this link to verify your address.\n".repeat(10),
        html: "<p>Open this link to verify your address.</p>".repeat(10),
        link: `http://localhost:8000/api/auth/verify-email?token=${id}`,
        userId: id,
      });
    }
    await op.commit();
    if (i >= 50) samples.push(performance.now() - started);
  }
  kv.close();
  return percentile(samples.toSorted((a, b) => a - b), 95);
}

const rows: string[] = [];
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
for (const processes of [1, 2]) {
  const path = `${dir}/kv-${processes}.sqlite3`;
  await seed(path);
  const from = sink.messages.length;
  const { seconds, counts, peaks } = await deliver(path, processes);
  const { received, twice } = tally(from);
  const sent = counts.map((c) => c.sent);
  rows.push(
    `| ${processes} | ${MAILS} | ${round(seconds)} s | ${Math.round(received / seconds)} | ${sent.join(" + ")} | ` +
      `${received} | ${twice} | ${peaks.map((p) => Math.round(p)).join(", ")} MB |`,
  );
}
const plain = await commitP95(`${dir}/requests.sqlite3`, false);
const queued = await commitP95(`${dir}/requests.sqlite3`, true);

console.log(`Outbox benchmark: ${MAILS} mails due, local SMTP sink (smtp-server), KV file\n`);
console.log("| processes | mails | time | mails/s | sent per process | received | sent twice | peak RSS |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
console.log(
  `\nA request's commit, p95 over ${SAMPLES}: ${round(plain, 2)} ms alone, ${round(queued, 2)} ms with its mail ` +
    `queued: +${round(queued - plain, 2)} ms`,
);
await sink.close();
await Deno.remove(dir, { recursive: true });
