/**
 * Organizations (docs/api.md, Trust; docs/decisions.md, Trust, "Organizations"; docs/decisions.md, Trust, "The
 * organization link"): every internship is linked to the organization its `hiringOrganization` names (matched in any
 * case and spacing, made when new, with a unique slug), on create, on a change of name and by the one-time link of
 * stored listings; the public profile with its stats, the page (a guest's kept copy following the track record), and a
 * manager's changes, per role with bad input.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp } from "@/tests/helpers/app.ts";
import { postInternship, postInternships } from "@/tests/fixtures/internships.ts";
import { call } from "./helpers.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { linkProgress } from "@/lib/organizations/link.ts";
import { addManagerOps } from "@/lib/organizations/store.ts";
import { nameKey, slugBase } from "@/lib/organizations/schema.ts";
import { applicationCounts, trackCountOps } from "@/lib/applications/track_record.ts";
import { internshipsOfOrganization } from "@/lib/internships/internships.ts";

const DAY = 24 * 60 * 60 * 1000;

async function profile(t: TestApp, slug: string) {
  return await call(t, undefined, "GET", `/api/organizations/${slug}`);
}

/** Each listing of organization `id` by title, with its stored mark of a manager's or an admin's (`linkedByManager`). */
async function marksOf(t: TestApp, id: string) {
  const records = await internshipsOfOrganization(t.kv, id);
  return Object.fromEntries(records.map((record) => [record.title, record.linkedByManager ?? "none"]));
}

Deno.test("names match in any case and spacing; a new name makes an unverified organization with a unique slug", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const first = await postInternship(t, member, { hiringOrganization: "Acme Labs" });
  assertEquals(first.organization, {
    id: first.organization!.id,
    slug: "acme-labs",
    name: "Acme Labs",
    isVerified: false,
  });
  for (const name of ["acme labs", "  ACME   Labs ", "Acme\tLabs"]) {
    const same = await postInternship(t, member, { hiringOrganization: name });
    assertEquals(same.organization!.id, first.organization.id, name);
    assertEquals(same.hiringOrganization, name.trim(), "the listing keeps the name as posted");
  }
  const dashed = await postInternship(t, member, { hiringOrganization: "Acme-Labs" });
  assertEquals([dashed.organization!.slug, dashed.organization!.name], ["acme-labs-2", "Acme-Labs"]);
  const hindi = await postInternship(t, member, { hiringOrganization: "भारत सेवा संस्थान" });
  assertEquals(hindi.organization!.slug, "organization");
  const accents = await postInternship(t, member, { hiringOrganization: "Café Société Pvt. Ltd." });
  assertEquals(accents.organization!.slug, "cafe-societe-pvt-ltd");
  const batch = await postInternships(t, member, [
    { title: "A", link: "https://a.example.com", hiringOrganization: "Batch Co" },
    { title: "B", link: "https://b.example.com", hiringOrganization: "BATCH CO" },
  ]);
  assertEquals(batch[0].organization?.id, batch[1].organization?.id);
  const listed = await call(t, undefined, "GET", "/api/internships?limit=100");
  assert(listed.body.internships.every((i: { organization: unknown }) => i.organization !== null));
});

Deno.test("twenty posts naming one new organization at once make exactly one", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const posted = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) => postInternship(t, member, { hiringOrganization: i % 2 ? "Race Co" : "race co" }),
    ),
  );
  assertEquals(new Set(posted.map((i) => i.organization!.id)).size, 1);
  assertEquals((await profile(t, "race-co")).body.stats.internships, 20);
});

Deno.test("slugs: ASCII letters, digits and hyphens, cut at a word, and name keys", () => {
  assertEquals(slugBase("  The   Great--Company!! "), "the-great-company");
  assertEquals(slugBase("Ünïcödé GmbH & Co. KG"), "unicode-gmbh-co-kg");
  assertMatch(slugBase("word ".repeat(30)), /^(word-)*word$/);
  assert(slugBase("word ".repeat(30)).length <= 60);
  assertEquals(slugBase("!!!"), "organization");
  assertEquals(nameKey("  ＡＣＭＥ   Labs "), "acme labs");
});

