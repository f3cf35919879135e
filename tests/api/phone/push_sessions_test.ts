/**
 * A push subscription dies with the session epoch it was made in (docs/decisions.md, Push, "Subscriptions";
 * docs/decisions.md, Sessions, "Ending sessions"): after "sign out everywhere else" or a password reset, a browser
 * whose session was ended gets no more notifications, and its subscription is deleted; the caller's own phone keeps
 * getting them, and a browser that subscribes again from a live session is stamped anew.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { type FakePushService, startFakePushService } from "@/tests/fakes/push.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { deliverDuePush } from "@/lib/push/outbox.ts";
import { MAX_SUBSCRIPTIONS, subscriptionsOf } from "@/lib/push/subscriptions.ts";
import { tokenOf, waitForMail } from "@/tests/api/auth/helpers.ts";
import { passwordUser } from "@/tests/fixtures/people.ts";

type Headers = Record<string, string>;

/** A second session of `userId`, as another browser would have it: its request headers. */
async function otherBrowser(t: TestApp, userId: string): Promise<Headers> {
  const { token } = await createSession(t.kv, userId);
  return { cookie: `session=${token}`, origin: t.origin };
}

/** Subscribes the browser of `headers` with a new subscription of `push`; returns its endpoint. */
async function subscribe(t: TestApp, push: FakePushService, headers: Headers): Promise<string> {
  const subscription = await push.subscribe();
  const res = await t.json("POST", "/api/me/push-subscriptions", { body: subscription, headers });
  assertEquals(res.status, 201);
  await res.body?.cancel();
  return subscription.endpoint;
}

/** Notifies `userId` (as a domain does, in its own write) and delivers what is due; returns the endpoints posted to. */
async function notifyAndDeliver(t: TestApp, push: FakePushService, userId: string, body: string): Promise<string[]> {
  await t.settled();
  const before = push.messages.length;
  const op = t.kv.atomic();
  addNotification(op, { userId, type: "opportunity_reviewed", title: "Private", body, url: "/me/tracker" });
  assert((await op.commit()).ok);
  await deliverDuePush(t.services, Date.now());
  await t.settled();
  return push.messages.slice(before).map((m) => m.endpoint);
}

async function assertSessionVoid(t: TestApp, headers: Headers): Promise<void> {
  const res = await t.fetch("/api/me/certificates", { headers });
  assertEquals(res.status, 401, "the other browser's session is void");
  await res.body?.cancel();
}

Deno.test("sign out everywhere else: the other browsers' subscriptions get nothing and go; the caller's phone stays", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const owner = await createTestUser(t);
  const lost = await otherBrowser(t, owner.user.id);
  const lostPhone = await subscribe(t, push, lost);
  const ownPhone = await subscribe(t, push, owner.headers);
  assertEquals((await notifyAndDeliver(t, push, owner.user.id, "before")).toSorted(), [lostPhone, ownPhone].toSorted());

  const res = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: owner.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  await assertSessionVoid(t, lost);

  assertEquals(await notifyAndDeliver(t, push, owner.user.id, "something private"), [ownPhone]);
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).map((sub) => sub.endpoint), [ownPhone]);
  assertEquals(push.refused, []);
});

Deno.test("sign out everywhere else from the profile page's form keeps the caller's phone too", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const owner = await createTestUser(t);
  const lostPhone = await subscribe(t, push, await otherBrowser(t, owner.user.id));
  const ownPhone = await subscribe(t, push, owner.headers);
  const res = await t.fetch("/profile/sign-out-others", { method: "POST", headers: owner.headers, redirect: "manual" });
  assertEquals(res.status, 303);
  await res.body?.cancel();
  assertEquals(await notifyAndDeliver(t, push, owner.user.id, "after the form"), [ownPhone]);
  assert(!(await subscriptionsOf(t.kv, owner.user.id)).some((sub) => sub.endpoint === lostPhone));
});

Deno.test("a password reset ends every browser's subscription; subscribing again from a new session works", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const owner = await passwordUser(t, { email: "asha@example.com" });
  const lost = await otherBrowser(t, owner.id);
  const lostPhone = await subscribe(t, push, lost);
  const forget = await t.json("POST", "/api/auth/forget-password", { body: { email: "asha@example.com" } });
  await forget.body?.cancel();
  const token = tokenOf((await waitForMail(t, "asha@example.com", 1)).link);
  const reset = await t.json("POST", "/api/auth/reset-password", {
    body: { newPassword: "a brand new passphrase", token },
  });
  assertEquals(reset.status, 200);
  await reset.body?.cancel();
  await assertSessionVoid(t, lost);

  assertEquals(await notifyAndDeliver(t, push, owner.id, "after reset"), []);
  assertEquals(await subscriptionsOf(t.kv, owner.id), []);

  const phone = await subscribe(t, push, await otherBrowser(t, owner.id));
  assertEquals(await notifyAndDeliver(t, push, owner.id, "to the new session"), [phone]);
  assert(phone !== lostPhone);
});

Deno.test("an endpoint subscribed again from a live session after the sessions ended is stamped anew and kept", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const owner = await createTestUser(t);
  const laptop = await otherBrowser(t, owner.user.id);
  const subscription = await push.subscribe();
  const first = await t.json("POST", "/api/me/push-subscriptions", { body: subscription, headers: laptop });
  assertEquals(first.status, 201);
  await first.body?.cancel();
  const res = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: owner.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  // The laptop's person signs in again there and turns notifications on: the browser hands over the same endpoint.
  const again = await t.json("POST", "/api/me/push-subscriptions", {
    body: subscription,
    headers: await otherBrowser(t, owner.user.id),
  });
  assertEquals(again.status, 201);
  await again.body?.cancel();
  assertEquals(await notifyAndDeliver(t, push, owner.user.id, "renewed"), [subscription.endpoint]);
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).length, 1);
});

Deno.test("subscriptions of ended sessions are dropped before the limit is counted", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const owner = await createTestUser(t);
  const lost = await otherBrowser(t, owner.user.id);
  for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await subscribe(t, push, lost);
  const res = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: owner.headers });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const ownPhone = await subscribe(t, push, owner.headers);
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).map((sub) => sub.endpoint), [ownPhone]);
});
