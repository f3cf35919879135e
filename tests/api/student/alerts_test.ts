/**
 * Alerts (docs/api.md, Alerts; docs/decisions.md, Alerts): the `/api/me/alerts` endpoints per role with bad input (a
 * kind, frequency or filters the list would refuse, the 21st alert, another person's id), and the `alerts-digest`
 * and `deadline-reminders` jobs against the real SMTP server fake: exactly the new matches, nothing twice, the
 * one-click unsubscribe without a session, unverified people and turned-off reminders skipped; e-mails cut to the
 * outbox's bound with an "And N more" line, and one person's failure logged and passed over while everyone else is
 * sent. The home page's news
 * of an alert at its boundary: a listing made in the alert's millisecond counts once, one made before it does not.
 */
import { kvFailingCommits } from "@/tests/fixtures/failing_kv.ts";
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { startFakeSmtp } from "@/tests/fakes/smtp.ts";
import { postInternships } from "@/tests/fixtures/internships.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { type AlertRecord, createAlert } from "@/lib/alerts/alerts.ts";
import { alertNews } from "@/lib/alerts/news.ts";
import { istToday } from "@/lib/dates.ts";
import { updateUser } from "@/lib/users/users.ts";
import { people } from "@/tests/fixtures/people.ts";
import { findJob, runJob } from "@/lib/jobs/registry.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";

