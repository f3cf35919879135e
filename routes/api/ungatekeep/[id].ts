/**
 * `GET /api/ungatekeep/{id}`: one live post; its `apiDocs` below are its description (docs/api.md, Ungatekeep,
 * "Post states"; docs/decisions.md, Ungatekeep and banners).
 */
import { define } from "@/lib/platform/define.ts";
import { getPost } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { GUEST_PREVIEW } from "@/lib/ungatekeep/tags.ts";
import { PostSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  GET: {
    summary: "One live post",
    description: `A guest reads only the posts of the preview (the first ${GUEST_PREVIEW} of the feed).`,
    access: ["public", "session"],
    responses: {
      200: { description: "The post", schema: z.strictObject({ post: PostSchema }) },
      401: "Sign in to read this post (a guest, beyond the preview)",
      404: "Post not found (also a draft or a post scheduled later)",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ post: await getPost(ctx.state.services.kv, { id: ctx.params.id, viewer: ctx.state.user }) });
  },
});
