/**
 * Notifications pushed to phones (docs/decisions.md, Push, "Outbox"; docs/decisions.md, Notifications, "Channels"),
 * through the fake push service of `tests/fakes/push.ts`, which decrypts every message with its subscription's keys
 * and checks its VAPID JWT.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type FakePushService, startFakePushService } from "@/tests/fakes/push.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { addNotification, type NotificationInput } from "@/lib/notifications/notifications.ts";
import { subscriptionsOf } from "@/lib/push/subscriptions.ts";
import { deliverDuePush, PUSH_AT_ONCE, PUSH_LEASE_MS, pushOutboxJob, readPushMessage } from "@/lib/push/outbox.ts";
import { runJob } from "@/lib/jobs/registry.ts";
import { PushSender } from "@/lib/push/web_push.ts";

/** Subscribes `who` with a new subscription of `push`; returns its endpoint. */
async function subscribe(t: TestApp, push: FakePushService, who: TestUser): Promise<string> {
  const subscription = await push.subscribe();
  const res = await t.json("POST", "/api/me/push-subscriptions", { body: subscription, headers: who.headers });
  assertEquals(res.status, 201);
  await res.body?.cancel();
  return subscription.endpoint;
}

/** Adds a notification for `userId` as a domain does, in its own write; returns its id. */
async function notify(t: TestApp, input: Omit<NotificationInput, "type"> & { type?: NotificationInput["type"] }) {
  const op = t.kv.atomic();
  const record = addNotification(op, { type: "opportunity_reviewed", ...input });
  assert((await op.commit()).ok);
  return record.id;
}

Deno.test("an approved opportunity is pushed, encrypted and VAPID-signed, to every phone of the submitter", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t);
  const bystander = await createTestUser(t);
  const [phone, laptop] = [await subscribe(t, push, student), await subscribe(t, push, student)];
  await subscribe(t, push, bystander);
  const opportunity = await submitOpportunity(t, student, "Campus Hack");
  const res = await t.json("PATCH", `/api/admin/opportunities/${opportunity.id}`, {
    body: { action: "approve" },
    headers: admin.headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await push.waitFor(2);
  await t.settled();
  assertEquals(push.refused, []);
  assertEquals(push.messages.map((m) => m.endpoint).toSorted(), [phone, laptop].toSorted());
  for (const message of push.messages) {
    assertEquals(message.payload.title, "Your opportunity was approved");
    assert(message.payload.body.includes("Campus Hack"));
    assertEquals(message.payload.url, `/opportunities/${opportunity.id}`, "the push opens the notification's page");
    assertEquals(message.ttl, 86400);
  }
});

Deno.test("a push service answering 410 or 404 removes that subscription; the others still get it", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const student = await createTestUser(t);
  const [kept, unsubscribed] = [await subscribe(t, push, student), await subscribe(t, push, student)];
  push.gone(unsubscribed);
  const id = await notify(t, { userId: student.user.id, title: "Hello", body: "Body", url: "/me/tracker" });
  assertEquals(await deliverDuePush(t.services, Date.now()), { delivered: 1, retried: 0, failed: 0, skipped: 0 });
  assertEquals(push.messages.map((m) => m.endpoint), [kept]);
  assertEquals((await subscriptionsOf(t.kv, student.user.id)).map((s) => s.endpoint), [kept]);
  assertEquals(await readPushMessage(t.kv, id), null, "done: nothing left in the outbox");
});

Deno.test("a push service that is down is tried again on the outbox's schedule; nothing is lost or sent twice", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: { ...push.env, OUTBOX_RETRY_MS: "60000,300000" } });
  const student = await createTestUser(t);
  const endpoint = await subscribe(t, push, student);
  push.down = true;
  const id = await notify(t, { userId: student.user.id, title: "Deadline", body: "Tomorrow", url: "/me/tracker" });
  const start = Date.now();
  assertEquals((await deliverDuePush(t.services, start)).retried, 1);
  const tried = Date.now();
  const waiting = await readPushMessage(t.kv, id);
  assertEquals([waiting?.status, waiting?.attempts, waiting?.remaining], ["pending", 1, [endpoint]]);
  assert(waiting!.lastError!.startsWith("503"), waiting!.lastError!);
  const secondTry = Date.parse(waiting!.dueAt!);
  assert(secondTry >= start + 60_000 && secondTry <= tried + 60_000, "due one wait after the try");
  assertEquals((await deliverDuePush(t.services, secondTry - 1)).retried, 0, "not due before its wait");
  assertEquals((await deliverDuePush(t.services, secondTry)).retried, 1, "second try, still down");
  const lastTry = Date.parse((await readPushMessage(t.kv, id))!.dueAt!);
  assert(lastTry >= secondTry + 300_000, "the second wait is the longer one");
  push.down = false;
  assertEquals((await deliverDuePush(t.services, lastTry)).delivered, 1);
  assertEquals(push.messages.map((m) => m.payload.title), ["Deadline"]);
  assertEquals(await deliverDuePush(t.services, lastTry + 10_000_000), {
    delivered: 0,
    retried: 0,
    failed: 0,
    skipped: 0,
  });
  assertEquals(push.messages.length, 1);
  assertEquals(push.posts, 3, "two tries while down, one after, no more");
});

