/**
 * The outbox against the real `smtp-server` fake: refusals retried on `OUTBOX_RETRY_MS`, a mail that fails every try
 * kept as failed and sent by an admin retry, requests that never wait for SMTP, `JOBS=off`, a run older than the lease
 * whose claims still hold against a second runner, and bodies (with the tokens their links hold) dropped once a mail
 * is sent or failed for good.
 */
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";
import { getUserByEmail } from "@/lib/users/users.ts";
import { findJob, runJob, runScheduled } from "@/lib/jobs/registry.ts";
import { deliverDue, DELIVERY_LEASE_MS, dropKeptBodies, queueMail } from "@/lib/mail/delivery.ts";
import { type OutboxMail, queueMailOps, readMail } from "@/lib/mail/outbox.ts";
import { listOutbox, OUTBOX_WINDOW } from "@/lib/mail/outbox_admin.ts";
import { createMailer } from "@/lib/mail/mailer.ts";
import { assert, assertEquals, assertMatch, settlesWithin } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { smtpRefusal, startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { PASSWORD } from "@/tests/fixtures/people.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { kvFailingCommits } from "@/tests/fixtures/failing_kv.ts";

const MINUTE = 60_000;

/** A mail about nobody, to `to` (`retryable`: it holds no token, so it is kept for an admin's retry). */
const mailTo = (to: string, retryable?: boolean) => ({
  to,
  subject: `Hello ${to}`,
  text: "Plain text",
  html: "<p>HTML</p>",
  link: "http://localhost:8000/x",
  userId: null,
  ...retryable === undefined ? {} : { retryable },
});

/** Every value in KV as JSON text, to look for a secret in. */
async function everything(kv: Deno.Kv): Promise<string> {
  const values: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    values.push(JSON.stringify([entry.key, entry.value], (_, v) => typeof v === "bigint" ? String(v) : v));
  }
  return values.join("\n");
}

/** The outbox record of the only mail to `to`. */
async function recordTo(t: TestApp, to: string): Promise<OutboxMail> {
  const { mails } = await listOutbox(t.kv, { search: to, limit: 10, offset: 0 });
  assertEquals(mails.length, 1, `one mail to ${to}`);
  return (await t.kv.get<OutboxMail>(["outbox", mails[0].id])).value!;
}

/** Runs the outbox job as if it were `msLater` ms from now. */
const runOutbox = (t: TestApp, msLater: number) =>
  runJob(findJob("outbox")!, t.services, new Date(Date.now() + msLater));

Deno.test("a mail the SMTP server refuses (451) is retried after the first wait and arrives once", async () => {
  let refusals = 0;
  await using smtp = await startFakeSmtp({
    onMessage: () => refusals++ < 1 ? Promise.reject(smtpRefusal(451, "Try again later")) : Promise.resolve(),
  });
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url, OUTBOX_RETRY_MS: "60000,300000" } });
  await queueMail(t.services, mailTo("retry@example.com"));
  await t.settled();
  let mail = await recordTo(t, "retry@example.com");
  assertEquals([mail.status, mail.attempts, smtp.refused, smtp.messages.length], ["pending", 1, 1, 0]);
  assertMatch(mail.lastError!, /451/);
  // Not due before the wait is over; due after it.
  assertEquals(await runOutbox(t, 30_000), { job: "outbox", sent: 0, retried: 0, failed: 0, skipped: 0 });
  assertEquals(await runOutbox(t, MINUTE + 1000), { job: "outbox", sent: 1, retried: 0, failed: 0, skipped: 0 });
  assertEquals(await runOutbox(t, 10 * MINUTE), { job: "outbox", sent: 0, retried: 0, failed: 0, skipped: 0 });
  assertEquals(smtp.messages.map((m) => m.to), [["retry@example.com"]]);
  assertEquals(smtp.messages[0].subject, "Hello retry@example.com");
  mail = await recordTo(t, "retry@example.com");
  assertEquals([mail.status, mail.attempts, mail.dueAt], ["sent", 2, null]);
  assert(mail.sentAt !== null);
  assertEquals(await t.kv.get(["outbox_due", Date.parse(mail.createdAt), mail.id]).then((e) => e.value), null);
});