Deno.test("the profile: stats count open and live listings, held, closed and deleted ones aside; unknown slug 404", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const open = await postInternship(t, member, { hiringOrganization: "Stat Co", title: "Open" });
  await postInternship(t, member, { hiringOrganization: "Stat Co", title: "Closed", deadline: "2020-01-01" });
  await postInternship(t, member, { hiringOrganization: "Stat Co", title: "Held", description: "registration fee" });
  const gone = await postInternship(t, member, { hiringOrganization: "Stat Co", title: "Gone" });
  await call(t, member, "DELETE", `/api/internships/${gone.id}`);
  const res = await profile(t, open.organization!.slug);
  assertEquals(res.status, 200);
  assertEquals(res.body.organization, {
    id: open.organization!.id,
    slug: "stat-co",
    name: "Stat Co",
    website: null,
    isVerified: false,
    verifiedDomain: null,
    verifiedAt: null,
    about: null,
    createdAt: res.body.organization.createdAt,
  });
  assertEquals(res.body.stats, {
    openInternships: 1,
    internships: 3,
    applications: 0,
    responseRate: null,
    medianDaysToFirstResponse: null,
    stipendReports: { yes: 0, partly: 0, no: 0 },
  });
  assertEquals(await profile(t, "no-such-co"), { status: 404, body: { error: "Organization not found" } });
  assertEquals((await profile(t, "x".repeat(300))).status, 404);
});

Deno.test("a change of hiringOrganization moves the listing and its count to the other organization", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { hiringOrganization: "Old Name Co" });
  const moved = await call(t, member, "PUT", `/api/internships/${listing.id}`, { hiringOrganization: "New Name Co" });
  assertEquals([moved.status, moved.body.internship.organization.slug], [200, "new-name-co"]);
  assertEquals((await profile(t, "old-name-co")).body.stats.internships, 0);
  assertEquals((await profile(t, "new-name-co")).body.stats.internships, 1);
  const other = await call(t, member, "PUT", `/api/internships/${listing.id}`, { stipend: 4000 });
  assertEquals(other.body.internship.organization.slug, "new-name-co");
});

