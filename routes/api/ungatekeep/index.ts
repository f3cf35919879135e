/**
 * `GET /api/ungatekeep` (public): the feed, `tag`, `limit` (default 20, max 100), `offset` →
 * `{posts, total, hiddenCount}`; a guest gets the first 3 posts and the count of the hidden rest.
 * docs/api.md, Ungatekeep feed rules, docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { FeedQuerySchema, listFeed } from "@/lib/ungatekeep/posts.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(FeedQuerySchema, queryOf(ctx.url));
    return Response.json(await listFeed(ctx.state.services.kv, query, ctx.state.user));
  },
});
