/**
 * The outbox across real processes on one KV file and the real `smtp-server` fake: a process killed between the write
 * and the delivery try (its mail is sent by the next run), two processes running the `outbox` job at once (each mail
 * sent once), and a process killed during a try (its lease is taken over once it runs out, not before).
 */
import { loadConfig } from "@/app.config.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { DELIVERY_CONCURRENCY, DELIVERY_LEASE_MS } from "@/lib/mail/delivery.ts";
import { type OutboxMail, queueMailOps } from "@/lib/mail/outbox.ts";
import { createMailer } from "@/lib/mail/mailer.ts";
import { createLogger } from "@/lib/log.ts";
import { BackgroundWork } from "@/lib/platform/background.ts";
import { InFlightRequests } from "@/lib/platform/in_flight.ts";
import type { Services } from "@/lib/platform/state.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { assert, assertEquals, settlesWithin } from "@/tests/helpers/assert.ts";

const root = new URL("../../..", import.meta.url).pathname;

/** A temporary directory with a KV file path, removed on dispose. */
async function tempKv(): Promise<{ path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "outbox-" });
  return { path: `${dir}/kv.sqlite3`, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** The environment of a platform process on `kvPath` mailing through `smtpUrl`. */
const envOf = (kvPath: string, smtpUrl: string) => ({ KV_PATH: kvPath, SMTP_URL: smtpUrl, LOG_LEVEL: "error" });

/** Runs `deno task job outbox` as its own process; resolves to the counts it printed. */
async function jobProcess(kvPath: string, smtpUrl: string): Promise<Record<string, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/job.ts", "outbox"],
    cwd: root,
    env: envOf(kvPath, smtpUrl),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout).trim();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(stdout.split("\n").at(-1)!);
}

/** Starts `tests/fixtures/outbox_process.ts` in `mode`; resolves once it has queued its mail, with the process. */
async function dyingProcess(mode: "write-only" | "try", kvPath: string, smtpUrl: string, to: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tests/fixtures/outbox_process.ts", mode, to],
    cwd: root,
    env: envOf(kvPath, smtpUrl),
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the process ended before it queued its mail");
    text += value;
  }
  const id = text.match(/^queued (\S+)/)![1];
  return {
    id,
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      await reader.cancel();
    },
  };
}

/** Services of this test process over the KV file, mailing through `smtpUrl`. */
async function servicesOn(kvPath: string, smtpUrl: string): Promise<Services & AsyncDisposable> {
  const config = loadConfig(envOf(kvPath, smtpUrl));
  const log = createLogger("error");
  const kv = await Deno.openKv(kvPath);
  const services = {
    config,
    kv,
    log,
    mailer: createMailer(smtpUrl, config.mailFrom, log),
    background: new BackgroundWork(),
    requests: new InFlightRequests(),
  } as unknown as Services;
  return Object.assign(services, {
    [Symbol.asyncDispose]: async () => {
      await services.background.settled();
      services.mailer.close();
      kv.close();
    },
  });
}

Deno.test("a process killed between the write and the delivery try: the next run of the job sends the mail", async () => {
  await using smtp = await startFakeSmtp();
  await using file = await tempKv();
  const writer = await dyingProcess("write-only", file.path, smtp.url, "orphan@example.com");
  await writer.kill();
  assertEquals(smtp.messages.length, 0);
  const counts = await jobProcess(file.path, smtp.url);
  assertEquals(counts, { job: "outbox", sent: 1, retried: 0, failed: 0, skipped: 0 } as unknown as typeof counts);
  assertEquals(smtp.messages.map((m) => m.to), [["orphan@example.com"]]);
  const kv = await Deno.openKv(file.path);
  assertEquals((await kv.get<OutboxMail>(["outbox", writer.id])).value?.status, "sent");
  kv.close();
});

Deno.test("two processes running the outbox job at once on one KV file send each mail once", async () => {
  const MAILS = 100;
  // The server holds every message until it holds more than one process sends at once (DELIVERY_CONCURRENCY): then
  // the second process is sending too, however late it started on a loaded machine, and the two runs overlap.
  const bothSending = Promise.withResolvers<void>();
  let held = 0;
  await using smtp = await startFakeSmtp({
    onMessage: () => {
      if (++held > DELIVERY_CONCURRENCY) bothSending.resolve();
      return bothSending.promise;
    },
  });
  // A held message keeps its connection quiet: the client waits longer than its default for the answer.
  const smtpUrl = `${smtp.url}?socketTimeout=120000`;
  await using file = await tempKv();
  const kv = await Deno.openKv(file.path);
  for (let i = 0; i < MAILS; i += 50) {
    const op = kv.atomic();
    for (let j = i; j < i + 50; j++) {
      queueMailOps(op, {
        to: `m${j}@example.com`,
        subject: `Mail ${j}`,
        text: "T",
        html: "<p>H</p>",
        link: "",
        userId: null,
      });
    }
    assert((await op.commit()).ok);
  }
  kv.close();
  const [a, b] = await settlesWithin(
    Promise.all([jobProcess(file.path, smtpUrl), jobProcess(file.path, smtpUrl)]),
    120_000,
    "the two runs",
  );
  assertEquals(a.sent + b.sent, MAILS);
  assert(a.sent > 0 && b.sent > 0, `both processes sent mails: ${a.sent} and ${b.sent}`);
  assertEquals(a.failed + b.failed + a.retried + b.retried, 0);
  const recipients = smtp.messages.flatMap((m) => m.to);
  assertEquals(recipients.length, MAILS, "no mail was sent twice");
  assertEquals(new Set(recipients).size, MAILS);
});

Deno.test("a lease left by a process killed during a try is kept until it runs out, then taken over", async () => {
  const arrived = Promise.withResolvers<void>();
  // The first server takes the message and never answers: the process dies holding its claim.
  await using stalled = await startFakeSmtp({
    onMessage: () => {
      arrived.resolve();
      return new Promise(() => {});
    },
  });
  await using smtp = await startFakeSmtp();
  await using file = await tempKv();
  const dying = await dyingProcess("try", file.path, stalled.url, "held@example.com");
  await arrived.promise;
  await dying.kill();
  await using services = await servicesOn(file.path, smtp.url);
  const held = (await services.kv.get<OutboxMail>(["outbox", dying.id])).value!;
  assertEquals([held.status, held.attempts], ["pending", 0]);
  assert(held.lease && held.lease.until > Date.now(), "the dead process's lease is still live");
  const outbox = findJob("outbox")!;
  const before = await runJob(outbox, services, new Date(held.lease.until - 1000));
  assertEquals([before.sent, before.skipped, smtp.messages.length], [0, 1, 0], "not taken over while the lease lives");
  const after = await runJob(outbox, services, new Date(held.lease.until + 1));
  assertEquals([after.sent, smtp.messages.length], [1, 1]);
  const sent = (await services.kv.get<OutboxMail>(["outbox", dying.id])).value!;
  assertEquals([sent.status, sent.attempts, sent.lease], ["sent", 1, null]);
  assertEquals(held.lease.until - Date.parse(held.createdAt) <= DELIVERY_LEASE_MS + 5000, true);
});
