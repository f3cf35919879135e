/**
 * Who may do what with comments (docs/decisions.md, Comments and reactions): the one home of these rules, used by the
 * domain and by the pages that decide which controls to show.
 */
import { isAdmin, type Role } from "@/lib/users/roles.ts";
import { COMMENT_EDIT_WINDOW_MS } from "./limits.ts";

/** The caller as these rules see them. */
export interface Actor {
  id: string;
  role: Role;
  emailVerified: boolean;
}

/** What the rules read of a comment. */
export interface CommentFacts {
  userId: string | null;
  createdAt: string;
  isDeleted: boolean;
}

/** True when `actor` may write comments and replies: a verified e-mail. */
export function canComment(actor: Actor): boolean {
  return actor.emailVerified;
}

/** True when `actor` wrote `comment` and it is still within the edit window at `now`. */
export function canEdit(actor: Actor, comment: CommentFacts, now = Date.now()): boolean {
  return !comment.isDeleted && comment.userId === actor.id &&
    now - Date.parse(comment.createdAt) <= COMMENT_EDIT_WINDOW_MS;
}

/** True when `actor` may delete `comment`: its author, or an admin. */
export function canDelete(actor: Actor, comment: CommentFacts): boolean {
  return !comment.isDeleted && (comment.userId === actor.id || isAdmin(actor));
}

/** True when `actor` sees the admin list of comments. */
export function canModerate(actor: Actor): boolean {
  return isAdmin(actor);
}
