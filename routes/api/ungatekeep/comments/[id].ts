/**
 * `PATCH` and `DELETE /api/ungatekeep/comments/{id}`: edit or delete a comment; its `apiDocs` below are its
 * description (docs/api.md, Ungatekeep; docs/decisions.md, Comments and reactions).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { readBody } from "@/lib/http/json.ts";
import { BUSY, count, describeRoute, duration } from "@/lib/openapi/describe.ts";
import { COMMENT_EDIT_WINDOW_MS, COMMENT_MAX_LENGTH } from "@/lib/comments/limits.ts";
import { CommentSchema, SuccessSchema } from "@/lib/openapi/resources.ts";
import { CommentEditSchema, editComment, removeComment } from "@/lib/comments/comments.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";

/** Writes fall under the per-person limit `comments` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "comments" };

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  PATCH: {
    summary: `Edit a comment (its author, within ${duration(COMMENT_EDIT_WINDOW_MS)} of posting)`,
    access: ["session"],
    body: CommentEditSchema,
    responses: {
      200: { description: "The comment", schema: z.strictObject({ comment: CommentSchema }) },
      400: `Empty or longer than ${count(COMMENT_MAX_LENGTH)} characters`,
      403: `Not the author, or more than ${duration(COMMENT_EDIT_WINDOW_MS)} after posting`,
      404: "Comment not found (or deleted)",
      503: BUSY,
    },
  },
  DELETE: {
    summary: "Delete a comment (its author or an admin)",
    description: "A comment with replies stays as a placeholder (`isDeleted`, empty content, `user: null`).",
    access: ["session"],
    responses: {
      200: { description: "Deleted", schema: SuccessSchema },
      403: "Neither the author nor an admin",
      404: "Comment not found (or deleted)",
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async PATCH(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, CommentEditSchema);
    return Response.json({
      comment: await editComment(ctx.state.services.kv, { id: ctx.params.id, editor: ctx.state.user, input }),
    });
  },

  async DELETE(_req, ctx) {
    assertSignedIn(ctx.state);
    await removeComment(ctx.state.services.kv, ctx.params.id, ctx.state.user);
    return Response.json({ success: true });
  },
});
