/**
 * Notifications and settings (docs/api.md, Notifications; docs/api.md, Settings; docs/decisions.md, Notifications):
 * the `opportunity_reviewed` notification raised by approve and reject in the review's own write, listing, unread
 * count, marking read, the 90-day limit, isolation between people, and `GET`/`PATCH /api/me/settings`.
 */
import { kvWithCommits } from "@/tests/fixtures/failing_kv.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import {
  addNotification,
  markRead,
  NOTIFICATION_TTL_MS,
  type NotificationInput,
  notificationsOf,
  reviseNotification,
  UNREAD_COUNT_MAX,
} from "@/lib/notifications/notifications.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { htmlDocument, page, type ServedPage, texts } from "@/tests/fixtures/html.ts";

async function get(t: TestApp, who: TestUser | undefined, path: string) {
  const res = await t.fetch(path, { headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

async function review(t: TestApp, admin: TestUser, id: string, action: string) {
  const res = await t.json("PATCH", `/api/admin/opportunities/${id}`, { body: { action }, headers: admin.headers });
  return { status: res.status, body: await res.json() };
}

/** The text of each paragraph of a served page (what it shows, not its islands' props). */
function paragraphs({ html }: ServedPage): string[] {
  return texts(htmlDocument(html), "p").map((text) => text.trim());
}

async function notify(t: TestApp, input: NotificationInput, now = new Date()) {
  const op = t.kv.atomic();
  const record = addNotification(op, input, now);
  assert((await op.commit()).ok);
  return record;
}

Deno.test("a guest gets 401 from the notification and settings endpoints", async () => {
  await using t = await createTestApp();
  assertEquals((await get(t, undefined, "/api/me/notifications")).status, 401);
  assertEquals((await t.json("POST", "/api/me/notifications/read", { body: {} })).status, 401);
  assertEquals((await get(t, undefined, "/api/me/settings")).status, 401);
  assertEquals((await t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false } })).status, 401);
});

Deno.test("the header's bell is a link to the notifications page until it hydrates", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const html = await (await t.fetch("/me/tracker", { headers: student.headers })).text();
  const bell = html.match(/<a href="\/me\/notifications"[^>]*><svg aria-hidden="true"[\s\S]*?<\/a>/);
  assert(bell && bell[0].includes('<span class="sr-only">Notifications</span>'), "the bell is a named link");
  assert(!html.includes('aria-controls="notification-panel"'), "no toggle that does nothing without JavaScript");
});

Deno.test("the bell shows the unread count in the page's HTML where the page reads it anyway; no page reads it for the bell", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const student = await createTestUser(t, "user");
  for (const title of ["T1", "T2", "T3"]) {
    await notify(t, { userId: student.user.id, type: "comment_reply", title, body: "b", url: "/" });
  }
  const unreadLists = async (path: string) => {
    reads.lists.length = 0;
    const html = (await page(t, path, student)).html;
    const lists = reads.lists.filter(({ selector }) =>
      "start" in selector && selector.start[0] === "notifications_unread"
    );
    return { html, lists: lists.length };
  };
  const notifications = await unreadLists("/me/notifications");
  assertEquals(notifications.lists, 1, "the page's own count, no second read");
  assertMatch(notifications.html, /<span class="sr-only">Notifications, 3 unread<\/span>/);
  assertMatch(notifications.html, /data-testid="unread-count"[^>]*>3<\/span>/);
  for (const path of ["/me/tracker", "/"]) {
    const other = await unreadLists(path);
    assertEquals(other.lists, 0, path);
    assert(!other.html.includes('data-testid="unread-count"'), path);
  }
});

Deno.test("an admin's review of a submission and moderation of a listing are e-mailed by default; turned off, only the bell", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const member = await createTestUser(t, "member");
  const opportunity = await submitOpportunity(t, student, "Campus Hack");
  const listing = await postInternship(t, member, { title: "Sales intern", description: "Registration fee ₹300" });
  assertEquals((await review(t, admin, opportunity.id, "reject")).status, 200);
  const moderated = await t.json("POST", `/api/admin/moderation/internships/${listing.id}`, {
    body: { decision: "reject", note: "Fees are not allowed." },
    headers: admin.headers,
  });
  assertEquals(moderated.status, 200);
  await moderated.body?.cancel();
  await t.settled();
  const mailed = (who: TestUser) => t.mails.filter((m) => m.to === who.user.email).map((m) => m.subject);
  assertEquals(mailed(student), ["Your opportunity was not approved"]);
  assertEquals(mailed(member), ["Your internship was not approved"]);
  const mail = t.mails.find((m) => m.to === student.user.email)!;
  assert(mail.text.includes(`http://localhost:8000/opportunities/${opportunity.id}`), mail.text);
  assert(mail.text.includes("http://localhost:8000/me/settings"), "it says where to turn such e-mails off");

  const off = await t.json("PATCH", "/api/me/settings", {
    body: { channels: { opportunity_reviewed: { email: false } } },
    headers: student.headers,
  });
  assertEquals((await off.json()).settings.channels.opportunity_reviewed, { email: false, push: true });
  assertEquals((await review(t, admin, opportunity.id, "approve")).status, 200);
  await t.settled();
  assertEquals(mailed(student), ["Your opportunity was not approved"], "turned off: no second e-mail");
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, 2, "the bell still tells");
});

