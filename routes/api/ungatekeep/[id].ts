/**
 * `GET /api/ungatekeep/{id}` (public) → `{post}`: 404 "Post not found" for a draft, a post
 * scheduled later or an unknown id; 401 "Sign in to read this post" for a guest asking for a post
 * beyond the preview. docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { getPost } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PostSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "One live post",
    description: "A guest reads only the posts of the preview (the first 3 of the feed): others are 401.",
    access: ["public", "session"],
    responses: {
      200: { description: "The post", schema: z.strictObject({ post: PostSchema }) },
      401: "Sign in to read this post",
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ post: await getPost(ctx.state.services.kv, { id: ctx.params.id, viewer: ctx.state.user }) });
  },
});
