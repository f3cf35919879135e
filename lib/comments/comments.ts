/**
 * Comments and replies under Ungatekeep posts (docs/decisions.md, Comments and reactions; docs/api.md, Ungatekeep): the thread of a post, write, reply (a reply to a reply attaches to its top-level comment), edit within
 * 15 minutes, delete (a comment with replies stays as a placeholder), the admin list, and a person's comments for
 * their data export. Whoever may read a post may read its comments; writing needs a verified e-mail and at most 10
 * comments a minute. The KV layout is `store.ts`.
 */
import { type AuditHook, auditOps } from "@/lib/admin_log/admin_log.ts";
import { ForbiddenError, NotFoundError, RateLimitedError } from "@/lib/errors.ts";
import { type OnLostRace, RETRY_BUDGET_MS, retrying } from "@/lib/kv/retry.ts";
import { addNotification, type NotificationGroup, readNotificationGroup } from "@/lib/notifications/notifications.ts";
import { queueMailOps } from "@/lib/mail/outbox.ts";
import { getSettings } from "@/lib/settings/settings.ts";
import { postTitles, readablePost } from "@/lib/ungatekeep/posts.ts";
import type { Viewer } from "@/lib/ungatekeep/policy.ts";
import { getUser, getUserSummaries, type User, type UserSummary } from "@/lib/users/users.ts";
import { usersWithWord, wordsOf } from "@/lib/users/user_index.ts";
import { contentHtml } from "./content.ts";
import { replyMail } from "./reply_mail.tsx";
import { translatorFor } from "@/lib/i18n/catalogue.ts";
import { DEFAULT_LANG } from "@/lib/i18n/languages.ts";
import { newUnsubscribeToken } from "@/lib/alerts/unsubscribe.ts";
import { canComment, canDelete, canEdit, canModerate } from "./policy.ts";
import {
  type AdminCommentQuery,
  type AdminCommentView,
  type Comment,
  type CommentCreate,
  type CommentEdit,
  type CommentListQuery,
  type CommentThread,
  type CommentView,
  type Pagination,
} from "./schema.ts";
import {
  closeReplyGateOps,
  deleteComment,
  dropReplyMailOfOps,
  getComment,
  newCommentOps,
  readRate,
  readRecentComments,
  readReplyGate,
  readThreadPage,
  readThreadReplies,
  replaceComment,
  type ReplyGate,
  replyGroup,
  replyMailOps,
  replyOfSubject,
  replySubject,
  scanComments,
  type ThreadRead,
} from "./store.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { finishRemoval, openReportsOf, removalOps } from "@/lib/reports/removals.ts";

export * from "./schema.ts";

const NOT_FOUND = REFUSALS.commentNotFound;

let lastIdMs = 0;
let idSequence = 0;

/**
 * A new comment id: the time in ms (hex), a sequence within that ms, and a random tail. Comments of the same ms sort
 * by id in their thread keys, so this keeps one process's comments in the order they were written.
 */
function commentId(ms: number): string {
  idSequence = ms === lastIdMs ? idSequence + 1 : 0;
  lastIdMs = ms;
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  return `${hex(ms, 12)}-${hex(idSequence, 4)}-${crypto.randomUUID().slice(0, 18)}`;
}

/** The refusals of comment writes, as the API says them (a page or island words them, `lib/refusals.ts`). */
export const VERIFY_TO_COMMENT = REFUSALS.verifyToComment;
export const COMMENTING_TOO_FAST = REFUSALS.commentTooFast;
export const EDIT_OTHERS = REFUSALS.editOthers;
export const EDIT_LATE = REFUSALS.editLate;
export const DELETE_OTHERS = REFUSALS.deleteOthers;

/** A page of a post's comments. */
export interface CommentPage {
  comments: CommentThread[];
  pagination: Pagination;
}

/** A page of the admin list. */
export interface AdminCommentPage {
  comments: AdminCommentView[];
  pagination: Pagination;
  /** When a search looked through the newest `SEARCHED_COMMENTS` live comments only (there are more): that number. */
  searchedNewest: number | null;
}

/** How many of the newest live comments a search without `postId` looks through. */
export const SEARCHED_COMMENTS = 2000;

function viewOf(comment: Comment, users: ReadonlyMap<string, UserSummary>): CommentView {
  const { userId, ...rest } = comment;
  return {
    ...rest,
    contentHtml: contentHtml(comment.content),
    user: userId ? users.get(userId) ?? null : null,
  };
}

function summaryOf(user: User): Map<string, UserSummary> {
  return new Map([[user.id, { id: user.id, name: user.name, image: user.image, role: user.role }]]);
}

