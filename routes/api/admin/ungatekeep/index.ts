/**
 * `GET /api/admin/ungatekeep` (admin) → `{posts, pagination}`, drafts and scheduled posts included,
 * with `search`, `tag`, `limit` (default 50, max 100), `offset`; `POST` → 201 `{post}`. docs/api.md,
 * Ungatekeep, docs/decisions.md, Ungatekeep and banners; docs/decisions.md, Admin lists.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { AdminPostQuerySchema, createPost, listPostsForAdmin, PostCreateSchema } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PaginationSchema, PostSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  GET: {
    summary: "Every post, drafts and scheduled ones included",
    access: ["admin"],
    query: AdminPostQuerySchema,
    responses: {
      200: {
        description: "A page of posts",
        schema: z.strictObject({ posts: z.array(PostSchema), pagination: PaginationSchema }),
      },
    },
  },
  POST: {
    summary: "Create a post",
    access: ["admin"],
    body: PostCreateSchema,
    responses: { 201: { description: "The post", schema: z.strictObject({ post: PostSchema }) } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminPostQuerySchema, queryOf(ctx.url));
    return Response.json(await listPostsForAdmin(ctx.state.services.kv, query));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, PostCreateSchema);
    const { kv, files } = ctx.state.services;
    const post = await createPost(kv, { files, author: ctx.state.user, input });
    return Response.json({ post }, { status: 201 });
  },
});
