/**
 * Server-rendered internship pages, without a browser: filters in the URL (the API's form and
 * a plain GET form's) choose the cards, invalid parameters give a note instead of an error,
 * pagination, the detail page's fields and apply link, 404s, who may post, edit and see
 * "My internships", and what admins see.
 */
import { assert, assertEquals, assertMatch } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, postForm, type TestApp, type TestUser } from "@/tests/helpers/app.ts";
import { getInternship, type InternshipView } from "@/lib/internships/internships.ts";
import { deleteInternship, updateInternship } from "@/lib/internships/writes.ts";
import { addInternships, internshipBody, type Listing } from "@/tests/fixtures/internships.ts";
import { assertHtml, assertRedirect, hiddenFields, htmlDocument, page } from "@/tests/fixtures/html.ts";
import { adminLogQuerySchema, listAdminLog } from "@/lib/admin_log/admin_log.ts";

const LISTINGS = {
  react: {
    title: "React Developer Intern",
    hiringOrganization: "Acme Labs",
    link: "https://acme.example.com/jobs/react",
    type: "remote",
    timing: "full_time",
    stipend: 20000,
    tags: ["React", "frontend"],
    location: "Bengaluru",
    description: "Build dashboards with Preact and Tailwind.",
    deadline: "2099-01-31",
  },
  marketing: {
    title: "Marketing Intern",
    hiringOrganization: "Brandly",
    link: "https://brandly.example.com/apply",
    type: "onsite",
    stipend: 5000,
    tags: ["marketing"],
    location: "Mumbai",
  },
  data: {
    title: "Data Science Intern",
    hiringOrganization: "Numera Analytics",
    link: "https://numera.example.com/careers",
    type: "hybrid",
    stipend: null,
    tags: ["python", "ml"],
    location: "Pune",
  },
  design: {
    title: "Product Design Intern",
    hiringOrganization: "Pixel Works",
    link: "https://pixel.example.com/jobs",
    type: "remote",
    stipend: 0,
    tags: ["design"],
    deadline: "2000-01-01",
  },
} satisfies Record<string, Listing>;

type Name = keyof typeof LISTINGS;

async function seed(t: TestApp, owner: TestUser): Promise<Record<Name, InternshipView>> {
  const names = Object.keys(LISTINGS) as Name[];
  const created = await addInternships(t, owner, names.map((name) => LISTINGS[name]));
  return Object.fromEntries(names.map((name, i) => [name, created[i]])) as Record<Name, InternshipView>;
}

/** The ids of the result cards in server-rendered HTML, in page order. */
function cardIds(html: string): string[] {
  return [...html.matchAll(/<h[23] id="internship-([0-9a-f-]{36})"/g)].map((m) => m[1]);
}

function idsOf(seeded: Record<Name, InternshipView>, ...names: Name[]): string[] {
  return names.map((name) => seeded[name].id).sort();
}

Deno.test("filters in the URL render only the matching cards", async () => {
  await using t = await createTestApp();
  const seeded = await seed(t, await createTestUser(t, "member"));
  const cases: [string, Name[]][] = [
    ["", ["react", "marketing", "data"]],
    ["includeClosed=true", ["react", "marketing", "data", "design"]],
    ["types=remote", ["react"]],
    ["types=remote&includeClosed=true", ["react", "design"]],
    ["types=remote,hybrid", ["react", "data"]],
    ["minStipend=10000", ["react"]],
    ["maxStipend=5000", ["marketing"]],
    ["maxStipend=5000&includeClosed=true", ["marketing", "design"]],
    ["tags=PYTHON", ["data"]],
    ["location=mumb", ["marketing"]],
    ["search=preact%20dashboards", ["react"]],
    ["q=numera", ["data"]],
    ["types=remote&minStipend=1", ["react"]],
    ["types=onsite&tags=python", []],
  ];
  for (const [query, expected] of cases) {
    const { res, html } = await page(t, `/internships?${query}`);
    assertHtml(res);
    assertEquals(cardIds(html).sort(), idsOf(seeded, ...expected), query);
  }
});

