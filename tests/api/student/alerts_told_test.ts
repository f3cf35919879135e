/**
 * A person is told about a listing once across all their alerts (docs/decisions.md, Alerts, "Told once"): a second
 * alert, one made later or with a longer window, does not mail a listing a digest already showed them, and two alerts
 * matching one listing show it in one section of the e-mail only. The told records are read only for a person with more
 * than one alert or an alert whose window missed a run, and only those of the runs inside the alerts' windows.
 */
import { digest, later } from "@/tests/fixtures/alerts.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { kvReads } from "@/tests/helpers/kv_reads.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { applicant, applyTo, platformInternship } from "@/tests/fixtures/applications.ts";
import { call } from "@/tests/api/trust/helpers.ts";

/** How many times `word` occurs in `text`. */
const count = (text: string, word: string) => text.split(word).length - 1;

Deno.test("a person's second alert, weekly or made after a deleted one, does not mail a listing told before", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await createTestUser(t, "user");
  const daily = await call(t, watcher, "POST", "/api/me/alerts", {
    kind: "opportunities",
    query: { type: "hackathon" },
  });
  assertEquals(daily.status, 201);
  await later();
  await submitOpportunity(t, member, { title: "City Hack", type: "hackathon" });
  await later();
  const first = await digest(t, admin, watcher);
  assertEquals(first.texts.length, 1);
  assert(first.texts[0].includes("City Hack"), first.texts[0]);
  await later();
  // A weekly alert whose first window reaches back 7 days, over the listing told in the first run, and a new one.
  const weekly = { kind: "opportunities", query: { search: "city" }, frequency: "weekly" };
  assertEquals((await call(t, watcher, "POST", "/api/me/alerts", weekly)).status, 201);
  await submitOpportunity(t, member, { title: "City Contest", type: "competition" });
  await later();
  const second = await digest(t, admin, watcher);
  assertEquals(second.texts.length, 1, "the new listing is mailed");
  assert(second.texts[0].includes("City Contest"), second.texts[0]);
  assert(!second.texts[0].includes("City Hack"), "the listing told in the first run is not mailed again");
  await later();
  // The alerts deleted and one made again: its first window reaches back over both, told before, so nothing is mailed.
  for (const { id } of (await call(t, watcher, "GET", "/api/me/alerts")).body.alerts) {
    assertEquals((await call(t, watcher, "DELETE", `/api/me/alerts/${id}`)).status, 200);
  }
  assertEquals((await call(t, watcher, "POST", "/api/me/alerts", weekly)).status, 201);
  await later();
  assertEquals((await digest(t, admin, watcher)).texts, [], "nothing new for them");
});

Deno.test("a weekly alert left alone after its daily sibling is deleted does not mail what the daily one told", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await createTestUser(t, "user");
  const daily = await call(t, watcher, "POST", "/api/me/alerts", {
    kind: "opportunities",
    query: { type: "hackathon" },
  });
  const weekly = await call(t, watcher, "POST", "/api/me/alerts", {
    kind: "opportunities",
    query: { search: "city" },
    frequency: "weekly",
  });
  assertEquals([daily.status, weekly.status], [201, 201]);
  await later();
  await submitOpportunity(t, member, { title: "City Contest", type: "competition" });
  await later();
  assert((await digest(t, admin, watcher)).texts[0].includes("City Contest"), "the weekly alert has sent");
  await later();
  await submitOpportunity(t, member, { title: "City Hack", type: "hackathon" });
  await later();
  const second = await digest(t, admin, watcher);
  assert(second.texts[0].includes("City Hack"), "told by the daily alert; the weekly one is not due");
  assertEquals((await call(t, watcher, "DELETE", `/api/me/alerts/${daily.body.alert.id}`)).status, 200);
  // A week on: the weekly alert is due, and its window reaches back over the day the daily one told.
  const key = ["alerts", watcher.user.id, weekly.body.alert.id];
  const record = (await t.kv.get<Record<string, unknown>>(key)).value!;
  const ago = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
  await t.kv.set(key, { ...record, lastRunAt: ago(2), lastSentAt: ago(8) });
  assertEquals((await digest(t, admin, watcher)).texts, [], "nothing it was not told");
});

Deno.test("two alerts matching one listing show it once in one e-mail", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await createTestUser(t, "user");
  for (const query of [{ type: "hackathon" }, { search: "city" }]) {
    assertEquals((await call(t, watcher, "POST", "/api/me/alerts", { kind: "opportunities", query })).status, 201);
  }
  await later();
  await submitOpportunity(t, member, { title: "City Hack", type: "hackathon" });
  await submitOpportunity(t, member, { title: "City Contest", type: "competition" });
  await later();
  const run = await digest(t, admin, watcher);
  assertEquals(run.texts.length, 1);
  assertEquals(count(run.texts[0], "City Hack"), 1, run.texts[0]);
  assertEquals(count(run.texts[0], "City Contest"), 1, run.texts[0]);
  const told = await Array.fromAsync(t.kv.list<string[]>({ prefix: ["alerts_told", watcher.user.id] }));
  assertEquals(told.map((entry) => entry.value.length), [2], "each listing recorded once");
});

Deno.test("the told records are read for a person with several alerts, after their windows' start; for one run daily, none", async () => {
  const reads = kvReads();
  await using t = await createTestApp({ kvReads: reads });
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const one = await createTestUser(t, "user");
  const five = await createTestUser(t, "user");
  assertEquals(
    (await call(t, one, "POST", "/api/me/alerts", { kind: "opportunities", query: { type: "hackathon" } })).status,
    201,
  );
  const ids: string[] = [];
  for (const search of ["city", "hack", "campus", "2027", "open"]) {
    const made = await call(t, five, "POST", "/api/me/alerts", {
      kind: "opportunities",
      query: { type: "hackathon", search },
    });
    assertEquals(made.status, 201);
    ids.push(made.body.alert.id);
  }
  await later();
  await submitOpportunity(t, member, { title: "City Hack", type: "hackathon" });
  await later();
  assertEquals((await digest(t, admin, five)).texts.length, 1);
  await later();
  await submitOpportunity(t, member, { title: "Campus Hack", type: "hackathon" });
  await later();
  const { lastRunAt } = (await t.kv.get<{ lastRunAt: string }>(["alerts", five.user.id, ids[0]])).value!;
  const from = reads.lists.length;
  assertEquals((await digest(t, admin, one)).texts.length, 1);
  const told = reads.lists.slice(from).filter(({ selector }) =>
    "prefix" in selector && selector.prefix[0] === "alerts_told"
  );
  assertEquals(told.map(({ selector }) => selector), [{
    prefix: ["alerts_told", five.user.id],
    start: ["alerts_told", five.user.id, new Date(Date.parse(lastRunAt) + 1).toISOString()],
  }]);
});

Deno.test("a digest leaves out an internship its reader applied to here; the others of the window are mailed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await applicant(t);
  const alert = await call(t, watcher, "POST", "/api/me/alerts", { kind: "internships", query: {} });
  assertEquals(alert.status, 201);
  await later();
  const applied = await platformInternship(t, member, { title: "Applied Analyst Intern" });
  await platformInternship(t, member, { title: "Fresh Analyst Intern" });
  await applyTo(t, watcher, applied);
  await later();
  const run = await digest(t, admin, watcher);
  assertEquals(run.texts.length, 1);
  assert(run.texts[0].includes("Fresh Analyst Intern"), run.texts[0]);
  assert(!run.texts[0].includes("Applied Analyst Intern"), "the internship they applied to is not news to them");
});
