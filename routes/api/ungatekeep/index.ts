/**
 * `GET /api/ungatekeep` (public): the feed, `tag`, `limit` (default 20, max 100), `offset` →
 * `{posts, total, hiddenCount}`; a guest gets the first 3 posts and the count of the hidden rest.
 * docs/api.md, Ungatekeep, "Feed", docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { FeedQuerySchema, listFeed } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PostSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "The feed of live posts, pinned first, then newest",
    description: "A guest gets the first 3 and `hiddenCount`, the number of the rest.",
    access: ["public", "session"],
    query: FeedQuerySchema,
    responses: {
      200: {
        description: "A page of the feed",
        schema: z.strictObject({ posts: z.array(PostSchema), total: z.int(), hiddenCount: z.int() }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(FeedQuerySchema, queryOf(ctx.url));
    return Response.json(await listFeed(ctx.state.services.kv, { query, viewer: ctx.state.user }));
  },
});