Deno.test("approve and reject notify the submitter once per change; a repeated review adds nothing", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const other = await createTestUser(t, "user");
  const opportunity = await submitOpportunity(t, student, "Campus Hack");

  assertEquals((await get(t, student, "/api/me/notifications")).body, { notifications: [], unreadCount: 0 });
  assertEquals((await review(t, admin, opportunity.id, "approve")).status, 200);
  const first = await get(t, student, "/api/me/notifications");
  assertEquals(first.status, 200);
  assertEquals(first.body.unreadCount, 1);
  const [approved] = first.body.notifications;
  assertEquals(approved.type, "opportunity_reviewed");
  assertEquals(approved.title, "Your opportunity was approved");
  assert(approved.body.includes("Campus Hack"));
  assertEquals(approved.url, `/opportunities/${opportunity.id}`);
  assertEquals(approved.readAt, null);

  // Approving an approved one changes nothing and announces nothing.
  await review(t, admin, opportunity.id, "approve");
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, 1);

  await new Promise((resolve) => setTimeout(resolve, 2));
  await review(t, admin, opportunity.id, "reject");
  const second = (await get(t, student, "/api/me/notifications")).body;
  assertEquals(second.unreadCount, 2);
  assertEquals(second.notifications.map((n: { title: string }) => n.title), [
    "Your opportunity was not approved",
    "Your opportunity was approved",
  ]);
  assertEquals(second.notifications[0].url, `/opportunities/${opportunity.id}`);

  // Nobody else hears of it; a bad action notifies nobody.
  assertEquals((await get(t, other, "/api/me/notifications")).body.unreadCount, 0);
  assertEquals((await review(t, admin, opportunity.id, "publish")).status, 400);
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, 2);
});

Deno.test("the notification is written with the review: a review that fails leaves none", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  assertEquals((await review(t, admin, crypto.randomUUID(), "approve")).status, 404);
  const member = await createTestUser(t, "member");
  const published = await submitOpportunity(t, member, "Published at once");
  assertEquals(published.isVerified, true);
  assertEquals((await get(t, member, "/api/me/notifications")).body.unreadCount, 0);
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, 0);
});

Deno.test("unread filter, paging, marking some and all read; foreign ids are skipped", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const other = await createTestUser(t, "user");
  const base = Date.now() - 10_000;
  const made = [];
  for (let i = 0; i < 5; i++) {
    made.push(
      await notify(t, {
        userId: student.user.id,
        type: i % 2 ? "purchase_paid" : "comment_reply",
        title: `Title ${i}`,
        body: `Body ${i}`,
        url: `/n/${i}`,
      }, new Date(base + i * 1000)),
    );
  }
  const foreign = await notify(t, { userId: other.user.id, type: "purchase_paid", title: "x", body: "y", url: "/" });

  const page = (await get(t, student, "/api/me/notifications?limit=2&offset=1")).body;
  assertEquals(page.notifications.map((n: { title: string }) => n.title), ["Title 3", "Title 2"]);
  assertEquals(page.unreadCount, 5);

  const read = await t.json("POST", "/api/me/notifications/read", {
    body: { ids: [made[4].id, foreign.id] },
    headers: student.headers,
  });
  assertEquals(read.status, 200);
  assertEquals(await read.json(), { unreadCount: 4 });
  assertEquals((await get(t, other, "/api/me/notifications")).body.unreadCount, 1);

  const unread = (await get(t, student, "/api/me/notifications?unread=true")).body;
  assertEquals(unread.notifications.map((n: { title: string }) => n.title), [
    "Title 3",
    "Title 2",
    "Title 1",
    "Title 0",
  ]);
  const all = (await get(t, student, "/api/me/notifications")).body.notifications;
  assert(all[0].readAt !== null);

  const none = await t.json("POST", "/api/me/notifications/read", { headers: student.headers });
  assertEquals(await none.json(), { unreadCount: 0 });
  assertEquals((await get(t, student, "/api/me/notifications?unread=true")).body.notifications, []);
  assertEquals((await get(t, other, "/api/me/notifications")).body.unreadCount, 1);
});

Deno.test("marking all read clears more unread notifications than one write can check", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  for (let i = 0; i < 130; i++) {
    await notify(t, { userId: student.user.id, type: "comment_reply", title: `T${i}`, body: "b", url: "/" });
  }
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, UNREAD_COUNT_MAX, "counted to 100");
  const res = await t.json("POST", "/api/me/notifications/read", { headers: student.headers });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { unreadCount: 0 });
});

