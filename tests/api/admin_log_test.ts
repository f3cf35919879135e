/**
 * The admin audit log (docs/decisions.md, Admin, "Audit log"): `GET /api/admin/log` for admins only, its pages and
 * filters, and one entry for each kind of admin write, none for a refused one.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { type AdminAction, type AdminLogEntry, appendAdminLog } from "@/lib/admin_log/admin_log.ts";
import { createPost, uploadedId } from "@/tests/fixtures/posts.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { call } from "@/tests/api/trust/helpers.ts";
import { assertHtml, page } from "@/tests/fixtures/html.ts";
import { sweepDeletions } from "@/tests/fixtures/deletions.ts";

/** The log as `admin` reads it through the API (`query` without `?`). */
async function readLog(
  t: TestApp,
  admin: TestUser,
  query = "",
): Promise<{ entries: AdminLogEntry[]; nextCursor: string | null }> {
  const res = await t.fetch(`/api/admin/log${query ? `?${query}` : ""}`, { headers: admin.headers });
  assertEquals(res.status, 200);
  return await res.json();
}

Deno.test("guests get 401, users and members 403 on the log, and the page refuses them too", async () => {
  await using t = await createTestApp();
  assertEquals((await t.fetch("/api/admin/log")).status, 401);
  assertEquals((await page(t, "/admin/log")).res.status, 302, "a guest is sent to sign in");
  for (const role of ["user", "member"] as const) {
    const who = await createTestUser(t, role);
    const res = await t.fetch("/api/admin/log", { headers: who.headers });
    assertEquals(res.status, 403, role);
    assertEquals(await res.json(), { error: "Forbidden" });
    assertHtml((await page(t, "/admin/log", who)).res, 403);
  }
});

Deno.test("the page lists entries newest first, 50 a page, filters and pages by plain links", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Root Admin" });
  for (let i = 0; i < 51; i++) {
    const action = i === 0 ? "coupon.delete" : "coupon.create";
    await appendAdminLog(t.kv, { adminId: admin.user.id, action, targetKind: "coupon", targetId: `c${i}` });
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const first = await page(t, "/admin/log", admin);
  assertHtml(first.res);
  const rows = (html: string) => [...html.matchAll(/<code[^>]*>(c\d+)<\/code>/g)].map((m) => m[1]);
  assertEquals(rows(first.html).length, 50);
  assertEquals(rows(first.html)[0], "c50");
  assert(first.html.includes("Root Admin") && first.html.includes("Coupon created"));
  const older = first.html.match(/href="(\/admin\/log\?cursor=[^"]+)"/)?.[1];
  assert(older, "an Older changes link");
  const second = await page(t, older.replaceAll("&amp;", "&"), admin);
  assertEquals(rows(second.html), ["c0"]);
  assert(second.html.includes("Coupon deleted") && second.html.includes('href="/admin/log"'), "a Newest link");
  const filtered = await page(t, "/admin/log?action=coupon.delete", admin);
  assertEquals(rows(filtered.html), ["c0"]);
  const hindi = await page(t, "/admin/log?action=coupon.delete&lang=hi", admin);
  assert(hindi.html.includes("कूपन डिलीट किया"), "the Hindi words");
  const unknown = await page(t, "/admin/log?action=nothing", admin);
  assertEquals(rows(unknown.html).length, 50, "an unknown filter shows the whole log");
});

Deno.test("a target with a page of its own links to it; one without shows its id alone", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const targets = [["toolkit", "tk1"], ["internship", "in1"], ["organization", "or1"], ["post", "po1"], [
    "opportunity",
    "op1",
  ], ["coupon", "co1"]] as const;
  for (const [targetKind, targetId] of targets) {
    await appendAdminLog(t.kv, { adminId: admin.user.id, action: "coupon.create", targetKind, targetId });
  }
  const { html } = await page(t, "/admin/log", admin);
  for (
    const href of ["/admin/toolkits/tk1", "/internships/in1", "/admin/organizations/or1", "/admin/ungatekeep/po1"]
  ) assert(html.includes(`href="${href}"`), href);
  assert(html.includes('href="/opportunities/op1"'));
  assert(html.includes(">co1</code>") && !html.includes('co1"'), "a coupon has no page of its own");
});