Deno.test("the filter form works as a plain GET form: repeated types and empty fields", async () => {
  await using t = await createTestApp();
  const seeded = await seed(t, await createTestUser(t, "member"));
  const { res, html } = await page(
    t,
    "/internships?search=&types=remote&types=hybrid&tags=&location=&minStipend=1&maxStipend=",
  );
  assertHtml(res);
  assertEquals(cardIds(html).sort(), idsOf(seeded, "react"));
  assertMatch(html, /<form[^>]*method="get"[^>]*action="\/internships"/);
  assertMatch(html, /<input type="checkbox" name="types" value="remote" checked/);
  assertMatch(html, /<input type="checkbox" name="types" value="hybrid" checked/);
  assertMatch(html, /<input type="checkbox" name="types" value="onsite" class/);
  assertMatch(html, /value="1"[^>]*id="filter-minStipend"|id="filter-minStipend"[^>]*value="1"/);
});

Deno.test("cards show the stipend in rupees, Unpaid, the deadline and the verified mark", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const seeded = await seed(t, await createTestUser(t, "member"));
  await updateInternship(t.kv, { id: seeded.react.id, actor: admin.user, patch: { isVerified: true } });
  const { html } = await page(t, "/internships?types=remote&includeClosed=true");
  assert(html.includes("₹20,000 a month"), "stipend in en-IN rupees");
  assert(html.includes("Unpaid"), "stipend 0 shows Unpaid");
  assertMatch(html, /<time datetime="2099-01-31">31 Jan 2099<\/time>/);
  assertMatch(html, /\(Closes in [\d,]+ days\)/);
  assert(html.includes("(Closed)"), "a past deadline shows Closed");
  assertEquals(html.match(/>Closed</g)?.length, 1, "the Closed badge of the closed listing only");
  assertEquals(html.match(/>\s*Checked\s*</g)?.length, 1, "an admin's check of a listing");
  const data = await page(t, "/internships?types=hybrid");
  // The filter island's messages (in a script) hold every stipend sentence; the cards are what counts.
  const cards = data.html.replace(/<script[\s\S]*?<\/script>/g, "");
  assert(cards.includes("Stipend not stated") && !cards.includes("Unpaid"), "a null stipend is not stated");
});

Deno.test("invalid query parameters render the page with a note instead of an error", async () => {
  await using t = await createTestApp();
  const seeded = await seed(t, await createTestUser(t, "member"));
  for (const query of ["limit=abc", "offset=-1", "minStipend=lots", "types=space", "limit=100000"]) {
    const { res, html } = await page(t, `/internships?${query}`);
    assertHtml(res);
    assert(html.includes("were not valid and were left out"), query);
    assertEquals(cardIds(html).length, 3, query);
  }
  const kept = await page(t, "/internships?types=remote&minStipend=oops");
  assertHtml(kept.res);
  assertMatch(kept.html, /left out \(minimum stipend\)/);
  assertEquals(cardIds(kept.html).sort(), idsOf(seeded, "react"));
  const crossed = await page(t, "/internships?maxStipend=1&minStipend=5000");
  assertHtml(crossed.res);
  assertMatch(crossed.html, /left out \(maximum stipend\)/);
  assertEquals(cardIds(crossed.html).sort(), idsOf(seeded, "react", "marketing"));
  const hindi = await page(t, "/internships?types=remote&minStipend=oops&limit=abc&lang=hi");
  assert(
    hindi.html.includes("उन्हें छोड़ दिया गया (हर पेज पर नतीजों की गिनती, कम से कम स्टाइपेंड)। नीचे के नतीजे"),
    "the note in Hindi",
  );
  assert(!hindi.html.includes("were not valid"), "no English note on a Hindi page");
});