Deno.test("after the last wait a message still undelivered is kept as failed", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: { ...push.env, OUTBOX_RETRY_MS: "1000" } });
  const student = await createTestUser(t);
  await subscribe(t, push, student);
  push.down = true;
  const id = await notify(t, { userId: student.user.id, title: "T", body: "B", url: "/" });
  assertEquals((await deliverDuePush(t.services, Date.now())).retried, 1);
  const lastTry = Date.parse((await readPushMessage(t.kv, id))!.dueAt!);
  assertEquals((await deliverDuePush(t.services, lastTry)).failed, 1);
  assertEquals((await readPushMessage(t.kv, id))?.status, "failed");
});

Deno.test("a subscription made for other VAPID keys is refused by its service and not retried", async () => {
  await using push = await startFakePushService();
  await using other = await startFakePushService();
  await using t = await createTestApp({ env: { ...other.env, PUSH_HOSTS: `${push.env.PUSH_HOSTS}` } });
  const student = await createTestUser(t);
  await subscribe(t, push, student);
  await notify(t, { userId: student.user.id, title: "T", body: "B", url: "/" });
  assertEquals((await deliverDuePush(t.services, Date.now())).delivered, 1, "a refusal is final");
  assertEquals(push.refused.map((r) => [r.status, r.reason]), [[
    403,
    "k is not the subscription's application server key",
  ]]);
});

Deno.test("channels: push off for a type sends it nowhere but the bell; e-mail on for a type without its own mails it", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const student = await createTestUser(t, "user", { name: "Ravi" });
  await subscribe(t, push, student);
  const patch = await t.json("PATCH", "/api/me/settings", {
    body: { channels: { opportunity_reviewed: { push: false, email: true }, comment_reply: { push: true } } },
    headers: student.headers,
  });
  assertEquals(patch.status, 200);
  const { settings } = await patch.json();
  assertEquals(settings.channels.opportunity_reviewed, { email: true, push: false });
  await notify(t, {
    userId: student.user.id,
    title: "Your opportunity was approved",
    body: "Yes",
    url: "/opportunities/x",
  });
  await notify(t, {
    userId: student.user.id,
    type: "comment_reply",
    title: "A reply",
    body: "Hi",
    url: "/ungatekeep/p",
  });
  await deliverDuePush(t.services, Date.now());
  await t.settled();
  assertEquals(push.messages.map((m) => m.payload.title), ["A reply"]);
  const mailed = t.mails.filter((mail) => mail.subject === "Your opportunity was approved");
  assertEquals(mailed.length, 1);
  assertEquals(mailed[0].to, student.user.email);
  assert(mailed[0].text.includes("http://localhost:8000/opportunities/x"));
  assertEquals(t.mails.filter((mail) => mail.subject === "A reply").length, 0, "a reply's e-mail is its domain's own");
});

Deno.test("channels: the older switches are e-mail channels; receipts stay e-mailed; an unknown type is refused", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const initial = await (await t.fetch("/api/me/settings", { headers: me.headers })).json();
  assertEquals(initial.settings.deadlineReminders, true);
  assertEquals(initial.settings.emailOnReply, true);
  assertEquals(initial.settings.channels.comment_reply, { email: true, push: true });
  assertEquals(initial.settings.channels.opportunity_reviewed, { email: true, push: true });
  assertEquals(initial.settings.channels.report_resolved, { email: false, push: true });
  assertEquals(initial.settings.channels.purchase_paid, { email: true, push: true });
  const old = await t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: me.headers });
  const { settings } = await old.json();
  assertEquals([settings.emailOnReply, settings.channels.comment_reply], [false, { email: false, push: true }]);
  const viaChannel = await t.json("PATCH", "/api/me/settings", {
    body: { channels: { deadline_reminder: { email: false } } },
    headers: me.headers,
  });
  assertEquals((await viaChannel.json()).settings.deadlineReminders, false);
  for (
    const [body, error] of [
      [{ channels: { purchase_paid: { email: false } } }, "Receipts and refunds are always e-mailed"],
      [{ emailOnReply: true, channels: { comment_reply: { email: false } } }, null],
      [{ channels: { no_such_type: { email: false } } }, null],
      [{ channels: { comment_reply: { sms: true } } }, null],
    ] as const
  ) {
    const res = await t.json("PATCH", "/api/me/settings", { body, headers: me.headers });
    const answer = await res.json();
    assertEquals(res.status, 400, JSON.stringify(body));
    if (error) assertEquals(answer, { error });
  }
  assertEquals(
    (await (await t.fetch("/api/me/settings", { headers: me.headers })).json()).settings.emailOnReply,
    false,
  );
});

