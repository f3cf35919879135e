/**
 * `GET /api/admin/ungatekeep/{id}` (admin) → `{post}` in any state; `PUT` and `PATCH` both apply a
 * partial update → `{post}`; `DELETE` → `{success: true}`, the post's images deleted from the
 * object store. docs/api.md, Ungatekeep, "Post states"; docs/decisions.md, Ungatekeep and banners.
 */
import { define } from "@/lib/platform/define.ts";
import { readBody } from "@/lib/http/json.ts";
import { deletePost, getPostForAdmin, PostUpdateSchema, updatePost } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PostSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

const update = define.handlers(async (req, ctx) => {
  const patch = await readBody(req, PostUpdateSchema);
  const { kv, files } = ctx.state.services;
  return Response.json({ post: await updatePost(kv, { files, id: ctx.params.id, patch }) });
});

export const apiDocs = describeRoute({
  GET: {
    summary: "A post in any state",
    access: ["admin"],
    responses: { 200: { description: "The post", schema: z.strictObject({ post: PostSchema }) } },
  },
  PUT: {
    summary: "Change a post (the fields given)",
    access: ["admin"],
    body: PostUpdateSchema,
    responses: { 200: { description: "The post", schema: z.strictObject({ post: PostSchema }) } },
  },
  PATCH: {
    summary: "Change a post (the fields given)",
    access: ["admin"],
    body: PostUpdateSchema,
    responses: { 200: { description: "The post", schema: z.strictObject({ post: PostSchema }) } },
  },
  DELETE: {
    summary: "Delete a post and its images",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema } },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ post: await getPostForAdmin(ctx.state.services.kv, ctx.params.id) });
  },
  PUT: update,
  PATCH: update,
  async DELETE(_req, ctx) {
    const { kv, files } = ctx.state.services;
    await deletePost(kv, files, ctx.params.id);
    return Response.json({ success: true });
  },
});
