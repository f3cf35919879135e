import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import { addSubscription, subscriptionsOf, TOO_MANY_SUBSCRIPTIONS } from "@/lib/push/subscriptions.ts";
import { withLatency } from "@/tests/helpers/kv_latency.ts";

Deno.test("GET /api/push/key: the VAPID public key, or 404 while push is off", async () => {
  await using off = await createTestApp();
  const none = await off.fetch("/api/push/key");
  assertEquals([none.status, await none.json()], [404, { error: "Push notifications are not configured" }]);
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const res = await t.fetch("/api/push/key");
  assertEquals([res.status, await res.json()], [200, { publicKey: push.env.VAPID_PUBLIC_KEY }]);
});

Deno.test("POST /api/me/push-subscriptions: a browser's subscription is kept, answered without its keys", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const me = await createTestUser(t);
  const subscription = await push.subscribe();
  const guest = await t.json("POST", "/api/me/push-subscriptions", { body: subscription });
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
  const res = await t.json("POST", "/api/me/push-subscriptions", { body: subscription, headers: me.headers });
  assertEquals(res.status, 201);
  const { subscription: answered } = await res.json();
  assertEquals(answered.endpoint, subscription.endpoint);
  assertMatch(answered.createdAt, /^\d{4}-\d{2}-\d{2}T/);
  assertEquals((await subscriptionsOf(t.kv, me.user.id)).map((sub) => sub.keys), [subscription.keys]);
});

Deno.test("POST /api/me/push-subscriptions: 404 while push is off", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const res = await t.json("POST", "/api/me/push-subscriptions", { body: await push.subscribe(), headers: me.headers });
  assertEquals([res.status, await res.json()], [404, { error: "Push notifications are not configured" }]);
});

Deno.test("POST /api/me/push-subscriptions: a host outside PUSH_HOSTS, or http on a public host, is refused", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({
    env: { ...push.env, PUSH_HOSTS: `${push.env.PUSH_HOSTS},fcm.googleapis.com` },
  });
  const me = await createTestUser(t);
  const { keys } = await push.subscribe();
  for (
    const endpoint of [
      "https://evil.example/push/1",
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com.evil.example/x",
      "http://127.0.0.1:1/push/1",
      "http://169.254.169.254/latest/meta-data",
    ]
  ) {
    const res = await t.json("POST", "/api/me/push-subscriptions", { body: { endpoint, keys }, headers: me.headers });
    assertEquals([res.status, await res.json()], [400, { error: "This push service is not allowed" }], endpoint);
  }
  const https = await t.json("POST", "/api/me/push-subscriptions", {
    body: { endpoint: "https://fcm.googleapis.com/fcm/send/abc", keys },
    headers: me.headers,
  });
  assertEquals(https.status, 201);
  await https.body?.cancel();
  assertEquals((await subscriptionsOf(t.kv, me.user.id)).length, 1);
});

Deno.test("POST /api/me/push-subscriptions: keys that are no P-256 point and 16-byte secret are refused", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const me = await createTestUser(t);
  const good = await push.subscribe();
  const bodies = [
    { ...good, keys: { ...good.keys, auth: "AAAA" } },
    { ...good, keys: { ...good.keys, p256dh: "BAAA" } },
    { ...good, keys: { p256dh: good.keys.p256dh } },
    { endpoint: good.endpoint },
    { ...good, extra: true },
  ];
  for (const body of bodies) {
    const res = await t.json("POST", "/api/me/push-subscriptions", { body, headers: me.headers });
    assertEquals(res.status, 400, JSON.stringify(body));
    await res.body?.cancel();
  }
  assertEquals(await subscriptionsOf(t.kv, me.user.id), []);
});

Deno.test("POST /api/me/push-subscriptions: the 11th is refused, also when 15 arrive at once; none is 409", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env, kvLatencyMs: 20 });
  const me = await createTestUser(t);
  const subscriptions = await Promise.all(Array.from({ length: 15 }, () => push.subscribe()));
  const answers = await Promise.all(
    subscriptions.map((body) => t.json("POST", "/api/me/push-subscriptions", { body, headers: me.headers })),
  );
  const statuses = await Promise.all(answers.map(async (res) => [res.status, (await res.json()).error]));
  assertEquals(statuses.filter(([status]) => status === 201).length, 10, JSON.stringify(statuses));
  assertEquals(statuses.filter(([status]) => status !== 201), Array(5).fill([400, TOO_MANY_SUBSCRIPTIONS]));
  const kept = await subscriptionsOf(t.kv, me.user.id);
  assertEquals(kept.length, 10);
  const again = await t.json("POST", "/api/me/push-subscriptions", {
    body: subscriptions.find((s) => s.endpoint === kept[0].endpoint),
    headers: me.headers,
  });
  assertEquals(again.status, 201, "subscribing a kept endpoint again renews it");
  await again.body?.cancel();
});

