/**
 * The sitemap at 100,000 internships (docs/decisions.md, Search engines and sharing): a sitemap index of four files
 * holding every open internship once in each language, the same on every request after the first (which builds it), and built again
 * after a write. How fast it answers is `bench/sitemap.ts`'s to measure.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { generateInternships, importInternships } from "@/lib/internships/fixtures.ts";
import { postInternship } from "@/tests/fixtures/internships.ts";
import { texts, xmlDocument, xmlTexts } from "@/tests/fixtures/html.ts";

const COUNT = 100_000;

Deno.test("the sitemap at 100,000 internships: an index of four files holding every open internship once per language", async () => {
  await using t = await createTestApp();
  const member = await createTestUser(t, "member");
  const now = Date.now();
  // One in ten keeps its generated deadline (15-75 days after creation within the last 120 days, so many are closed);
  // the rest have none. With the inactive and deleted ones, about 85,000 are open.
  const records = generateInternships(COUNT, [member.user.id], { seed: 11, now, withHidden: true })
    .map((record, i) => i % 10 === 0 ? record : { ...record, deadline: null });
  await importInternships(t.kv, records);

  const root = await t.fetch("/sitemap.xml");
  const first = await root.text();
  const index = xmlDocument(first);
  assertEquals(index.documentElement.nodeName, "sitemapindex");
  const files = [1, 2, 3, 4].map((n) => `/sitemap/${n}.xml`);
  assertEquals(texts(index, "loc"), files.map((path) => `${t.origin}${path}`));

  const paths = ["/sitemap.xml", ...files];
  const bodies = new Map<string, string>([["/sitemap.xml", first]]);
  for (let i = 0; i < 2 * paths.length; i++) {
    const path = paths[i % paths.length];
    const res = await t.fetch(path);
    assertEquals(res.status, 200);
    const body = await res.text();
    if (bodies.has(path)) assert(body === bodies.get(path), `${path} is the same the next time`);
    bodies.set(path, body);
  }
  const locs = files.flatMap((path) => xmlTexts(bodies.get(path)!, "loc"));
  assertEquals(new Set(locs).size, locs.length);
  const internships = locs.filter((loc) => loc.includes("/internships/") && !loc.endsWith("?lang=hi"));
  assert(internships.length > 50_000 && internships.length < COUNT, `${internships.length} open internships`);
  const hindi = new Set(locs.filter((loc) => loc.includes("/internships/") && loc.endsWith("?lang=hi")));
  assert(internships.every((loc) => hindi.has(`${loc}?lang=hi`)), "each in Hindi too");

  const created = await postInternship(t, member, { title: "Fresh" });
  const after = await (await t.fetch("/sitemap/1.xml")).text();
  assert(after.includes(`/internships/${created.id}</loc>`), "a new internship is in the next sitemap");
});
