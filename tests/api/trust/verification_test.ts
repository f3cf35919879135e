/**
 * Verification by domain and the admin's organization tools (docs/api.md, Trust; docs/decisions.md, Trust,
 * "Verification by domain"): the claim endpoint per role with bad input (a free-mail or a foreign domain, no website,
 * the 6th claim of a day), the e-mailed one-time link (valid 24 hours, once; used, expired and unknown links change
 * nothing and say so), managers (only the first comes by a claim; a suspended one keeps nobody from claiming), the admin list and edit, and the page forms that
 * work without JavaScript.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { call, confirmClaim } from "./helpers.ts";
import { updateUser } from "@/lib/users/users.ts";
import { type Claim, followClaim } from "@/lib/organizations/claims.ts";

const WRONG_DOMAIN = "Use an e-mail address at the organization's domain";
const WRONG = { error: WRONG_DOMAIN, fields: [{ field: "email", message: WRONG_DOMAIN }] };
const HAS_MANAGER = "This organization already has a manager; ask a manager or the team";

/** An organization "Acme Labs" (slug `acme-labs`) with `website`, from a member's listing; answers its id. */
async function acme(t: TestApp, admin: TestUser, website: string | null = "https://www.acme.in") {
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { hiringOrganization: "Acme Labs" });
  if (website) {
    const res = await call(t, admin, "PATCH", `/api/admin/organizations/${listing.organization!.id}`, { website });
    assertEquals(res.status, 200);
  }
  return { id: listing.organization!.id as string, listing };
}

/** Claims Acme Labs as `who` with `email`; answers the status and body. */
function claim(t: TestApp, who: TestUser | undefined, email: unknown, slug = "acme-labs") {
  return call(t, who, "POST", `/api/organizations/${slug}/claim`, { email });
}

/** The path of the link in the last mail sent. */
async function lastLink(t: TestApp): Promise<string> {
  await t.settled();
  return new URL(t.mails.at(-1)!.link).pathname;
}

async function page(t: TestApp, path: string) {
  const res = await t.fetch(path);
  return { status: res.status, html: await res.text() };
}

Deno.test("claim refusals: guest 401, unverified 403, bad body 400, unknown 404, no website, free mail, foreign domain", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await acme(t, admin, null);
  assertEquals((await claim(t, undefined, "jo@acme.in")).status, 401);
  assertEquals(await claim(t, student, "jo@acme.in"), {
    status: 400,
    body: { error: "This organization has no website yet" },
  });
  await call(t, admin, "PATCH", `/api/admin/organizations/${(await acme(t, admin, null)).id}`, {
    website: "https://www.acme.in",
  });
  for (const bad of [undefined, "", "not an e-mail", 5, "x".repeat(250) + "@acme.in"]) {
    assertEquals((await claim(t, student, bad)).status, 400, String(bad));
  }
  const extra = await call(t, student, "POST", "/api/organizations/acme-labs/claim", { email: "a@acme.in", x: 1 });
  assertEquals(extra.status, 400);
  assertEquals((await claim(t, student, "jo@acme.in", "nobody")).status, 404);
  for (
    const email of [
      "jo@gmail.com",
      "jo@yahoo.co.in",
      "jo@rediffmail.com",
      "jo@proton.me",
      "jo@evilacme.in",
      "jo@acme.in.evil.com",
      "jo@acme.com",
      "jo@ACME.IN.example.org",
      "jo@mail.acme.in",
      "ishan@interns.acme.in",
      "jo@www.acme.in",
    ]
  ) {
    assertEquals(await claim(t, student, email), { status: 400, body: WRONG }, email);
  }
  await t.settled();
  assertEquals(t.mails.length, 0, "no refused claim mails anyone");
  await updateUser(t.kv, student.user.id, { emailVerified: false });
  assertEquals((await claim(t, student, "jo@acme.in")).status, 403);
});