async function call(t: TestApp, who: TestUser | undefined, method: string, path: string, body?: unknown) {
  const res = await t.json(method, path, { body, headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

Deno.test("a guest gets 401 from every alert endpoint", async () => {
  await using t = await createTestApp();
  assertEquals((await call(t, undefined, "GET", "/api/me/alerts")).status, 401);
  assertEquals((await call(t, undefined, "POST", "/api/me/alerts", { kind: "internships", query: {} })).status, 401);
  assertEquals((await call(t, undefined, "PATCH", "/api/me/alerts/x", { isActive: false })).status, 401);
  assertEquals((await call(t, undefined, "DELETE", "/api/me/alerts/x")).status, 401);
});

Deno.test("every role keeps its own alerts: create, list, pause, edit, delete; another person's id is 404", async () => {
  await using t = await createTestApp();
  for (const role of ["user", "member", "admin"] as const) {
    const me = await createTestUser(t, role);
    const other = await createTestUser(t, "user");
    const created = await call(t, me, "POST", "/api/me/alerts", {
      kind: "internships",
      query: { search: " data ", location: "Pune", types: "remote,hybrid", minStipend: 5000, tags: "" },
      frequency: "weekly",
    });
    assertEquals(created.status, 201, role);
    const alert = created.body.alert;
    assertEquals(alert.query, { search: "data", location: "Pune", types: "remote,hybrid", minStipend: 5000 });
    assertEquals([alert.kind, alert.frequency, alert.isActive, alert.lastSentAt], [
      "internships",
      "weekly",
      true,
      null,
    ]);
    const second = await call(t, me, "POST", "/api/me/alerts", { kind: "opportunities", query: { type: "hackathon" } });
    assertEquals([second.status, second.body.alert.frequency], [201, "daily"]);

    const list = await call(t, me, "GET", "/api/me/alerts");
    assertEquals(list.body.alerts.map((a: { id: string }) => a.id), [second.body.alert.id, alert.id]);
    assertEquals((await call(t, other, "GET", "/api/me/alerts")).body.alerts, []);

    const paused = await call(t, me, "PATCH", `/api/me/alerts/${alert.id}`, { isActive: false });
    assertEquals([paused.status, paused.body.alert.isActive], [200, false]);
    const edited = await call(t, me, "PATCH", `/api/me/alerts/${alert.id}`, {
      frequency: "daily",
      query: { search: "ml" },
    });
    assertEquals([edited.body.alert.frequency, edited.body.alert.query, edited.body.alert.isActive], [
      "daily",
      { search: "ml" },
      false,
    ]);

    assertEquals((await call(t, other, "PATCH", `/api/me/alerts/${alert.id}`, { isActive: true })).status, 404);
    assertEquals((await call(t, other, "DELETE", `/api/me/alerts/${alert.id}`)).status, 404);
    assertEquals((await call(t, me, "PATCH", `/api/me/alerts/${crypto.randomUUID()}`, {})).status, 404);
    assertEquals((await call(t, me, "DELETE", `/api/me/alerts/${alert.id}`)).body, { success: true });
    assertEquals((await call(t, me, "DELETE", `/api/me/alerts/${alert.id}`)).status, 404);
    assertEquals((await call(t, me, "GET", "/api/me/alerts")).body.alerts.length, 1);
  }
});

Deno.test("bad alerts: unknown kind or frequency, filters the list would refuse, the 21st alert", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t, "user");
  const bad = [
    { kind: "jobs", query: {} },
    { kind: "internships", query: {}, frequency: "hourly" },
    { kind: "internships", query: { types: "freelance" } },
    { kind: "internships", query: { minStipend: "lots" } },
    { kind: "internships", query: { minStipend: 9000, maxStipend: 1000 } },
    { kind: "internships", query: { color: "blue" } },
    { kind: "internships", query: { search: "x".repeat(201) } },
    { kind: "internships", query: { tags: Array(21).fill("t").join(",") } },
    { kind: "opportunities", query: { type: "party" } },
    { kind: "opportunities", query: { location: "Pune" } },
    { kind: "internships", query: "search=data" },
    { kind: "internships", query: {}, extra: true },
  ];
  for (const body of bad) {
    const res = await call(t, me, "POST", "/api/me/alerts", body);
    assertEquals(res.status, 400, JSON.stringify(body));
    assert(Array.isArray(res.body.error), JSON.stringify(res.body));
  }
  const first = await call(t, me, "POST", "/api/me/alerts", { kind: "internships", query: {} });
  const patch = await call(t, me, "PATCH", `/api/me/alerts/${first.body.alert.id}`, { query: { types: "moon" } });
  assertEquals(patch.status, 400);
  assertEquals((await call(t, me, "PATCH", `/api/me/alerts/${first.body.alert.id}`, { isActive: "no" })).status, 400);
  for (let i = 1; i < 20; i++) {
    assertEquals((await call(t, me, "POST", "/api/me/alerts", { kind: "internships", query: {} })).status, 201);
  }
  const over = await call(t, me, "POST", "/api/me/alerts", { kind: "opportunities", query: {} });
  assertEquals(over, { status: 400, body: { error: "You can keep at most 20 alerts" } });
});

Deno.test("every filter an alert holds is editable, checked as the list checks it, each refusal at its field", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t, "user");
  const internship = (await call(t, me, "POST", "/api/me/alerts", { kind: "internships", query: { search: "data" } }))
    .body.alert;
  const path = `/api/me/alerts/${internship.id}`;
  const query = {
    types: "remote,hybrid",
    tags: "python, sql",
    location: "Pune",
    search: "data",
    minStipend: "5000",
    maxStipend: "20000",
  };
  const edited = await call(t, me, "PATCH", path, { query });
  assertEquals(edited.status, 200);
  assertEquals(edited.body.alert.query, { ...query, tags: "python, sql", minStipend: 5000, maxStipend: 20000 });
  const refused: [Record<string, unknown>, string][] = [
    [{ ...query, types: "remote,freelance" }, "query.types"],
    [{ ...query, minStipend: "25000" }, "query.maxStipend"],
    [{ ...query, maxStipend: "lots" }, "query.maxStipend"],
    [{ ...query, tags: "x".repeat(51) }, "query.tags"],
    [{ ...query, location: "x".repeat(201) }, "query.location"],
    [{ ...query, type: "hackathon" }, "query"],
  ];
  for (const [bad, field] of refused) {
    const res = await call(t, me, "PATCH", path, { query: bad });
    assertEquals(res.status, 400, JSON.stringify(bad));
    assert(
      res.body.fields.some((f: { field: string }) => f.field === field),
      `${field}: ${JSON.stringify(res.body.fields)}`,
    );
  }
  const [stored] = (await call(t, me, "GET", "/api/me/alerts")).body.alerts;
  assertEquals(stored.query, edited.body.alert.query);

  const opportunity = (await call(t, me, "POST", "/api/me/alerts", { kind: "opportunities", query: {} })).body.alert;
  const kinds = await call(t, me, "PATCH", `/api/me/alerts/${opportunity.id}`, {
    query: { type: "grant,ideathon", search: "climate" },
  });
  assertEquals(kinds.body.alert.query, { type: "grant,ideathon", search: "climate" });
  const badKind = await call(t, me, "PATCH", `/api/me/alerts/${opportunity.id}`, { query: { type: "grant,party" } });
  assertEquals(badKind.status, 400);
  assert(badKind.body.fields.some((f: { field: string }) => f.field === "query.type"), JSON.stringify(badKind.body));
  const internshipFilter = await call(t, me, "PATCH", `/api/me/alerts/${opportunity.id}`, { query: { minStipend: 1 } });
  assertEquals(internshipFilter.status, 400);
});