Deno.test("a mail that fails every try ends failed with the last error; an admin retry sends it", async () => {
  const down = await startFakeSmtp();
  await down.close();
  await using t = await createTestApp({ env: { SMTP_URL: down.url, OUTBOX_RETRY_MS: "1000,2000" } });
  const admin = await createTestUser(t, "admin");
  await queueMail(t.services, mailTo("lost@example.com", true));
  await t.settled();
  assertEquals((await recordTo(t, "lost@example.com")).attempts, 1);
  assertEquals((await runOutbox(t, 1500)).retried, 1);
  assertEquals((await runOutbox(t, 10_000)).failed, 1);
  const failed = await recordTo(t, "lost@example.com");
  assertEquals([failed.status, failed.attempts, failed.dueAt], ["failed", 3, null]);
  assertMatch(failed.lastError!, /ECONNREFUSED/);
  assertEquals((await runOutbox(t, 60 * MINUTE)).failed, 0, "a failed mail is not tried again by the job");

  const list = await t.fetch("/api/admin/outbox?status=failed", { headers: admin.headers });
  assertEquals(list.status, 200);
  const body = await list.json();
  assertEquals(body.counts, { pending: 0, sent: 0, failed: 1 });
  assertEquals(body.mails.map((m: { to: string }) => m.to), ["lost@example.com"]);
  assertEquals(Object.keys(body.mails[0]).sort(), [
    "attempts",
    "canRetry",
    "createdAt",
    "dueAt",
    "id",
    "lastError",
    "sentAt",
    "status",
    "subject",
    "to",
  ]);

  await using smtp = await startFakeSmtp();
  t.services.mailer = createMailer(smtp.url, t.services.config.mailFrom, t.services.log);
  const retry = await t.json("POST", `/api/admin/outbox/${failed.id}/retry`, { headers: admin.headers });
  assertEquals(retry.status, 200);
  const { mail } = await retry.json();
  assertEquals([mail.status, mail.attempts], ["pending", 3]);
  assertEquals(mail.text, undefined, "no body in the answer");
  const logged = await listAdminLog(t.kv, adminLogQuerySchema.parse({ action: "mail.retry" }));
  assertEquals(logged.entries.map((e) => [e.adminId, e.targetId]), [[admin.user.id, failed.id]], "the retry is logged");
  await smtp.waitFor("lost@example.com");
  await t.settled();
  const sent = await recordTo(t, "lost@example.com");
  assertEquals([sent.status, sent.text, sent.html, sent.link], ["sent", "", "", ""], "sent: the body is gone");
  assertEquals(smtp.messages.length, 1);
  assertEquals(smtp.messages[0].text.trim(), "Plain text");

  const again = await t.json("POST", `/api/admin/outbox/${failed.id}/retry`, { headers: admin.headers });
  assertEquals([again.status, await again.json()], [409, { error: "Only a failed mail can be retried" }]);
  const unknown = await t.json("POST", "/api/admin/outbox/nope/retry", { headers: admin.headers });
  assertEquals([unknown.status, await unknown.json()], [404, { error: "Mail not found" }]);
  // Its pooled connection goes before the server closes (which waits for open connections).
  t.services.mailer.close();
});

/**
 * A fake SMTP server that takes each message and answers only once the test calls `release()`; `arrived` settles when
 * the first message reached it.
 */
async function heldSmtp() {
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const smtp = await startFakeSmtp({
    onMessage: () => {
      arrived.resolve();
      return release.promise;
    },
  });
  return Object.assign(smtp, { arrived: arrived.promise, release: () => release.resolve() });
}

Deno.test("sign-up answers while the SMTP server holds its mail; the mail arrives after", async () => {
  await using smtp = await heldSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const res = await settlesWithin(
    t.json("POST", "/api/auth/sign-up/email", {
      body: {
        name: "Patient",
        email: "patient@example.com",
        password: PASSWORD,
      },
    }),
    30_000,
    "the sign-up's answer",
  );
  assertEquals(res.status, 200);
  await res.body?.cancel();
  // The mail reaches the server after the answer, and waits there until the test lets the server answer.
  await settlesWithin(smtp.arrived, 30_000, "the mail's arrival at the server");
  smtp.release();
  await smtp.waitFor("patient@example.com", 30_000);
  await t.settled();
  assertEquals((await recordTo(t, "patient@example.com")).status, "sent");
  assertEquals((await getUserByEmail(t.kv, "patient@example.com"))?.emailVerified, false);
});

