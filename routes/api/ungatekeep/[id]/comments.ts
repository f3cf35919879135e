/**
 * `GET` and `POST /api/ungatekeep/{id}/comments`: a post's comments; its `apiDocs` below are its description
 * (docs/api.md, Ungatekeep; docs/decisions.md, Comments and reactions).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { BUSY, count, describeRoute, perWindow } from "@/lib/openapi/describe.ts";
import { COMMENT_MAX_LENGTH, COMMENT_RATE_LIMIT, COMMENT_RATE_WINDOW_MS } from "@/lib/comments/limits.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { CommentSchema, CommentThreadSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { CommentCreateSchema, CommentListQuerySchema, createComment, listComments } from "@/lib/comments/comments.ts";

export const apiDocs = describeRoute({
  section: "Ungatekeep",
  GET: {
    summary: "A post's comments: top-level comments oldest first, each with its replies",
    description: "`limit` and `offset` count top-level comments; replies come oldest first, every one, or with " +
      "`replies` at most that many per thread, `moreReplies` marking a thread with others. Whoever may read the " +
      "post may read its comments. A deleted comment with replies stays as a placeholder (`isDeleted`, empty " +
      "content, `user: null`).",
    access: ["public", "session"],
    query: CommentListQuerySchema,
    responses: {
      200: {
        description: "A page of threads",
        schema: z.strictObject({ comments: z.array(CommentThreadSchema), pagination: PaginationSchema }),
      },
      401: "Sign in to read this post (a guest, beyond the preview)",
      404: "Post not found (or not published)",
    },
  },
  POST: {
    summary: "Comment on a post, or reply to a comment",
    description: `Plain text, at most ${count(COMMENT_MAX_LENGTH)} characters; links become \`nofollow\` links. A ` +
      "reply to a reply attaches to its top-level comment. The post's author, or the author of the comment replied " +
      "to, is notified.",
    access: ["session"],
    body: CommentCreateSchema,
    responses: {
      201: { description: "The comment", schema: z.strictObject({ comment: CommentSchema }) },
      400: `Empty or longer than ${count(COMMENT_MAX_LENGTH)} characters`,
      403: "The e-mail address is not verified (or a write from another origin)",
      404: "Post not found, or the comment replied to is not found",
      429: `More than ${perWindow({ limit: COMMENT_RATE_LIMIT, windowMs: COMMENT_RATE_WINDOW_MS })} per person`,
      503: BUSY,
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(CommentListQuerySchema, queryOf(ctx.url));
    return Response.json(
      await listComments(ctx.state.services.kv, { postId: ctx.params.id, viewer: ctx.state.user, query }),
    );
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, CommentCreateSchema);
    const { services } = ctx.state;
    const { comment, mailId } = await createComment(services.kv, {
      postId: ctx.params.id,
      author: ctx.state.user,
      input,
      appUrl: services.config.appUrl,
    });
    if (mailId) deliverSoon(services, mailId);
    return Response.json({ comment }, { status: 201 });
  },
});