Deno.test("pagination shows the range and links to the previous and next pages with the filters kept", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  await addInternships(
    t,
    owner,
    Array.from({ length: 23 }, (_, i) => ({
      title: `Remote Role ${i}`,
      hiringOrganization: "Many Co",
      link: "https://many.example.com",
      type: "remote" as const,
    })),
  );
  const first = await page(t, "/internships?types=remote");
  assertEquals(cardIds(first.html).length, 10);
  assert(first.html.includes("Showing 1–10 of 23 internships"));
  assertMatch(first.html, /<a href="\/internships\?types=remote&amp;offset=10" rel="next"/);
  assert(!first.html.includes('rel="prev"'), "no previous link on the first page");
  const last = await page(t, "/internships?types=remote&offset=20");
  assertEquals(cardIds(last.html).length, 3);
  assert(last.html.includes("21–23 of 23"));
  assertMatch(last.html, /<a href="\/internships\?types=remote&amp;offset=10" rel="prev"/);
  assert(!last.html.includes('rel="next"'), "no next link on the last page");
  const past = await page(t, "/internships?offset=40");
  assertHtml(past.res, 404);
  assert(!past.html.includes("Remote Role"), "a page past the end is the not-found page");
});

Deno.test("no matches show the empty state with a way to clear the filters", async () => {
  await using t = await createTestApp();
  await seed(t, await createTestUser(t, "member"));
  const { res, html } = await page(t, "/internships?search=astronaut");
  assertHtml(res);
  assert(html.includes("No internships match these filters."));
  assertMatch(html, /<a href="\/internships"[^>]*>Clear filters<\/a>/);
  assert(html.includes('role="status" aria-live="polite"'), "result count is a live region");
});

Deno.test("the detail page shows every field, the owner and a safe apply link", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member", { name: "Priya Sharma" });
  const seeded = await seed(t, owner);
  const { res, html } = await page(t, `/internships/${seeded.react.id}`);
  assertHtml(res);
  for (const text of ["React Developer Intern", "Acme Labs", "₹20,000 a month", "Bengaluru", "Remote", "Full-time"]) {
    assert(html.includes(text), text);
  }
  assert(html.includes("Build dashboards with Preact and Tailwind."));
  assert(html.includes("Priya Sharma"), "owner name");
  assertMatch(
    html,
    /<a href="https:\/\/acme\.example\.com\/jobs\/react" target="_blank" rel="noopener noreferrer nofollow"/,
  );
  assert(!html.includes("/edit"), "guests get no edit link");
});

/** The seeded listings with "marketing" soft-deleted by its owner and "data" deactivated by an admin. */
async function seedWithHidden(t: TestApp) {
  const owner = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const seeded = await seed(t, owner);
  await deleteInternship(t.kv, { id: seeded.marketing.id, actor: owner.user });
  await updateInternship(t.kv, { id: seeded.data.id, actor: admin.user, patch: { isActive: false } });
  return { owner, admin, seeded };
}

Deno.test("unknown, malformed, deleted and (for the public) inactive internships are 404 pages", async () => {
  await using t = await createTestApp();
  const { owner, admin, seeded } = await seedWithHidden(t);
  for (
    const path of [
      `/internships/${crypto.randomUUID()}`,
      "/internships/not-a-uuid",
      `/internships/${seeded.marketing.id}`,
    ]
  ) {
    const { res, html } = await page(t, path);
    assertHtml(res, 404);
    assert(html.includes("Page not found"), path);
  }
  assertHtml((await page(t, `/internships/${seeded.data.id}`)).res, 404);
  const other = await createTestUser(t, "member");
  assertHtml((await page(t, `/internships/${seeded.data.id}`, other.cookie)).res, 404);
  const asOwner = await page(t, `/internships/${seeded.data.id}`, owner.cookie);
  assertHtml(asOwner.res);
  assert(asOwner.html.includes("This listing is inactive"));
  const asAdmin = await page(t, `/internships/${seeded.data.id}`, admin.cookie);
  assertHtml(asAdmin.res);
  assertMatch(asAdmin.html, /<!--island:InternshipAdminControls:\d+-->/);
  assertHtml((await page(t, `/internships/${seeded.marketing.id}/edit`, owner.cookie)).res, 404);
});

Deno.test("the list's My internships and Post buttons show only to people who can post", async () => {
  await using t = await createTestApp();
  for (const [role, shown] of [["user", false], ["member", true], ["admin", true]] as const) {
    const { html } = await page(t, "/internships", await createTestUser(t, role));
    assertEquals(html.includes('href="/internships/mine"'), shown, role);
    assertEquals(html.includes('href="/internships/new"'), shown, role);
  }
  const guest = await page(t, "/internships");
  assert(!guest.html.includes('href="/internships/mine"'), "not to a guest");
});

