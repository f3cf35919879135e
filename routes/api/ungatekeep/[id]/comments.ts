/**
 * `GET /api/ungatekeep/{id}/comments?limit=&offset=` (whoever may read the post) → `{comments, pagination}`, top-level
 * comments oldest first, each with its `replies`; `POST` `{content, parentId?}` (session, verified e-mail) → 201
 * `{comment}`. docs/api.md, Ungatekeep; docs/decisions.md, Comments and reactions.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";
import { CommentSchema, CommentThreadSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { CommentCreateSchema, CommentListQuerySchema, createComment, listComments } from "@/lib/comments/comments.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "A post's comments: top-level comments oldest first, each with its replies",
    description: "`limit` and `offset` count top-level comments. Whoever may read the post may read its comments.",
    access: ["public", "session"],
    query: CommentListQuerySchema,
    responses: {
      200: {
        description: "A page of threads",
        schema: z.strictObject({ comments: z.array(CommentThreadSchema), pagination: PaginationSchema }),
      },
      401: "Sign in to read this post",
      404: "Post not found",
    },
  },
  POST: {
    summary: "Comment on a post, or reply to a comment",
    description: "Plain text, at most 2,000 characters. A reply to a reply attaches to its top-level comment. " +
      "At most 10 comments per person per minute.",
    access: ["session"],
    body: CommentCreateSchema,
    responses: {
      201: { description: "The comment", schema: z.strictObject({ comment: CommentSchema }) },
      400: "Empty or longer than 2,000 characters",
      403: "The e-mail address is not verified",
      404: "Post not found, or the comment replied to is not found",
      429: "More than 10 comments in a minute (`Retry-After`)",
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