Deno.test("a claim mails a link; following it verifies the organization and makes the claimer a manager", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user", { name: "Jo Rao" });
  const { id, listing } = await acme(t, admin);
  const official = await postInternship(t, admin, { title: "Acme Official Intern", hiringOrganization: "Acme Labs" });
  assertEquals(await claim(t, student, "Jo@ACME.in"), { status: 202, body: { success: true } });
  await t.settled();
  const mail = t.mails.at(-1)!;
  assertEquals([mail.to, mail.subject], ["jo@acme.in", "Verify Acme Labs on Career Community"]);
  assert(mail.text.startsWith("Hi,\n") && !mail.text.includes("Jo Rao") && mail.text.includes("24 hours"), mail.text);
  const link = await lastLink(t);
  assert(/^\/organizations\/claim\/[\w-]{43}$/.test(link), link);

  const before = await call(t, undefined, "GET", "/api/organizations/acme-labs");
  assertEquals(before.body.organization.isVerified, false, "nothing changes before the link is followed");
  const opened = await t.fetch(link, { headers: student.headers });
  assert((await opened.text()).includes(`action="${link}"`), "the link shows a Verify button");
  const followed = await confirmClaim(t, student, link);
  assertEquals(followed.status, 200);
  assert(followed.html.includes("Acme Labs is verified") && followed.html.includes("You now manage"));
  const after = (await call(t, undefined, "GET", "/api/organizations/acme-labs")).body.organization;
  assertEquals([after.isVerified, after.verifiedDomain, typeof after.verifiedAt], [true, "acme.in", "string"]);
  const read = await call(t, undefined, "GET", `/api/internships/${official.id}`);
  assertEquals(read.body.internship.organization, { id, slug: "acme-labs", name: "Acme Labs", isVerified: true });
  assertEquals(read.body.internship.isVerified, false, "the listing's own flag stays the admin's");
  const theirs = await call(t, undefined, "GET", `/api/internships/${listing.id}`);
  assertEquals(theirs.body.internship.organization, null, "a stranger's reads as the unlink job will leave it");
  const card = await (await t.fetch("/internships")).text();
  assert(card.includes("the organization is verified"), "the card shows the badge");
  const managed = await call(t, student, "PATCH", "/api/organizations/acme-labs", { about: "We make things." });
  assertEquals([managed.status, managed.body.organization.about], [200, "We make things."]);

  const used = await confirmClaim(t, student, link);
  assertEquals(used.status, 200);
  assert(used.html.includes("This link was already used"));
  const again = (await call(t, undefined, "GET", "/api/organizations/acme-labs")).body.organization;
  assertEquals(again.verifiedAt, after.verifiedAt, "a used link changes nothing");

  // A second mailbox at the domain does not make a second manager: the organization has one.
  const colleague = await createTestUser(t, "user");
  const sent = t.mails.length;
  assertEquals(await claim(t, colleague, "ria@acme.in"), { status: 409, body: { error: HAS_MANAGER } });
  await t.settled();
  assertEquals(t.mails.length, sent, "a refused claim mails nothing");
  assertEquals((await call(t, colleague, "PATCH", "/api/organizations/acme-labs", { about: "Ria here." })).status, 403);
  assertEquals((await claim(t, student, "jo@acme.in")).status, 202, "a manager may ask again");
});

Deno.test("a claim link sent before someone else became the manager makes nobody a manager", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const [first, second] = [await createTestUser(t, "user"), await createTestUser(t, "user")];
  const { id } = await acme(t, admin);
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true })).status, 200);
  assertEquals((await claim(t, second, "ria@acme.in")).status, 202);
  const secondLink = await lastLink(t);
  assertEquals((await claim(t, first, "jo@acme.in")).status, 202);
  const firstLink = await lastLink(t);
  // Both press at once: the organization gets one manager.
  const [a, b] = await Promise.all([confirmClaim(t, first, firstLink), confirmClaim(t, second, secondLink)]);
  assertEquals([a.status, b.status].sort(), [200, 409]);
  const [winner, loser, lost] = a.status === 200 ? [first, second, b] : [second, first, a];
  assert(lost.html.includes("Acme Labs already has a manager") && lost.html.includes("nothing changed"), lost.html);
  assertEquals((await call(t, winner, "PATCH", "/api/organizations/acme-labs", { about: "Us." })).status, 200);
  assertEquals((await call(t, loser, "PATCH", "/api/organizations/acme-labs", { about: "Me." })).status, 403);
  const opened = await t.fetch(`${a.status === 200 ? secondLink : firstLink}?lang=hi`, { headers: loser.headers });
  assertEquals(opened.status, 409);
  assert((await opened.text()).includes("Acme Labs का पहले से एक मैनेजर है"));
});

