/**
 * Alert digests pick listings by when they became public, not when they were created (docs/decisions.md, Alerts,
 * "Published, not created"): a student's opportunity approved after a digest run, an internship released from a hold
 * and one an admin makes active again all reach the next digest, once; a listing hidden and listed again is not mailed
 * again to whoever a digest already told about it (docs/decisions.md, Alerts, "Told once").
 */
import { digest, later } from "@/tests/fixtures/alerts.ts";
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { call, HELD_TO_PAY } from "@/tests/api/trust/helpers.ts";

Deno.test("a student's opportunity approved after a digest run reaches the next digest, once", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t, "user");
  const watcher = await createTestUser(t, "user");
  const alert = { kind: "opportunities", query: { type: "hackathon" } };
  assertEquals((await call(t, watcher, "POST", "/api/me/alerts", alert)).status, 201);
  await later();
  const hack = await submitOpportunity(t, student, { title: "Campus Hack", type: "hackathon" });
  assertEquals(hack.isVerified, false, "a student's submission waits for review");
  await later();
  // Meanwhile a member publishes another hackathon: the window is not empty, so the run moves the alert's window on.
  await submitOpportunity(t, member, { title: "City Hack", type: "hackathon" });
  await later();
  const first = await digest(t, admin, watcher);
  assertEquals(first.texts.length, 1);
  assert(first.texts[0].includes("City Hack") && !first.texts[0].includes("Campus Hack"), first.texts[0]);
  await later();
  const review = await call(t, admin, "PATCH", `/api/admin/opportunities/${hack.id}`, { action: "approve" });
  assertEquals(review.status, 200);
  assertEquals((await call(t, undefined, "GET", `/api/opportunities/${hack.id}`)).status, 200, "public now");
  assert(!("publishedAt" in review.body.opportunity), "the API does not answer the internal time");
  await later();
  const second = await digest(t, admin, watcher);
  assertEquals(second.texts.length, 1, "the approved hackathon is mailed");
  assert(second.texts[0].includes("Campus Hack") && !second.texts[0].includes("City Hack"), second.texts[0]);
  await later();
  assertEquals((await digest(t, admin, watcher)).texts, [], "and only once");
});

Deno.test("an internship released from a hold, or made active again by an admin, reaches the next digest", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await createTestUser(t, "user");
  const alert = { kind: "internships", query: { search: "analyst" } };
  assertEquals((await call(t, watcher, "POST", "/api/me/alerts", alert)).status, 201);
  await later();
  const held = await postInternship(t, member, { title: "Held Analyst Intern", description: "Pay Rs 499 to join" });
  assertEquals(held.moderation, HELD_TO_PAY);
  const paused = await postInternship(t, member, { title: "Paused Analyst Intern" });
  const off = await call(t, admin, "PUT", `/api/internships/${paused.id}`, { isActive: false });
  assertEquals(off.status, 200);
  await postInternship(t, member, { title: "Open Analyst Intern" });
  await later();
  const first = await digest(t, admin, watcher);
  assertEquals(first.texts.length, 1);
  assert(first.texts[0].includes("Open Analyst Intern"), first.texts[0]);
  assert(!first.texts[0].includes("Held Analyst") && !first.texts[0].includes("Paused Analyst"), first.texts[0]);
  await later();
  const release = await call(t, admin, "POST", `/api/admin/moderation/internships/${held.id}`, { decision: "approve" });
  assertEquals(release.status, 200);
  const on = await call(t, admin, "PUT", `/api/internships/${paused.id}`, { isActive: true });
  assertEquals(on.status, 200);
  assert(!("publishedAt" in on.body.internship), "the API does not answer the internal time");
  await later();
  const second = await digest(t, admin, watcher);
  assertEquals(second.texts.length, 1, "both are mailed");
  assert(second.texts[0].includes("Held Analyst Intern"), second.texts[0]);
  assert(second.texts[0].includes("Paused Analyst Intern"), second.texts[0]);
  assert(!second.texts[0].includes("Open Analyst Intern"), "the one mailed before is not mailed again");
  await later();
  assertEquals((await digest(t, admin, watcher)).texts, [], "and only once");
});

Deno.test("an internship hidden and listed again is not mailed twice to whoever was told about it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const watcher = await createTestUser(t, "user");
  const alert = { kind: "internships", query: { search: "analyst" } };
  assertEquals((await call(t, watcher, "POST", "/api/me/alerts", alert)).status, 201);
  await later();
  const relisted = await postInternship(t, member, { title: "Relisted Analyst Intern" });
  await later();
  const first = await digest(t, admin, watcher);
  assertEquals(first.texts.length, 1);
  assert(first.texts[0].includes("Relisted Analyst Intern"), first.texts[0]);
  await later();
  assertEquals((await call(t, admin, "PUT", `/api/internships/${relisted.id}`, { isActive: false })).status, 200);
  await later();
  assertEquals((await call(t, admin, "PUT", `/api/internships/${relisted.id}`, { isActive: true })).status, 200);
  await postInternship(t, member, { title: "Fresh Analyst Intern" });
  await later();
  // A second watcher, whose alert is new, was never told about it: they get it.
  const newcomer = await createTestUser(t, "user");
  const since = new Date(Date.now() - 60_000).toISOString();
  const made = await call(t, newcomer, "POST", "/api/me/alerts", alert);
  assertEquals(made.status, 201);
  const key = ["alerts", newcomer.user.id, made.body.alert.id];
  const record = (await t.kv.get<Record<string, unknown>>(key)).value!;
  await t.kv.set(key, { ...record, lastRunAt: since });
  const before = t.mails.length;
  const second = await digest(t, admin, watcher);
  assertEquals(second.texts.length, 1);
  assert(second.texts[0].includes("Fresh Analyst Intern"), second.texts[0]);
  assert(!second.texts[0].includes("Relisted Analyst Intern"), "the relisted one was told before");
  const theirs = t.mails.slice(before).filter((m) => m.to === newcomer.user.email).map((m) => m.text);
  assertEquals(theirs.length, 1);
  assert(theirs[0].includes("Relisted Analyst Intern") && theirs[0].includes("Fresh Analyst Intern"), theirs[0]);
  // What the digests showed a person goes with their account.
  const told = () => Array.fromAsync(t.kv.list({ prefix: ["alerts_told", watcher.user.id] }));
  assertEquals((await told()).length, 2, "one record a digest");
  const gone = await t.json("DELETE", "/api/me", { body: { confirm: watcher.user.email }, headers: watcher.headers });
  assertEquals(gone.status, 200);
  await t.settled();
  assertEquals(await told(), []);
});
