/**
 * The demo discussion for `deno task seed` (docs/decisions.md, Comments and reactions): under "My SDE intern interview
 * at a fintech startup", Rohan asks, Sara and the member answer, Rohan thanks Sara (a reply to a reply, attached to
 * the thread), and Sara starts a second thread with a link; everyone reacts. Sara and Rohan get reply notifications
 * (and reply e-mails in the outbox, with links under `appUrl`). Added only while that post has no comments.
 */
import { createComment } from "@/lib/comments/comments.ts";
import { react } from "@/lib/comments/reactions.ts";
import { listPostsForAdmin } from "@/lib/ungatekeep/posts.ts";
import type { User } from "@/lib/users/users.ts";

/** The post the discussion is under. */
export const DISCUSSED_POST = "My SDE intern interview at a fintech startup";

/** Adds the discussion when the post has none; returns the line the seed script prints. */
export async function seedDiscussion(kv: Deno.Kv, accounts: Map<string, User>, appUrl: string): Promise<string[]> {
  const { posts } = await listPostsForAdmin(kv, { search: DISCUSSED_POST, limit: 1, offset: 0 });
  const post = posts.find((p) => p.title === DISCUSSED_POST);
  if (!post || post.commentCount > 0) return ["Comments: none added"];
  const [admin, member, sara, rohan] = ["admin", "member", "sara", "rohan"].map((name) =>
    accounts.get(`${name}@demo.careers`)!
  );
  const write = async (author: User, content: string, parentId?: string) =>
    (await createComment(kv, { postId: post.id, author, input: { content, parentId }, appUrl })).comment.id;
  const question = await write(
    rohan,
    "Which topics came up in the DSA round? I have mine next week.\nArrays and graphs only, or DP too?",
  );
  const answer = await write(
    sara,
    "Mostly arrays and one BFS question. No DP in my round, but practise it anyway.",
    question,
  );
  await write(member, "Same company last year: they also asked about time complexity of every approach.", question);
  await write(rohan, "Thanks Sara, that helps a lot!", answer);
  await write(
    sara,
    "For graphs, this list of practice problems is good: https://cp-algorithms.com/graph/breadth-first-search.html",
  );
  const reactions: [User, "helpful" | "insightful" | "celebrate"][] = [
    [rohan, "helpful"],
    [sara, "helpful"],
    [member, "insightful"],
    [admin, "celebrate"],
    [rohan, "celebrate"],
  ];
  for (const [user, type] of reactions) await react(kv, { postId: post.id, user, type, on: true });
  return ["Comments: a discussion of 5 comments and 5 reactions added"];
}
