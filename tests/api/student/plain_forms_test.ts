/**
 * The student's own pages as plain forms (docs/decisions.md, Islands, "Forms work without JavaScript"): an alert on
 * `/me/alerts` saves its filters and frequency, pauses and resumes as `PATCH /api/me/alerts/{id}` does, each refusal
 * at its field, another person's alert 404; "Delete" confirms on the page (`?delete=`) and deletes; "Mark all read" on `/me/notifications` marks every notification read.
 * Another site can post neither.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm } from "@/tests/helpers/app.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { createAlert, listAlerts } from "@/lib/alerts/alerts.ts";
import { describeAlert } from "@/lib/alerts/describe.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { addNotification, unreadCount } from "@/lib/notifications/notifications.ts";

Deno.test("an alert's own form saves filters and frequency, pauses and resumes, with 303 back to the page", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const alert = await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "data" }, frequency: "daily" },
  });
  const page = htmlDocument(await (await t.fetch("/me/alerts", { headers: student.headers })).text());
  const form = page.getElementById(`alert-${alert.id}-form`);
  assertEquals([form?.getAttribute("method"), form?.getAttribute("action")], ["post", "/me/alerts"]);
  for (const button of page.querySelectorAll(`button[form="alert-${alert.id}-form"], #alert-${alert.id}-form button`)) {
    assert(!button.hasAttribute("disabled"), `${button.textContent} works before the script`);
  }

  const base = `alert-${alert.id}`;
  const saved = await postForm(t, student, "/me/alerts", {
    id: alert.id,
    intent: "filters",
    frequency: "weekly",
    [`${base}-search`]: " react ",
    [`${base}-types`]: ["remote", "hybrid"],
    [`${base}-location`]: "Pune",
    [`${base}-tags`]: "",
    [`${base}-minStipend`]: "5000",
    [`${base}-maxStipend`]: "",
    [`${base}-trust`]: ["paidOnly"],
  });
  assertEquals([saved.status, saved.headers.get("location")], [303, "/me/alerts?saved=1"]);
  let [stored] = await listAlerts(t.kv, student.user.id);
  assertEquals([stored.frequency, stored.query], ["weekly", {
    search: "react",
    types: "remote,hybrid",
    location: "Pune",
    minStipend: 5000,
    paidOnly: "true",
  }]);
  const confirmed = await (await t.fetch("/me/alerts?saved=1", { headers: student.headers })).text();
  assert(confirmed.includes("Your changes are saved."));

  const paused = await postForm(t, student, "/me/alerts", { id: alert.id, intent: "pause", frequency: "daily" });
  assertEquals(paused.status, 303);
  [stored] = await listAlerts(t.kv, student.user.id);
  assertEquals([stored.isActive, stored.frequency], [false, "weekly"], "pause changes nothing else");
  await postForm(t, student, "/me/alerts", { id: alert.id, intent: "resume" });
  [stored] = await listAlerts(t.kv, student.user.id);
  assertEquals(stored.isActive, true);
});

Deno.test("a refused alert form comes back with the filters as sent and the problem at its field", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const other = await createTestUser(t);
  const alert = await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "data" }, frequency: "daily" },
  });
  const base = `alert-${alert.id}`;
  const res = await postForm(t, student, "/me/alerts", {
    id: alert.id,
    intent: "filters",
    [`${base}-search`]: "design",
    [`${base}-minStipend`]: "lots",
  });
  assertEquals(res.status, 400);
  const page = htmlDocument(await res.text());
  assertEquals(
    page.getElementById(`${base}-minStipend-error`)?.textContent,
    "Enter rupees as a number, like 10000.",
    "the stipend's problem at the stipend, saying what to type",
  );
  assertEquals(page.getElementById(`${base}-search`)?.getAttribute("value"), "design", "what was sent is kept");
  assertEquals((await listAlerts(t.kv, student.user.id))[0].query, { search: "data" }, "nothing saved");
  const hindi = await postForm(t, student, "/me/alerts?lang=hi", {
    id: alert.id,
    intent: "filters",
    [`${base}-minStipend`]: "abc",
  });
  assertEquals(
    htmlDocument(await hindi.text()).getElementById(`${base}-minStipend-error`)?.textContent,
    "रुपये अंकों में लिखें, जैसे 10000।",
  );

  const foreign = await postForm(t, other, "/me/alerts", { id: alert.id, intent: "pause" });
  assertEquals(foreign.status, 404);
  await foreign.body?.cancel();
  const unknown = await postForm(t, student, "/me/alerts", { id: alert.id, intent: "rename" });
  assertEquals(unknown.status, 400);
  await unknown.body?.cancel();
  const crossSite = await postForm(t, student, "/me/alerts", { id: alert.id, intent: "pause" }, {
    origin: "https://evil.example",
  });
  assertEquals(crossSite.status, 403);
  await crossSite.body?.cancel();
  assertEquals((await listAlerts(t.kv, student.user.id))[0].isActive, true);
});

Deno.test("an alert's Delete link confirms on the page, then deletes with 303; not another's, not from another site", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const other = await createTestUser(t);
  const alert = await createAlert(t.kv, {
    userId: student.user.id,
    input: { kind: "internships", query: { search: "data" }, frequency: "daily" },
  });
  const list = htmlDocument(await (await t.fetch("/me/alerts", { headers: student.headers })).text());
  const link = list.querySelector(`a[href^="?delete="]`);
  assertEquals(link?.getAttribute("href"), `?delete=${alert.id}#delete-alert`);
  assertEquals(list.getElementById("delete-alert"), null, "no confirmation before the link is followed");

  const page = htmlDocument(
    await (await t.fetch(`/me/alerts?delete=${alert.id}`, { headers: student.headers })).text(),
  );
  const box = page.getElementById("delete-alert");
  const named = `“${describeAlert(alert, translatorFor("en"))}” will no longer be e-mailed.`;
  assert(box?.textContent?.includes(named), box?.textContent ?? "no confirmation");
  const form = box?.querySelector("form");
  assertEquals([form?.getAttribute("method"), form?.getAttribute("action")], ["post", "/me/alerts"]);
  const fields = [...form?.querySelectorAll("input") ?? []].map((
    i,
  ) => [i.getAttribute("name"), i.getAttribute("value")]);
  assertEquals(fields, [["intent", "delete"], ["id", alert.id]]);
  assertEquals(box?.querySelector("a")?.getAttribute("href"), "/me/alerts", "Cancel goes back");
  const foreignBox = await (await t.fetch(`/me/alerts?delete=${alert.id}`, { headers: other.headers })).text();
  assert(!htmlDocument(foreignBox).getElementById("delete-alert"), "another person's alert is not named");

  for (const [who, origin, status] of [[other, undefined, 404], [student, "https://evil.example", 403]] as const) {
    const refused = await postForm(t, who, "/me/alerts", { id: alert.id, intent: "delete" }, origin ? { origin } : {});
    assertEquals(refused.status, status);
    await refused.body?.cancel();
  }
  assertEquals((await listAlerts(t.kv, student.user.id)).map((a) => a.id), [alert.id], "nothing deleted");

  const res = await postForm(t, student, "/me/alerts", { id: alert.id, intent: "delete" });
  assertEquals([res.status, res.headers.get("location")], [303, "/me/alerts?deleted=1"]);
  assertEquals(await listAlerts(t.kv, student.user.id), []);
  const after = await (await t.fetch("/me/alerts?deleted=1", { headers: student.headers })).text();
  assert(after.includes("Alert deleted."));
  const again = await postForm(t, student, "/me/alerts", { id: alert.id, intent: "delete" });
  assertEquals(again.status, 404, "an alert deleted already");
  await again.body?.cancel();
});

Deno.test("Mark all read is a plain form: every notification read, 303 back; not from another site", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  // With none yet, the page says so once, in English and Hindi: no "no unread" line above the empty box.
  for (
    const [lang, empty, noUnread] of [
      ["en", "No notifications yet.", "No unread notifications."],
      ["hi", "अभी कोई सूचना नहीं है।", "कोई बिना पढ़ी सूचना नहीं है।"],
    ]
  ) {
    const html = await (await t.fetch(`/me/notifications?lang=${lang}`, { headers: student.headers })).text();
    const main = htmlDocument(html).querySelector("main")!;
    for (const script of main.querySelectorAll("script")) script.remove(); // the island's words, not shown
    assert(main.textContent.includes(empty) && !main.textContent.includes(noUnread), lang);
  }
  const op = t.kv.atomic();
  for (const title of ["One", "Two", "Three"]) {
    addNotification(op, { userId: student.user.id, type: "comment_reply", title, body: "Open it.", url: "/" });
  }
  assert((await op.commit()).ok);
  const page = htmlDocument(await (await t.fetch("/me/notifications", { headers: student.headers })).text());
  const form = page.querySelector('form[action="/me/notifications"]');
  assertEquals(form?.getAttribute("method"), "post");
  assertEquals(form?.querySelector("button")?.getAttribute("type"), "submit");

  const crossSite = await postForm(t, student, "/me/notifications", {}, { origin: "https://evil.example" });
  assertEquals(crossSite.status, 403);
  await crossSite.body?.cancel();
  assertEquals(await unreadCount(t.kv, student.user.id), 3);
  const res = await postForm(t, student, "/me/notifications", {});
  assertEquals([res.status, res.headers.get("location")], [303, "/me/notifications"]);
  assertEquals(await unreadCount(t.kv, student.user.id), 0);
});