Deno.test("guests are sent to sign in from the new, edit and mine pages", async () => {
  await using t = await createTestApp();
  const seeded = await seed(t, await createTestUser(t, "member"));
  assertRedirect((await page(t, "/internships/new")).res, "/sign-in?callbackURL=%2Finternships%2Fnew");
  assertRedirect((await page(t, "/internships/mine")).res, "/sign-in?callbackURL=%2Finternships%2Fmine");
  assertRedirect(
    (await page(t, `/internships/${seeded.react.id}/edit`)).res,
    `/sign-in?callbackURL=%2Finternships%2F${seeded.react.id}%2Fedit`,
  );
});

Deno.test("a plain user cannot post: the new page explains that members post", async () => {
  await using t = await createTestApp();
  const user = await createTestUser(t, "user");
  const { res, html } = await page(t, "/internships/new", user.cookie);
  assertHtml(res, 403);
  assert(html.includes("Only members can post internships"));
  assert(!html.includes("InternshipForm"), "no form for a plain user");
  // How to become a poster: where to write, what to send, how long it takes; the contact page says the same.
  assert(html.includes('href="/contact"') && html.includes("its website") && html.includes("2 working days"));
  const hindi = await page(t, "/internships/new?lang=hi", user.cookie);
  assert(hindi.html.includes('href="/contact"') && hindi.html.includes("2 कामकाजी दिनों"), "the same in Hindi");
  for (const [lang, words] of [["en", "Posting internships for your organization"], ["hi", "इंटर्नशिप पोस्ट करना"]]) {
    assert((await page(t, `/contact?lang=${lang}`)).html.includes(words), `/contact for organizations in ${lang}`);
  }
  for (const [lang, words] of [["en", "Are you hiring interns?"], ["hi", "क्या आप इंटर्न रख रहे हैं?"]]) {
    const home = (await page(t, `/?lang=${lang}`)).html;
    assert(home.includes(words) && home.includes('href="/contact"'), `the home page leads employers on in ${lang}`);
  }
  const listing = await page(t, "/internships", user.cookie);
  assert(!listing.html.includes('href="/internships/new"'), "no post link for a plain user");
});

Deno.test("members and admins get the posting form", async () => {
  await using t = await createTestApp();
  for (const role of ["member", "admin"] as const) {
    const { res, html } = await page(t, "/internships/new", (await createTestUser(t, role)).cookie);
    assertHtml(res);
    assertMatch(html, /<!--island:InternshipForm:\d+-->/);
    assertMatch(html, /<label for="internship-title"[^>]*>Title<\/label>/);
  }
});

Deno.test("only the owner and admins may edit; the form holds the current values", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const seeded = await seed(t, owner);
  const other = await createTestUser(t, "member");
  const denied = await page(t, `/internships/${seeded.react.id}/edit`, other.cookie);
  assertHtml(denied.res, 403);
  assert(denied.html.includes("You cannot edit this internship"));
  for (const cookie of [owner.cookie, (await createTestUser(t, "admin")).cookie]) {
    const { res, html } = await page(t, `/internships/${seeded.react.id}/edit`, cookie);
    assertHtml(res);
    assertMatch(html, /value="React Developer Intern"/);
    assertMatch(html, /value="React, frontend"/);
    assertMatch(html, /value="2099-01-31"/);
  }
});

Deno.test("My internships lists the user's own live listings, inactive ones included", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  const admin = await createTestUser(t, "admin");
  const seeded = await seed(t, owner);
  const others = await addInternships(t, admin, [LISTINGS.react]);
  await deleteInternship(t.kv, { id: seeded.marketing.id, actor: owner.user });
  await updateInternship(t.kv, { id: seeded.data.id, actor: admin.user, patch: { isActive: false } });
  const { res, html } = await page(t, "/internships/mine", owner.cookie);
  assertHtml(res);
  assertEquals(cardIds(html).sort(), idsOf(seeded, "react", "data", "design"));
  assert(!html.includes(others[0].id), "another user's listing");
  assert(html.includes("Inactive"), "the inactive badge");
  assertEquals(html.match(/<!--island:InternshipDeleteButton:\d+-->/g)?.length, 3);
  const empty = await page(t, "/internships/mine", (await createTestUser(t, "user")).cookie);
  assertHtml(empty.res);
  assert(empty.html.includes("You have not posted any internships yet."));
});

