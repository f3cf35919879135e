/**
 * The comment and reaction resources of Ungatekeep posts (docs/api.md, Ungatekeep; docs/decisions.md,
 * Comments and reactions): the stored records, the views answers carry, and the zod schemas of bodies and queries.
 */
import { z } from "zod";
import { TextSchema } from "@/lib/text.ts";
import type { UserSummary } from "@/lib/users/users.ts";
import { COMMENT_MAX_LENGTH, REACTION_TYPES, type ReactionType, REPLIES_MAX, THREADS_MAX } from "./limits.ts";

export * from "./limits.ts";

/** A comment as stored. A reply's `parentId` is always a top-level comment (one level of replies). */
export interface Comment {
  id: string;
  postId: string;
  /** The top-level comment this replies to; null for a top-level comment. */
  parentId: string | null;
  /** Plain text with line breaks; empty once deleted. */
  content: string;
  /** The author; null once deleted, or once the author deleted their account. */
  userId: string | null;
  createdAt: string;
  updatedAt: string;
  /** True for the placeholder of a deleted comment that still has replies. */
  isDeleted: boolean;
}

/** A comment as answers carry it: `contentHtml` is `content` escaped, with line breaks and http(s) links. */
export interface CommentView extends Omit<Comment, "userId"> {
  contentHtml: string;
  user: UserSummary | null;
}

/**
 * A top-level comment with its replies, oldest first: every one, or when a page or the API's `replies` asks for at most
 * some, those and `moreReplies` when there are others after them (docs/decisions.md, Comments and reactions, "Pages").
 */
export interface CommentThread extends CommentView {
  replies: CommentView[];
  /** True when the thread has replies after those given (only when fewer were asked for). */
  moreReplies?: boolean;
  /** The id of the first reply after those given, when a page opened the thread (its "More replies" goes on there). */
  nextReplyId?: string;
  /** True when the replies given start after others (a page opened the thread at a later reply). */
  earlierReplies?: boolean;
}

/** A comment in the admin list, with the post it is under (null when that post is gone). */
export interface AdminCommentView extends CommentView {
  post: { id: string; title: string } | null;
}

/** The count of each reaction type on a post. */
export type ReactionCounts = Record<ReactionType, number>;

/** What every post read carries of its conversation. `myReactions` only for a signed-in caller. */
export interface PostEngagement {
  commentCount: number;
  reactions: ReactionCounts;
  myReactions?: ReactionType[];
}

/** The pagination object of the comment lists. */
export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

const contentField = TextSchema.trim().min(1).max(COMMENT_MAX_LENGTH);

/** Body of `POST /api/ungatekeep/{id}/comments`: `content`, and `parentId` for a reply. */
export const CommentCreateSchema = z.object({
  content: contentField,
  parentId: z.string().min(1).max(100).optional(),
});
export type CommentCreate = z.infer<typeof CommentCreateSchema>;

/** Body of `PATCH /api/ungatekeep/comments/{id}`. */
export const CommentEditSchema = z.object({ content: contentField });
export type CommentEdit = z.infer<typeof CommentEditSchema>;

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * Query of `GET /api/ungatekeep/{id}/comments`: `limit` top-level comments (1 to 100, default 20), `offset`, and
 * `replies`, the most replies each thread carries (0 to 100; absent: every one).
 */
export const CommentListQuerySchema = z.object({
  limit: intParam(1, THREADS_MAX).default(20),
  offset: intParam(0, Number.MAX_SAFE_INTEGER).default(0),
  replies: intParam(0, REPLIES_MAX).optional(),
});
export type CommentListQuery = z.infer<typeof CommentListQuerySchema>;

/** Query of `GET /api/admin/comments`: `search` (every word, content), `postId`, `limit` (default 50), `offset`. */
export const AdminCommentQuerySchema = z.object({
  search: z.string().max(200).optional(),
  postId: z.string().max(100).optional(),
  limit: intParam(1, 100).default(50),
  offset: intParam(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type AdminCommentQuery = z.infer<typeof AdminCommentQuerySchema>;

/** The `{type}` of the reaction routes. */
export const ReactionTypeSchema = z.enum(REACTION_TYPES);