Deno.test("channels: settings stored before channels existed read as the same e-mail channels", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  await t.kv.set(["settings", me.user.id], { deadlineReminders: false, emailOnReply: true });
  const { settings } = await (await t.fetch("/api/me/settings", { headers: me.headers })).json();
  assertEquals(settings.channels.deadline_reminder, { email: false, push: true });
  assertEquals(settings.deadlineReminders, false);
  assertEquals(settings.channels.comment_reply, { email: true, push: true });
});

Deno.test("a fan-out delivers PUSH_AT_ONCE messages at a time, and every one arrives once", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const count = PUSH_AT_ONCE * 2 + 5;
  const people: TestUser[] = [];
  for (let i = 0; i < count; i++) {
    people.push(await createTestUser(t));
    await subscribe(t, push, people[i]);
  }
  await t.settled();
  for (const [i, person] of people.entries()) {
    await notify(t, { userId: person.user.id, title: `Hello ${i}`, body: "Body", url: "/me/tracker" });
  }
  let posting = 0;
  let mostPosting = 0;
  // The first posts wait until PUSH_AT_ONCE of them are under way (however slowly a loaded machine starts the
  // encryption worker and encrypts), so the fan-out is seen at its widest; a fan-out that never gets that wide stops
  // waiting 30 s after its first post and fails below.
  let full!: () => void;
  const wide = new Promise<void>((resolve) => full = resolve);
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  t.services.push?.close();
  t.services.push = new PushSender(t.services.config.push.vapid!, async (input, init) => {
    giveUp ??= setTimeout(full, 30_000);
    mostPosting = Math.max(mostPosting, ++posting);
    if (posting >= PUSH_AT_ONCE) full();
    try {
      await wide;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return await fetch(input, init);
    } finally {
      posting--;
    }
  });
  try {
    assertEquals(await deliverDuePush(t.services, Date.now()), { delivered: count, retried: 0, failed: 0, skipped: 0 });
  } finally {
    clearTimeout(giveUp);
  }
  assertEquals(mostPosting, PUSH_AT_ONCE);
  assertEquals(
    push.messages.map((m) => m.payload.title).toSorted(),
    Array.from({ length: count }, (_, i) => `Hello ${i}`).toSorted(),
  );
});

Deno.test("a drain that began minutes ago claims for a full lease from the claim: the push cron does not send again", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const student = await createTestUser(t);
  await subscribe(t, push, student);
  // A drain that began 3 minutes ago (a backlog, a slow push service) reaches a message due 4 minutes ago.
  const began = Date.now() - 3 * 60_000;
  const op = t.kv.atomic();
  const { id } = addNotification(
    op,
    { type: "opportunity_reviewed", userId: student.user.id, title: "Once", body: "Body", url: "/me/tracker" },
    new Date(began - 60_000),
  );
  assert((await op.commit()).ok);
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const slow = new PushSender(t.services.config.push.vapid!, async (input, init) => {
    arrived.resolve();
    await release.promise;
    return await fetch(input, init);
  });
  const claimedFrom = Date.now();
  const drain = deliverDuePush({ ...t.services, push: slow }, began);
  try {
    await arrived.promise;
    const lease = (await readPushMessage(t.kv, id))!.lease!;
    assert(lease.until >= claimedFrom + PUSH_LEASE_MS, "the lease counts from the claim, not the drain's start");
    // The push cron of the same process, at the real time, while the drain's post is under way.
    const cron = await runJob(pushOutboxJob, t.services);
    assertEquals([cron.delivered, cron.skipped], [0, 1]);
  } finally {
    release.resolve();
    slow.close();
  }
  assertEquals(await drain, { delivered: 1, retried: 0, failed: 0, skipped: 0 });
  await t.settled();
  assertEquals(push.messages.map((m) => m.payload.title), ["Once"]);
});