Deno.test("My internships pages through the user's listings 20 at a time, newest first", async () => {
  await using t = await createTestApp();
  const owner = await createTestUser(t, "member");
  await addInternships(t, await createTestUser(t, "member"), [LISTINGS.react]);
  const batches: InternshipView[][] = [];
  for (let i = 0; i < 5; i++) {
    batches.push(await addInternships(t, owner, Array.from({ length: 5 }, () => LISTINGS.marketing)));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const own = batches.flat();
  const first = await page(t, "/internships/mine", owner.cookie);
  assertHtml(first.res);
  assert(first.html.includes("You have 25 listings."));
  const onFirst = cardIds(first.html);
  assertEquals(onFirst.length, 20);
  assert(first.html.includes('href="/internships/mine?offset=20" rel="next"'), "a next link");
  assert(!first.html.includes('rel="prev"'), "no previous link on the first page");
  const second = await page(t, "/internships/mine?offset=20", owner.cookie);
  assertHtml(second.res);
  assert(second.html.includes('href="/internships/mine" rel="prev"'), "a previous link");
  assert(second.html.includes("21–25 of 25"));
  const onSecond = cardIds(second.html);
  assertEquals(new Set([...onFirst, ...onSecond]).size, 25);
  assertEquals(new Set([...onFirst, ...onSecond]), new Set(own.map((i) => i.id)));
  assertEquals(onFirst.slice(0, 5).sort(), batches[4].map((i) => i.id).sort(), "the newest batch first");
  const invalid = await page(t, "/internships/mine?offset=-3", owner.cookie);
  assertHtml(invalid.res);
  assertEquals(cardIds(invalid.html), onFirst);
});

Deno.test("the admin list shows inactive listings by default and deleted ones on request, to admins only", async () => {
  await using t = await createTestApp();
  const { owner, admin, seeded } = await seedWithHidden(t);
  const live = await page(t, "/admin/internships", admin.cookie);
  assertHtml(live.res);
  assertEquals(cardIds(live.html).sort(), idsOf(seeded, "react", "data", "design"));
  assertEquals(live.html.match(/<!--island:InternshipAdminControls:\d+-->/g)?.length, 3);
  assert(
    live.html.includes("Showing 1–3 of 3 internships; 1 of them is open on the public list."),
    "the count says how many the public list shows: not the inactive one, not the closed one",
  );
  const publicOnly = await page(t, "/admin/internships?show=public", admin.cookie);
  assertEquals(cardIds(publicOnly.html).sort(), idsOf(seeded, "react", "design"));
  const all = await page(t, "/admin/internships?show=all&search=marketing", admin.cookie);
  assertEquals(cardIds(all.html), [seeded.marketing.id]);
  assert(all.html.includes("Deleted"), "the deleted badge");
  assert(!all.html.includes(`href="/internships/${seeded.marketing.id}"`), "no link to a deleted listing's page");
  assert(!all.html.includes("InternshipAdminControls"), "no switches on a deleted listing");
  const bad = await page(t, "/admin/internships?offset=-4&show=nonsense", admin.cookie);
  assertHtml(bad.res);
  assert(bad.html.includes("were not valid"));
  const badHindi = await page(t, "/admin/internships?offset=-4&lang=hi", admin.cookie);
  assert(badHindi.html.includes("इस लिंक के कुछ फ़िल्टर सही नहीं थे, इसलिए उन्हें छोड़ दिया गया (पेज)।"));
  for (const show of ["__proto__", "constructor", "toString"]) {
    const inherited = await page(t, `/admin/internships?show=${show}`, admin.cookie);
    assertHtml(inherited.res);
    assertEquals(cardIds(inherited.html).sort(), idsOf(seeded, "react", "data", "design"), show);
  }

  const member = await page(t, "/admin/internships", owner.cookie);
  assertHtml(member.res, 403);
  assertEquals(cardIds(member.html), []);
  assertRedirect((await page(t, "/admin/internships")).res, "/sign-in?callbackURL=%2Fadmin%2Finternships");
});

Deno.test("closing applications on My internships' second page comes back to that page, with the confirmation", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [oldest] = await addInternships(t, member, [{ title: "Oldest Intern", deadline: "2099-01-31" }]);
  for (let i = 0; i < 20; i++) await addInternships(t, member, [{ title: `Intern ${i}`, deadline: "2099-01-31" }]);
  const second = htmlDocument((await page(t, "/internships/mine?offset=20", member)).html);
  const toggle = second.querySelector(`form[action="/internships/${oldest.id}/applications"]`)!;
  const fields = [...toggle.querySelectorAll("input")].map((
    input,
  ) => [input.getAttribute("name")!, input.getAttribute("value")!]);
  const closed = await t.fetch(`/internships/${oldest.id}/applications`, {
    method: "POST",
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  await closed.body?.cancel();
  const back = `/internships/mine?offset=20&applications=closed&id=${oldest.id}#internship-${oldest.id}`;
  assertEquals([closed.status, closed.headers.get("location")], [303, back]);
  const told = htmlDocument((await page(t, back, member)).html);
  assert(told.querySelector(`#internship-${oldest.id} [role="status"]`)?.textContent?.includes("You closed"));
  const odd = await t.fetch(`/internships/${oldest.id}/applications`, {
    method: "POST",
    headers: { ...member.headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "reopen", from: "mine", offset: "twenty" }),
    redirect: "manual",
  });
  await odd.body?.cancel();
  assertEquals(odd.status, 400, "an offset that is no number is refused");
});

Deno.test("the poster closes applications from My internships and reopens them on the listing, without JavaScript", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const stranger = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{ title: "Filled Intern", deadline: "2099-01-31" }]);
  const [past] = await addInternships(t, member, [{ title: "Past Intern", deadline: "2020-01-31" }]);
  const send = (who: TestUser, id: string, fields: Record<string, string>) =>
    t.fetch(`/internships/${id}/applications`, {
      method: "POST",
      headers: { ...who.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const form = (html: string, id: string) => {
    const found = htmlDocument(html).querySelector(`form[action="/internships/${id}/applications"]`);
    return found && { intent: found.querySelector('[name="intent"]')?.getAttribute("value"), text: found.textContent };
  };

  const mine = (await page(t, "/internships/mine", member)).html;
  assertEquals(form(mine, listing.id)?.intent, "close");
  assert(form(mine, listing.id)?.text?.includes("Close applications"), "the button says what it does");
  // Its words in sight, the title for screen readers: in Hindi the title's particle goes with it, out of sight.
  for (
    const [lang, shown, heard] of [
      ["en", "Close applications", "Close applications for Filled Intern"],
      ["hi", "आवेदन बंद करें", "Filled Intern के आवेदन बंद करें"],
    ]
  ) {
    const html = (await page(t, `/internships/mine?lang=${lang}`, member)).html;
    const button = htmlDocument(html).querySelector(`form[action="/internships/${listing.id}/applications"] button`)!;
    const words = (text: string | null | undefined) => text?.replace(/\s+/g, " ").trim();
    assertEquals(words(button.textContent), heard, `${lang}: what a screen reader hears`);
    button.querySelector(".sr-only")?.remove();
    assertEquals(words(button.textContent), shown, `${lang}: what is shown`);
  }
  assertEquals(form(mine, past.id), null, "a listing closed by its deadline has no button");
  const refused = await send(stranger, listing.id, { intent: "close", from: "mine" });
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  const bad = await send(member, listing.id, { intent: "shut", from: "mine" });
  assertEquals(bad.status, 400);
  await bad.body?.cancel();

  const closed = await send(member, listing.id, { intent: "close", from: "mine" });
  const back = `/internships/mine?applications=closed&id=${listing.id}#internship-${listing.id}`;
  assertEquals([closed.status, closed.headers.get("location")], [303, back]);
  const told = htmlDocument((await page(t, back, member)).html);
  const notice = told.querySelector(`#internship-${listing.id} [role="status"]`)?.textContent ?? "";
  assert(notice.includes("You closed applications to this internship"), notice);
  assert(notice.includes("Students see that applications are closed"), "a listing that takes applications elsewhere");
  const notices = [...told.querySelectorAll('[role="status"]')].filter((n) => n.textContent?.includes("You closed"));
  assertEquals(notices.length, 1, "beside that listing only");
  const [here] = await addInternships(t, member, [{
    title: "Here Intern",
    deadline: "2099-01-31",
    applyMode: "platform",
  }]);
  const closedHere = await send(member, here.id, { intent: "close", from: "" });
  const hereText = (await page(t, closedHere.headers.get("location")!, member)).html;
  assert(hereText.includes("answer them within 15 days, or they are told that you did not respond"), "its applicants");
  await closedHere.body?.cancel();
  const { internship } = await (await t.fetch(`/api/internships/${listing.id}`)).json();
  assertEquals([internship.isClosed, typeof internship.closedAt, internship.deadline], [true, "string", "2099-01-31"]);
  const open = await (await t.fetch("/api/internships")).json();
  assertEquals(open.internships.map((i: { id: string }) => i.id), [], "gone from the default list");
  const after = (await page(t, "/internships/mine", member)).html;
  assertEquals(form(after, listing.id)?.intent, "reopen");
  assert(after.includes("Applications closed"), "the card says applications are closed");
  const shown = (await page(t, `/internships/${listing.id}`, member)).html;
  assertMatch(shown, /Applications closed on \d+ \w+ 2\d{3}\./);
  assertEquals(shown.match(/Applications closed/g)?.length, 1, "said once, with its day");
  assert(!shown.includes("Apply by"), "no deadline the poster never meant");
  const hindi = (await page(t, `/internships/${listing.id}?lang=hi`)).html;
  assertMatch(hindi, /\d+ \S+ 2\d{3} को आवेदन बंद कर दिए गए।/, "in Hindi too");

  const reopened = await send(member, listing.id, { intent: "reopen", from: "" });
  const location = `/internships/${listing.id}?applications=reopened`;
  assertEquals([reopened.status, reopened.headers.get("location")], [303, location]);
  assert((await page(t, location, member)).html.includes("You reopened applications"), "the listing confirms it");
  assert(!(await page(t, location, stranger)).html.includes("You reopened"), "to its poster only");
  const stale = (await page(t, `/internships/${listing.id}?applications=closed`, member)).html;
  assert(!stale.includes("You closed applications"), "not a close it no longer has");
  const again = await (await t.fetch(`/api/internships/${listing.id}`)).json();
  assertEquals([again.internship.isClosed, again.internship.closedAt], [false, null]);
  const listed = await (await t.fetch("/api/internships")).json();
  assertEquals(listed.internships.map((i: { id: string }) => i.id), [listing.id], "back in the default list");
});

Deno.test("PUT /api/internships/{id} with closed closes and reopens applications, keeping the first closedAt", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{ title: "Ops Intern", deadline: "2099-01-31" }]);
  const put = async (body: unknown) =>
    await (await t.json("PUT", `/api/internships/${listing.id}`, { body, headers: member.headers })).json();
  const first = (await put({ closed: true })).internship;
  assertEquals(first.isClosed, true);
  assertEquals((await put({ closed: true, title: "Ops Intern (filled)" })).internship.closedAt, first.closedAt);
  assertEquals((await put({ closed: false })).internship.closedAt, null);
});

