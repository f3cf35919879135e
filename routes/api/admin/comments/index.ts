/**
 * `GET /api/admin/comments`: every comment for moderation; its `apiDocs` below are its description (docs/api.md,
 * Admin; docs/decisions.md, Comments and reactions).
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, validate } from "@/lib/http/json.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { AdminCommentSchema, PaginationSchema } from "@/lib/openapi/resources.ts";
import { AdminCommentQuerySchema, listCommentsForAdmin } from "@/lib/comments/comments.ts";

export const apiDocs = describeRoute({
  section: "Admin",
  GET: {
    summary: "Every live comment, newest first, for moderation",
    description: "Each with its post's `{id, title}` (null once deleted). `search` matches every word in the content " +
      "or the author's name, among the newest 2,000 live comments (`searchedNewest` says so when there are more) or " +
      "with `postId` among one post's comments; `postId` keeps one post's comments.",
    access: ["admin"],
    query: AdminCommentQuerySchema,
    responses: {
      200: {
        description: "A page of comments",
        schema: z.strictObject({
          comments: z.array(AdminCommentSchema),
          pagination: PaginationSchema,
          searchedNewest: z.number().int().nullable().describe(
            "When a search without `postId` looked through the newest 2,000 live comments only (there are more): " +
              "2000; else null",
          ),
        }),
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