Deno.test("only a manager or an admin lists under a verified name; anyone else's listing is unlinked, no badge", async () => {
  await using t = await createTestApp();
  const [admin, manager, stranger] = [
    await createTestUser(t, "admin"),
    await createTestUser(t, "member"),
    await createTestUser(t, "member"),
  ];
  const first = await postInternship(t, manager, { hiringOrganization: "Zeta Fintech", title: "Real Intern" });
  const id = first.organization!.id;
  const ops = t.kv.atomic();
  addManagerOps(ops, id, manager.user.id, new Date().toISOString());
  assert((await ops.commit()).ok);
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true })).status, 200);

  const fake = await postInternship(t, stranger, { hiringOrganization: "ZETA FINTECH", title: "Instant Offer Intern" });
  assertEquals([fake.organization, fake.hiringOrganization], [null, "ZETA FINTECH"], "not linked: no badge");
  const byManager = await postInternship(t, manager, { hiringOrganization: "zeta fintech", title: "Second Intern" });
  const byAdmin = await postInternship(t, admin, { hiringOrganization: "Zeta  Fintech", title: "Admin Intern" });
  assertEquals([byManager.organization?.isVerified, byAdmin.organization?.id], [true, id]);

  // A change of name to the verified one, or any change of the unlinked listing (an admin's too), does not link it.
  const other = await postInternship(t, stranger, { hiringOrganization: "Plain Co", title: "Renamed Intern" });
  const renamed = await call(t, stranger, "PUT", `/api/internships/${other.id}`, {
    hiringOrganization: "Zeta Fintech",
  });
  assertEquals([renamed.status, renamed.body.internship.organization], [200, null]);
  const edited = await call(t, stranger, "PUT", `/api/internships/${fake.id}`, { stipend: 5000 });
  assertEquals([edited.status, edited.body.internship.organization], [200, null]);
  // An admin's edit judges the listing's owner, not the admin: the stranger's listing stays unlinked.
  const byAdminEdit = await call(t, admin, "PUT", `/api/internships/${fake.id}`, { isActive: true });
  assertEquals([byAdminEdit.status, byAdminEdit.body.internship.organization], [200, null]);

  const listed = await call(t, undefined, "GET", "/api/internships?verifiedOnly=true");
  assertEquals(
    listed.body.internships.map((i: { title: string }) => i.title).sort(),
    ["Admin Intern", "Real Intern", "Second Intern"],
  );
  assertEquals((await profile(t, "zeta-fintech")).body.stats.internships, 3, "the organization counts its own only");
  // Each link is marked with whether its owner managed the organization or was an admin then.
  assertEquals(await marksOf(t, id), { "Admin Intern": true, "Real Intern": false, "Second Intern": true });
  const plain = await postInternship(t, manager, { hiringOrganization: "Plain Co", title: "Plain Intern" });
  assertEquals(await marksOf(t, plain.organization!.id), { "Plain Intern": false }, "not its manager");
  // Its manager's listing is marked while it is not verified too.
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: false })).status, 200);
  await postInternship(t, manager, { hiringOrganization: "Zeta Fintech", title: "Third Intern" });
  await postInternship(t, stranger, { hiringOrganization: "Zeta Fintech", title: "Stranger Intern" });
  assertEquals(
    await marksOf(t, id),
    {
      "Admin Intern": true,
      "Real Intern": false,
      "Second Intern": true,
      "Third Intern": true,
      "Stranger Intern": false,
    },
  );
  const page = await (await t.fetch(`/internships/${fake.id}`)).text();
  assert(page.includes("Instant Offer Intern") && !page.includes("the organization is verified"), "no badge");
});

Deno.test("the page shows the name, the badge, the track record and the open internships; cards link to it", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const listing = await postInternship(t, member, { hiringOrganization: "Page Co", title: "Page Intern" });
  await postInternship(t, member, { hiringOrganization: "Page Co", title: "Past Intern", deadline: "2020-01-01" });
  const res = await t.fetch("/organizations/page-co");
  const html = await res.text();
  assertEquals(res.status, 200);
  assert(html.includes("<h1") && html.includes("Page Co") && html.includes("Not verified"));
  assert(html.includes("No track record yet") && html.includes("2 internships posted here"));
  assert(html.includes("1 open internship") && html.includes("Page Intern") && !html.includes("Past Intern"));
  const missing = await t.fetch("/organizations/nope");
  await missing.body?.cancel();
  assertEquals(missing.status, 404);
  for (const path of ["/internships", `/internships/${listing.id}`]) {
    assert((await (await t.fetch(path)).text()).includes('href="/organizations/page-co"'), path);
  }
});