Deno.test("the page words the log's codes in the reader's language; titles stay as written", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const entries: [AdminAction, string, string][] = [
    ["report.resolve", "post", "hide"],
    ["moderation.decide", "internship", "reject"],
    ["organization.update", "organization", "not verified"],
    ["user.role", "user", "user → member"],
    ["internship.update", "internship", "isVerified: true, isActive: false"],
    ["coupon.create", "coupon", "hide"],
  ];
  for (const [action, targetKind, summary] of entries) {
    await appendAdminLog(t.kv, {
      adminId: admin.user.id,
      action,
      targetKind: targetKind as AdminLogEntry["targetKind"],
      targetId: "x",
      summary,
    });
  }
  const { html } = await page(t, "/admin/log", admin);
  for (
    const words of ["hidden", "rejected", "verification taken away", "user → member", "checked, taken off the list"]
  ) {
    assert(html.includes(words), words);
  }
  assert(html.includes(">hide<"), "a coupon's code stays as written");
  const hindi = (await page(t, "/admin/log?lang=hi", admin)).html;
  for (const words of ["छिपाया", "नामंज़ूर किया", "वेरिफ़िकेशन हटाया", "यूज़र से मेंबर", "जाँची गई, लिस्ट से हटाई"]) {
    assert(hindi.includes(words), words);
  }
});

Deno.test("a bad query is 400 with an {error}", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  for (const query of ["limit=0", "limit=101", "action=user.delete", "cursor=abc"]) {
    const res = await t.fetch(`/api/admin/log?${query}`, { headers: admin.headers });
    assertEquals(res.status, 400, query);
    assert((await res.json()).error, query);
  }
});

