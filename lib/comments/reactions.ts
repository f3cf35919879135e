/**
 * Reactions to Ungatekeep posts (docs/decisions.md, Comments and reactions): `helpful`, `insightful` and `celebrate`,
 * at most one of each type per person and post, counted with KV sum counters. Adding a reaction one already gave, or
 * removing one not given, changes nothing. The KV layout is `store.ts`.
 */
import { readablePost } from "@/lib/ungatekeep/posts.ts";
import type { User } from "@/lib/users/users.ts";
import { RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { REACTION_TYPES, type ReactionCounts, type ReactionType } from "./schema.ts";
import { engagementOf, readReactions, setReactions } from "./store.ts";

/** What the reaction routes answer: the post's counts and the caller's own reactions. */
export interface ReactionsAnswer {
  reactions: ReactionCounts;
  mine: ReactionType[];
}

/**
 * Gives (`on`) or takes back a reaction of `type` by `user` on a post they may read, then answers the counts.
 * @throws NotFoundError "Post not found"; UnauthenticatedError for a post beyond what the user may read; BusyError
 *   after 30 s of races lost to other writers (a lost race reads again and tries again).
 */
export async function react(
  kv: Deno.Kv,
  { postId, user, type, on }: { postId: string; user: User; type: ReactionType; on: boolean },
): Promise<ReactionsAnswer> {
  await retrying(
    async () => {
      const post = await readablePost(kv, { id: postId, viewer: user });
      const before = await readReactions(kv, user.id, postId);
      const had = before.value ?? [];
      if (had.includes(type) === on) return true;
      const types = REACTION_TYPES.filter((t) => t === type ? on : had.includes(t));
      return await setReactions(kv, { post, userId: user.id, postId, before, types });
    },
    RETRY_BUDGET_MS,
  );
  const engagement = (await engagementOf(kv, [postId], user.id)).get(postId)!;
  return { reactions: engagement.reactions, mine: engagement.myReactions ?? [] };
}
