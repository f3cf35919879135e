/**
 * The demo in Hindi (docs/decisions.md, Languages): besides the pages' own words, a Hindi visitor finds listings, an
 * opportunity and an Ungatekeep post their posters wrote in Hindi, shown as written; seeding again adds none twice.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { page } from "@/tests/fixtures/html.ts";
import { seedDemoData } from "@/lib/demo/seed.ts";
import { HINDI_INTERNSHIPS } from "@/lib/demo/internships.ts";
import { HINDI_OPPORTUNITY } from "@/lib/demo/opportunities.ts";

/** How often `text` occurs in `html`. */
const count = (html: string, text: string) => html.split(text).length - 1;

Deno.test("a Hindi visitor of the demo finds listings, an opportunity and a post written in Hindi, once", async () => {
  await using t = await createTestApp();
  await seedDemoData(t.kv);
  assert((await seedDemoData(t.kv)).includes("Internships in Hindi: 0 added"), "seeding again adds none");

  const list = (await page(t, "/internships?lang=hi")).html;
  for (const listing of HINDI_INTERNSHIPS) {
    assertEquals(count(list, `>${listing.title}</a></h3>`), 1, `${listing.title} on the first page, once`);
  }
  const id = new RegExp(`href="/internships/([\\w-]+)"[^>]*>${HINDI_INTERNSHIPS[0].title}<`).exec(list)?.[1];
  assert(id, "the Hindi listing links its page");
  const listing = (await page(t, `/internships/${id}?lang=hi`)).html;
  assert(listing.includes("अनुभव ज़रूरी नहीं"), "its experience in the poster's Hindi");
  assert(listing.includes("घर से (रिमोट)"), "and its place");

  const opportunities = (await page(t, "/opportunities?lang=hi")).html;
  assert(opportunities.includes(`>${HINDI_OPPORTUNITY.title}<`), "the Hindi opportunity listed");
  const feed = (await page(t, "/ungatekeep?lang=hi")).html;
  assert(feed.includes("सरकारी बैंक की ब्रांच में इंटर्नशिप: मेरा अनुभव"), "the Hindi post in the feed");
});
