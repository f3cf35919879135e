/**
 * The trust filters (docs/decisions.md, Trust, "Trust filters"): `verifiedOnly` (the internship or its organization
 * verified) and `paidOnly` (a stipend of at least ₹1) on the list API, the page's filter form without JavaScript, the RSS
 * feed and alerts; the list follows an organization's verification at once; cards say the stipend, "Unpaid" or
 * "Stipend not stated" and show the badge; an edit of what students read by anyone but an admin takes an admin's
 * "Checked" off, as the edit form tells the owner, and a plain-form edit that changes none of it (its textarea sent with
 * a browser's CRLF line breaks) keeps it.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { htmlDocument } from "@/tests/fixtures/html.ts";
import { call } from "./helpers.ts";
import { people } from "@/tests/fixtures/people.ts";

/**
 * Four listings: one of a verified organization (posted by an admin, as a stranger's would not stay linked to it), one
 * an admin verified, a paid one and an unpaid one.
 */
async function seed(t: TestApp, admin: TestUser) {
  const member = await createTestUser(t, "member");
  const byOrganization = await postInternship(t, admin, {
    title: "Org Verified Intern",
    hiringOrganization: "Trusted Co",
    stipend: 8000,
  });
  const byAdmin = await postInternship(t, member, { title: "Admin Verified Intern", hiringOrganization: "Plain Co" });
  await call(t, admin, "PUT", `/api/internships/${byAdmin.id}`, { isVerified: true });
  const paid = await postInternship(t, member, { title: "Paid Intern", hiringOrganization: "Plain Co", stipend: 1 });
  const unpaid = await postInternship(t, member, {
    title: "Unpaid Intern",
    hiringOrganization: "Plain Co",
    stipend: 0,
  });
  const verify = (isVerified: boolean) =>
    call(t, admin, "PATCH", `/api/admin/organizations/${byOrganization.organization!.id}`, { isVerified });
  return { byOrganization, byAdmin, paid, unpaid, verify };
}

async function titles(t: TestApp, query: string, who?: TestUser) {
  const res = await call(t, who, "GET", `/api/internships?${query}`);
  assertEquals(res.status, 200, JSON.stringify(res.body));
  return res.body.internships.map((i: { title: string }) => i.title);
}

Deno.test("verifiedOnly lists listings verified themselves or by their organization, and follows verification", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { verify } = await seed(t, admin);
  assertEquals(await titles(t, "verifiedOnly=true"), ["Admin Verified Intern"]);
  assertEquals((await verify(true)).status, 200);
  assertEquals(await titles(t, "verifiedOnly=true"), ["Admin Verified Intern", "Org Verified Intern"]);
  assertEquals(await titles(t, "verifiedOnly=true&limit=1&offset=1"), ["Org Verified Intern"]);
  assertEquals(await titles(t, "verifiedOnly=true", admin), ["Admin Verified Intern", "Org Verified Intern"]);
  assertEquals(await titles(t, "verifiedOnly=true&search=org"), ["Org Verified Intern"]);
  assertEquals(await titles(t, "verifiedOnly=true&includeClosed=true"), [
    "Admin Verified Intern",
    "Org Verified Intern",
  ]);
  assertEquals(await titles(t, "verifiedOnly=false"), [
    "Unpaid Intern",
    "Paid Intern",
    "Admin Verified Intern",
    "Org Verified Intern",
  ]);
  await verify(false);
  assertEquals(await titles(t, "verifiedOnly=true"), ["Admin Verified Intern"], "un-verifying shows at once");
});

Deno.test("paidOnly lists a stipend of at least ₹1, alone and with the stipend range; bad flags 400", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { verify } = await seed(t, admin);
  assertEquals(await titles(t, "paidOnly=true"), ["Paid Intern", "Org Verified Intern"]);
  assertEquals(await titles(t, "paidOnly=true&minStipend=0"), ["Paid Intern", "Org Verified Intern"]);
  assertEquals(await titles(t, "paidOnly=true&minStipend=5000"), ["Org Verified Intern"]);
  assertEquals(await titles(t, "paidOnly=true&maxStipend=100"), ["Paid Intern"]);
  await verify(true);
  assertEquals(await titles(t, "paidOnly=true&verifiedOnly=true"), ["Org Verified Intern"]);
  for (const query of ["verifiedOnly=yes", "paidOnly=1", "paidOnly=", "verifiedOnly=TRUE"]) {
    const res = await call(t, undefined, "GET", `/api/internships?${query}`);
    assertEquals(res.status, 400, query);
    assert(Array.isArray(res.body.error));
  }
});