Deno.test("PATCH by a manager or an admin: website until verified, about; others 401/403; bad input 400", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const manager = await createTestUser(t, "user");
  const student = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const { organization } = await postInternship(t, member, { hiringOrganization: "Managed Co" });
  const op = t.kv.atomic();
  addManagerOps(op, organization!.id, manager.user.id, new Date().toISOString());
  await op.commit();
  const path = "/api/organizations/managed-co";
  const body = { website: "https://managed.example.com", about: " We build things. " };
  assertEquals((await call(t, undefined, "PATCH", path, body)).status, 401);
  assertEquals((await call(t, student, "PATCH", path, body)).status, 403);
  assertEquals((await call(t, member, "PATCH", path, body)).status, 403, "posting a listing makes no one a manager");
  assertEquals((await call(t, manager, "PATCH", "/api/organizations/nope", body)).status, 404);
  for (
    const bad of [{ website: "ftp://x.example.com" }, { website: "not a url" }, { about: "x".repeat(2001) }, {
      isVerified: true,
    }, { name: "Other" }]
  ) {
    assertEquals((await call(t, manager, "PATCH", path, bad)).status, 400, JSON.stringify(bad));
  }
  const done = await call(t, manager, "PATCH", path, body);
  assertEquals(done.status, 200);
  assertEquals([done.body.organization.website, done.body.organization.about], [body.website, "We build things."]);
  assertEquals((await call(t, admin, "PATCH", path, { about: null })).body.organization.about, null);
  // Verified (here by an admin), the website is the admin's to change; the about text stays the manager's.
  assertEquals(
    (await call(t, admin, "PATCH", `/api/admin/organizations/${organization!.id}`, { isVerified: true })).status,
    200,
  );
  const locked = await call(t, manager, "PATCH", path, { website: "https://elsewhere.example.com" });
  assertEquals(locked, {
    status: 403,
    body: { error: "A verified organization's website can be changed only by an admin" },
  });
  assertEquals((await call(t, manager, "PATCH", path, { about: "Still ours." })).status, 200);
  assertEquals(
    (await call(t, manager, "PATCH", path, { website: body.website })).status,
    200,
    "the same website is no change",
  );
});

Deno.test("a manager's about text that asks applicants to pay is refused at about, in the API and the page", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const manager = await createTestUser(t, "user");
  const admin = await createTestUser(t, "admin");
  const { organization } = await postInternship(t, member, { hiringOrganization: "Fee Co" });
  const op = t.kv.atomic();
  addManagerOps(op, organization!.id, manager.user.id, new Date().toISOString());
  await op.commit();
  await call(t, admin, "PATCH", `/api/admin/organizations/${organization!.id}`, { isVerified: true });
  const path = "/api/organizations/fee-co";
  const asks = "Selected interns must pay a registration fee of ₹999 and a security deposit of Rs 2000 to join.";
  const refused = await call(t, manager, "PATCH", path, { about: asks });
  assertEquals(refused.status, 400);
  assertEquals(
    refused.body.error,
    "The about text asks applicants to pay, which no listing here may do; take out the fee or deposit",
  );
  assertEquals(refused.body.fields.map((f: { field: string }) => f.field), ["about"]);
  for (const lang of ["en", "hi"]) {
    const page = await postForm(t, manager, `/organizations/fee-co?lang=${lang}`, {
      intent: "edit",
      website: "",
      about: asks,
    });
    assertEquals(page.status, 400, lang);
    const html = await page.text();
    // The about text sent back is the form's default now, still not saved: leaving the page asks first.
    assert(
      /<form[^>]*data-keep-typed[^>]*data-unsaved[^>]*>\s*<input type="hidden" name="intent" value="edit"/.test(html),
      `${lang}: the form sent back holds unsent words`,
    );
    assert(
      html.includes(lang === "en" ? "may do; take out the fee or deposit." : "फ़ीस या डिपॉज़िट वाली बात हटा दें"),
      lang,
    );
  }
  assertEquals((await profile(t, "fee-co")).body.organization.about, null, "nothing saved");
  assert(!(await (await t.fetch("/organizations/fee-co")).text()).includes("registration fee of ₹999"));
  const reassures = "Internships here are free: there is no registration fee or security deposit.";
  assertEquals((await call(t, manager, "PATCH", path, { about: reassures })).status, 200);
  assertEquals((await profile(t, "fee-co")).body.organization.about, reassures);
  const drawn = await (await t.fetch("/organizations/fee-co", { headers: manager.headers })).text();
  assert(drawn.includes("data-keep-typed") && !drawn.includes("data-unsaved"), "drawn as saved: nothing unsent");
});