Deno.test("the unread count is exact up to 99 and stops at 100, which the list says as more than 99", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const made = [];
  const start = Date.now() - 60_000;
  for (let i = 0; i < 102; i++) {
    const input = { userId: student.user.id, type: "comment_reply" as const, title: `T${i}`, body: "b", url: "/" };
    made.push(await notify(t, input, new Date(start + i)));
  }
  const answer = (await get(t, student, "/api/me/notifications?limit=5")).body;
  assertEquals(answer.unreadCount, 100, "102 unread count as 100, that many or more");
  assertEquals(answer.notifications.map((n: { title: string }) => n.title), ["T101", "T100", "T99", "T98", "T97"]);
  const over = await page(t, "/me/notifications", student);
  assert(paragraphs(over).includes("More than 99 unread"), "the list says so");
  assertMatch(over.html, /data-testid="unread-count"[^>]*>99\+<\/span>/);
  assert(paragraphs(await page(t, "/me/notifications?lang=hi", student)).includes("99 से ज़्यादा बिना पढ़ी"), "in Hindi");

  const read = await t.json("POST", "/api/me/notifications/read", {
    body: { ids: made.slice(0, 3).map((n) => n.id) },
    headers: student.headers,
  });
  assertEquals(await read.json(), { unreadCount: 99 });
  assertEquals((await get(t, student, "/api/me/notifications")).body.unreadCount, 99);
  assert(paragraphs(await page(t, "/me/notifications", student)).includes("99 unread"), "99 are counted exactly");
});

Deno.test("notifications older than 90 days are neither listed nor counted", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const input = { userId: student.user.id, type: "purchase_refunded" as const, title: "Old", body: "", url: "/" };
  await notify(t, input, new Date(Date.now() - NOTIFICATION_TTL_MS - 60_000));
  await notify(t, { ...input, title: "New" });
  const body = (await get(t, student, "/api/me/notifications")).body;
  assertEquals(body.notifications.map((n: { title: string }) => n.title), ["New"]);
  assertEquals(body.unreadCount, 1);
});

Deno.test("bad notification input: limit, offset, unread and ids are validated", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  for (const query of ["limit=0", "limit=101", "limit=x", "offset=-1", "unread=yes"]) {
    assertEquals((await get(t, student, `/api/me/notifications?${query}`)).status, 400, query);
  }
  for (const body of [{ ids: "all" }, { ids: [1] }, { ids: Array(101).fill("a") }, { other: true }]) {
    const res = await t.json("POST", "/api/me/notifications/read", { body, headers: student.headers });
    assertEquals(res.status, 400, JSON.stringify(body));
    assert(typeof (await res.json()).error !== "undefined");
  }
  const badJson = await t.fetch("/api/me/notifications/read", {
    method: "POST",
    headers: { ...student.headers, origin: t.origin, "content-type": "application/json" },
    body: "{",
  });
  assertEquals(badJson.status, 400);
});

Deno.test("settings default to on, PATCH changes only what it names, per person; bad values are 400", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const switches = (body: { settings: Record<string, unknown> }) => ({
    deadlineReminders: body.settings.deadlineReminders,
    emailOnReply: body.settings.emailOnReply,
  });
  const defaults = { deadlineReminders: true, emailOnReply: true };
  assertEquals(switches((await get(t, student, "/api/me/settings")).body), defaults);

  const res = await t.json("PATCH", "/api/me/settings", {
    body: { deadlineReminders: false },
    headers: student.headers,
  });
  assertEquals(res.status, 200);
  assertEquals(switches(await res.json()), { deadlineReminders: false, emailOnReply: true });
  const second = await t.json("PATCH", "/api/me/settings", { body: { emailOnReply: false }, headers: student.headers });
  assertEquals(switches(await second.json()), { deadlineReminders: false, emailOnReply: false });
  assertEquals(switches((await get(t, admin, "/api/me/settings")).body), defaults);

  for (const body of [{ deadlineReminders: "no" }, { emailOnReply: 0 }, { theme: "dark" }, []]) {
    const bad = await t.json("PATCH", "/api/me/settings", { body, headers: student.headers });
    assertEquals(bad.status, 400, JSON.stringify(body));
  }
  assertEquals((await get(t, student, "/api/me/settings")).body.settings.emailOnReply, false);
});

/** `kv` whose first `lost` atomic commits lose their race (answer `{ok: false}` without writing), as under contention. */
function losingRaces(kv: Deno.Kv, lost: number): Deno.Kv {
  return kvWithCommits(kv, (n, apply) => n <= lost ? Promise.resolve({ ok: false }) : apply());
}

Deno.test("marking read and revising a notification retry every lost race: nothing is left undone", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const first = await notify(t, { userId: me.user.id, type: "comment_reply", title: "One", body: "b", url: "/" });
  await notify(t, { userId: me.user.id, type: "comment_reply", title: "Two", body: "b", url: "/" });
  // More lost races in a row than the old fixed count of ten tries.
  assertEquals(await markRead(losingRaces(t.kv, 15), { userId: me.user.id, ids: undefined }), 0);
  await reviseNotification(losingRaces(t.kv, 15), {
    userId: me.user.id,
    id: first.id,
    title: "One, revised",
    body: "b",
  });
  const [revised] = (await notificationsOf(t.kv, me.user)).filter((n) => n.id === first.id);
  assertEquals([revised.title, revised.readAt], ["One, revised", null]);
});