Deno.test("a run that began minutes ago claims for a full lease from the claim: a second runner does not send again", async () => {
  // The first run's send is under way while the server holds the message.
  await using smtp = await heldSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  // A run that began 6 minutes ago (a backlog, a slow SMTP server) reaches a mail queued before it began.
  const began = Date.now() - 6 * MINUTE;
  const op = t.kv.atomic();
  const id = queueMailOps(op, mailTo("once@example.com"), began - 1000);
  assert((await op.commit()).ok);
  const claimedFrom = Date.now();
  const first = deliverDue(t.services, began);
  try {
    await settlesWithin(smtp.arrived, 30_000, "the first run's mail at the server");
    const lease = (await readMail(t.kv, id)).value!.lease!;
    assert(lease.until >= claimedFrom + DELIVERY_LEASE_MS, "the lease counts from the claim, not the run's start");
    // A second runner at the real time (an admin's "run now", another process's cron).
    const second = await runJob(findJob("outbox")!, t.services);
    assertEquals([second.sent, second.skipped], [0, 1]);
  } finally {
    smtp.release();
  }
  assertEquals(await first, { sent: 1, retried: 0, failed: 0, skipped: 0 });
  assertEquals(smtp.messages.map((m) => m.to), [["once@example.com"]]);
});

Deno.test("POST /api/admin/jobs/{name}/run runs a job for an admin only; an unknown job is 404", async () => {
  await using t = await createTestApp({ env: { JOBS: "off" } });
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  await queueMail(t.services, mailTo("hand@example.com"));
  await t.settled();
  t.mails.length = 0;
  const due = await t.kv.get<OutboxMail>(["outbox", (await recordTo(t, "hand@example.com")).id]);
  assertEquals(due.value?.status, "sent", "the request's own try runs with JOBS=off");

  await queueMailWithoutTry(t, "later@example.com");
  assertEquals((await t.json("POST", "/api/admin/jobs/outbox/run", { headers: user.headers })).status, 403);
  assertEquals((await t.json("POST", "/api/admin/jobs/outbox/run")).status, 401);
  await runScheduled(findJob("outbox")!, t.services);
  assertEquals(t.mails.length, 0, "JOBS=off: the cron skips its work");
  const res = await t.json("POST", "/api/admin/jobs/outbox/run", { headers: admin.headers });
  assertEquals([res.status, await res.json()], [200, { job: "outbox", sent: 1, retried: 0, failed: 0, skipped: 0 }]);
  assertEquals(t.mails.map((m) => m.to), ["later@example.com"], "a run by hand runs with JOBS=off");
  const unknown = await t.json("POST", "/api/admin/jobs/nope/run", { headers: admin.headers });
  assertEquals([unknown.status, await unknown.json()], [404, { error: "Job not found" }]);
  const deletions = await t.json("POST", "/api/admin/jobs/account-deletions/run", { headers: admin.headers });
  assertEquals([deletions.status, await deletions.json()], [200, {
    job: "account-deletions",
    resumed: 0,
    swept: 0,
    failed: 0,
  }]);
});

/** Queues a mail in its own write without starting a delivery try (as a caller's `queueMailOps` does). */
async function queueMailWithoutTry(t: TestApp, to: string): Promise<void> {
  const op = t.kv.atomic();
  queueMailOps(op, mailTo(to));
  assert((await op.commit()).ok);
}

Deno.test("GET /api/admin/outbox filters by status and recipient, pages newest first, and is for admins only", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const user = await createTestUser(t, "user");
  for (const to of ["a1@example.com", "b1@example.org", "a2@example.com"]) {
    await queueMailWithoutTry(t, to);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await queueMail(t.services, mailTo("sent@example.com"));
  await t.settled();
  const get = async (query: string, headers = admin.headers) => {
    const res = await t.fetch(`/api/admin/outbox${query}`, { headers });
    return [res.status, await res.json()];
  };
  const [, all] = await get("");
  assertEquals(all.counts, { pending: 3, sent: 1, failed: 0 });
  assertEquals(all.more, { pending: false, sent: false, failed: false });
  assertEquals(all.mails.map((m: { to: string }) => m.to), [
    "sent@example.com",
    "a2@example.com",
    "b1@example.org",
    "a1@example.com",
  ]);
  const [, pending] = await get("?status=pending&search=EXAMPLE.COM&limit=1&offset=1");
  assertEquals(pending.mails.map((m: { to: string }) => m.to), ["a1@example.com"]);
  assertEquals(pending.pagination, { limit: 1, offset: 1, total: 2, hasMore: false });
  assertEquals(pending.counts, { pending: 3, sent: 1, failed: 0 }, "counts are over the whole outbox");
  const [bad] = await get("?status=lost&limit=0");
  assertEquals(bad, 400);
  const [forbidden] = await get("", user.headers);
  assertEquals(forbidden, 403);
});

