/**
 * `/internships/rss.xml`: RSS 2.0 of the 50 newest open internships matching the list's filters, given in the
 * list's own query string (`types`, `tags`, `location`, `minStipend`, `maxStipend`, `search`), so a saved search is
 * a feed (`lib/seo/rss.ts`). Invalid filters: 400 `{error}` as the list API answers them.
 */
import { define } from "@/lib/platform/define.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { istToday } from "@/lib/dates.ts";
import { listQueryString, readListParams } from "@/lib/browser/internship_query.ts";
import { InternshipQuerySchema, internshipsVersion, newestOpenInternships } from "@/lib/internships/internships.ts";
import { INTERNSHIPS_FEED_SIZE, internshipsFeed, RSS_CONTENT_TYPE, rssDocument } from "@/lib/seo/rss.ts";

export const handler = define.handlers({
  GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    const query = validate(InternshipQuerySchema, queryOf(ctx.url));
    const today = istToday();
    return servePublicPage(req, ctx.state, ctx.url, {
      version: () => internshipsVersion(kv, today),
      render: async () => {
        const internships = await newestOpenInternships(kv, {
          query: query,
          today: today,
          count: INTERNSHIPS_FEED_SIZE,
        });
        const filters = readListParams(ctx.url.searchParams).filters;
        const feed = internshipsFeed(internships, listQueryString({ filters, sort: "", offset: "", limit: "" }));
        return new Response(rssDocument(config.appUrl, feed), {
          headers: { "content-type": RSS_CONTENT_TYPE, "cache-control": "public, max-age=300" },
        });
      },
    });
  },
});
