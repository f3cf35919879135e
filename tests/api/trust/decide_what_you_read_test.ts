/**
 * An admin decides on the text they read (docs/decisions.md, Trust, "Decide what you read"): a review or
 * moderation decision that names the `updatedAt` the admin read is refused (409, nothing decided) when the owner
 * edited the listing since; the plain-form moderation page says so in the reader's language and shows the new text; a
 * decision without `updatedAt` (an older client) still decides on the current text.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { NEXT_YEAR, submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { page } from "@/tests/fixtures/html.ts";
import { call, CLEAR } from "./helpers.ts";

const CHANGED = "This listing changed since you opened it: read it again before deciding";
const CLEAN = {
  title: "Fintech Ideas Weekend",
  type: "hackathon",
  startDate: `${NEXT_YEAR}-03-01`,
  endDate: `${NEXT_YEAR}-03-02`,
  link: "https://example.com/opportunities",
  description: "Open to students across India.",
};
const EVIL = { ...CLEAN, link: "https://evil.example/collect", description: "Send your bank OTP on WhatsApp." };

Deno.test("approve names the version the admin read: an edit since is refused, not published", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { id } = await submitOpportunity(t, student, CLEAN);
  const [read] = (await call(t, admin, "GET", "/api/admin/opportunities?status=pending")).body.opportunities;
  assertEquals([read.id, read.link], [id, CLEAN.link]);

  assertEquals((await call(t, student, "PUT", `/api/opportunities/${id}`, EVIL)).status, 200);
  const stale = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, {
    action: "approve",
    updatedAt: read.updatedAt,
  });
  assertEquals(stale, { status: 409, body: { error: CHANGED } });
  assertEquals((await call(t, undefined, "GET", `/api/opportunities/${id}`)).status, 404, "nothing published");
  const [mail] = (await call(t, student, "GET", "/api/me/notifications")).body.notifications;
  assertEquals(mail, undefined, "the submitter is told nothing");

  const bad = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "approve", updatedAt: "x" });
  assertEquals([bad.status, bad.body.error], [400, "Invalid updatedAt"]);
  const [now] = (await call(t, admin, "GET", "/api/admin/opportunities?status=pending")).body.opportunities;
  assertEquals(now.link, EVIL.link, "the queue shows the new text");
  const rejected = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, {
    action: "reject",
    reason: "No OTPs.",
    updatedAt: now.updatedAt,
  });
  assertEquals([rejected.status, rejected.body.opportunity.isActive], [200, false]);
  // A second admin's page from before that rejection is refused too: one decision, not two contradicting ones.
  const late = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, {
    action: "approve",
    updatedAt: now.updatedAt,
  });
  assertEquals(late, { status: 409, body: { error: CHANGED } });
  // Without updatedAt (a client written before it) the current text is decided on, as before.
  const old = await call(t, admin, "PATCH", `/api/admin/opportunities/${id}`, { action: "approve" });
  assertEquals([old.status, old.body.opportunity.isVerified], [200, true]);
});

Deno.test("a moderation decision names the version read: API 409, the plain form says so in Hindi and shows the new text", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { description: "A joining fee of Rs 200 applies." });
  const [item] = (await call(t, admin, "GET", "/api/admin/moderation?kind=internships")).body.items;
  assertEquals(item.listing.id, listing.id);
  const seen = item.listing.updatedAt;
  const edited = "A joining fee of Rs 200 applies. Pay it on WhatsApp to 98xxxxxx.";
  assertEquals((await call(t, member, "PUT", `/api/internships/${listing.id}`, { description: edited })).status, 200);

  const path = `/api/admin/moderation/internships/${listing.id}`;
  const stale = await call(t, admin, "POST", path, { decision: "approve", updatedAt: seen });
  assertEquals(stale, { status: 409, body: { error: CHANGED } });
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 404, "still held");

  const form = { kind: "internships", id: listing.id, decision: "approve", note: "", updatedAt: seen };
  const res = await postForm(t, admin, "/admin/moderation", { ...form, status: "held", filter: "" });
  assertEquals([res.status, res.headers.get("location")], [303, "/admin/moderation?status=held&problem=changed"]);
  const { html } = await page(t, "/admin/moderation?status=held&problem=changed&lang=hi", admin);
  assert(html.includes("आपके खोलने के बाद यह लिस्टिंग बदल गई: फ़ैसला करने से पहले"), "the refusal in the reader's language");
  assert(html.includes("Pay it on WhatsApp"), "the new text is on the page");

  const current = (await call(t, admin, "GET", "/api/admin/moderation?kind=internships")).body.items[0].listing;
  const fresh = await postForm(t, admin, "/admin/moderation", { ...form, updatedAt: current.updatedAt });
  assertEquals([fresh.status, fresh.headers.get("location")], [303, "/admin/moderation?done=approve"]);
  assertEquals((await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship.moderation, CLEAR);
});

Deno.test("two admins deciding on one internship from one page: the second is 409, the form says so in Hindi", async () => {
  await using t = await createTestApp();
  const first = await createTestUser(t, "admin");
  const second = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { description: "A joining fee of Rs 200 applies." });
  const seen = (await call(t, second, "GET", "/api/admin/moderation?kind=internships")).body.items[0].listing.updatedAt;
  const path = `/api/admin/moderation/internships/${listing.id}`;
  const rejected = await call(t, first, "POST", path, { decision: "reject", note: "Fee.", updatedAt: seen });
  assertEquals([rejected.status, rejected.body.item.moderation.status], [200, "rejected"]);
  assert(rejected.body.item.listing.updatedAt > seen, "the decision is a new version");

  assertEquals(await call(t, second, "POST", path, { decision: "approve", updatedAt: seen }), {
    status: 409,
    body: { error: CHANGED },
  });
  const form = { kind: "internships", id: listing.id, decision: "approve", note: "", updatedAt: seen };
  const res = await postForm(t, second, "/admin/moderation", { ...form, status: "rejected", filter: "" });
  assertEquals(res.headers.get("location"), "/admin/moderation?status=rejected&problem=changed");
  const { html } = await page(t, "/admin/moderation?status=rejected&problem=changed&lang=hi", second);
  assert(html.includes("आपके खोलने के बाद यह लिस्टिंग बदल गई: फ़ैसला करने से पहले"), "the refusal in the reader's language");
  const stored = (await call(t, second, "GET", `/api/internships/${listing.id}`)).body.internship;
  assertEquals(stored.moderation.status, "rejected", "the first decision stands");
  // The page read after the first decision decides.
  const now = await call(t, second, "POST", path, { decision: "approve", updatedAt: stored.updatedAt });
  assertEquals([now.status, now.body.item.moderation], [200, CLEAR]);
});

Deno.test("a moderation decision on an opportunity edited since it was read is refused", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { id, updatedAt } = await submitOpportunity(t, student, { ...CLEAN, description: "Entry fee of Rs 100." });
  assertEquals((await call(t, student, "PUT", `/api/opportunities/${id}`, { ...EVIL, organizer: "X" })).status, 200);
  const path = `/api/admin/moderation/opportunities/${id}`;
  assertEquals(await call(t, admin, "POST", path, { decision: "approve", updatedAt }), {
    status: 409,
    body: { error: CHANGED },
  });
  assertEquals((await call(t, admin, "POST", path, { decision: "reject" })).status, 200, "without it, as before");
});