async function authorsOf(kv: Deno.Kv, comments: Comment[]): Promise<Map<string, UserSummary>> {
  return await getUserSummaries(kv, comments.flatMap((c) => c.userId ?? []));
}

/** `thread` as answers carry it, with the authors in `users`. */
function threadOf(thread: ThreadRead, users: ReadonlyMap<string, UserSummary>): CommentThread {
  return {
    ...viewOf(thread.top, users),
    replies: thread.replies.map((reply) => viewOf(reply, users)),
    ...thread.more ? { moreReplies: true } : {},
  };
}

/**
 * Threads `offset` to `offset + limit` of a post (top-level comments oldest first, each with its replies oldest
 * first: every one, or at most `query.replies`, with `moreReplies` on a thread that has others);
 * `pagination.total` counts top-level comments, placeholders included.
 * @throws NotFoundError "Post not found"; UnauthenticatedError "Sign in to read this post" (a guest and a post beyond
 *   the preview).
 */
export async function listComments(
  kv: Deno.Kv,
  { postId, viewer, query }: { postId: string; viewer: Viewer; query: CommentListQuery },
): Promise<CommentPage> {
  await readablePost(kv, { id: postId, viewer });
  const page = await readThreadPage(kv, { postId, limit: query.limit, offset: query.offset, replies: query.replies });
  const users = await authorsOf(kv, page.threads.flatMap(({ top, replies }) => [top, ...replies]));
  return {
    comments: page.threads.map((thread) => threadOf(thread, users)),
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total: page.total,
      hasMore: query.offset + page.threads.length < page.total,
    },
  };
}

/**
 * The thread of top-level comment `topId` under post `postId` with at most `limit` of its replies from reply `fromId`
 * on (with `earlierReplies`), or its first ones; `moreReplies` and `nextReplyId` when others follow (a post page's
 * opened thread, docs/decisions.md, Comments and reactions, "Pages").
 * @throws NotFoundError "Comment not found" when the post has no such thread or the reply is not in it; as
 *   `listComments` for the post.
 */
export async function listThreadReplies(
  kv: Deno.Kv,
  { postId, topId, fromId, limit, viewer }: {
    postId: string;
    topId: string;
    fromId?: string;
    limit: number;
    viewer: Viewer;
  },
): Promise<CommentThread> {
  await readablePost(kv, { id: postId, viewer });
  const thread = await readThreadReplies(kv, { postId, topId, fromId, limit });
  if (!thread) throw new NotFoundError(NOT_FOUND);
  const users = await authorsOf(kv, [thread.top, ...thread.replies]);
  return {
    ...threadOf(thread, users),
    ...thread.next ? { nextReplyId: thread.next.id } : {},
    ...fromId ? { earlierReplies: true } : {},
  };
}

/**
 * The path of `comment` on its post's page: a reply's with its thread opened (`?thread=`), so that it shows beyond the
 * first replies a thread shows (docs/decisions.md, Comments and reactions, "Pages").
 */
export function commentPath(comment: { id: string; postId: string; parentId: string | null }): string {
  const thread = comment.parentId ? `?thread=${encodeURIComponent(comment.parentId)}` : "";
  return `/ungatekeep/${comment.postId}${thread}#comment-${comment.id}`;
}

/** The comment of `id` as read, live (not a placeholder). @throws NotFoundError "Comment not found". */
async function liveComment(kv: Deno.Kv, id: string): Promise<Deno.KvEntry<Comment>> {
  const entry = await getComment(kv, id);
  if (!entry || entry.value.isDeleted) throw new NotFoundError(NOT_FOUND);
  return entry;
}

/**
 * The live comment `id` under post `postId`, as answers carry it (a page's plain form names a comment of the post it
 * is on).
 * @throws NotFoundError "Comment not found" for an unknown or deleted id, or a comment under another post.
 */
export async function commentOnPost(kv: Deno.Kv, { postId, id }: { postId: string; id: string }): Promise<CommentView> {
  const entry = await liveComment(kv, id);
  if (entry.value.postId !== postId) throw new NotFoundError(NOT_FOUND);
  return viewOf(entry.value, await authorsOf(kv, [entry.value]));
}

/** Who a new reply answers: the top-level comment it attaches to (as read), and the comment it answered. */
interface ReplyTarget {
  parent: Deno.KvEntry<Comment>;
  answered: Comment;
}

