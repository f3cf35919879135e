/**
 * `GET /api/admin/comments?search=&postId=&limit=&offset=` (admin) → `{comments, pagination}`, newest first, each
 * with its post's id and title. docs/api.md, Ungatekeep; docs/decisions.md, Comments and reactions.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AdminCommentSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { AdminCommentQuerySchema, listCommentsForAdmin } from "@/lib/comments/comments.ts";

export const apiDocs = describeRoute({
  GET: {
    summary: "Every comment, newest first, for moderation",
    description: "`search` matches every word in the content or the author's name; `postId` keeps one post's.",
    access: ["admin"],
    query: AdminCommentQuerySchema,
    responses: {
      200: {
        description: "A page of comments",
        schema: z.strictObject({ comments: z.array(AdminCommentSchema), pagination: PaginationSchema }),
      },
    },
  },
});

export const handler = define.handlers({
  async GET(_req, ctx) {
    assertSignedIn(ctx.state);
    const query = validate(AdminCommentQuerySchema, queryOf(ctx.url));
    return Response.json(await listCommentsForAdmin(ctx.state.services.kv, ctx.state.user, query));
  },
});
