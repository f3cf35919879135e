/**
 * Rejecting with a reason and resubmitting (docs/decisions.md, Opportunities, "Reject with a reason, resubmit"): the
 * admin's reason reaches the submitter (the opportunity's `rejection` and the notification); the submitter edits a
 * rejected or waiting submission and it awaits review again; approval clears the rejection; a published one, another
 * person's and one moderation rejected for good cannot be edited (an edit sent as a plain form after the review is
 * refused in the reader's words, what was typed kept); `{action}` alone still works.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { translatorFor } from "@/lib/i18n/catalogue.ts";

const HACKATHON = {
  title: "Campus Hack",
  type: "hackathon",
  startDate: `${NEXT_YEAR}-03-01`,
  endDate: `${NEXT_YEAR}-03-02`,
  location: "Pune",
};

async function call(t: TestApp, who: TestUser | null, method: string, path: string, body?: unknown) {
  const res = await t.json(method, path, { body, headers: who?.headers });
  return { status: res.status, body: await res.json() };
}

Deno.test("a rejection's reason reaches the submitter, who edits and resubmits; approval clears it", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const other = await createTestUser(t, "user");
  const { id } = await submitOpportunity(t, student, HACKATHON);

  const reason = "Add the organizer and a link to the official page.";
  const rejected = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "reject", reason });
  assertEquals(rejected.status, 200);
  assertEquals(rejected.body.opportunity.rejection.reason, reason);
  const own = (await call(t, student, "GET", `/api/opportunities/${id}`)).body.opportunity;
  assertEquals([own.isActive, own.rejection.reason], [false, reason]);
  const [note] = (await call(t, student, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(note.title, "Your opportunity was not approved");
  // The sentence quoting the reason ends with one full stop, not the reason's own and another.
  assertEquals(
    note.body,
    "“Campus Hack” was not published. Reason: “Add the organizer and a link to the official page”. You can edit it " +
      "and submit it again.",
  );
  assertEquals(note.url, `/opportunities/${id}`);

  const edited = { ...HACKATHON, organizer: "COEP Tech", link: "https://coep.example.org/hack" };
  assertEquals((await call(t, null, "PUT", `/api/opportunities/${id}`, edited)).status, 401);
  assertEquals((await call(t, other, "PUT", `/api/opportunities/${id}`, edited)).status, 404);
  assertEquals(
    (await call(t, student, "PUT", `/api/opportunities/${id}`, { ...edited, endDate: `${NEXT_YEAR}-01-01` })).status,
    400,
  );
  const resubmitted = await call(t, student, "PUT", `/api/opportunities/${id}`, edited);
  assertEquals(resubmitted.status, 200);
  const again = resubmitted.body.opportunity;
  assertEquals([again.isActive, again.isVerified, again.organizer], [true, false, "COEP Tech"]);
  assertEquals(again.rejection.reason, reason, "the admin sees what was asked");
  const pending = (await call(t, admin, "GET", "/api/admin/opportunities?status=pending")).body.opportunities;
  assertEquals(pending.map((o: { id: string }) => o.id), [id]);
  assertEquals((await call(t, null, "GET", `/api/opportunities/${id}`)).status, 404, "not public before approval");

  const approved = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "approve", reason: "x" });
  assertEquals([approved.body.opportunity.isVerified, approved.body.opportunity.rejection], [true, null]);
  assertEquals((await call(t, null, "GET", `/api/opportunities/${id}`)).body.opportunity.rejection, null);
  const published = await call(t, student, "PUT", `/api/opportunities/${id}`, edited);
  assertEquals([published.status, published.body.error], [
    409,
    "Only a submission awaiting review or not approved can be edited",
  ]);
  // Another person's published one is hidden as another's pending one is: 404, not the submitter's 409.
  for (const who of [other, admin]) {
    assertEquals(await call(t, who, "PUT", `/api/opportunities/${id}`, edited), {
      status: 404,
      body: { error: "Opportunity not found" },
    });
  }
});

Deno.test("reject without a reason still works; a reason over 1,000 characters is refused", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { id } = await submitOpportunity(t, student, HACKATHON);
  const long = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, {
    action: "reject",
    reason: "x".repeat(1001),
  });
  assertEquals([long.status, long.body.error], [400, "Invalid reason"]);
  assertEquals(long.body.fields, [{ field: "reason", message: "Use at most 1,000 characters." }]);
  const bad = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "delete", reason: "x" });
  assertEquals([bad.status, bad.body.error], [400, "Action must be approve or reject"]);
  const plain = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "reject" });
  assertEquals([plain.status, plain.body.opportunity.rejection.reason], [200, null]);
  const [note] = (await call(t, student, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(note.body, "“Campus Hack” was not published. You can edit it and submit it again.");
});

Deno.test("review's rejection of a held submission can be resubmitted, as it says; the fee is read again", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const paying = { ...HACKATHON, description: "Pay a registration fee of Rs 500 to take part." };
  const { id, moderation } = await submitOpportunity(t, student, paying);
  assertEquals(moderation.status, "held");
  const reason = "Add the organizer and a link.";
  const rejected = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "reject", reason });
  assertEquals(rejected.status, 200);
  assertEquals(rejected.body.opportunity.moderation, { status: "clear", reasons: [] });
  const [note] = (await call(t, student, "GET", "/api/me/notifications")).body.notifications;
  assert(note.body.includes("You can edit it and submit it again"), note.body);
  const queue = (await call(t, admin, "GET", "/api/admin/moderation")).body;
  assertEquals(queue.counts, { held: 0, rejected: 0 }, "review decided: out of the moderation queue");

  const same = await call(t, student, "PUT", `/api/opportunities/${id}`, { ...paying, organizer: "Campus Club" });
  assertEquals(same.status, 200, "resubmittable, as the notification says");
  assertEquals(same.body.opportunity.moderation, { status: "held", reasons: ["Asks applicants to pay"] });
  await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "reject", reason });
  const fixed = await call(t, student, "PUT", `/api/opportunities/${id}`, {
    ...HACKATHON,
    organizer: "Campus Club",
    description: "There is no registration fee.",
  });
  const { opportunity } = fixed.body;
  assertEquals([fixed.status, opportunity.moderation.status, opportunity.isVerified, opportunity.isActive], [
    200,
    "clear",
    false,
    true,
  ], "awaiting review again, not held");
});

Deno.test("a submission moderation rejected for good cannot be resubmitted", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const paying = { ...HACKATHON, description: "Pay a registration fee of Rs 500 to take part." };
  const { id, moderation } = await submitOpportunity(t, student, paying);
  assertEquals(moderation.status, "held");
  const decided = await call(t, admin, "POST", `/api/admin/moderation/opportunities/${id}`, {
    decision: "reject",
    note: "Listings never ask for money.",
  });
  assertEquals(decided.status, 200, JSON.stringify(decided.body));
  const edit = await call(t, student, "PUT", `/api/opportunities/${id}`, HACKATHON);
  assertEquals(edit.status, 409);
});

Deno.test("an edit sent as a plain form after an admin reviewed it is refused in words, with what was typed kept", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { id } = await submitOpportunity(t, student, HACKATHON);
  const approved = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "approve" });
  assertEquals(approved.status, 200);
  for (const lang of ["en", "hi"] as const) {
    const t2 = translatorFor(lang);
    const res = await postForm(t, student, `/opportunities/${id}/edit?lang=${lang}`, {
      ...HACKATHON,
      organizer: "Typed Before Review",
    });
    const html = await res.text();
    assertEquals([res.status, res.headers.get("content-type")], [409, "text/html; charset=utf-8"], html.slice(0, 300));
    assert(html.includes(`<html lang="${lang}"`), lang);
    assert(html.includes(t2("common.refusal.opportunityReviewed")), `the refusal in ${lang}`);
    assert(html.includes('value="Typed Before Review"'), "what was typed is kept");
  }
  const stored = (await call(t, student, "GET", `/api/opportunities/${id}`)).body.opportunity;
  assertEquals([stored.isVerified, stored.organizer ?? null], [true, null], "nothing saved");
  // Another person's is sent to its page, as before.
  const other = await createTestUser(t, "user");
  const theirs = await postForm(t, other, `/opportunities/${id}/edit`, HACKATHON);
  assertEquals([theirs.status, theirs.headers.get("location")], [303, `/opportunities/${id}`]);
});