Deno.test("the log pages newest first with a cursor and filters by action and admin", async () => {
  await using t = await createTestApp();
  const [a, b] = [await createTestUser(t, "admin"), await createTestUser(t, "admin")];
  const made: AdminLogEntry[] = [];
  for (let i = 0; i < 5; i++) {
    const adminId = i % 2 === 0 ? a.user.id : b.user.id;
    const action = i < 3 ? "coupon.create" : "coupon.delete";
    made.push(await appendAdminLog(t.kv, { adminId, action, targetKind: "coupon", targetId: `c${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const ids = (entries: AdminLogEntry[]) => entries.map((entry) => entry.targetId);
  const first = await readLog(t, a, "limit=2");
  assertEquals(ids(first.entries), ["c4", "c3"]);
  assertEquals(first.entries[0], made[4]);
  const second = await readLog(t, a, `limit=2&cursor=${first.nextCursor}`);
  assertEquals(ids(second.entries), ["c2", "c1"]);
  const third = await readLog(t, a, `limit=2&cursor=${second.nextCursor}`);
  assertEquals(ids(third.entries), ["c0"]);
  assertEquals(third.nextCursor, null);
  assertEquals((await readLog(t, a, "limit=5")).nextCursor, null);
  assertEquals(ids((await readLog(t, a, "action=coupon.create")).entries), ["c2", "c1", "c0"]);
  assertEquals(ids((await readLog(t, a, `adminId=${a.user.id}`)).entries), ["c4", "c2", "c0"]);
  const both = await readLog(t, a, `adminId=${a.user.id}&action=coupon.create&limit=1`);
  assertEquals(ids(both.entries), ["c2"]);
  assertEquals(
    ids((await readLog(t, a, `adminId=${a.user.id}&action=coupon.create&cursor=${both.nextCursor}`)).entries),
    [
      "c0",
    ],
  );
});

Deno.test("a role change leaves one entry naming the admin and the user; a refused one leaves none", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  const res = await t.json("PATCH", `/api/admin/users/${target.user.id}`, {
    body: { role: "member" },
    headers: { cookie: admin.cookie },
  });
  assertEquals(res.status, 200);
  const refused = await t.json("PATCH", `/api/admin/users/${admin.user.id}`, {
    body: { role: "user" },
    headers: { cookie: admin.cookie },
  });
  assertEquals(refused.status, 403);
  const { entries } = await readLog(t, admin);
  assertEquals(entries.length, 1);
  const [entry] = entries;
  assertEquals(
    { adminId: entry.adminId, action: entry.action, targetKind: entry.targetKind, targetId: entry.targetId },
    { adminId: admin.user.id, action: "user.role", targetKind: "user", targetId: target.user.id },
  );
  assertEquals(entry.summary, "user → member");
});

Deno.test("each kind of admin write leaves one entry naming the admin and its target; a refused one none", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const student = await createTestUser(t);
  let logged = 0;
  /** The log has grown by one entry, the newest: `action` by the admin on `targetKind` `targetId`. */
  async function expectEntry(action: AdminAction, targetKind: string, targetId: string): Promise<AdminLogEntry> {
    const { entries } = await readLog(t, admin, "limit=100");
    assertEquals(entries.length, ++logged, `one more entry after ${action}`);
    const [entry] = entries;
    assertEquals([entry.adminId, entry.action, entry.targetKind, entry.targetId], [
      admin.user.id,
      action,
      targetKind,
      targetId,
    ]);
    return entry;
  }
  async function expectNone(why: string): Promise<void> {
    assertEquals((await readLog(t, admin, "limit=100")).entries.length, logged, why);
  }
  async function send(method: string, path: string, status: number, body?: unknown) {
    const res = await t.json(method, path, { body, headers: admin.headers });
    const answer = await res.json();
    assertEquals(res.status, status, `${method} ${path}: ${JSON.stringify(answer)}`);
    return answer;
  }

  await send("PATCH", `/api/admin/users/${student.user.id}`, 200, { role: "member" });
  assertEquals((await expectEntry("user.role", "user", student.user.id)).summary, "user → member");
  await send("PATCH", `/api/admin/users/${student.user.id}`, 400, { role: "owner" });
  await expectNone("a refused role change");

  const { apiKey } = await send("POST", "/api/admin/api-keys", 201, { name: "Feed" });
  await expectEntry("api_key.create", "api_key", apiKey.id);
  await send("DELETE", `/api/admin/api-keys/${apiKey.id}`, 200);
  await expectEntry("api_key.revoke", "api_key", apiKey.id);
  await send("DELETE", `/api/admin/api-keys/${apiKey.id}`, 404);
  await expectNone("revoking a revoked key");

  const { coupon } = await send("POST", "/api/admin/coupons", 201, {
    code: "SAVE20",
    discountType: "percentage",
    discountValue: 20,
  });
  assertEquals((await expectEntry("coupon.create", "coupon", coupon.id)).summary, "SAVE20");
  await send("POST", "/api/admin/coupons", 400, { code: "SAVE20", discountType: "percentage", discountValue: 20 });
  await expectNone("a duplicate coupon code");
  await send("PATCH", `/api/admin/coupons/${coupon.id}`, 200, { discountValue: 30 });
  await expectEntry("coupon.update", "coupon", coupon.id);
  await send("DELETE", `/api/admin/coupons/${coupon.id}`, 200);
  await expectEntry("coupon.delete", "coupon", coupon.id);

  const toolkit = await send("POST", "/api/admin/toolkits", 201, { title: "Kit", description: "A kit.", price: 499 });
  await expectEntry("toolkit.create", "toolkit", toolkit.id);
  await send("PUT", `/api/admin/toolkits/${toolkit.id}`, 200, { isActive: true });
  await expectEntry("toolkit.update", "toolkit", toolkit.id);
  await send("PUT", `/api/admin/toolkits/${crypto.randomUUID()}`, 404, { isActive: true });
  await expectNone("an unknown toolkit");
  const { contentItem } = await send("POST", "/api/admin/toolkit-content-items", 201, {
    toolkitId: toolkit.id,
    title: "Lesson",
    type: "article",
    content: "<p>Body</p>",
  });
  await expectEntry("toolkit_item.create", "toolkit_item", contentItem.id);
  await send("PATCH", `/api/admin/toolkit-content-items/${contentItem.id}`, 200, { title: "Lesson one" });
  await expectEntry("toolkit_item.update", "toolkit_item", contentItem.id);
  await send("DELETE", `/api/admin/toolkit-content-items/${contentItem.id}`, 200);
  await expectEntry("toolkit_item.delete", "toolkit_item", contentItem.id);
  await send("DELETE", `/api/admin/toolkits/${toolkit.id}`, 200);
  await expectEntry("toolkit.delete", "toolkit", toolkit.id);

  const imageId = await uploadedId(t, admin);
  await expectEntry("upload.create", "file", imageId);
  const { banner } = await send("POST", "/api/admin/banners", 201, { title: "Banner", imageId });
  await expectEntry("banner.create", "banner", banner.id);
  await send("PATCH", `/api/admin/banners/${banner.id}`, 200, { title: "Banner two" });
  await expectEntry("banner.update", "banner", banner.id);
  await send("DELETE", `/api/admin/banners/${banner.id}`, 200);
  await expectEntry("banner.delete", "banner", banner.id);

  const post = await createPost(t, admin);
  await expectEntry("post.create", "post", post.id);
  await send("PATCH", `/api/admin/ungatekeep/${post.id}`, 200, { title: "Hello again" });
  await expectEntry("post.update", "post", post.id);
  await call(t, student, "POST", "/api/reports", { kind: "post", id: post.id, reason: "spam" });
  await send("POST", `/api/admin/reports/post/${post.id}/resolve`, 200, { action: "dismiss" });
  assertEquals((await expectEntry("report.resolve", "post", post.id)).summary, "dismiss");
  const comment = async () =>
    (await call(t, student, "POST", `/api/ungatekeep/${post.id}/comments`, { content: "Nice" })).body.comment.id;
  const own = await comment();
  assertEquals((await call(t, student, "DELETE", `/api/ungatekeep/comments/${own}`)).status, 200);
  await expectNone("a student deleting their own comment");
  const theirs = await comment();
  await send("DELETE", `/api/ungatekeep/comments/${theirs}`, 200);
  await expectEntry("comment.delete", "comment", theirs);
  await send("DELETE", `/api/admin/ungatekeep/${post.id}`, 200);
  await expectEntry("post.delete", "post", post.id);

  const internship = await postInternship(t, member, { hiringOrganization: "Zeta Labs" });
  await expectNone("a member's own write");
  await send("PUT", `/api/internships/${internship.id}`, 200, { isVerified: true });
  assertEquals((await expectEntry("internship.update", "internship", internship.id)).summary, "isVerified: true");
  await send("PATCH", `/api/admin/organizations/${internship.organization!.id}`, 200, { isVerified: true });
  assertEquals(
    (await expectEntry("organization.update", "organization", internship.organization!.id)).summary,
    "verified",
  );
  await send("PATCH", `/api/admin/organizations/${internship.organization!.id}`, 200, {
    isVerified: true,
    website: "https://zeta.example.com",
  });
  const edit = await expectEntry("organization.update", "organization", internship.organization!.id);
  assertEquals(edit.summary, undefined, "a website edit that sends the box as it was changes no verified state");
  await send("POST", `/api/admin/moderation/internships/${internship.id}`, 200, { decision: "reject", note: "Fees" });
  assertEquals((await expectEntry("moderation.decide", "internship", internship.id)).summary, "reject");
  await send("DELETE", `/api/internships/${internship.id}`, 200);
  await expectEntry("internship.delete", "internship", internship.id);

  const opportunity = await submitOpportunity(t, await createTestUser(t));
  await send("PATCH", `/api/admin/opportunities/${opportunity.id}`, 200, { action: "approve" });
  assertEquals((await expectEntry("opportunity.review", "opportunity", opportunity.id)).summary, "approve");
  await send("PATCH", `/api/admin/opportunities/${crypto.randomUUID()}`, 404, { action: "approve" });
  await expectNone("an unknown opportunity");

  await send("POST", "/api/admin/jobs/outbox/run", 200);
  await expectEntry("job.run", "job", "outbox");
});

Deno.test("an admin's export holds their entries; their deletion keeps the entries without them", async () => {
  await using t = await createTestApp();
  const other = await createTestUser(t, "admin");
  const admin = await createTestUser(t, "admin");
  const target = await createTestUser(t);
  const changed = await t.json("PATCH", `/api/admin/users/${target.user.id}`, {
    body: { role: "member" },
    headers: admin.headers,
  });
  assertEquals(changed.status, 200);
  const exported = await (await t.fetch("/api/me/export", { headers: admin.headers })).json();
  assertEquals(exported.adminLog.map((e: AdminLogEntry) => [e.action, e.targetId]), [["user.role", target.user.id]]);
  const deleted = await t.json("DELETE", "/api/me", { body: { confirm: admin.user.email }, headers: admin.headers });
  assertEquals(deleted.status, 200);
  await t.settled(); // the deletion's job, which the answer does not wait for
  const { entries } = await readLog(t, other);
  assertEquals(entries.map((e) => [e.adminId, e.action, e.targetId]), [[null, "user.role", target.user.id]]);
  assertEquals((await readLog(t, other, `adminId=${admin.user.id}`)).entries, []);
  // The target's deletion forgets them too.
  const gone = await t.json("DELETE", "/api/me", { body: { confirm: target.user.email }, headers: target.headers });
  assertEquals(gone.status, 200);
  await t.settled();
  assertEquals((await readLog(t, other)).entries.map((e) => [e.adminId, e.targetId]), [[null, null]]);
  await sweepDeletions(t); // the deletions' second passes
  for await (const { key } of t.kv.list({ prefix: [] })) {
    const text = JSON.stringify(key);
    assert(!text.includes(admin.user.id) && !text.includes(target.user.id), text);
  }
});
