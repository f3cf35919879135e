/**
 * A push subscription dies with its session and the session epoch it was made in (docs/decisions.md, Push, "A
 * subscription dies with its session"; docs/decisions.md, Sessions, "Ending sessions"): after "sign out everywhere
 * else" or a password reset, a browser whose session was ended gets no more notifications, and its subscription is
 * deleted; the caller's own phone keeps getting them, and a browser that subscribes again from a live session is
 * stamped anew. A sign-out, or another person's sign-in over the cookie, removes the session's subscriptions in its
 * write; one whose session expired is never posted to and goes; a sign-in over the person's own cookie keeps them.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { type FakePushService, startFakePushService } from "@/tests/fakes/push.ts";
import { createSession, type Session } from "@/lib/auth/sessions.ts";
import { sha256Hex } from "@/lib/ids.ts";
import { addNotification } from "@/lib/notifications/notifications.ts";
import { deliverDuePush } from "@/lib/push/outbox.ts";
import { MAX_SUBSCRIPTIONS, subscriptionsOf } from "@/lib/push/subscriptions.ts";
import { tokenOf, waitForMail } from "@/tests/api/auth/helpers.ts";
import { PASSWORD, passwordUser } from "@/tests/fixtures/people.ts";

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

/** Signs in as `email` through the API, from a browser that sends `headers` (its cookie, if any); its headers now. */
async function signInOver(t: TestApp, email: string, headers: Headers = {}): Promise<Headers> {
  const res = await t.json("POST", "/api/auth/sign-in/email", {
    body: { email, password: PASSWORD, rememberMe: false },
    headers,
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="))!.split(";")[0];
  return { cookie, origin: t.origin };
}

/** The KV key of the session whose cookie `headers` carry. */
async function sessionKey(headers: Headers): Promise<Deno.KvKey> {
  return ["sessions", await sha256Hex(headers.cookie.slice("session=".length))];
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

Deno.test("another person signing in on the phone ends the first one's subscription with their session", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const a = await passwordUser(t, { email: "a-person@example.com" });
  const b = await passwordUser(t, { email: "b-person@example.com" });
  const phoneA = await signInOver(t, a.email);
  const phone = await subscribe(t, push, phoneA);
  const laptop = await subscribe(t, push, await otherBrowser(t, a.id));
  // B signs in on the same phone, whose browser still sends A's cookie (A never pressed Sign out).
  await signInOver(t, b.email, phoneA);
  await assertSessionVoid(t, phoneA);
  assertEquals((await subscriptionsOf(t.kv, a.id)).map((sub) => sub.endpoint), [laptop], "gone in the sign-in's write");
  assertEquals(await notifyAndDeliver(t, push, a.id, "Your application to Acme was rejected"), [laptop]);
  assert(!push.messages.some((m) => m.endpoint === phone));
});

Deno.test("a sign-out removes the session's subscriptions; the person's other phones keep theirs", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const a = await passwordUser(t, { email: "a-person@example.com" });
  const headers = await signInOver(t, a.email);
  const phone = await subscribe(t, push, headers);
  const laptop = await subscribe(t, push, await otherBrowser(t, a.id));
  for (const [path, status] of [["/api/auth/sign-out", 200], ["/sign-out", 303]] as const) {
    const browser = path === "/sign-out" ? await signInOver(t, a.email) : headers;
    const page = path === "/sign-out" ? await subscribe(t, push, browser) : phone;
    const out = await t.fetch(path, { method: "POST", headers: browser, redirect: "manual" });
    assertEquals(out.status, status, path);
    await out.body?.cancel();
    assertEquals((await subscriptionsOf(t.kv, a.id)).map((sub) => sub.endpoint), [laptop], path);
    assertEquals(await notifyAndDeliver(t, push, a.id, `after ${path}`), [laptop], path);
    assert(!push.messages.some((m) => m.endpoint === page), path);
  }
});

Deno.test("a subscription whose session expired is never posted to and goes", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const a = await createTestUser(t);
  const shared = await otherBrowser(t, a.user.id);
  const phone = await subscribe(t, push, shared);
  const laptop = await subscribe(t, push, a.headers);
  // The shared computer's session runs out (its record lingers until KV's expiry removes it).
  const key = await sessionKey(shared);
  const session = (await t.kv.get<Session>(key)).value!;
  await t.kv.set(key, { ...session, expiresAt: new Date(Date.now() - 1000).toISOString() });
  await assertSessionVoid(t, shared);
  assertEquals(await notifyAndDeliver(t, push, a.user.id, "after expiry"), [laptop]);
  assertEquals((await subscriptionsOf(t.kv, a.user.id)).map((sub) => sub.endpoint), [laptop]);
  assert(!push.messages.some((m) => m.endpoint === phone));
  // A session whose record KV's expiry removed (its index entry left) ends its subscription the same way.
  const other = await otherBrowser(t, a.user.id);
  const tablet = await subscribe(t, push, other);
  await t.kv.delete(await sessionKey(other));
  assertEquals(await notifyAndDeliver(t, push, a.user.id, "after removal"), [laptop]);
  assertEquals((await subscriptionsOf(t.kv, a.user.id)).map((sub) => sub.endpoint), [laptop]);
  assert(!push.messages.some((m) => m.endpoint === tablet));
});

Deno.test("signing in again over one's own cookie keeps the phone's subscription with the new session", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const a = await passwordUser(t, { email: "a-person@example.com" });
  const before = await signInOver(t, a.email);
  const phone = await subscribe(t, push, before);
  const after = await signInOver(t, a.email, before);
  await assertSessionVoid(t, before);
  assertEquals(await notifyAndDeliver(t, push, a.id, "still mine"), [phone]);
  const [kept] = await subscriptionsOf(t.kv, a.id);
  const session = (await t.kv.get<Session>(await sessionKey(after))).value!;
  assertEquals(kept.sessionId, session.id, "stamped with the new session");
});