Deno.test("a moderation form drawn before another admin's change saves and logs only its own switch", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const other = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{ title: "Data Intern" }]);
  const drawn = hiddenFields((await page(t, "/admin/internships", admin)).html);
  assertEquals([drawn.was_isVerified, drawn.was_isActive], ["false", "true"], "the listing as drawn");
  const hidden = await t.json("PUT", `/api/internships/${listing.id}`, {
    body: { isActive: false },
    headers: other.headers,
  });
  assertEquals(hidden.status, 200);
  await hidden.body?.cancel();
  const row = {
    intent: "moderate",
    id: listing.id,
    was_isVerified: "false",
    was_isActive: "true",
    back: "/admin/internships",
  };
  const saved = await postForm(t, admin, "/admin/internships", { ...row, isVerified: "true", isActive: "true" });
  assertEquals(saved.headers.get("location"), `/admin/internships?moderated=${listing.id}`);
  const found = await getInternship(t.kv, { id: listing.id, viewer: admin.user, audience: "api" });
  assertEquals([found.isVerified, found.isActive], [true, false], "the other admin's hiding stays");
  const unchanged = await postForm(t, admin, "/admin/internships", { ...row, isActive: "true" });
  assertEquals(unchanged.status, 303, "nothing changed: back, with no write");
  const logged = await listAdminLog(t.kv, adminLogQuerySchema.parse({ action: "internship.update" }));
  const mine = logged.entries.filter((entry) => entry.adminId === admin.user.id).map((entry) => entry.summary);
  assertEquals(mine, ["isVerified: true"], "the log says what this admin changed, once");
});

