/**
 * `GET /api/ungatekeep`: the Ungatekeep feed; its `apiDocs` below are its description (docs/api.md, Ungatekeep,
 * "Feed"; docs/decisions.md, Ungatekeep and banners).
 */
import { define } from "@/lib/platform/define.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { FeedQuerySchema, listFeed } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { GUEST_PREVIEW } from "@/lib/ungatekeep/tags.ts";
import { PostListItemSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  GET: {
    summary: "The feed of live posts, pinned first, then newest",
    description: `A guest gets the first ${GUEST_PREVIEW} posts and \`hiddenCount\`, the number of the others; a ` +
      "signed-in caller every live post, with `myReactions`. Posts carry their `excerpt`, not `contentHtml`: " +
      "`GET /api/ungatekeep/{id}` renders one.",
    access: ["public", "session"],
    query: FeedQuerySchema,
    responses: {
      200: {
        description: "A page of the feed",
        schema: z.strictObject({ posts: z.array(PostListItemSchema), total: z.int(), hiddenCount: z.int() }),
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