async function replyTarget(kv: Deno.Kv, postId: string, parentId: string): Promise<ReplyTarget> {
  const answered = await liveComment(kv, parentId);
  if (answered.value.postId !== postId) throw new NotFoundError(NOT_FOUND);
  if (answered.value.parentId === null) return { parent: answered, answered: answered.value };
  const parent = await getComment(kv, answered.value.parentId);
  if (!parent) throw new NotFoundError(NOT_FOUND);
  return { parent, answered: answered.value };
}

/**
 * Who a reply notifies: the author of the comment answered, whether they take reply e-mails (`emailOnReply`), the
 * gate that lets one reply an hour per post reach them beyond the bell, pushed and e-mailed (`readReplyGate`), and
 * their notifications of replies under the post, of which they keep 10 (`replyGroup`), each replier's share.
 */
interface ReplyNotice {
  recipient: User;
  emailOnReply: boolean;
  gate: ReplyGate;
  group: NotificationGroup;
}

/**
 * The notice of a reply by `author` under post `postId` at `now` (ms) to a comment of `answeredUserId`, or null for
 * one's own reply or a deleted author.
 */
async function replyNotice(
  kv: Deno.Kv,
  { answeredUserId, author, postId, now }: { answeredUserId: string | null; author: User; postId: string; now: number },
): Promise<ReplyNotice | null> {
  if (!answeredUserId || answeredUserId === author.id) return null;
  const [recipient, settings, gate, group] = await Promise.all([
    getUser(kv, answeredUserId),
    getSettings(kv, answeredUserId),
    readReplyGate(kv, answeredUserId, postId, now),
    readNotificationGroup(kv, { userId: answeredUserId, group: replyGroup(postId), from: author.id }),
  ]);
  if (!recipient) return null;
  return { recipient, emailOnReply: settings.emailOnReply, gate, group };
}

/**
 * Adds to `op` what tells `notice.recipient` that `author` replied to their comment under the post titled
 * `postTitle` (docs/decisions.md, Comments and reactions, "Reply notifications"): the in-app notification, pushed to
 * their phones, and the e-mail in the outbox unless they turned `emailOnReply` off, with its one-click unsubscribe link
 * (its token written in `op` too). When a reply under this post reached them so within the hour, the notification
 * stays in the bell (`bellOnly`) and nothing is e-mailed. The notification joins their replies under the post, of
 * which one goes when they hold 10 already: the oldest of the replier holding the most (`notice.group`,
 * `droppedMembers`). Returns the mail's id, or null when none is sent.
 */
async function notifyReply(
  op: Deno.AtomicOperation,
  { notice, author, postTitle, reply, appUrl }: {
    notice: ReplyNotice;
    author: User;
    postTitle: string;
    reply: Comment;
    appUrl: string;
  },
): Promise<string | null> {
  const path = commentPath(reply);
  const { recipient } = notice;
  addNotification(
    op,
    {
      userId: recipient.id,
      type: "comment_reply",
      message: {
        title: { key: "notifications.text.reply.title", values: { replier: author.name, post: postTitle } },
        body: reply.content,
      },
      url: path,
      subject: replySubject(reply.id),
      bellOnly: !notice.gate.open,
      group: notice.group,
    },
    new Date(
      reply.createdAt,
    ),
  );
  if (!notice.gate.open) return null;
  closeReplyGateOps(op, {
    gate: notice.gate,
    recipientId: recipient.id,
    postId: reply.postId,
    now: Date.parse(reply.createdAt),
  });
  if (!notice.emailOnReply) return null;
  const unsubscribe = await newUnsubscribeToken({ userId: recipient.id, kind: "replies" });
  unsubscribe.write(op);
  const mail = replyMail({
    to: recipient.email,
    name: recipient.name,
    replier: author.name,
    postTitle,
    reply: reply.content,
    url: `${appUrl}${path}`,
    settingsUrl: `${appUrl}/me/settings`,
    unsubscribeUrl: `${appUrl}/unsubscribe/${unsubscribe.token}`,
    t: translatorFor(recipient.language ?? DEFAULT_LANG),
  });
  const mailId = queueMailOps(op, { ...mail, userId: recipient.id });
  replyMailOps(op, reply.id, mailId);
  return mailId;
}

/**
 * Adds to `op` (the reply's commit, which drops `notice.group.dropped` from the recipient's replies under the post) the
 * deletion of the e-mails still pending of the replies dropped that reached them beyond the bell (`told`), so a reply
 * pushed out of the 10 they keep reaches no inbox afterwards, as its push message goes with it (docs/decisions.md,
 * Notifications, "Ten replies a post"). The reply gate stays as read: the hour it closed goes on.
 */