Deno.test("the page's filter form takes both flags without JavaScript; the RSS feed and its link keep them", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const { verify } = await seed(t, admin);
  await verify(true);
  const page = await (await t.fetch("/internships?verifiedOnly=true&paidOnly=true&search=")).text();
  assert(
    page.includes("Org Verified Intern") && !page.includes("Admin Verified Intern") && !page.includes("Paid Intern"),
  );
  assert(/<input type="checkbox" name="verifiedOnly" value="true" checked/.test(page), "verified box checked");
  assert(/<input type="checkbox" name="paidOnly" value="true" checked/.test(page), "paid box checked");
  assert(page.includes('href="/internships/rss.xml?verifiedOnly=true&amp;paidOnly=true"'), "the feed link keeps them");
  const plain = await (await t.fetch("/internships")).text();
  assert(/<input type="checkbox" name="verifiedOnly" value="true" class/.test(plain), "unchecked by default");
  const rss = await (await t.fetch("/internships/rss.xml?verifiedOnly=true")).text();
  assert(
    rss.includes("Org Verified Intern") && rss.includes("Admin Verified Intern") && !rss.includes("Unpaid Intern"),
  );
  const paidRss = await (await t.fetch("/internships/rss.xml?paidOnly=true")).text();
  assert(paidRss.includes("Paid Intern") && !paidRss.includes("Unpaid Intern"));
});

Deno.test("cards say the stipend, Unpaid or Stipend not stated, and show the badge", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const { verify } = await seed(t, admin);
  await verify(true);
  await postInternship(t, member, { title: "Quiet Intern", hiringOrganization: "Plain Co" });
  const html = await (await t.fetch("/internships")).text();
  for (const text of ["₹8,000 a month", "₹1 a month", "Unpaid", "Stipend not stated"]) {
    assert(html.includes(text), text);
  }
  assertEquals(html.match(/>\s*Verified<span class="sr-only">: the organization is verified/g)?.length, 1);
  assertEquals(html.match(/>\s*Checked<span class="sr-only">: an admin checked this listing/g)?.length, 1);
});

Deno.test("a listing's page tells a verified organization from an admin's check, says an unverified one, and that real internships never ask to pay", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  const { byOrganization, byAdmin, verify } = await seed(t, admin);
  await verify(true);
  const read = async (id: string, query = "") =>
    await (await t.fetch(`/internships/${id}${query}`, { headers: student.headers })).text();
  const verified = await read(byOrganization.id);
  assert(/>\s*Verified<span class="sr-only">/.test(verified) && !verified.includes("Organization not verified"));
  const checked = await read(byAdmin.id);
  assert(/>\s*Checked<span class="sr-only">/.test(checked) && !/>\s*Verified<span/.test(checked));
  assert(checked.includes("Organization not verified"));
  assert(checked.includes("Real internships never ask you to pay"), "the never-pay line for a student");
  const hindi = await read(byAdmin.id, "?lang=hi");
  assert(hindi.includes("जाँची गई") && hindi.includes("संस्था वेरिफ़ाइड नहीं") && hindi.includes("असली इंटर्नशिप"));
  const poster = await (await t.fetch(`/internships/${byAdmin.id}`, { headers: admin.headers })).text();
  assert(!poster.includes("Real internships never ask you to pay"), "not to those who manage it");
});

Deno.test("alerts keep verifiedOnly and paidOnly; the digest mails only what matches them", async () => {
  await using t = await createTestApp();
  const { admin, member, student } = await people(t);
  const alert = await call(t, student, "POST", "/api/me/alerts", {
    kind: "internships",
    query: { verifiedOnly: "true", paidOnly: "true", search: "intern" },
  });
  assertEquals(alert.status, 201);
  assertEquals(alert.body.alert.query, { verifiedOnly: "true", paidOnly: "true", search: "intern" });
  const off = await call(t, student, "POST", "/api/me/alerts", { kind: "internships", query: { paidOnly: "false" } });
  assertEquals(off.body.alert.query, {}, "a flag that is off is left out");
  const bad = await call(t, student, "POST", "/api/me/alerts", { kind: "internships", query: { verifiedOnly: "yes" } });
  assertEquals(bad.status, 400);
  await call(t, student, "DELETE", `/api/me/alerts/${off.body.alert.id}`);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const { verify } = await seed(t, admin);
  await verify(true);
  await postInternship(t, member, { title: "Unverified Paid Intern", hiringOrganization: "Plain Co", stipend: 9000 });
  const digest = await call(t, admin, "POST", "/api/admin/jobs/alerts-digest/run");
  assertEquals([digest.status, digest.body.sent], [200, 1]);
  await call(t, admin, "POST", "/api/admin/jobs/outbox/run");
  await t.settled();
  const mail = t.mails.find((m) => m.to === student.user.email)!;
  assert(mail.text.includes("Org Verified Intern"), mail.text);
  for (const title of ["Admin Verified Intern", "Unverified Paid Intern", "Unpaid Intern"]) {
    assert(!mail.text.includes(title), title);
  }
  assert(mail.text.includes("verified only") && mail.text.includes("paid only"), "the alert is named in words");
});