Deno.test("the admin outbox reads the newest OUTBOX_WINDOW mails of a status: counts say more, pages end there", async () => {
  await using t = await createTestApp();
  const start = Date.now() - 60 * MINUTE;
  const n = OUTBOX_WINDOW + 5;
  for (let i = 0; i < n; i += 50) {
    const op = t.kv.atomic();
    for (let j = i; j < Math.min(n, i + 50); j++) {
      queueMailOps(op, mailTo(j === 0 ? "oldest@example.com" : `m${j}@example.com`), start + j);
    }
    assert((await op.commit()).ok);
  }
  const first = await listOutbox(t.kv, { status: "pending", limit: 2, offset: 0 });
  assertEquals(first.mails.map((m) => m.to), [`m${n - 1}@example.com`, `m${n - 2}@example.com`], "newest first");
  assertEquals(first.counts, { pending: OUTBOX_WINDOW, sent: 0, failed: 0 });
  assertEquals(first.more, { pending: true, sent: false, failed: false });
  assertEquals(first.pagination, { limit: 2, offset: 0, total: OUTBOX_WINDOW, hasMore: true });
  const last = await listOutbox(t.kv, { limit: 100, offset: OUTBOX_WINDOW - 1 });
  assertEquals(last.mails.map((m) => m.to), ["m5@example.com"], "the oldest within the window ends the list");
  assertEquals(last.pagination.hasMore, false);
  const old = await listOutbox(t.kv, { search: "oldest@", limit: 10, offset: 0 });
  assertEquals(old.mails, [], "the search covers the window only");
  const recent = await listOutbox(t.kv, { search: "m1004@", limit: 10, offset: 0 });
  assertEquals(recent.mails.map((m) => m.to), ["m1004@example.com"]);
});

Deno.test("the demo data holds one failed e-mail for the admin page, added once", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  await seedDemoData(t.kv);
  const { mails, counts } = await listOutbox(t.kv, { status: "failed", limit: 10, offset: 0 });
  assertEquals(counts.failed, 1);
  assertEquals([mails[0].to, mails[0].attempts], ["rohan@demo.careers", 1]);
  assertMatch(mails[0].lastError!, /^550 /);
});

Deno.test("once sent, a reset mail keeps its metadata and no token it held can be read back from KV", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  await createTestUser(t, "user", { email: "asha@example.com" });
  const res = await t.json("POST", "/api/auth/forget-password", { body: { email: "asha@example.com" } });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const delivered = await smtp.waitFor("asha@example.com");
  await t.settled();
  const token = /token=([\w-]{43})/.exec(delivered.text)![1];
  const mail = await recordTo(t, "asha@example.com");
  assertEquals([mail.status, mail.attempts, mail.text, mail.html, mail.link, mail.headers], [
    "sent",
    1,
    "",
    "",
    "",
    undefined,
  ]);
  assertMatch(mail.subject, /reset your .*password/i);
  assertEquals((await everything(t.kv)).includes(token), false, "the token is nowhere in KV");
  // The link still works: the token's own record is its hash.
  const reset = await t.json("POST", "/api/auth/reset-password", { body: { newPassword: "new password 123", token } });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  // The reset queues its "password changed" mail: let it go out (closing the mailer under it left it waiting).
  await t.settled();
  assertEquals(smtp.messages.filter((m) => m.to.includes("asha@example.com")).length, 2);
});

