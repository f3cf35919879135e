/**
 * `GET`, `PUT`, `PATCH` and `DELETE /api/admin/ungatekeep/{id}`: one post for the admin; its `apiDocs` below are its
 * description (docs/api.md, Ungatekeep, "Post states"; docs/decisions.md, Ungatekeep and banners).
 */
import { define } from "@/lib/platform/define.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { readBody } from "@/lib/http/json.ts";
import { deletePost, getPostForAdmin, PostUpdateSchema, updatePost } from "@/lib/ungatekeep/posts.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { PostSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { z } from "zod";

const update = define.handlers(async (req, ctx) => {
  const patch = await readBody(req, PostUpdateSchema);
  const { kv, files, log } = ctx.state.services;
  const audit = adminAudit(ctx.state, { action: "post.update", targetKind: "post" });
  return Response.json({ post: await updatePost(kv, { files, log, id: ctx.params.id, patch, audit }) });
});

const Answer = z.strictObject({ post: PostSchema });

/** `PUT` and `PATCH` are one operation. */
const change = {
  summary: "Change a post (the fields given)",
  description: "`PUT` and `PATCH` both apply a partial update. Every image must be an upload (400 otherwise); the " +
    "images the change drops are deleted.",
  access: ["admin" as const],
  body: PostUpdateSchema,
  responses: { 200: { description: "The post", schema: Answer }, 404: "Post not found" },
};

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "A post in any state",
    access: ["admin"],
    responses: { 200: { description: "The post", schema: Answer }, 404: "Post not found" },
  },
  PUT: change,
  PATCH: change,
  DELETE: {
    summary: "Delete a post for good, with its images, comments and reactions",
    description: "Its comments, reactions, counters and reply notifications go first, then its images (one the file " +
      "store fails to delete is logged and left stored). A deletion stopped midway (an error answered 500) is " +
      "finished by deleting the post again, which answers 200; while another deletion of it is under way, 404.",
    access: ["admin"],
    responses: { 200: { description: "Deleted", schema: SuccessSchema }, 404: "Post not found" },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    return Response.json({ post: await getPostForAdmin(ctx.state.services.kv, ctx.params.id) });
  },
  PUT: update,
  PATCH: update,
  async DELETE(_req, ctx) {
    const { kv, files, log } = ctx.state.services;
    const audit = adminAudit(ctx.state, { action: "post.delete", targetKind: "post" });
    await deletePost(kv, { files, log, id: ctx.params.id, audit });
    return Response.json({ success: true });
  },
});