Deno.test("the digest mails exactly the new matches once, and the one-click unsubscribe turns alerts off", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user", { name: "Asha" });
  const unverified = await createTestUser(t, "user");
  await updateUser(t.kv, unverified.user.id, { emailVerified: false });
  const suspended = await createTestUser(t, "user");
  await call(t, suspended, "POST", "/api/me/alerts", { kind: "internships", query: {} });
  await updateUser(t.kv, suspended.user.id, { suspension: { at: new Date().toISOString(), reason: "Spam", by: null } });
  const internships = await call(t, student, "POST", "/api/me/alerts", {
    kind: "internships",
    query: { search: "data", location: "Pune" },
  });
  const hackathons = await call(t, student, "POST", "/api/me/alerts", {
    kind: "opportunities",
    query: { type: "hackathon" },
  });
  await call(t, unverified, "POST", "/api/me/alerts", { kind: "internships", query: {} });
  const opportunity = (fields: Record<string, unknown>) =>
    call(t, member, "POST", "/api/opportunities", {
      type: "hackathon",
      startDate: `${NEXT_YEAR}-01-01`,
      endDate: `${NEXT_YEAR}-01-02`,
      ...fields,
    });
  await postInternships(t, member, [{ title: "Old Data Intern", location: "Pune" }]);
  await opportunity({ title: "Old Hack" });
  await later();

  const run = async () => {
    const res = await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run");
    assertEquals(res.status, 200);
    assertEquals((await call(t, admin, "POST", "/api/admin/jobs/outbox/run")).status, 200);
    return res.body;
  };
  const first = await run();
  assertEquals(
    [first.job, first.sent, first.alerts, first.skipped],
    ["alerts-digest", 1, 2, 2],
    "unverified, suspended",
  );
  assertEquals(smtp.messages.length, 1);
  assert(smtp.messages[0].text.includes("Old Data Intern") && smtp.messages[0].text.includes("Old Hack"));
  await later();

  await postInternships(t, member, [
    { title: "New Data Intern", location: "Pune, Maharashtra", stipend: 12000 },
    { title: "New Data Intern Mumbai", location: "Mumbai" },
    { title: "New Design Intern", location: "Pune" },
    { title: "Closed Data Intern", location: "Pune", deadline: "2020-01-01" },
  ]);
  await opportunity({ title: "New Hack", organizer: "IIT Bombay" });
  await opportunity({ title: "New Grant", type: "grant" });
  await later();
  const second = await run();
  assertEquals([second.sent, second.alerts], [1, 2]);
  assertEquals(smtp.messages.length, 2);
  const mail = smtp.messages[1];
  assertEquals(mail.to, [student.user.email]);
  assertEquals(mail.subject, "2 new listings match your alerts");
  for (const title of ["New Data Intern", "New Hack"]) {
    assert(mail.text.includes(title) && mail.html.includes(title), title);
  }
  for (
    const title of ["Old Data Intern", "Old Hack", "New Data Intern Mumbai", "New Design Intern", "Closed", "Grant"]
  ) {
    assert(!mail.text.includes(title) && !mail.html.includes(title), `${title} is not a new match`);
  }
  assert(mail.text.includes("₹12,000 a month") && mail.text.includes("IIT Bombay"), mail.text);
  assertEquals(mail.headers.get("list-unsubscribe-post"), "List-Unsubscribe=One-Click");
  const all = mail.headers.get("list-unsubscribe")!.match(/^<(.+)>$/)![1];
  assertMatch(all, new RegExp(`^${t.origin}/unsubscribe/[\\w-]+$`));
  const own = [...mail.text.matchAll(/Stop this alert: (\S+)/g)].map((m) => m[1]);
  assertEquals(own.length, 2);
  assert(!own.includes(all));

  const third = await run();
  assertEquals([third.sent, smtp.messages.length], [0, 2]);

  // GET confirms and changes nothing; POST without a session turns the alert of its section off.
  const page = await t.fetch(new URL(own[1]).pathname);
  assertEquals(page.status, 200);
  assert((await page.text()).includes("Turn off"));
  assertEquals(
    (await call(t, student, "GET", "/api/me/alerts")).body.alerts.every((a: { isActive: boolean }) => a.isActive),
    true,
  );
  const oneClick = await t.fetch(new URL(all).pathname, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  assertEquals(oneClick.status, 200);
  await oneClick.body?.cancel();
  const alerts = (await call(t, student, "GET", "/api/me/alerts")).body.alerts;
  assertEquals(alerts.map((a: { isActive: boolean }) => a.isActive), [false, false]);
  assert(alerts.every((a: { lastSentAt: string | null }) => a.lastSentAt !== null));
  assertEquals([internships.status, hackathons.status], [201, 201]);

  const unknown = await t.fetch("/unsubscribe/not-a-real-token-at-all-000", { method: "POST" });
  assertEquals(unknown.status, 404);
  await unknown.body?.cancel();
  await postInternships(t, member, [{ title: "Another Data Intern", location: "Pune" }]);
  assertEquals((await run()).sent, 0);
});