Deno.test("subscriptions racing in step for one person's list: a lost race reads again, so 10 kept and 5 refused", async () => {
  // The routes' per-person limit lets one person's requests through one at a time; writers that are not behind it (other
  // isolates, the push outbox's clean-up) reach the list together. A far KV makes them read the same version in step.
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const kv = withLatency(t.kv, 20);
  const me = await createTestUser(t);
  const hosts = t.services.config.push.hosts;
  const inputs = await Promise.all(Array.from({ length: 15 }, () => push.subscribe()));
  const outcomes = await Promise.allSettled(
    inputs.map((input) => addSubscription(kv, { userId: me.user.id, session: { id: "one session" }, input, hosts })),
  );
  const refusals = outcomes.flatMap((outcome) => outcome.status === "rejected" ? [String(outcome.reason)] : []);
  assertEquals(outcomes.length - refusals.length, 10, refusals.join("; "));
  assertEquals(refusals, Array(5).fill(`InvalidInputError: ${TOO_MANY_SUBSCRIPTIONS}`));
  assertEquals((await subscriptionsOf(t.kv, me.user.id)).length, 10);
});

Deno.test("DELETE /api/me/push-subscriptions removes the caller's endpoint only; an endpoint moves to its new account", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const [ana, ben] = [await createTestUser(t), await createTestUser(t)];
  const [phone, laptop] = [await push.subscribe(), await push.subscribe()];
  for (const body of [phone, laptop]) {
    (await t.json("POST", "/api/me/push-subscriptions", { body, headers: ana.headers })).body?.cancel();
  }
  const other = await t.json("DELETE", "/api/me/push-subscriptions", {
    body: { endpoint: laptop.endpoint },
    headers: ben.headers,
  });
  assertEquals([other.status, await other.json()], [200, { success: true }]);
  assertEquals((await subscriptionsOf(t.kv, ana.user.id)).length, 2, "not Ben's to remove");
  (await t.json("POST", "/api/me/push-subscriptions", { body: phone, headers: ben.headers })).body?.cancel();
  assertEquals((await subscriptionsOf(t.kv, ana.user.id)).map((s) => s.endpoint), [laptop.endpoint]);
  assertEquals((await subscriptionsOf(t.kv, ben.user.id)).map((s) => s.endpoint), [phone.endpoint]);
  const mine = await t.json("DELETE", "/api/me/push-subscriptions", {
    body: { endpoint: laptop.endpoint },
    headers: ana.headers,
  });
  assertEquals(mine.status, 200);
  await mine.body?.cancel();
  assertEquals(await subscriptionsOf(t.kv, ana.user.id), []);
});

Deno.test("the profile page has 'Notifications on this phone' (in the page's language) with the VAPID key only while push is on", async () => {
  await using push = await startFakePushService();
  await using on = await createTestApp({ env: push.env });
  const me = await createTestUser(on);
  const html = await (await on.fetch("/profile", { headers: me.headers })).text();
  assertMatch(html, /<h2 id="phone-notifications"[^>]*>Notifications on this phone<\/h2>/);
  assertMatch(html, /<!--island:PhoneNotifications:\d+-->/);
  assertMatch(html, new RegExp(push.env.VAPID_PUBLIC_KEY));
  assert(html.includes("Turn on notifications on this phone"));
  const hindi = await (await on.fetch("/profile?lang=hi", { headers: me.headers })).text();
  assertMatch(hindi, /<h2 id="phone-notifications"[^>]*>इस फ़ोन पर सूचनाएँ<\/h2>/);
  assert(hindi.includes("इस फ़ोन पर सूचनाएँ चालू करें"), "the island's button in Hindi");
  await using off = await createTestApp();
  const other = await createTestUser(off);
  const plain = await (await off.fetch("/profile", { headers: other.headers })).text();
  assertEquals(plain.includes("Notifications on this phone"), false);
  assertEquals(plain.includes("PhoneNotifications"), false);
});
