/**
 * The numbers and names of comments and reactions (docs/decisions.md, Comments and reactions), plain constants that
 * islands import too.
 */

/** Longest comment, in characters. */
export const COMMENT_MAX_LENGTH = 2000;
/** How long after writing it the author may edit a comment (ms). */
export const COMMENT_EDIT_WINDOW_MS = 15 * 60 * 1000;
/** Most top-level comments (threads) one answer or page holds: the API's `limit` and the post page's `?comments=`. */
export const THREADS_MAX = 100;
/**
 * Replies each thread of a post's page carries at first, the rest behind "More replies" (the API's `replies` as the
 * island asks for more threads).
 */
export const REPLIES_SHOWN = 3;
/** Most replies one opened thread, or an API answer's thread, carries at once. */
export const REPLIES_MAX = 100;
/** At most this many comments per user within `COMMENT_RATE_WINDOW_MS`. */
export const COMMENT_RATE_LIMIT = 10;
/** The sliding window of the comment rate limit (ms). */
export const COMMENT_RATE_WINDOW_MS = 60 * 1000;

/** The reaction types, in the order pages show them. */
export const REACTION_TYPES = ["helpful", "insightful", "celebrate"] as const;
export type ReactionType = typeof REACTION_TYPES[number];
