/**
 * `/ungatekeep/rss.xml`: RSS 2.0 of the 20 newest live posts (`lib/seo/rss.ts`), kept per version of the posts for
 * guests.
 */
import { define } from "@/lib/platform/define.ts";
import { servePublicPage } from "@/lib/platform/state.ts";
import { POSTS_FEED_SIZE, postsFeed, RSS_CONTENT_TYPE, rssDocument } from "@/lib/seo/rss.ts";
import { latestPosts, postsVersion } from "@/lib/ungatekeep/posts.ts";

/** How long a feed may be kept, in seconds. */
const MAX_AGE_S = 300;

export const handler = define.handlers({
  GET(req, ctx) {
    const { kv, config } = ctx.state.services;
    // The kept feed is also renewed every `MAX_AGE_S`, when a scheduled post may have gone live.
    const slot = Math.floor(Date.now() / (MAX_AGE_S * 1000));
    return servePublicPage(req, ctx.state, ctx.url, {
      version: async () => `${await postsVersion(kv)}:${slot}`,
      render: async () => {
        const feed = postsFeed(await latestPosts(kv, POSTS_FEED_SIZE));
        return new Response(rssDocument(config.appUrl, feed), {
          headers: { "content-type": RSS_CONTENT_TYPE, "cache-control": `public, max-age=${MAX_AGE_S}` },
        });
      },
    });
  },
});