Deno.test("deadline reminders: saved items due today or tomorrow, once; turned off by setting or one-click link", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { admin, member, student } = await people(t);
  const quiet = await createTestUser(t, "user");
  const suspended = await createTestUser(t, "user");
  const day = (n: number) => istToday(new Date(Date.now() + n * 86_400_000));
  const [today, tomorrow, nextWeek, applied] = await postInternships(t, member, [
    { title: "Closes Today", deadline: day(0) },
    { title: "Closes Tomorrow", deadline: day(1) },
    { title: "Closes Next Week", deadline: day(7) },
    { title: "Already Applied", deadline: day(1) },
  ]);
  const hack = (await call(t, member, "POST", "/api/opportunities", {
    title: "Starts Tomorrow",
    type: "hackathon",
    startDate: day(1),
    endDate: day(3),
  })).body.opportunity;
  for (const who of [student, quiet, suspended]) {
    for (const item of [today, tomorrow, nextWeek]) await call(t, who, "PUT", `/api/me/saved/internships/${item.id}`);
    await call(t, who, "PUT", `/api/me/saved/internships/${applied.id}`, { status: "applied" });
    await call(t, who, "PUT", `/api/me/saved/opportunities/${hack.id}`);
  }
  await call(t, quiet, "PATCH", "/api/me/settings", { deadlineReminders: false });
  await updateUser(t.kv, suspended.user.id, { suspension: { at: new Date().toISOString(), reason: "Spam", by: null } });
  const run = async () => {
    const res = await call(t, admin, "POST", "/api/admin/jobs/deadline-reminders/run");
    assertEquals(res.status, 200);
    assertEquals((await call(t, admin, "POST", "/api/admin/jobs/outbox/run")).status, 200);
    return res.body;
  };
  const first = await run();
  assertEquals([first.sent, first.notified, first.items, first.skipped], [1, 2, 6, 1], "the suspended one skipped");
  const told = (await call(t, quiet, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(told.map((n: { type: string }) => n.type), ["deadline_reminder"], "no e-mail, but the bell and push");
  assertEquals(told[0].title, "3 saved listings close soon");
  assertEquals(smtp.messages.length, 1);
  const mail = smtp.messages[0];
  assertEquals(mail.to, [student.user.email]);
  for (const title of ["Closes Today", "Closes Tomorrow", "Starts Tomorrow"]) assert(mail.text.includes(title), title);
  for (const title of ["Closes Next Week", "Already Applied"]) assert(!mail.text.includes(title), title);
  assert(mail.html.includes("Closes Today"));
  assertEquals((await run()).sent, 0);
  assertEquals(smtp.messages.length, 1);

  const link = mail.headers.get("list-unsubscribe")!.slice(1, -1);
  const post = await t.fetch(new URL(link).pathname, { method: "POST" });
  assertEquals(post.status, 200);
  await post.body?.cancel();
  assertEquals((await call(t, student, "GET", "/api/me/settings")).body.settings.deadlineReminders, false);
});

Deno.test("a digest over the outbox's bound is cut with an \"and N more\" line; everyone else's goes out", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const heavy = await createTestUser(t, "user", { name: "Many Alerts" });
  const others: TestUser[] = [];
  for (let i = 0; i < 3; i++) others.push(await createTestUser(t, "user", { name: `Bystander ${i}` }));
  // Four alerts, each matching 20 listings of its own (a listing two alerts match is shown in one section only).
  const words = ["alpha", "bravo", "charlie", "delta"];
  for (const search of words) {
    assertEquals(
      (await call(t, heavy, "POST", "/api/me/alerts", { kind: "internships", query: { search } })).status,
      201,
    );
  }
  for (const who of others) {
    assertEquals((await call(t, who, "POST", "/api/me/alerts", { kind: "internships", query: {} })).status, 201);
  }
  // 80 listings with titles and organizations of the longest kind, the organizations' names in Hindi (so KV stores the
  // e-mail at two bytes a character): 4 alerts of 20 matches are about 84,000 characters of e-mail.
  const long = (head: string) => (head + " intern remote paid " + "x".repeat(200)).slice(0, 200);
  await postInternships(
    t,
    member,
    Array.from({ length: 80 }, (_, i) => ({
      title: long(`Role ${i} ${words[i % 4]}`),
      hiringOrganization: long(`संस्था ${i}`),
    })),
  );
  await later();
  const digest = await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run");
  assertEquals(digest.status, 200, JSON.stringify(digest.body));
  assertEquals([digest.body.sent, digest.body.alerts, digest.body.failed], [4, 7, 0]);
  assertEquals((await call(t, admin, "POST", "/api/admin/jobs/outbox/run")).status, 200);
  assertEquals(
    smtp.messages.map((m) => m.to[0]).toSorted(),
    [heavy, ...others].map((who) => who.user.email).toSorted(),
  );
  const mail = smtp.messages.find((m) => m.to[0] === heavy.user.email)!;
  assert((mail.text.length + mail.html.length) * 2 <= 60_000, "within the outbox's bound as KV stores it");
  assertEquals(mail.subject, "80 new listings match your alerts");
  const shown = mail.text.split("\n").filter((line) => line.startsWith("- Role ")).length;
  const more = [...mail.text.matchAll(/And (\d+) more: (\S+)/g)];
  assert(shown >= 20 && shown < 80, `${shown} shown`);
  assertEquals(shown + more.reduce((n, m) => n + Number(m[1]), 0), 80);
  // Each cut section links to the list with its alert's filters (the sections' order is the alerts' keys').
  for (const [, , url] of more) {
    assertMatch(url, new RegExp(`^${t.origin}/internships\\?search=(${words.join("|")})$`));
  }
  assert(mail.html.includes(`>And ${more.at(-1)![1]} more</a>`));
  assertEquals((await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run")).body.sent, 0);
});

Deno.test("a person whose digest fails is logged and skipped, tried again next run, and passed over after 3 runs", async () => {
  await using smtp = await startFakeSmtp();
  const logLines: string[] = [];
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url }, logLines });
  const { admin, member } = await people(t);
  const [broken, flaky, fine] = [
    await createTestUser(t, "user"),
    await createTestUser(t, "user"),
    await createTestUser(t, "user"),
  ];
  const alertOf = async (who: TestUser) =>
    (await call(t, who, "POST", "/api/me/alerts", { kind: "internships", query: {} })).body.alert.id as string;
  const key = (who: TestUser, id: string) => ["alerts", who.user.id, id];
  const ids = { broken: await alertOf(broken), flaky: await alertOf(flaky) };
  await alertOf(fine);
  // A record the digest cannot read: its filters are ones the list refuses.
  const corrupt = async (who: TestUser, id: string) => {
    const entry = await t.kv.get<AlertRecord>(key(who, id));
    await t.kv.set(key(who, id), { ...entry.value!, query: { types: "nonsense" } });
    return entry.value!;
  };
  await corrupt(broken, ids.broken);
  const flakyAlert = await corrupt(flaky, ids.flaky);
  await postInternships(t, member, [{ title: "Data Intern" }]);
  await later();
  const run = async () => {
    const res = await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run");
    assertEquals(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const record = async (who: TestUser, id: string) => (await t.kv.get<AlertRecord>(key(who, id))).value!;

  const first = await run();
  assertEquals([first.sent, first.failed], [1, 2]);
  const logged = logLines.filter((line) => line.includes("alerts digest of a person failed"));
  assertEquals(logged.length, 2);
  assert(logged.some((line) => line.includes(broken.user.id)) && logged.some((line) => line.includes(flaky.user.id)));
  let held = await record(broken, ids.broken);
  assertEquals([held.failedRuns, held.lastRunAt, held.lease], [1, null, null]);

  // The flaky record is mended: the next run sends its digest; the broken one fails again.
  await t.kv.set(key(flaky, ids.flaky), { ...await record(flaky, ids.flaky), query: flakyAlert.query });
  const second = await run();
  assertEquals([second.sent, second.failed], [1, 1]);
  assertEquals((await record(flaky, ids.flaky)).failedRuns, 0);
  assertEquals((await run()).failed, 1);
  held = await record(broken, ids.broken);
  assertEquals(held.failedRuns, 0);
  assert(held.lastRunAt !== null, "the third failed run passes the window over");
  assertEquals([(await run()).failed, (await run()).sent], [0, 0]);
  await call(t, admin, "POST", "/api/admin/jobs/outbox/run");
  assertEquals(smtp.messages.map((m) => m.to[0]).toSorted(), [fine, flaky].map((w) => w.user.email).toSorted());
});

Deno.test("a reminder of many saved listings names 50 within the outbox's bound; one that fails stops nobody else's", async () => {
  await using smtp = await startFakeSmtp();
  const logLines: string[] = [];
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url }, logLines });
  const { admin, member } = await people(t);
  const heavy = await createTestUser(t, "user");
  const broken = await createTestUser(t, "user");
  const others = [await createTestUser(t, "user"), await createTestUser(t, "user")];
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const long = (head: string) => (head + " " + "x".repeat(200)).slice(0, 200);
  // 120 due items: more than KV's 100 checks in one write; the 70 long ones alone are over 60,000 bytes of e-mail.
  const made = [];
  for (let batch = 0; batch < 4; batch++) {
    made.push(
      ...await postInternships(
        t,
        member,
        Array.from({ length: 30 }, (_, i) => {
          const n = batch * 30 + i;
          return n < 70
            ? { title: long(`Due ${n}`), hiringOrganization: long(`Org ${n}`), deadline: tomorrow }
            : { title: `Due ${n}`, deadline: tomorrow };
        }),
      ),
    );
  }
  for (const item of made) {
    assertEquals((await call(t, heavy, "PUT", `/api/me/saved/internships/${item.id}`)).status < 300, true);
  }
  for (const who of [broken, ...others]) await call(t, who, "PUT", `/api/me/saved/internships/${made[0].id}`);
  // A person record no reminder can be written for: a language the catalogues do not have.
  const record = (await t.kv.get<Record<string, unknown>>(["users", broken.user.id])).value!;
  await t.kv.set(["users", broken.user.id], { ...record, language: "xx" });
  const run = await call(t, admin, "POST", "/api/admin/jobs/deadline-reminders/run");
  assertEquals(run.status, 200, JSON.stringify(run.body));
  assertEquals([run.body.sent, run.body.failed], [3, 1]);
  const logged = logLines.filter((line) => line.includes("deadline reminder of a person failed"));
  assertEquals(logged.length, 1);
  assert(logged[0].includes(broken.user.id));
  await call(t, admin, "POST", "/api/admin/jobs/outbox/run");
  assertEquals(smtp.messages.length, 3);
  const mail = smtp.messages.find((m) => m.to[0] === heavy.user.email)!;
  assert(new TextEncoder().encode(mail.text + mail.html).length <= 60_000);
  assertEquals(mail.subject, "Reminder: 120 saved listings are due soon");
  const shown = mail.text.split("\n").filter((line) => line.startsWith("- Due ")).length;
  assert(shown > 0 && shown <= 50, `${shown} shown`);
  assert(mail.text.includes(`And ${120 - shown} more: ${t.origin}/me/tracker`), mail.text.slice(-600));
  const told = (await call(t, heavy, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(told[0].title, `${shown} saved listings close soon`);
  // Every item is marked: a second run tells nobody again.
  const again = (await call(t, admin, "POST", "/api/admin/jobs/deadline-reminders/run")).body;
  assertEquals([again.sent, again.notified, again.failed], [0, 0, 1]);
});