Deno.test("a failed mail that held a token keeps no body: it is listed as not retryable and a retry is 409", async () => {
  await using smtp = await startFakeSmtp({ onMessage: () => Promise.reject(smtpRefusal(550, "No such mailbox")) });
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  t.services.config.outboxRetryMs = [];
  const admin = await createTestUser(t, "admin");
  await createTestUser(t, "user", { email: "gone@example.com" });
  const res = await t.json("POST", "/api/auth/forget-password", { body: { email: "gone@example.com" } });
  await res.body?.cancel();
  await queueMail(t.services, mailTo("receipt@example.com", true));
  await t.settled();
  for (let i = 0; i < 100 && (await listOutbox(t.kv, { limit: 10, offset: 0 })).counts.failed < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const reset = await recordTo(t, "gone@example.com");
  assertEquals([reset.status, reset.text, reset.link, reset.bodyDropped], ["failed", "", "", true]);
  assertEquals((await everything(t.kv)).includes("token="), false, "no reset link is left in KV");
  const kept = await recordTo(t, "receipt@example.com");
  assertEquals([kept.status, kept.text], ["failed", "Plain text"], "a mail without a token keeps its body");
  const { mails } = await (await t.fetch("/api/admin/outbox?status=failed", { headers: admin.headers })).json();
  assertEquals(
    mails.map((m: { to: string; canRetry: boolean }) => [m.to, m.canRetry]).sort(),
    [["gone@example.com", false], ["receipt@example.com", true]],
  );
  const retry = await t.json("POST", `/api/admin/outbox/${reset.id}/retry`, { headers: admin.headers });
  assertEquals(retry.status, 409);
  assertMatch((await retry.json()).error, /held a single-use link/);
  assertEquals((await recordTo(t, "gone@example.com")).status, "failed");
  t.services.mailer.close();
});

Deno.test("the outbox job drops, once, the bodies an earlier version kept with sent and failed mails", async () => {
  await using t = await createTestApp();
  const now = Date.now();
  const old = (status: "sent" | "failed", to: string): OutboxMail => ({
    ...mailTo(to),
    link: `http://localhost:8000/reset-password?token=secret-${to}`,
    id: crypto.randomUUID(),
    status,
    attempts: 1,
    lastError: status === "failed" ? "550" : null,
    createdAt: new Date(now - 1000).toISOString(),
    dueAt: null,
    sentAt: status === "sent" ? new Date(now - 1000).toISOString() : null,
    lease: null,
  });
  for (const mail of [old("sent", "s@example.com"), old("failed", "f@example.com")]) {
    await t.kv.atomic().set(["outbox", mail.id], mail)
      .set(["outbox_status", mail.status, now - 1000, mail.id], { to: mail.to }).commit();
  }
  await queueMailWithoutTry(t, "pending@example.com");
  assertEquals(await runOutbox(t, 0), { job: "outbox", sent: 1, retried: 0, failed: 0, skipped: 0 });
  assertEquals((await everything(t.kv)).includes("secret-"), false);
  assertEquals((await recordTo(t, "f@example.com")).bodyDropped, true);
  assertEquals((await recordTo(t, "s@example.com")).status, "sent");
  assertEquals(await dropKeptBodies(t.kv), 0, "the marker makes later runs read one key");
});

Deno.test("the one-time drop of kept bodies never holds up delivery, and goes on in batches from where it stopped", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const at = Date.now() - 1000;
  const kept: OutboxMail[] = Array.from({ length: 250 }, (_, i) => ({
    ...mailTo(`kept${i}@example.com`),
    link: `http://localhost:8000/reset-password?token=secret-${i}`,
    id: crypto.randomUUID(),
    status: "sent",
    attempts: 1,
    lastError: null,
    createdAt: new Date(at).toISOString(),
    dueAt: null,
    sentAt: new Date(at).toISOString(),
    lease: null,
  }));
  for (let i = 0; i < kept.length; i += 50) {
    const op = t.kv.atomic();
    for (const mail of kept.slice(i, i + 50)) {
      op.set(["outbox", mail.id], mail).set(["outbox_status", "sent", at, mail.id], { to: mail.to });
    }
    assert((await op.commit()).ok);
  }
  await queueMailWithoutTry(t, "pending@example.com");
  // A KV that fails the walk of the status index: the due mail goes out all the same, and the failure is logged.
  const broken = new Proxy(t.kv, {
    get(target, name) {
      if (name === "list") {
        return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          if ("prefix" in selector && selector.prefix[0] === "outbox_status") throw new Error("KV went away");
          return target.list(selector, options);
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  assertEquals(await runJob(findJob("outbox")!, { ...t.services, kv: broken }), {
    job: "outbox",
    sent: 1,
    retried: 0,
    failed: 0,
    skipped: 0,
  });
  assert(logLines.some((line) => line.includes("kept mail bodies not dropped")), logLines.join("\n"));
  // A run past its time budget does one batch of 100 and saves its position; the next goes on from there.
  const secrets = async () => (await everything(t.kv)).match(/secret-/g)?.length ?? 0;
  const { kv: counted, commits } = kvFailingCommits(t.kv, () => false);
  assertEquals(await dropKeptBodies(counted, { until: 0 }), 100);
  assertEquals([await secrets(), commits()], [150, 1], "100 bodies dropped in one commit");
  assertEquals(await dropKeptBodies(t.kv, { until: 0 }), 100);
  assertEquals(await dropKeptBodies(t.kv, { until: 0 }), 50);
  assertEquals(await secrets(), 0);
  assertEquals((await recordTo(t, "kept7@example.com")).status, "sent");
  assertEquals(await dropKeptBodies(t.kv), 0, "the marker: done");
});