Deno.test("a suspended manager keeps nobody from claiming: a colleague's claim makes them a manager", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const [first, colleague] = [await createTestUser(t, "user"), await createTestUser(t, "user")];
  await acme(t, admin);
  assertEquals((await claim(t, first, "jo@acme.in")).status, 202);
  assertEquals((await confirmClaim(t, first, await lastLink(t))).status, 200);
  const suspended = await call(t, admin, "POST", `/api/admin/users/${first.user.id}/suspension`, {
    reason: "Posted a fake listing",
  });
  assertEquals(suspended.status, 200);
  const shown = await (await t.fetch("/organizations/acme-labs", { headers: colleague.headers })).text();
  assert(shown.includes('name="intent" value="claim"'), "the page offers the claim form");
  assertEquals(await claim(t, colleague, "ria@acme.in"), { status: 202, body: { success: true } });
  const link = await lastLink(t);
  assert((await page(t, link)).html.includes("Acme Labs"), "the link is not refused as managed");
  const followed = await confirmClaim(t, colleague, link);
  assertEquals(followed.status, 200);
  assert(followed.html.includes("You now manage"), followed.html);
  assertEquals((await call(t, colleague, "PATCH", "/api/organizations/acme-labs", { about: "Ria here." })).status, 200);
});

Deno.test("an expired or unknown link changes nothing and says so", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await acme(t, admin);
  await claim(t, student, "jo@acme.in");
  const link = await lastLink(t);
  const token = link.split("/").at(-1)!;
  const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
  assertEquals((await followClaim(t.kv, { token, userId: student.user.id, now: later })).status, "expired");
  for await (const entry of t.kv.list<Claim>({ prefix: ["organization_claims"] })) {
    await t.kv.set(entry.key, { ...entry.value, expiresAt: new Date(Date.now() - 1000).toISOString() });
  }
  const expired = await page(t, link);
  assertEquals(expired.status, 200);
  assert(expired.html.includes("This link has expired") && expired.html.includes("24 hours"));
  assertEquals((await call(t, undefined, "GET", "/api/organizations/acme-labs")).body.organization.isVerified, false);
  assertEquals((await call(t, student, "PATCH", "/api/organizations/acme-labs", { about: "x" })).status, 403);
  for (const path of ["/organizations/claim/not-a-token", `/organizations/claim/${"A".repeat(43)}`]) {
    const unknown = await page(t, path);
    assertEquals(unknown.status, 404, path);
    assert(unknown.html.includes("This link is not valid"));
  }
});

Deno.test("the 6th claim of a day is 429", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await acme(t, admin);
  for (let i = 0; i < 5; i++) assertEquals((await claim(t, student, `jo${i}@acme.in`)).status, 202);
  const sixth = await claim(t, student, "jo6@acme.in");
  assertEquals(sixth.status, 429);
  const other = await createTestUser(t, "user");
  assertEquals((await claim(t, other, "ria@acme.in")).status, 202, "the limit is per person");
});

