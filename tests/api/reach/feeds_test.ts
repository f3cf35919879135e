/**
 * What crawlers and feed readers read (docs/decisions.md, Search engines and sharing): `/robots.txt`, the sitemap
 * (open internships, published opportunities, active toolkits and the live posts a guest can read, with `lastmod`; a
 * sitemap index past the page size) and the two RSS feeds, parsed as XML and checked item by item.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser, type TestApp } from "@/tests/helpers/app.ts";
import { postInternship, postInternships } from "@/tests/fixtures/internships.ts";
import { submitOpportunity } from "@/tests/fixtures/opportunities.ts";
import { createPost } from "@/tests/fixtures/posts.ts";
import { addToolkit } from "@/tests/fixtures/toolkits.ts";
import { istToday } from "@/lib/dates.ts";
import { sitemap } from "@/lib/seo/sitemap.ts";
import { texts, xmlDocument, xmlTexts } from "@/tests/fixtures/html.ts";
import { people } from "@/tests/fixtures/people.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayFromToday = (days: number) => istToday(new Date(Date.now() + days * DAY_MS));

async function xml(t: TestApp, path: string, type: string) {
  const res = await t.fetch(path);
  assertEquals([res.status, res.headers.get("content-type")], [200, type], path);
  return xmlDocument(await res.text());
}

Deno.test("robots.txt keeps crawlers out of admin, the API (but files) and account pages, and names the sitemap", async () => {
  await using t = await createTestApp();
  const res = await t.fetch("/robots.txt");
  assertEquals([res.status, res.headers.get("content-type")], [200, "text/plain; charset=utf-8"]);
  assertEquals(
    await res.text(),
    [
      "User-agent: *",
      "Allow: /api/files/",
      ...["/admin", "/api/", "/profile", "/onboarding", "/me/", "/toolkits/mine", "/purchases/"]
        .map((path) => `Disallow: ${path}`),
      "",
      `Sitemap: ${t.origin}/sitemap.xml`,
      "",
    ].join("\n"),
  );
});

Deno.test("the sitemap lists the public pages and every open, published, active or live record with lastmod", async () => {
  await using t = await createTestApp();
  const { admin, member, student: user } = await people(t);
  const open = await postInternship(t, member, { title: "Open", deadline: dayFromToday(5) });
  const undated = await postInternship(t, member, { title: "No deadline" });
  const closed = await postInternship(t, member, { title: "Closed", deadline: dayFromToday(-1) });
  const hidden = await postInternship(t, member, { title: "Inactive" });
  await t.json("PUT", `/api/internships/${hidden.id}`, { body: { isActive: false }, headers: admin.headers });
  const deleted = await postInternship(t, member, { title: "Deleted" });
  await t.fetch(`/api/internships/${deleted.id}`, { method: "DELETE", headers: member.headers });
  const published = await submitOpportunity(t, member, { type: "grant", title: "Grant" });
  const pending = await submitOpportunity(t, user, { type: "grant", title: "Pending" });
  const toolkit = await addToolkit({ t, admin }, { title: "Active toolkit", description: "d", price: 0 });
  const draftToolkit = await addToolkit({ t, admin }, {
    title: "Draft toolkit",
    description: "d",
    price: 0,
    isActive: false,
  });
  const post = await createPost(t, admin, { title: "Live" });
  const draft = await createPost(t, admin, { title: "Draft", isPublished: false });
  const scheduled = await createPost(t, admin, { title: "Later", publishedAt: "2099-01-01T00:00:00.000Z" });

  const document = await xml(t, "/sitemap.xml", "application/xml; charset=utf-8");
  assertEquals(document.documentElement.nodeName, "urlset");
  const urls = [...document.getElementsByTagName("url")].map((url) => ({
    loc: texts(url, "loc")[0],
    lastmod: texts(url, "lastmod")[0],
  }));
  const locs = urls.map((url) => url.loc.replace(t.origin, ""));
  for (const path of ["/", "/internships", "/opportunities", "/toolkits", "/ungatekeep", "/privacy", "/terms"]) {
    assert(locs.includes(path), path);
  }
  for (const path of [`/internships/${open.id}`, `/internships/${undated.id}`, `/opportunities/${published.id}`]) {
    assert(locs.includes(path), path);
  }
  assert(locs.includes(`/toolkits/${toolkit.id}`));
  assert(locs.includes(`/ungatekeep/${post.id}`));
  for (const id of [closed.id, hidden.id, deleted.id]) assert(!locs.includes(`/internships/${id}`), id);
  assert(!locs.includes(`/opportunities/${pending.id}`));
  assert(!locs.includes(`/toolkits/${draftToolkit.id}`));
  assert(!locs.includes(`/ungatekeep/${draft.id}`) && !locs.includes(`/ungatekeep/${scheduled.id}`));
  const lastmod = (path: string) => urls.find((url) => url.loc === `${t.origin}${path}`)?.lastmod;
  assertEquals(lastmod(`/internships/${open.id}`), open.updatedAt);
  assertEquals(lastmod(`/opportunities/${published.id}`), published.updatedAt);
  assertEquals(lastmod(`/ungatekeep/${post.id}`), post.publishedAt);
  assert(lastmod("/internships")! >= undated.updatedAt);

  const renamed = await t.json("PUT", `/api/internships/${open.id}`, {
    body: { deadline: dayFromToday(-3) },
    headers: member.headers,
  });
  assertEquals(renamed.status, 200);
  const after = await (await t.fetch("/sitemap.xml")).text();
  assert(!after.includes(`/internships/${open.id}<`), "a write is seen by the next request");
  assertEquals((await t.fetch("/sitemap/1.xml")).status, 404, "no sitemap files while one document holds every URL");
});

Deno.test("the sitemap lists only the posts a guest can read: the head of the feed and of each tag's feed", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));
  const posts: Record<string, { id: string }> = {};
  // Oldest first: a pinned announcement, four more, a resource, two company experiences.
  for (
    const [name, tag, isPinned] of [
      ["a1", "announcement", true],
      ["a2", "announcement", false],
      ["a3", "announcement", false],
      ["a4", "announcement", false],
      ["a5", "announcement", false],
      ["r1", "resources", false],
      ["c1", "company_experience", false],
      ["c2", "company_experience", false],
    ] as const
  ) {
    posts[name] = await createPost(t, admin, { title: name, tag, isPinned });
    await later();
  }
  // The feed's head: a1 (pinned), c2, c1; announcements: a1, a5, a4; resources: r1; company experiences: c2, c1.
  const locs = xmlTexts(await (await t.fetch("/sitemap.xml")).text(), "loc")
    .filter((loc) => loc.startsWith(`${t.origin}/ungatekeep/`) && !loc.endsWith("?lang=hi"));
  const listed = ["a1", "a4", "a5", "r1", "c1", "c2"].map((name) => `${t.origin}/ungatekeep/${posts[name].id}`);
  assertEquals(locs.toSorted(), listed.toSorted());
  for (const loc of locs) assertEquals((await t.fetch(loc)).status, 200, `a guest reads ${loc}`);
  for (const name of ["a2", "a3"]) {
    assertEquals((await t.fetch(`/ungatekeep/${posts[name].id}`)).status, 302, `${name} sends a guest to sign in`);
  }
  // A post scheduled for an hour from now is listed once it is live: the kept sitemap ends at its time.
  const soon = await createPost(t, admin, {
    title: "soon",
    publishedAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const at = (ms: number) => sitemap(t.kv, { origin: t.origin, now: new Date(Date.now() + ms) });
  assert(!(await at(0)).root.text.includes(soon.id));
  assert((await at(2 * 3_600_000)).root.text.includes(`/ungatekeep/${soon.id}<`));
});

Deno.test("past the page size the sitemap is an index of files that hold every URL once, in both languages", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  await postInternships(t, member, Array.from({ length: 30 }, (_, i) => ({ title: `Role ${i}` })));
  const built = await sitemap(t.kv, { origin: t.origin, pageSize: 20 });
  assertEquals(built.urlCount, 2 * (9 + 30));
  const index = xmlDocument(built.root.text);
  assertEquals(index.documentElement.nodeName, "sitemapindex");
  assertEquals(texts(index, "loc"), [1, 2, 3, 4].map((n) => `${t.origin}/sitemap/${n}.xml`));
  const locs = built.pages.flatMap((page) => {
    const document = xmlDocument(page.text);
    assertEquals(document.documentElement.nodeName, "urlset");
    assert(document.getElementsByTagName("url").length <= 20);
    return texts(document, "loc");
  });
  assertEquals(locs.length, 78);
  assertEquals(new Set(locs).size, 78);
  const english = locs.filter((loc) => !loc.endsWith("?lang=hi"));
  assertEquals(english.map((loc) => `${loc}?lang=hi`).sort(), locs.filter((loc) => loc.endsWith("?lang=hi")).sort());
  assertEquals(texts(index, "lastmod").length, 4);

  const plain = await t.fetch("/sitemap.xml");
  assertEquals([plain.headers.get("content-encoding"), plain.headers.get("vary")], [null, "accept-encoding"]);
  const gzip = await t.fetch("/sitemap.xml", { headers: { "accept-encoding": "gzip, br" } });
  assertEquals(gzip.headers.get("content-encoding"), "gzip");
  const unzipped = await new Response(gzip.body!.pipeThrough(new DecompressionStream("gzip"))).text();
  assertEquals(unzipped, await plain.text(), "the kept gzip is the document");

  const full = await sitemap(t.kv, { origin: t.origin, pageSize: 78 });
  assertEquals(
    [xmlDocument(full.root.text).documentElement.nodeName, full.pages.length],
    ["urlset", 0],
    "78 URLs in 78",
  );
  const over = await sitemap(t.kv, { origin: t.origin, pageSize: 77 });
  assertEquals([xmlDocument(over.root.text).documentElement.nodeName, over.pages.length], ["sitemapindex", 2]);
});

Deno.test("the posts feed is RSS 2.0 of the 20 newest live posts with title, link, date, excerpt and tag", async () => {
  await using t = await createTestApp();
  const admin = await createTestUser(t, "admin");
  const posts = [];
  for (let i = 0; i < 22; i++) {
    const publishedAt = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    posts.push(
      await createPost(t, admin, { title: `Post ${i} <&>`, tag: i % 2 ? "resources" : "announcement", publishedAt }),
    );
  }
  await createPost(t, admin, { title: "Pinned old", isPinned: true, publishedAt: "2020-01-01T00:00:00.000Z" });
  await createPost(t, admin, { title: "Draft", isPublished: false });
  const document = await xml(t, "/ungatekeep/rss.xml", "application/rss+xml; charset=utf-8");
  assertEquals(document.documentElement.getAttribute("version"), "2.0");
  const items = [...document.getElementsByTagName("item")];
  assertEquals(items.length, 20);
  const newest = posts[21];
  const first = items[0];
  assertEquals(texts(first, "title"), [newest.title]);
  assertEquals(texts(first, "link"), [`${t.origin}/ungatekeep/${newest.id}`]);
  assertEquals(texts(first, "pubDate"), [new Date(newest.publishedAt).toUTCString()]);
  assertEquals(texts(first, "description"), [newest.excerpt]);
  assertEquals(texts(first, "category"), ["Resources"]);
  assertEquals(
    items.map((item) => texts(item, "title")[0]),
    posts.slice(2).reverse().map((post) => post.title),
  );
});

Deno.test("the internship feed takes the list's filters and carries the 50 newest open matches", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  await postInternships(
    t,
    member,
    Array.from(
      { length: 55 },
      (_, i) => ({ title: `React role ${i}`, tags: ["react"], location: "Pune", stipend: 10000 + i }),
    ),
  );
  const closed = await postInternship(t, member, {
    title: "React closed",
    tags: ["react"],
    deadline: dayFromToday(-1),
  });
  await postInternship(t, member, { title: "Design role", tags: ["design"] });
  const document = await xml(t, "/internships/rss.xml?tags=react&location=pune", "application/rss+xml; charset=utf-8");
  const titles = [...document.getElementsByTagName("item")].map((item) => texts(item, "title")[0]);
  assertEquals(titles.length, 50);
  assert(titles.every((title) => title.startsWith("React role") && title.endsWith("at Example Labs")));
  assert(!titles.some((title) => title.includes(closed.title)));
  const channelLink = texts(document, "link")[0];
  assertEquals(channelLink, `${t.origin}/internships?tags=react&location=pune`);
  const all = await xml(t, "/internships/rss.xml", "application/rss+xml; charset=utf-8");
  assert(texts(all, "title").some((title) => title.startsWith("Design role")));
  const hindi = await xml(t, "/internships/rss.xml?tags=react&lang=hi", "application/rss+xml; charset=utf-8");
  assertEquals(texts(hindi, "language"), ["en-IN"], "a feed stays English for a Hindi reader");
  assert(texts(hindi, "title")[0].startsWith("Internships matching your filters"));
  const bad = await t.fetch("/internships/rss.xml?minStipend=abc");
  assertEquals(bad.status, 400);
  await bad.body?.cancel();
  const page = await (await t.fetch("/internships?tags=react")).text();
  assert(page.includes('href="/internships/rss.xml?tags=react"'), "the list links to the feed of its filters");

  // A deadline at 20:00 UTC is 01:30 the next day in India: the day to apply by is India's.
  await postInternship(t, member, {
    title: "Evening",
    tags: ["evening"],
    deadline: `${dayFromToday(5)}T20:00:00.000Z`,
  });
  const evening = await xml(t, "/internships/rss.xml?tags=evening", "application/rss+xml; charset=utf-8");
  const [description] = texts(evening.getElementsByTagName("item")[0], "description");
  assert(description.includes(`Apply by ${dayFromToday(6)}`), description);
});
