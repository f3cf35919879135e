/**
 * `GET` and `POST /api/admin/ungatekeep`: every post, and a new one; its `apiDocs` below are its description
 * (docs/api.md, Ungatekeep, "Post states"; docs/decisions.md, Ungatekeep and banners; docs/decisions.md, Admin lists).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import {
  AdminPostQuerySchema,
  createPost,
  listPostsForAdmin,
  PostCreateSchema,
  SEARCH_TEXT_CHARS,
} from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { MAX_POST_IMAGES } from "@/lib/ungatekeep/tags.ts";
import { PaginationSchema, PostListItemSchema, PostSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "Every post, drafts and scheduled ones included",
    description: "Newest (by `publishedAt`, else `createdAt`) first; `tag` filters, `search` matches every word in " +
      `the title or the first ${SEARCH_TEXT_CHARS} characters of the content, among the newest 1,000 posts ` +
      "(`searchedNewest` says so when there are more). Posts come as the feed lists them (an excerpt, no `contentHtml`); " +
      "`GET /api/admin/ungatekeep/{id}` renders one.",
    access: ["admin"],
    query: AdminPostQuerySchema,
    responses: {
      200: {
        description: "A page of posts",
        schema: z.strictObject({
          posts: z.array(PostListItemSchema),
          pagination: PaginationSchema,
          searchedNewest: z.number().int().nullable().describe(
            "When a search looked through the newest 1,000 posts (of the tag) only (there are more): 1000; else null",
          ),
        }),
      },
    },
  },
  POST: {
    summary: "Create a post",
    description: `A draft unless \`isPublished\`; a later \`publishedAt\` schedules it. At most ${MAX_POST_IMAGES} ` +
      "images, each an upload (400 otherwise).",
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
    const audit = adminAudit(ctx.state, { action: "post.create", targetKind: "post" });
    const post = await createPost(kv, { files, author: ctx.state.user, input, audit });
    return Response.json({ post }, { status: 201 });
  },
});