Deno.test("an edit of what students read by anyone but an admin takes the Checked tick off; an admin's keeps it", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member, { title: "Data Intern", description: "Real work." });
  const check = async () =>
    assertEquals((await call(t, admin, "PUT", `/api/internships/${listing.id}`, { isVerified: true })).status, 200);
  const edit = async (who: TestUser, patch: Record<string, unknown>) => {
    const res = await call(t, who, "PUT", `/api/internships/${listing.id}`, patch);
    assertEquals(res.status, 200, JSON.stringify(res.body));
    return res.body.internship.isVerified;
  };
  await check();
  assertEquals(await edit(member, { deadline: "2099-01-31", type: "remote" }), true, "facts no check covers");
  assertEquals(await edit(admin, { description: "Real work, reviewed." }), true, "an admin's edit keeps it");
  assertEquals(await titles(t, "verifiedOnly=true"), ["Data Intern"]);
  for (
    const patch of [
      { title: "Data Intern (WhatsApp first)" },
      { description: "Real work, and more." },
      { link: "https://pay.example/seat" },
      { hiringOrganization: "Other Co" },
      { stipend: 5000 },
      { location: "Pune" },
      { tags: ["python"] },
    ]
  ) {
    await check();
    assertEquals(await edit(member, patch), false, JSON.stringify(patch));
    assertEquals(await titles(t, "verifiedOnly=true"), [], `out of verifiedOnly after ${JSON.stringify(patch)}`);
  }
  assertEquals(await titles(t, "verifiedOnly=false"), ["Data Intern (WhatsApp first)"], "still listed");
  // The review's attack: a fee after a reassurance joined by "and" is held, and the tick is gone.
  await check();
  const scam = await call(t, member, "PUT", `/api/internships/${listing.id}`, {
    description: "No registration fee and you pay a training fee of ₹5000 before day one.",
  });
  assertEquals([scam.body.internship.isVerified, scam.body.internship.moderation.status], [false, "held"]);
  assertEquals((await call(t, undefined, "GET", `/api/internships/${listing.id}`)).status, 404);
});

Deno.test("the edit form tells the owner of a checked listing that an edit takes the tick off, in Hindi too", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member, { title: "Data Intern" });
  const form = async (who: TestUser, lang = "en") =>
    await (await t.fetch(`/internships/${listing.id}/edit?lang=${lang}`, { headers: who.headers })).text();
  const line = "Saving a change to what students read";
  assert(!(await form(member)).includes(line), "not before an admin checked it");
  await call(t, admin, "PUT", `/api/internships/${listing.id}`, { isVerified: true });
  assert((await form(member)).includes(line), "the owner reads it");
  assert((await form(member, "hi")).includes("“जाँची गई” का निशान हट जाएगा"), "in Hindi");
  assert(!(await form(admin)).includes(line), "an admin's edit keeps the tick");
});

Deno.test("a plain-form edit of the deadline alone keeps the Checked tick, whatever the browser's line breaks", async () => {
  await using t = await createTestApp();
  const { admin, member } = await people(t);
  const listing = await postInternship(t, member, { title: "Data Intern", description: "Real work.\nTwo lines." });
  assertEquals((await call(t, admin, "PUT", `/api/internships/${listing.id}`, { isVerified: true })).status, 200);
  const page = htmlDocument(
    await (await t.fetch(`/internships/${listing.id}/edit`, { headers: member.headers })).text(),
  );
  const fields = new URLSearchParams();
  for (const control of page.querySelectorAll("form input, form textarea, form select")) {
    const name = control.getAttribute("name");
    const type = control.getAttribute("type");
    if (!name || ((type === "radio" || type === "checkbox") && !control.hasAttribute("checked"))) continue;
    const value = control.tagName === "TEXTAREA"
      // What a browser sends for a textarea: its line breaks as CRLF.
      ? (control.textContent ?? "").replaceAll("\n", "\r\n")
      : control.tagName === "SELECT"
      ? control.querySelector("option[selected]")?.getAttribute("value") ?? ""
      : control.getAttribute("value") ?? "";
    fields.set(name, name === "deadline" ? "2099-01-31" : value);
  }
  const res = await t.fetch(`/internships/${listing.id}/edit`, {
    method: "POST",
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    body: fields,
    redirect: "manual",
  });
  await res.body?.cancel();
  assertEquals(res.status, 303);
  const after = (await call(t, admin, "GET", `/api/internships/${listing.id}`)).body.internship;
  assertEquals([after.deadline, after.isVerified, after.description], ["2099-01-31", true, "Real work.\nTwo lines."]);
});