async function dropOutgrownMailOps(kv: Deno.Kv, op: Deno.AtomicOperation, notice: ReplyNotice): Promise<void> {
  for (const member of notice.group.dropped) {
    const replyId = member.told && member.subject ? replyOfSubject(member.subject) : null;
    if (replyId) await dropReplyMailOfOps(kv, op, replyId);
  }
}

/** A new comment, and the id of the reply e-mail it queued (null when none). */
export interface NewComment {
  comment: CommentView;
  mailId: string | null;
}

/**
 * Writes a comment by `author` under post `postId`, or a reply when `input.parentId` names a comment of that post (a
 * reply to a reply attaches to its top-level comment). The post, the parent and the author's rate window are checked
 * in the same commit, which also notifies the author of the comment answered (not when they answer themselves): in
 * the app, and by e-mail through the outbox unless they turned it off. `appUrl` is the origin of the e-mail's links;
 * the caller starts the delivery of `mailId` (`deliverSoon`) once this returns.
 * @throws ForbiddenError when the author's e-mail is unverified; NotFoundError "Post not found" or "Comment not found"
 *   (the parent); UnauthenticatedError for a post the author may not read; RateLimitedError past 10 comments a minute;
 *   BusyError after 30 s of races lost to other writers (a lost race reads again and tries again; nothing is written).
 */
export async function createComment(
  kv: Deno.Kv,
  { postId, author, input, appUrl }: { postId: string; author: User; input: CommentCreate; appUrl: string },
): Promise<NewComment> {
  if (!canComment(author)) throw new ForbiddenError(VERIFY_TO_COMMENT);
  let written: NewComment | undefined;
  await retrying(
    async () => {
      const post = await readablePost(kv, { id: postId, viewer: author });
      const target = input.parentId ? await replyTarget(kv, postId, input.parentId) : null;
      const now = Date.now();
      const rate = await readRate(kv, author.id, now);
      if (rate.retryAfterSeconds > 0) {
        throw new RateLimitedError(rate.retryAfterSeconds, COMMENTING_TOO_FAST);
      }
      const at = new Date(now).toISOString();
      const comment: Comment = {
        id: commentId(now),
        postId,
        parentId: target?.parent.value.id ?? null,
        content: input.content,
        userId: author.id,
        createdAt: at,
        updatedAt: at,
        isDeleted: false,
      };
      const notice = target
        ? await replyNotice(kv, { answeredUserId: target.answered.userId, author, postId, now })
        : null;
      const op = kv.atomic();
      newCommentOps(op, { comment, checks: { post, rate, parent: target?.parent ?? null }, now });
      if (notice) await dropOutgrownMailOps(kv, op, notice);
      const mailId = notice
        ? await notifyReply(op, { notice, author, postTitle: post.value.title, reply: comment, appUrl })
        : null;
      if (!(await op.commit()).ok) return false;
      written = { comment: viewOf(comment, summaryOf(author)), mailId };
      return true;
    },
    RETRY_BUDGET_MS,
  );
  return written!;
}

/**
 * Replaces the content of a comment: its author only, within 15 minutes of writing it.
 * @throws NotFoundError "Comment not found" (also a deleted one); ForbiddenError for anyone else, or after the window;
 *   BusyError after 30 s of lost races.
 */
export async function editComment(
  kv: Deno.Kv,
  { id, editor, input }: { id: string; editor: User; input: CommentEdit },
): Promise<CommentView> {
  let edited: CommentView | undefined;
  await retrying(
    async () => {
      const entry = await liveComment(kv, id);
      if (entry.value.userId !== editor.id) throw new ForbiddenError(EDIT_OTHERS);
      if (!canEdit(editor, entry.value)) {
        throw new ForbiddenError(EDIT_LATE);
      }
      const after: Comment = { ...entry.value, content: input.content, updatedAt: new Date().toISOString() };
      if (!await replaceComment(kv, entry, after)) return false;
      edited = viewOf(after, summaryOf(editor));
      return true;
    },
    RETRY_BUDGET_MS,
  );
  return edited!;
}

/**
 * Deletes a comment: its author or an admin. One with replies stays as a placeholder (`isDeleted`, no content, no
 * author); one without is removed. An admin's deletion of another person's comment (also when resolving reports) is
 * logged in the same write (`comment.delete`, docs/decisions.md, Admin, "Audit log"), and so are `audit`'s mutations
 * (and checks). The same write resolves the comment's first open reports as removed by its author or an admin, and the
 * rest follow it (`removalOps`, `finishRemoval`; docs/decisions.md, Trust, "Reports of what is removed"), unless
 * `reportsResolved` (the caller resolves them: `resolveTarget`). A lost race is tried again, or with `onLostRace`
 * "give-up" ends the call.
 * @throws NotFoundError "Comment not found" (also an already deleted one); ForbiddenError for anyone else;
 *   BusyError after 30 s of lost races, or of its reports' writes; RaceLost for a lost race with `onLostRace` "give-up"
 *   (nothing changed).
 */