Deno.test("the one-time link: every stored listing linked and counted, phrases held, resumable, idempotent", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const owner = await createTestUser(t, "member");
  const records = generateInternships(600, [owner.user.id], { seed: 7 });
  records[0] = { ...records[0], description: "Pay a security deposit of ₹2,000 before joining." };
  await importInternships(t.kv, records);
  const before = await call(t, admin, "GET", "/api/internships?limit=5&includeInactive=true&includeDeleted=true");
  assert(before.body.internships.every((i: { organization: unknown }) => i.organization === null), "older listings");

  const first = await call(t, admin, "POST", "/api/admin/jobs/organizations-link/run");
  assertEquals(first.status, 200);
  assertEquals([first.body.job, first.body.linked, first.body.held], ["organizations-link", 600, 1]);
  assert(first.body.chunks > 1, `the records span ${first.body.chunks} chunks`);
  const progress = await linkProgress(t.kv);
  assertEquals([progress?.done, progress?.linked, progress?.held, progress?.lease], [true, 600, 1, null]);

  const all = await call(
    t,
    admin,
    "GET",
    "/api/internships?limit=100&includeInactive=true&includeDeleted=true&includeClosed=true",
  );
  assert(all.body.internships.every((i: { organization: unknown }) => i.organization !== null));
  const names = new Set(records.map((record) => record.hiringOrganization));
  let counted = 0;
  for (const name of names) {
    const slug = slugBase(name);
    const stats = (await profile(t, slug)).body.stats;
    counted += stats.internships;
  }
  assertEquals(counted, records.filter((record) => !record.deletedAt).length, "every live listing counted once");
  const queue = await call(t, admin, "GET", "/api/admin/moderation");
  assertEquals(queue.body.items.map((item: { listing: { id: string } }) => item.listing.id), [records[0].id]);

  const again = await call(t, admin, "POST", "/api/admin/jobs/organizations-link/run");
  assertEquals([again.body.linked, again.body.chunks], [0, 0], "a finished link does nothing");
});

Deno.test("the one-time link follows the poster rule: a verified name links its managers' and admins' listings", async () => {
  await using t = await createTestApp();
  const [admin, manager, stranger] = [
    await createTestUser(t, "admin"),
    await createTestUser(t, "member"),
    await createTestUser(t, "member"),
  ];
  const first = await postInternship(t, manager, { hiringOrganization: "Zeta Fintech", title: "Real Intern" });
  const id = first.organization!.id;
  const ops = t.kv.atomic();
  addManagerOps(ops, id, manager.user.id, new Date().toISOString());
  assert((await ops.commit()).ok);
  assertEquals((await call(t, admin, "PATCH", `/api/admin/organizations/${id}`, { isVerified: true })).status, 200);
  // Stored before organizations: each owner's listing under the verified name, and a stranger's under another name.
  const owners = [manager.user.id, admin.user.id, stranger.user.id, null, stranger.user.id, null];
  const records = generateInternships(owners.length, [stranger.user.id], { seed: 5 }).map((record, i) => ({
    ...record,
    title: `Listing ${i}`,
    userId: owners[i],
    hiringOrganization: i >= 4 ? "Plain Co" : "zeta fintech",
    deletedAt: null,
  }));
  records[2] = { ...records[2], description: "Pay a security deposit of ₹2,000 before joining." };
  await importInternships(t.kv, records);

  const run = await call(t, admin, "POST", "/api/admin/jobs/organizations-link/run");
  assertEquals([run.status, run.body.linked, run.body.held], [200, 4, 1]);
  const organizationOf = async (i: number) =>
    (await call(t, admin, "GET", `/api/internships/${records[i].id}`)).body.internship.organization?.slug ?? null;
  assertEquals(
    await Promise.all(owners.map((_, i) => organizationOf(i))),
    ["zeta-fintech", "zeta-fintech", null, null, "plain-co", "plain-co"],
    "the stranger's and the forgotten owner's listings stay unlinked",
  );
  // Marked as the live path marks them, except a forgotten owner's, who can no longer be judged.
  assertEquals(await marksOf(t, id), { "Real Intern": false, "Listing 0": true, "Listing 1": true });
  const plain = (await profile(t, "plain-co")).body.organization.id;
  assertEquals(await marksOf(t, plain), { "Listing 4": false, "Listing 5": "none" });
  assertEquals((await profile(t, "zeta-fintech")).body.stats.internships, 3, "its own listings only");
  const queue = await call(t, admin, "GET", "/api/admin/moderation");
  assertEquals(queue.body.items.map((item: { listing: { id: string } }) => item.listing.id), [records[2].id]);
});

