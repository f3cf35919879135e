/**
 * "Notifications on this phone" on `/profile` in Chromium (docs/decisions.md, Push, "A subscription dies with its
 * session"): a browser that holds a subscription sends it again on load, so one made before the sessions were ended is
 * stamped with the live session and the switch's "On" is true; one the browser renews (`pushsubscriptionchange`) is
 * sent by the service worker, which removes the old one.
 */
import { assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { openBrowser, openHydrated, signInBrowser } from "@/tests/helpers/browser.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { subscriptionsOf } from "@/lib/push/subscriptions.ts";
import { getUser } from "@/lib/users/users.ts";

Deno.test("a phone's subscription from an ended session is sent again on load and stamped with the live one", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ listen: true, env: push.env });
  const owner = await createTestUser(t, "user");
  const subscription = await push.subscribe();
  const { token } = await createSession(t.kv, owner.user.id);
  const old = await t.json("POST", "/api/me/push-subscriptions", {
    body: subscription,
    headers: { cookie: `session=${token}`, origin: t.origin },
  });
  assertEquals(old.status, 201);
  await old.body?.cancel();
  const ended = await t.json("POST", "/api/auth/revoke-other-sessions", { headers: owner.headers });
  assertEquals(ended.status, 200);
  await ended.body?.cancel();
  const epoch = (await getUser(t.kv, owner.user.id))!.sessionEpoch;
  assertEquals((await subscriptionsOf(t.kv, owner.user.id))[0].epoch! < epoch!, true, "the subscription has ended");

  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, owner);
  // The browser holds that subscription, with notifications allowed (the headless shell has no push service and
  // answers "denied").
  await context.addInitScript((held) => {
    Object.defineProperty(Notification, "permission", { get: () => "granted" });
    PushManager.prototype.getSubscription = () =>
      Promise.resolve({ endpoint: held.endpoint, toJSON: () => held } as unknown as PushSubscription);
  }, subscription);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/profile`);
  await page.getByRole("button", { name: "Turn off notifications on this phone" }).waitFor();
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).map((sub) => [sub.endpoint, sub.epoch]), [
    [subscription.endpoint, epoch],
  ]);
});

Deno.test("a subscription the browser renews is sent by the service worker, and the old one removed", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ listen: true, env: push.env });
  const owner = await createTestUser(t, "user");
  const [old, renewed] = [await push.subscribe(), await push.subscribe()];
  const made = await t.json("POST", "/api/me/push-subscriptions", { body: old, headers: owner.headers });
  assertEquals(made.status, 201);
  await made.body?.cancel();

  await using browser = await openBrowser();
  const context = await browser.newContext();
  await signInBrowser(context, t.origin, owner);
  const page = await context.newPage();
  await openHydrated(page, `${t.origin}/profile`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // The push service renewed the phone's subscription: the browser tells the service worker (the headless shell has
  // no push service, so the event is made here as the browser would send it).
  const [worker] = context.serviceWorkers();
  await worker.evaluate(async ({ old, renewed }) => {
    let work: Promise<unknown> = Promise.resolve();
    const event = Object.assign(new Event("pushsubscriptionchange"), {
      waitUntil: (promise: Promise<unknown>) => void (work = promise),
      oldSubscription: { endpoint: old.endpoint, toJSON: () => old },
      newSubscription: { endpoint: renewed.endpoint, toJSON: () => renewed },
    });
    dispatchEvent(event);
    await work;
  }, { old, renewed });
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).map((sub) => sub.endpoint), [renewed.endpoint]);

  // A browser that gives no new subscription (Firefox, when its push service dropped the old): the worker makes one
  // with the platform's key.
  const again = await push.subscribe();
  const key = await worker.evaluate(async ({ renewed, again }) => {
    let work: Promise<unknown> = Promise.resolve();
    let asked: number[] = [];
    const { pushManager } = (self as unknown as { registration: { pushManager: PushManager } }).registration;
    pushManager.subscribe = (options) => {
      asked = [...new Uint8Array(options!.applicationServerKey as Uint8Array)];
      return Promise.resolve({ endpoint: again.endpoint, toJSON: () => again } as unknown as PushSubscription);
    };
    const event = Object.assign(new Event("pushsubscriptionchange"), {
      waitUntil: (promise: Promise<unknown>) => void (work = promise),
      oldSubscription: { endpoint: renewed.endpoint, toJSON: () => renewed },
      newSubscription: null,
    });
    dispatchEvent(event);
    await work;
    return asked;
  }, { renewed, again });
  const { publicKey } = await (await t.fetch("/api/push/key")).json();
  assertEquals(
    btoa(String.fromCharCode(...key)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""),
    publicKey,
  );
  assertEquals((await subscriptionsOf(t.kv, owner.user.id)).map((sub) => sub.endpoint), [again.endpoint]);
});
