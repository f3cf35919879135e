/**
 * `POST /me/settings`, the notification settings without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"; docs/decisions.md, Notifications, "Channels"): a ticked switch is on, one not sent is off, receipts stay
 * e-mailed, push switches count only while push is configured; 303 back to a page that says it saved, in both
 * languages. A guest gets 401, another site's form 403.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { startFakePushService } from "@/tests/fakes/push.ts";
import { defaultChannels, getSettings } from "@/lib/settings/settings.ts";

function post(t: TestApp, who: TestUser | undefined, ticked: string[], headers: Record<string, string> = {}) {
  const body = new URLSearchParams(ticked.map((name) => [name, "on"]));
  return t.fetch("/me/settings", {
    method: "POST",
    headers: { ...who?.headers, "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
    redirect: "manual",
  });
}

Deno.test("POST /me/settings: the ticked switches are on, the others off, receipts stay e-mailed; 303 to saved", async () => {
  await using push = await startFakePushService();
  await using t = await createTestApp({ env: push.env });
  const me = await createTestUser(t);
  const res = await post(t, me, ["comment_reply.push", "deadline_reminder.email", "deadline_reminder.push"]);
  assertEquals([res.status, res.headers.get("location")], [303, "/me/settings?saved=1"]);
  const { channels, emailOnReply, deadlineReminders } = await getSettings(t.kv, me.user.id);
  assertEquals(channels.comment_reply, { email: false, push: true });
  assertEquals(channels.deadline_reminder, { email: true, push: true });
  assertEquals(channels.purchase_paid, { email: true, push: false });
  assertEquals(channels.opportunity_reviewed, { email: false, push: false });
  assertEquals([emailOnReply, deadlineReminders], [false, true]);

  const page = await (await t.fetch("/me/settings?saved=1", { headers: me.headers })).text();
  assert(page.includes('<form method="post" action="/me/settings"'), "the switches are a form");
  assertMatch(page, /<button type="submit"[^>]*>Save notifications<\/button>/);
  assertMatch(page, /<p role="status"[^>]*>Your notification settings are saved.<\/p>/);
  assert(!page.includes('name="comment_reply.email" checked'), "the page shows what was saved");
  // Read aloud or seen, "E-mail (always)": the fixed switch's word is apart from its label.
  assertMatch(page, /E-mail<span class="sr-only">: Payments<\/span><span class="text-slate-700"> \(always\)<\/span>/);
  const hindi = await (await t.fetch("/me/settings?saved=1&lang=hi", { headers: me.headers })).text();
  assertMatch(hindi, /<button type="submit"[^>]*>सूचनाएँ सेव करें<\/button>/);
  assertMatch(hindi, /<p role="status"[^>]*>सूचनाओं की आपकी सेटिंग सेव हो गई।<\/p>/);
  const plain = await (await t.fetch("/me/settings", { headers: me.headers })).text();
  assertMatch(plain, /<p role="status"[^>]*><\/p>/, "only after a save");
});

Deno.test("POST /me/settings: while push is off its channels are left as they were", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const res = await post(t, me, []);
  assertEquals(res.status, 303);
  const { channels } = await getSettings(t.kv, me.user.id);
  for (const [type, channel] of Object.entries(channels)) {
    assertEquals(channel.push, true, type);
    assertEquals(channel.email, ["purchase_paid", "purchase_refunded", "refund_declined"].includes(type), type);
  }
});

Deno.test("POST /me/settings: a guest is refused 401, another site's form is refused; nothing is written", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const guest = await post(t, undefined, [], { origin: t.origin });
  assertEquals(guest.status, 401);
  await guest.body?.cancel();
  const forged = await post(t, me, [], { origin: "https://evil.example" });
  assertEquals(forged.status, 403);
  await forged.body?.cancel();
  assertEquals((await getSettings(t.kv, me.user.id)).channels, defaultChannels());
});