Deno.test("the moderation switches' plain form saves both and returns to its page; another page, the list; a refusal in its words", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const member = await createTestUser(t, "member");
  const [listing] = await addInternships(t, member, [{ title: "Data Intern" }]);
  const moderate = (fields: Record<string, string>, headers = {}) =>
    postForm(t, admin, "/admin/internships", { intent: "moderate", id: listing.id, ...fields }, headers);
  const state = async () => {
    const found = await getInternship(t.kv, { id: listing.id, viewer: admin.user, audience: "api" });
    return [found.isVerified, found.isActive];
  };
  const list = await moderate({
    isVerified: "true",
    isActive: "true",
    back: "/admin/internships?search=data&offset=0",
  });
  assertEquals(list.headers.get("location"), `/admin/internships?search=data&offset=0&moderated=${listing.id}`);
  assertEquals(await state(), [true, true]);
  const own = await moderate({ isVerified: "true", back: `/internships/${listing.id}` });
  assertEquals(own.headers.get("location"), `/internships/${listing.id}?moderated=${listing.id}`);
  assertEquals(await state(), [true, false], "an unticked box is false");
  for (const back of ["https://evil.example/admin/internships", "//evil.example/x", "/me/settings", ""]) {
    const res = await moderate({ isVerified: "true", isActive: "true", back });
    assertEquals(res.headers.get("location"), `/admin/internships?moderated=${listing.id}`, back);
  }
  const saved = await (await t.fetch(`/internships/${listing.id}?moderated=${listing.id}&lang=hi`, {
    headers: admin.headers,
  })).text();
  assert(saved.includes("सेव हो गया।"), "the listing's page says it saved, in Hindi");
  const unknown = await postForm(t, admin, "/admin/internships", {
    intent: "moderate",
    id: crypto.randomUUID(),
    back: "/admin/internships",
  }, { "accept-language": "hi-IN,hi;q=0.9" });
  assertEquals(unknown.status, 404);
  assert((await unknown.text()).includes("लिस्टिंग सेव नहीं हुई"));
  const bad = await postForm(t, admin, "/admin/internships", { intent: "delete", id: listing.id });
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
});

Deno.test("'Posted by' draws an admin's role as a badge from their record, which a name typed as '(admin)' lacks", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin", { name: "Asha" });
  const member = await createTestUser(t, "member", { name: "Asha (admin)" });
  const footerOf = async (poster: TestUser) => {
    const res = await t.json("POST", "/api/internships", { body: internshipBody(), headers: poster.headers });
    assertEquals(res.status, 201);
    const { id } = (await res.json()).data;
    const page = htmlDocument(await (await t.fetch(`/internships/${id}`)).text());
    const footer = [...page.querySelectorAll("footer p")].find((p) => p.textContent?.startsWith("Posted by"));
    assert(footer, "a Posted by line");
    return footer;
  };
  const byAdmin = await footerOf(admin);
  assertEquals(byAdmin.querySelector('[data-badge="admin"]')?.textContent, "admin", "the admin's badge");
  const byMember = await footerOf(member);
  assertEquals(byMember.querySelector('[data-badge="admin"]'), null, "no admin badge for a typed name");
  assertEquals(byMember.querySelector('[data-badge="member"]')?.textContent, "member", "their own role's badge");
});