Deno.test("a reminder that went out marks the items it only counted in its own write: no second reminder", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const reader = await createTestUser(t, "user");
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const made = await postInternships(
    t,
    member,
    Array.from({ length: 55 }, (_, i) => ({ title: `Due ${i}`, deadline: tomorrow })),
  );
  for (const item of made) {
    assertEquals((await call(t, reader, "PUT", `/api/me/saved/internships/${item.id}`)).status < 300, true);
  }
  // KV fails every write after the first of the run (the claiming write, which queues the e-mail).
  const { kv: failing } = kvFailingCommits(t.kv, (n) => n > 1);
  const job = findJob("deadline-reminders")!;
  const first = await runJob(job, { ...t.services, kv: failing });
  assertEquals([first.sent, first.items, first.failed], [1, 50, 0]);
  const again = await runJob(job, t.services);
  assertEquals([again.sent, again.notified, again.failed], [0, 0, 0], "the 5 only counted are marked");
});

Deno.test("deadline reminders read the savers of several due listings at once, and remind of every one", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const reader = await createTestUser(t, "user");
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const made = await postInternships(
    t,
    member,
    Array.from({ length: 20 }, (_, i) => ({ title: `Due ${i}`, deadline: tomorrow })),
  );
  for (const item of made) {
    assertEquals((await call(t, reader, "PUT", `/api/me/saved/internships/${item.id}`)).status < 300, true);
  }
  // Counts the lists of savers under way at once.
  let open = 0, most = 0;
  async function* counted<T>(list: Deno.KvListIterator<T>): AsyncGenerator<Deno.KvEntry<T>> {
    most = Math.max(most, ++open);
    try {
      yield* list;
    } finally {
      open--;
    }
  }
  const kv = new Proxy(t.kv, {
    get(target, name) {
      if (name === "list") {
        return <T>(selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          const list = target.list<T>(selector, options);
          return "prefix" in selector && selector.prefix[0] === "saved_by_listing" ? counted(list) : list;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const run = await runJob(findJob("deadline-reminders")!, { ...t.services, kv });
  assertEquals([run.notified, run.items, run.failed], [1, 20, 0]);
  assert(most > 1, `${most} lists at once`);
});

Deno.test("deadline reminders of many people are made in batches: a few commits, not one a person", async () => {
  await using t = await createTestApp();
  const { member } = await people(t);
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const [due] = await postInternships(t, member, [{ title: "Due soon", deadline: tomorrow }]);
  const PEOPLE = 60;
  const readers: TestUser[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const reader = await createTestUser(t, "user");
    const op = t.kv.atomic().set(["saved_by_listing", "internships", due.id, reader.user.id], "saved");
    assert((await op.commit()).ok);
    readers.push(reader);
  }
  const { kv, commits } = kvFailingCommits(t.kv, () => false);
  const run = await runJob(findJob("deadline-reminders")!, { ...t.services, kv });
  assertEquals([run.sent, run.notified, run.items, run.failed], [PEOPLE, PEOPLE, PEOPLE, 0]);
  assert(commits() <= PEOPLE / 10, `${commits()} commits for ${PEOPLE} reminders`);
  const told = (await call(t, readers.at(-1), "GET", "/api/me/notifications")).body.notifications;
  assertEquals(told.map((n: { title: string }) => n.title), ["“Due soon” closes soon"]);
  const again = await runJob(findJob("deadline-reminders")!, t.services);
  assertEquals([again.sent, again.notified], [0, 0], "each person's items are marked");
});

Deno.test("past 500 counted items the rest of the marks are written after the claim, retried when a write fails", async () => {
  const logLines: string[] = [];
  await using t = await createTestApp({ logLines });
  const { member } = await people(t);
  const reader = await createTestUser(t, "user");
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const records = generateInternships(900, [member.user.id]).map((record) => ({
    ...record,
    deadline: tomorrow,
    isActive: true,
    deletedAt: null,
  }));
  await importInternships(t.kv, records);
  for (let i = 0; i < records.length; i += 300) {
    const op = t.kv.atomic();
    for (const { id } of records.slice(i, i + 300)) {
      op.set(["saved_by_listing", "internships", id, reader.user.id], "saved");
    }
    assert((await op.commit()).ok);
  }
  // The claiming write goes through (50 named, 500 counted marked in it, under KV's 80 KiB of keys); the next two
  // (the first tries of the write marking the other 350) fail.
  const { kv: failing, commits } = kvFailingCommits(t.kv, (n) => [2, 3].includes(n));
  const job = findJob("deadline-reminders")!;
  const first = await runJob(job, { ...t.services, kv: failing });
  assertEquals([first.notified, first.items, first.failed, commits()], [1, 50, 0, 4], logLines.join("\n"));
  assertEquals(logLines.filter((line) => line.includes("marks not written")), []);
  const again = await runJob(job, t.services);
  assertEquals([again.notified, again.failed], [0, 0], "all 900 are marked");
});

Deno.test("25 alerts created at once: a lost race retries, so the first 20 succeed and only those past the limit get 400", async () => {
  await using t = await createTestApp();
  const me = await createTestUser(t);
  const create = (i: number) =>
    call(t, me, "POST", "/api/me/alerts", { kind: "internships", query: { search: `role ${i}` }, frequency: "daily" });
  const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => create(i)));
  assertEquals(answers.filter((a) => a.status === 201).length, 20, JSON.stringify(answers.map((a) => a.status)));
  for (const refused of answers.filter((a) => a.status !== 201)) {
    assertEquals(refused, { status: 400, body: { error: "You can keep at most 20 alerts" } });
  }
  const listed = (await call(t, me, "GET", "/api/me/alerts")).body.alerts;
  assertEquals(listed.length, 20);
  // Under the limit every request succeeds, also while others change the same person's alerts at once.
  for (const alert of listed.slice(0, 10) as { id: string }[]) {
    assertEquals((await call(t, me, "DELETE", `/api/me/alerts/${alert.id}`)).status, 200);
  }
  const mixed = await Promise.all([
    ...listed.slice(10).map((alert: { id: string }) =>
      call(t, me, "PATCH", `/api/me/alerts/${alert.id}`, { frequency: "weekly" })
    ),
    ...Array.from({ length: 10 }, (_, i) => create(100 + i)),
  ]);
  assertEquals(mixed.map((a) => a.status).filter((s) => s >= 300), []);
  assertEquals((await call(t, me, "GET", "/api/me/alerts")).body.alerts.length, 20);
});

Deno.test("a Hindi student gets the digest, the reminder and its bell notification in Hindi", async () => {
  await using smtp = await startFakeSmtp();
  await using t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const { admin, member } = await people(t);
  const student = await createTestUser(t, "user", { name: "Asha" });
  assertEquals((await call(t, student, "PATCH", "/api/me/settings", { language: "hi" })).status, 200);
  await call(t, student, "POST", "/api/me/alerts", { kind: "internships", query: { location: "Pune" } });
  await later();
  const tomorrow = istToday(new Date(Date.now() + 86_400_000));
  const [intern] = await postInternships(t, member, [
    { title: "Data Intern", location: "Pune", stipend: 12000, deadline: tomorrow },
  ]);
  await call(t, student, "PUT", `/api/me/saved/internships/${intern.id}`);
  await later();
  for (const job of ["alerts-digest", "deadline-reminders", "outbox"]) {
    assertEquals((await call(t, admin, "POST", `/api/admin/jobs/${job}/run`)).status, 200);
  }
  assertEquals(smtp.messages.length, 2);
  const digest = smtp.messages.find((m) => m.subject.includes("अलर्ट"))!;
  assertEquals(digest.subject, "आपके अलर्ट से मेल खाता 1 नया मौका");
  assert(digest.text.startsWith("नमस्ते Asha,"), digest.text);
  assert(digest.text.includes("इंटर्नशिप: जगह Pune"), digest.text);
  assert(digest.text.includes("₹12,000 महीना") || digest.text.includes("₹12,000"), digest.text);
  assert(digest.text.includes("तक आवेदन करें") && digest.text.includes("यह अलर्ट बंद करें: "), digest.text);
  assert(digest.html.includes('<html lang="hi">') && digest.html.includes("इस ई-मेल के सभी अलर्ट बंद करें"));
  const reminder = smtp.messages.find((m) => m.subject.startsWith("रिमाइंडर"))!;
  assertEquals(reminder.subject, "रिमाइंडर: “Data Intern” की डेडलाइन पास है");
  assert(reminder.text.includes("आपके सेव किए ये मौके आज या कल बंद हो रहे हैं"), reminder.text);
  assert(reminder.html.includes(">डेडलाइन रिमाइंडर बंद करें</a>"), reminder.html);
  for (const mail of [digest, reminder]) {
    assert(!/Hi |match your|Stop |Your applications|apply by/.test(mail.text + mail.html), mail.text);
  }
  const bell = (await call(t, student, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(bell.map((n: { title: string }) => n.title), ["“Data Intern” जल्द बंद हो रहा है"]);
  // The reminder's one-click page, opened in Hindi, names the setting it turns off in Hindi.
  const stop = new URL(reminder.headers.get("list-unsubscribe")!.slice(1, -1));
  const page = await (await t.fetch(`${stop.pathname}?lang=hi`)).text();
  assert(page.includes('<html lang="hi"') && page.includes("यह लिंक ये ई-मेल बंद करता है"), page);
  assert(page.includes("एक दिन पहले एक ई-मेल।") && page.includes(">बंद करें</button>"), page);
  assert(bell[0].body.startsWith("आपके सेव किए:\nData Intern: ") && bell[0].body.includes("तक आवेदन करें"), bell[0].body);
});

Deno.test("an alert's news counts a listing made in the alert's millisecond, once, and none made before it", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [internship] = await postInternships(t, member, [{ title: "Robotics Intern" }]);
  const opportunity = await submitOpportunity(t, member, "Robotics Hackathon");
  for (const [kind, listing] of [["internships", internship], ["opportunities", opportunity]] as const) {
    const made = Date.parse(listing.createdAt);
    // A fixed clock: the alert made at `alertAt`, the home page read a minute after the listing.
    const news = async (alertAt: number) => {
      const student = await createTestUser(t);
      await createAlert(t.kv, {
        userId: student.user.id,
        input: { kind, query: { search: "robotics" }, frequency: "daily" },
        now: new Date(alertAt),
      });
      const found = await alertNews(t.kv, { userId: student.user.id, now: new Date(made + 60_000) });
      return found.map((news) => ({ count: news.count, ids: news.items.map((item) => item.id) }));
    };
    assertEquals(await news(made), [{ count: 1, ids: [listing.id] }], `${kind}: made in the alert's millisecond`);
    assertEquals(await news(made - 1), [{ count: 1, ids: [listing.id] }], `${kind}: made after the alert`);
    assertEquals(await news(made + 1), [], `${kind}: made before the alert, as the person could have seen it`);
  }
});