Deno.test("admin organizations: list with search and verified, edit name/website/about/verified; others refused", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const { id } = await acme(t, admin);
  await postInternship(t, member, { hiringOrganization: "Beta Works" });
  await postInternship(t, member, { hiringOrganization: "Beta Works" });
  const list = (query = "") => call(t, admin, "GET", `/api/admin/organizations${query}`);
  assertEquals((await call(t, undefined, "GET", "/api/admin/organizations")).status, 401);
  assertEquals((await call(t, member, "GET", "/api/admin/organizations")).status, 403);
  assertEquals((await call(t, member, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true })).status, 403);
  const all = await list();
  assertEquals(all.body.organizations.map((o: { name: string; internships: number }) => [o.name, o.internships]), [
    ["Acme Labs", 1],
    ["Beta Works", 2],
  ]);
  assertEquals(all.body.pagination, { limit: 50, offset: 0, total: 2, hasMore: false });
  assertEquals((await list("?search=BETA")).body.organizations.map((o: { slug: string }) => o.slug), ["beta-works"]);
  for (const query of ["?verified=yes", "?limit=0", "?limit=101", "?offset=-1", "?other=1"]) {
    assertEquals((await list(query)).status, 400, query);
  }

  const verified = await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true });
  assertEquals([verified.body.organization.isVerified, verified.body.organization.verifiedDomain], [true, null]);
  assert(verified.body.organization.verifiedAt);
  assertEquals((await list("?verified=true")).body.organizations.map((o: { slug: string }) => o.slug), ["acme-labs"]);
  assertEquals((await list("?verified=false")).body.organizations.map((o: { slug: string }) => o.slug), [
    "beta-works",
  ]);

  const renamed = await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { name: "  Acme   Labs India " });
  assertEquals([renamed.body.organization.name, renamed.body.organization.slug], ["Acme Labs India", "acme-labs"]);
  // An admin posts it: Acme Labs is verified, and a listing links to it only for a manager or an admin.
  const later = await postInternship(t, admin, { hiringOrganization: "acme labs" });
  assertEquals(later.organization!.id, id, "the old name still matches");
  assertEquals(later.organization!.name, "Acme Labs India");
  const clash = await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { name: "BETA WORKS" });
  assertEquals(clash, { status: 409, body: { error: "Another organization already has this name" } });
  for (const bad of [{ name: "" }, { website: "javascript:alert(1)" }, { isVerified: "yes" }, { slug: "x" }]) {
    assertEquals(
      (await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, bad)).status,
      400,
      JSON.stringify(bad),
    );
  }
  assertEquals(
    (await call(t, admin, "PATCH", `/api/admin/organizations/${crypto.randomUUID()}`, { about: "x" })).status,
    404,
  );
  const unverified = await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: false });
  assertEquals([unverified.body.organization.isVerified, unverified.body.organization.verifiedAt], [false, null]);
});

Deno.test("the page forms work without JavaScript: claim, and a manager's edit", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const student = await createTestUser(t, "user");
  await acme(t, admin);
  const post = (who: TestUser, fields: Record<string, string>) =>
    t.fetch("/organizations/acme-labs", {
      method: "POST",
      headers: { ...who.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const guestPage = await (await t.fetch("/organizations/acme-labs")).text();
  assert(guestPage.includes("to verify it with your work e-mail"), "a guest is asked to sign in");
  const bad = await post(student, { intent: "claim", email: "jo@gmail.com" });
  const badHtml = await bad.text();
  assertEquals(bad.status, 400);
  assert(badHtml.includes("Use an e-mail address at the organization&#39;s domain") || badHtml.includes(WRONG_DOMAIN));
  assert(badHtml.includes('value="jo@gmail.com"'), "the page keeps what was typed");
  const sent = await post(student, { intent: "claim", email: "jo@acme.in" });
  assertEquals([sent.status, sent.headers.get("location")], [303, "/organizations/acme-labs?claim=sent"]);
  const notice = await (await t.fetch("/organizations/acme-labs?claim=sent", { headers: student.headers })).text();
  assert(notice.includes("Check your work inbox"));
  const colleague = await createTestUser(t, "user");
  await confirmClaim(t, student, await lastLink(t));
  const taken = await post(colleague, { intent: "claim", email: "ria@acme.in" });
  assertEquals(taken.status, 409);
  assert((await taken.text()).includes("This organization already has a manager; ask a manager or the team."));
  const hindi = await t.fetch("/organizations/acme-labs?lang=hi", {
    method: "POST",
    headers: { ...colleague.headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "claim", email: "ria@acme.in" }),
  });
  assertEquals(hindi.status, 409);
  assert((await hindi.text()).includes("इस संस्था का पहले से एक मैनेजर है"));
  // Once someone manages it, others read so in place of a claim form they could only be refused by.
  const managed = await (await t.fetch("/organizations/acme-labs", { headers: colleague.headers })).text();
  assert(managed.includes("This organization already has a manager; ask a manager or the team."), "said on the page");
  assert(!managed.includes('name="intent" value="claim"'), "no claim form for an organization someone manages");
  const notManager = await post(colleague, { intent: "edit", website: "", about: "Hi" });
  assertEquals(notManager.status, 403);
  await notManager.body?.cancel();
  const edited = await post(student, { intent: "edit", website: "https://www.acme.in", about: "Makers of things." });
  assertEquals([edited.status, edited.headers.get("location")], [303, "/organizations/acme-labs?saved=1"]);
  const shown = await (await t.fetch("/organizations/acme-labs")).text();
  assert(shown.includes("Makers of things.") && shown.includes("Someone at acme.in proved"));
});