export async function removeComment(
  kv: Deno.Kv,
  id: string,
  actor: User,
  { audit, onLostRace, reportsResolved = false }: {
    audit?: AuditHook;
    onLostRace?: OnLostRace;
    reportsResolved?: boolean;
  } = {},
): Promise<void> {
  let reportsLeft = false;
  await retrying(
    async () => {
      const [entry, reports] = await Promise.all([
        liveComment(kv, id),
        reportsResolved ? null : openReportsOf(kv, { kind: "comment", targetId: id }),
      ]);
      if (!canDelete(actor, entry.value)) throw new ForbiddenError(DELETE_OTHERS);
      const own = entry.value.userId === actor.id;
      const logged = own ? undefined : auditOps({ adminId: actor.id, action: "comment.delete", targetKind: "comment" });
      const now = new Date().toISOString();
      return await deleteComment(kv, entry, {
        now,
        also: (op) => {
          logged?.(op, id);
          audit?.(op, id);
          if (reports) reportsLeft = removalOps(op, reports, { by: own ? "author" : "admin", at: now });
        },
      });
    },
    RETRY_BUDGET_MS,
    onLostRace,
  );
  if (reportsLeft) await finishRemoval(kv, "comment", id);
}

/**
 * Every live comment for the admin list, newest first: of one post with `postId`; `search` matches every word
 * (case-insensitive) in the content or at the start of a word of the author's name (the users' word index,
 * `usersWithWord`, so authors are not read to match), among the post's comments, or without `postId` among the newest
 * `SEARCHED_COMMENTS` (`searchedNewest` says so when there are more). Each carries its post's id and title. Only the shown page's
 * authors are read, except for a word that starts more than `USER_COUNT_LIMIT` (`user_index.ts`) users' words: the authors of the
 * comments whose content lacks it are read to match it.
 * @throws ForbiddenError for anyone but an admin.
 */
export async function listCommentsForAdmin(
  kv: Deno.Kv,
  admin: User,
  query: AdminCommentQuery,
): Promise<AdminCommentPage> {
  if (!canModerate(admin)) throw new ForbiddenError();
  const words = (query.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  let page: Comment[];
  let total: number;
  let users: Map<string, UserSummary>;
  let searchedNewest: number | null = null;
  if (words.length === 0 && !query.postId) {
    ({ comments: page, total } = await readRecentComments(kv, query.limit, query.offset));
    users = await authorsOf(kv, page);
  } else {
    const newest = async () => {
      const { comments, total } = await readRecentComments(kv, SEARCHED_COMMENTS, 0);
      if (total > SEARCHED_COMMENTS) searchedNewest = SEARCHED_COMMENTS;
      return comments;
    };
    const [all, named] = await Promise.all([
      query.postId ? scanComments(kv, query.postId) : newest(),
      Promise.all(words.map((word) => usersWithWord(kv, word))),
    ]);
    /** Whether word `i` is in `comment`'s content or starts a word of its author's name (`names`: read authors). */
    const has = (comment: Comment, i: number, names?: Map<string, UserSummary>) => {
      if (comment.content.toLowerCase().includes(words[i])) return true;
      if (!comment.userId) return false;
      if (named[i].users.has(comment.userId)) return true;
      const name = names?.get(comment.userId)?.name;
      return name !== undefined && wordsOf({ name, email: "" }).some((w) => w.startsWith(words[i]));
    };
    let matches = all.filter((c) => words.every((_, i) => has(c, i) || named[i].more));
    if (named.some((n) => n.more)) {
      const unsure = matches.filter((c) => !words.every((_, i) => has(c, i)));
      const names = await authorsOf(kv, unsure);
      matches = matches.filter((c) => words.every((_, i) => has(c, i, names)));
    }
    matches.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    page = matches.slice(query.offset, query.offset + query.limit);
    total = matches.length;
    users = await authorsOf(kv, page);
  }
  const titles = await postTitles(kv, page.map((c) => c.postId));
  return {
    comments: page.map((c) => {
      const title = titles.get(c.postId);
      return { ...viewOf(c, users), post: title === undefined ? null : { id: c.postId, title } };
    }),
    pagination: { limit: query.limit, offset: query.offset, total, hasMore: query.offset + page.length < total },
    searchedNewest,
  };
}