Deno.test("the link resumes where a stopped run left off, and two runs at once link each listing once", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const owner = await createTestUser(t, "member");
  await importInternships(t.kv, generateInternships(400, [owner.user.id], { seed: 3 }));
  // A run that stopped after the first chunk: its lease ran out, its cursor stayed.
  await t.kv.set(["organizations_meta", "link"], {
    cursor: 1,
    linked: 0,
    held: 0,
    done: false,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    lease: { holder: "gone", until: Date.now() - 1 },
  });
  const runs = await Promise.all([1, 2].map(() => call(t, admin, "POST", "/api/admin/jobs/organizations-link/run")));
  const linked = runs.map((run) => run.body.linked as number).sort((a, b) => a - b);
  const firstChunk = (await t.kv.get<number>(["internships_chunk_stamps", 0])).value!;
  assertEquals(linked, [0, 400 - firstChunk], "one run took the link up from chunk 1, the other found it taken");
  assertEquals((await linkProgress(t.kv))?.done, true);
});

Deno.test("the link reaches archived listings too: closed and deleted ones moved out of the read model", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const owner = await createTestUser(t, "member");
  const records = generateInternships(300, [owner.user.id], { seed: 11, withHidden: true })
    .map((record, i) => i % 3 === 0 ? { ...record, deadline: "2020-01-01" } : record);
  await importInternships(t.kv, records);
  assertEquals((await call(t, admin, "POST", "/api/admin/jobs/close-listings/run")).status, 200);
  const archived = records.filter((record, i) => i % 3 === 0 || record.deletedAt).length;
  assert(archived > 100, `${archived} listings are archived`);

  const run = await call(t, admin, "POST", "/api/admin/jobs/organizations-link/run");
  assertEquals([run.status, run.body.linked], [200, 300]);
  const all = await call(
    t,
    admin,
    "GET",
    "/api/internships?limit=100&offset=0&includeInactive=true&includeDeleted=true&includeClosed=true",
  );
  assertEquals(all.body.pagination.total, 300);
  for (let offset = 0; offset < 300; offset += 100) {
    const page = await call(
      t,
      admin,
      "GET",
      `/api/internships?limit=100&offset=${offset}&includeInactive=true&includeDeleted=true&includeClosed=true`,
    );
    const unlinked = page.body.internships.filter((i: { organization: unknown }) => i.organization === null);
    assertEquals(unlinked.length, 0, `page at ${offset}`);
  }
  let counted = 0;
  for (const name of new Set(records.map((record) => record.hiringOrganization))) {
    counted += (await profile(t, slugBase(name))).body.stats.internships;
  }
  assertEquals(counted, records.filter((record) => !record.deletedAt).length);
  assertEquals((await call(t, admin, "POST", "/api/admin/jobs/organizations-link/run")).body.linked, 0);
});

Deno.test("a guest's kept copy of the page follows the track record", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const { organization } = await postInternship(t, member, { hiringOrganization: "Answering Co" });
  const page = async () => await (await t.fetch("/organizations/answering-co")).text();
  assert((await page()).includes("No track record yet"));
  assert((await page()).includes("No track record yet"), "served from the kept copy");
  // Five applications a month old, each answered the next day, as their writes count them.
  const sent = Date.now() - 30 * DAY;
  const op = t.kv.atomic();
  trackCountOps(
    op,
    [],
    Array.from({ length: 5 }, () =>
      applicationCounts({
        organizationId: organization!.id,
        createdAt: new Date(sent).toISOString(),
        firstResponseAt: new Date(sent + DAY).toISOString(),
        stipendReport: null,
      })).flat(),
  );
  await op.commit();
  assertMatch(await page(), /Answers 100 % of applicants within 14 days/);
});
