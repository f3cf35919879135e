/**
 * `GET /api/admin/ungatekeep` (admin) → `{posts, pagination}`, drafts and scheduled posts
 * included, with `search`, `tag`, `limit` (default 50, max 100), `offset`; `POST` → 201 `{post}`.
 * docs/api.md, Ungatekeep, docs/decisions.md, Ungatekeep and banners and Admin lists.
 */
import { define } from "@/lib/platform/define.ts";
import { assertSignedIn } from "@/lib/http/guards.ts";
import { queryOf, readBody, validate } from "@/lib/http/json.ts";
import { AdminPostQuerySchema, createPost, listPostsForAdmin, PostCreateSchema } from "@/lib/ungatekeep/posts.ts";

export const handler = define.handlers({
  async GET(_req, ctx) {
    const query = validate(AdminPostQuerySchema, queryOf(ctx.url));
    return Response.json(await listPostsForAdmin(ctx.state.services.kv, query));
  },

  async POST(req, ctx) {
    assertSignedIn(ctx.state);
    const input = await readBody(req, PostCreateSchema);
    const { kv, files } = ctx.state.services;
    const post = await createPost(kv, files, ctx.state.user, input);
    return Response.json({ post }, { status: 201 });
  },
});
