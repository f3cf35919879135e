/**
 * `GET /api/ungatekeep/{id}` (public) → `{post}`: 404 "Post not found" for a draft, a post
 * scheduled later or an unknown id; 401 "Sign in to read this post" for a guest asking for a post
 * beyond the preview. CONTRACT.md §7.
 */
import type { AppState } from "../../../lib/platform/state.ts";
import { getPost } from "../../../lib/ungatekeep/posts.ts";
import type { Handlers } from "../../../lib/web/types.ts";

export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    return Response.json({ post: await getPost(ctx.state.services.kv, ctx.params.id, ctx.state.user) });
  },
};
