/**
 * The conversation under an Ungatekeep post (docs/decisions.md, Comments and reactions): the reaction buttons and the
 * comment thread, rendered on the server for readers and search engines and hydrated for writing, replying, editing,
 * deleting and reacting without a reload. A guest sees the counts and the thread and a sign-in link that returns to
 * the post; a signed-in user with an unverified e-mail is told to verify it. An admin's comment carries an "Admin"
 * badge beside the name, which no name typed by anyone else can copy. Comment text is rendered as text, link
 * and line-break elements (`contentSegments`), never as HTML. Each comment but the reader's own has a "Report" link to
 * `/report` (docs/decisions.md, Trust, "Reports"), which works without JavaScript. Without JavaScript the reactions and
 * the comment, reply and edit forms are plain forms posting to the post's page, and "Reply", "Edit" and "Delete" are
 * links to the page with the reply form (`?replyTo=`), the edit form (`?editComment=`) or the page's own confirmation
 * (`?deleteComment=`) open, and "Show more comments" a link to the page with a page more (`?comments=`, which the links
 * and forms then keep; a page holds 100 threads at most, and "Earlier comments" above them links to the ones before)
 * (docs/decisions.md, Islands, "Forms work without JavaScript"); hydrated, each opens in place (delete in a dialog, more
 * comments loaded below) but "Earlier comments", which stays a link. A thread shows its first replies; "More replies"
 * and "Earlier replies" are links to the page with that thread opened (`?thread=`, `&from=`), with or without
 * JavaScript, and the links of an opened thread keep it open.
 */
import { type ApiFailure, failureMessage, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { useState } from "preact/hooks";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { RoleBadge } from "@/components/RoleBadge.tsx";
import { Notice, SubmitButton } from "@/components/forms.tsx";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { ReactionIcon } from "@/components/ungatekeep/ReactionIcon.tsx";
import { type DiscussionStart, useDiscussion } from "@/lib/browser/use_discussion.ts";
import { CommentText } from "@/components/ungatekeep/CommentText.tsx";
import { reportHref } from "@/lib/browser/report_format.ts";
import {
  COMMENT_EDIT_WINDOW_MS,
  COMMENT_MAX_LENGTH,
  REACTION_TYPES,
  type ReactionType,
} from "@/lib/comments/limits.ts";
import type { CommentThread, CommentView } from "@/lib/comments/schema.ts";
import { type IslandText, type Translate, translatorOf } from "@/lib/i18n/translator.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { useT } from "@/lib/i18n/context.ts";
import { DELETE_DIALOG_TEXT } from "@/lib/browser/use_confirm_delete.ts";

/** The messages this island uses (its `text`). */
export const POST_DISCUSSION_TEXT = [
  "ungatekeep.discussion.",
  "ungatekeep.reaction.",
  // A deleted person's comments are kept under this name, as the deletion page promises.
  "common.formerMember",
  ...DELETE_DIALOG_TEXT,
  "common.errors.",
  // An empty comment is refused here, before the API is asked; a too long one by the API, worded in the page's language.
  "fields.required",
  "fields.maxChars",
  ...refusalPrefixes(
    "verifyToComment",
    "commentTooFast",
    "editOthers",
    "editLate",
    "deleteOthers",
    "commentNotFound",
    "postNotFound",
    "signInToRead",
  ),
] as const;

/** Screen-reader-only words inside a message (`<sr>…</sr>`). */
const sr = (chunks: unknown[]) => <span class="sr-only">{chunks}</span>;

/** Who is looking: null for a guest. */
export interface DiscussionViewer {
  id: string;
  isAdmin: boolean;
  /** A verified e-mail: may write. */
  canComment: boolean;
}

/** Props: the post, the first page of its comments, its reaction counts and the viewer. */
export interface PostDiscussionProps extends DiscussionStart {
  viewer: DiscussionViewer | null;
  /** Where "Sign in" goes (back to this post afterwards). */
  signInHref: string;
  /** The comment whose reply form is open when the page loads (`?replyTo=`), if any. */
  replyTo?: string | null;
  /** The reader's own comment whose edit form is open when the page loads (`?editComment=`, a refused edit), if any. */
  editComment?: string | null;
  /** What a refused plain HTML comment or edit left. */
  draft?: CommentDraft;
  /** Threads shown before the last page (`?comments=`; 0: the first page only), kept by the links and forms. */
  shown?: number;
  /**
   * The `?comments=` of the threads before the first one given (0: the first page), for "Earlier comments"; null or
   * absent when the threads given start at the first.
   */
  earlier?: number | null;
  /** The thread opened by "More replies" (`?thread=`, from its reply `from`), kept by the links. */
  opened?: { thread: string; from?: string } | null;
  /** The island's messages (`POST_DISCUSSION_TEXT`). */
  text: IslandText;
}

/**
 * A comment a plain HTML submit could not post or edit: its text, the comment it replied to (null: top level), the
 * comment it edits (an edit's), and why.
 */
export interface CommentDraft {
  content: string;
  parentId: string | null;
  commentId?: string;
  error: string;
}

/** The name shown for a comment's author. */
function authorName(t: Translate, comment: CommentView): string {
  if (comment.isDeleted) return t("ungatekeep.discussion.deletedComment");
  return comment.user?.name ?? t("common.formerMember");
}

/**
 * The textarea form of a new comment, a reply or an edit, a plain form too: it posts to `action` with `intent=comment`
 * (and `parentId` for a reply), or `intent=editComment` and `id` for an edit of `commentId`. Under it, the limit in
 * words until the island is live, then the characters typed against it (a count that cannot count is not shown).
 * While it holds words not saved, leaving the page asks first (`data-unsaved`, docs/decisions.md, Islands, "Leaving a
 * typed form").
 */
function CommentForm(props: {
  id: string;
  label: string;
  submitLabel: string;
  initial?: string;
  /** The page a plain submit posts to. */
  action: string;
  parentId?: string;
  commentId?: string;
  /** The page's `?comments=`, kept by a plain submit. */
  shown?: number;
  /** The page's opened thread (`?thread=`, `&from=`), kept by a plain submit. */
  opened?: { thread: string; from?: string } | null;
  /** Text to start from that is not the comment's own (a refused plain submit's). */
  draft?: string;
  /** Why a plain submit of this form was refused, shown at the field. */
  error?: string;
  onSubmit: (content: string) => Promise<boolean>;
  /** Closes the form; its link (`cancelHref`, back to the comment) does without JavaScript. */
  onCancel?: () => void;
  cancelHref?: string;
}) {
  const t = useT();
  const hydrated = useHydrated();
  const [content, setContent] = useState(props.draft ?? props.initial ?? "");
  const [busy, setBusy] = useState(false);
  const [empty, setEmpty] = useState(false);
  const error = empty ? t("fields.required") : props.error;
  const submit = async (e: Event) => {
    e.preventDefault();
    setEmpty(content.trim() === "");
    if (content.trim() === "") return;
    setBusy(true);
    const ok = await props.onSubmit(content);
    setBusy(false);
    if (ok && props.initial === undefined) setContent("");
  };
  return (
    <form
      method="post"
      action={props.action}
      noValidate
      onSubmit={submit}
      data-unsaved={content.trim() !== (props.initial ?? "").trim() || undefined}
      class="mt-2 space-y-2"
    >
      <input type="hidden" name="intent" value={props.commentId ? "editComment" : "comment"} />
      {props.commentId && <input type="hidden" name="id" value={props.commentId} />}
      {props.parentId && <input type="hidden" name="parentId" value={props.parentId} />}
      {props.shown ? <input type="hidden" name="comments" value={props.shown} /> : null}
      {props.opened && <input type="hidden" name="thread" value={props.opened.thread} />}
      {props.opened?.from && <input type="hidden" name="from" value={props.opened.from} />}
      <label for={props.id} class="block text-sm font-medium text-slate-800">{props.label}</label>
      <textarea
        id={props.id}
        name="content"
        rows={3}
        required
        maxLength={COMMENT_MAX_LENGTH}
        value={content}
        onInput={(e) => setContent(e.currentTarget.value)}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={`${error ? `${props.id}-error ` : ""}${props.id}-count`}
        class={INPUT}
      />
      {error && <p id={`${props.id}-error`} class="text-sm text-red-700">{error}</p>}
      <div class="flex flex-wrap items-center gap-2">
        <SubmitButton
          busy={busy}
          label={props.submitLabel}
          busyLabel={t("ungatekeep.discussion.saving")}
          worksWithoutScript
        />
        {props.onCancel && (
          <a
            href={props.cancelHref}
            class={SECONDARY_BUTTON}
            onClick={(e) => {
              e.preventDefault();
              props.onCancel!();
            }}
          >
            {t("common.cancel")}
          </a>
        )}
        <span id={`${props.id}-count`} class="ml-auto text-sm text-slate-700">
          {hydrated
            ? t("ungatekeep.discussion.count", { count: content.length, max: COMMENT_MAX_LENGTH })
            : t("ungatekeep.discussion.limit", { max: COMMENT_MAX_LENGTH })}
        </span>
      </div>
    </form>
  );
}

export default function PostDiscussion(props: PostDiscussionProps) {
  return (
    <IslandTextProvider text={props.text}>
      <Discussion {...props} />
    </IslandTextProvider>
  );
}

/** The discussion inside its messages' provider. */
function Discussion(props: PostDiscussionProps) {
  const t = translatorOf(props.text);
  const { postId, viewer, draft } = props;
  const name = (comment: CommentView) => authorName(t, comment);
  const reactionName = (type: ReactionType) => t.dynamic(`ungatekeep.reaction.${type}`);
  const action = `/ungatekeep/${encodeURIComponent(postId)}`;
  const shown = props.shown ?? 0;
  /**
   * The query of how many threads are shown and which thread is opened (`opened`, the page's by default), after a
   * link's own query (`&`) or alone (`?`).
   */
  const keep = (sep: string, opened = props.opened) => {
    const query = new URLSearchParams();
    if (shown) query.set("comments", `${shown}`);
    if (opened) query.set("thread", opened.thread);
    if (opened?.from) query.set("from", opened.from);
    const search = query.toString();
    return search ? `${sep}${search}` : "";
  };
  /** The page with `thread` opened (from its reply `from`), at comment `at`. */
  const openAt = (thread: string, at: string, from?: string) => `${action}${keep("?", { thread, from })}#comment-${at}`;
  const { threads, pagination, reactions, mine, ...discussion } = useDiscussion(props);
  const [replyTo, setReplyTo] = useState<CommentView | null>(() => {
    if (!props.replyTo || !viewer?.canComment) return null;
    return props.comments.find((t) => t.id === props.replyTo) ??
      props.comments.flatMap((t) => t.replies).find((r) => r.id === props.replyTo) ?? null;
  });
  const [editing, setEditing] = useState(props.editComment ?? null);
  const [doomed, setDoomed] = useState<CommentView | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState("");
  const [error, setError] = useState(draft?.commentId ? "" : draft?.error ?? "");

  const fail = (failure: ApiFailure) => {
    // The one field is the comment: its sentence alone, as the page's plain form says it.
    const fields = failure.fields.map((problem) => fieldText(t, problem));
    setError(fields.length > 0 ? fields.join(" ") : failureMessage(t, failure));
    return false;
  };

  const react = async (type: ReactionType) => {
    const done = await discussion.react(type);
    if (!done.ok) return fail(done.failure);
    setMessage(
      t(done.on ? "ungatekeep.discussion.reacted" : "ungatekeep.discussion.unreacted", {
        reaction: reactionName(type),
      }),
    );
  };

  const write = async (content: string, parentId?: string) => {
    setError("");
    const done = await discussion.write(content, parentId);
    if (!done.ok) return fail(done.failure);
    if (done.comment.parentId) {
      setReplyTo(null);
      setMessage(t("ungatekeep.discussion.replyPosted"));
    } else {
      setMessage(t("ungatekeep.discussion.commentPosted"));
    }
    return true;
  };

  const edit = async (comment: CommentView, content: string) => {
    setError("");
    const done = await discussion.edit(comment, content);
    if (!done.ok) return fail(done.failure);
    setEditing(null);
    setMessage(t("ungatekeep.discussion.commentUpdated"));
    return true;
  };

  const remove = async () => {
    if (!doomed) return;
    setDeleting(true);
    const done = await discussion.remove(doomed);
    setDeleting(false);
    setDoomed(null);
    if (!done.ok) {
      setError(t("ungatekeep.discussion.notDeleted", { error: failureMessage(t, done.failure) }));
      return;
    }
    setMessage(t("ungatekeep.discussion.commentDeleted"));
  };

  const loadMore = async () => {
    const done = await discussion.loadMore();
    if (!done.ok) fail(done.failure);
  };

  /** Whether the viewer wrote `c` (a guest wrote nothing; a deleted person's comment is no one's). */
  const wrote = (c: CommentView) => viewer !== null && viewer.id === c.user?.id;
  const mayEdit = (c: CommentView) =>
    !c.isDeleted && wrote(c) && Date.now() - Date.parse(c.createdAt) < COMMENT_EDIT_WINDOW_MS;
  const mayDelete = (c: CommentView) => !c.isDeleted && (viewer?.isAdmin || wrote(c));

  const renderComment = (comment: CommentView, thread: CommentThread) => (
    <article
      id={`comment-${comment.id}`}
      aria-label={t("ungatekeep.discussion.commentBy", { name: name(comment) })}
      class="scroll-mt-20"
    >
      <p class="text-sm text-slate-700">
        <span class="font-semibold text-slate-900">{name(comment)}</span>
        {!comment.isDeleted && comment.user?.role === "admin" && (
          <>
            {" "}
            <RoleBadge role="admin" label={t("ungatekeep.discussion.admin")} />
          </>
        )}
        {!comment.isDeleted && (
          <>
            {" · "}
            <time dateTime={comment.createdAt}>{t.dateTime(comment.createdAt)}</time>
            {comment.updatedAt !== comment.createdAt && t("ungatekeep.discussion.edited")}
          </>
        )}
      </p>
      {comment.isDeleted
        ? <p class="mt-1 italic text-slate-700">{t("ungatekeep.discussion.wasDeleted")}</p>
        : editing === comment.id
        ? (
          <CommentForm
            id={`edit-${comment.id}`}
            label={t("ungatekeep.discussion.editLabel")}
            submitLabel={t("ungatekeep.discussion.save")}
            initial={comment.content}
            action={action}
            commentId={comment.id}
            shown={shown}
            opened={props.opened}
            draft={draft?.commentId === comment.id ? draft.content : undefined}
            error={draft?.commentId === comment.id ? draft.error : undefined}
            onSubmit={(content) => edit(comment, content)}
            onCancel={() => setEditing(null)}
            cancelHref={`${action}${keep("?")}#comment-${comment.id}`}
          />
        )
        : <CommentText content={comment.content} />}
      {editing !== comment.id && !comment.isDeleted && (
        <div class="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
          {viewer?.canComment && (
            <a
              href={`?replyTo=${encodeURIComponent(comment.id)}${keep("&")}#reply-${comment.id}`}
              class="font-medium text-indigo-700 underline"
              onClick={(e) => {
                e.preventDefault();
                setReplyTo(comment);
              }}
            >
              {t.rich("ungatekeep.discussion.reply", { name: name(comment), sr })}
            </a>
          )}
          {mayEdit(comment) && (
            <a
              href={`?editComment=${encodeURIComponent(comment.id)}${keep("&")}#edit-${comment.id}`}
              class="font-medium text-indigo-700 underline"
              onClick={(e) => {
                e.preventDefault();
                setEditing(comment.id);
              }}
            >
              {t.rich("ungatekeep.discussion.edit", { sr })}
            </a>
          )}
          {mayDelete(comment) && (
            <a
              href={`?deleteComment=${encodeURIComponent(comment.id)}${keep("&")}#delete-comment`}
              class="font-medium text-red-700 underline"
              onClick={(e) => {
                e.preventDefault();
                setDoomed(comment);
              }}
            >
              {wrote(comment)
                ? t.rich("ungatekeep.discussion.deleteYours", { sr })
                : t.rich("ungatekeep.discussion.delete", { name: name(comment), sr })}
            </a>
          )}
          {!wrote(comment) && (
            <a
              href={reportHref("comment", comment.id, `/ungatekeep/${postId}#comment-${comment.id}`)}
              class="text-slate-700 underline decoration-slate-400 underline-offset-2 hover:text-red-800"
            >
              {t.rich("ungatekeep.discussion.report", { name: name(comment), sr })}
            </a>
          )}
        </div>
      )}
      {replyTo?.id === comment.id && (
        <CommentForm
          id={`reply-${comment.id}`}
          label={t("ungatekeep.discussion.replyTo", { name: name(comment) })}
          submitLabel={t("ungatekeep.discussion.postReply")}
          action={action}
          parentId={comment.id}
          shown={shown}
          opened={props.opened}
          draft={draft?.parentId === comment.id ? draft.content : undefined}
          onSubmit={(content) => write(content, comment.id)}
          onCancel={() => setReplyTo(null)}
          cancelHref={`${action}${keep("?")}#comment-${comment.id}`}
        />
      )}
      {thread.id === comment.id && thread.earlierReplies && (
        <p class="mt-3 text-sm">
          <a href={openAt(thread.id, thread.id)} class="font-medium text-indigo-700 underline">
            {t.rich("ungatekeep.discussion.earlierReplies", { name: name(comment), sr })}
          </a>
        </p>
      )}
      {thread.id === comment.id && thread.replies.length > 0 && (
        <ul class="mt-3 space-y-3 border-l-2 border-slate-200 pl-4" aria-label={t("ungatekeep.discussion.replies")}>
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              {renderComment(reply, thread)}
            </li>
          ))}
        </ul>
      )}
      {thread.id === comment.id && thread.moreReplies && (
        <p class="mt-3 text-sm">
          <a
            href={thread.nextReplyId
              ? openAt(thread.id, thread.nextReplyId, thread.nextReplyId)
              : openAt(thread.id, thread.replies.at(-1)?.id ?? thread.id)}
            class="font-medium text-indigo-700 underline"
          >
            {t.rich("ungatekeep.discussion.moreReplies", { name: name(comment), sr })}
          </a>
        </p>
      )}
    </article>
  );

  const commentCount = threads.reduce((n, t) => n + (t.isDeleted ? 0 : 1) + t.replies.length, 0);
  /** How many threads come before the first one here (a page that starts further on: `earlier`). */
  const before = props.pagination.offset;
  const earlier = props.earlier ?? null;
  return (
    <section aria-labelledby="discussion-title" class="mt-10 space-y-6 border-t border-slate-200 pt-6">
      <div
        id="reactions"
        role="group"
        aria-label={t("ungatekeep.discussion.reactions")}
        class="flex scroll-mt-20 flex-wrap gap-2"
      >
        {REACTION_TYPES.map((type) => {
          const label = reactionName(type);
          const text = (
            <>
              <ReactionIcon type={type} /> {label} <span class="font-semibold">{reactions[type]}</span>
            </>
          );
          const style = "inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm";
          return viewer
            ? (
              <form
                key={type}
                method="post"
                action={action}
                onSubmit={(e) => {
                  e.preventDefault();
                  react(type);
                }}
              >
                <input type="hidden" name="intent" value="react" />
                <input type="hidden" name="type" value={type} />
                <input type="hidden" name="on" value={mine.includes(type) ? "0" : "1"} />
                {shown ? <input type="hidden" name="comments" value={shown} /> : null}
                <button
                  type="submit"
                  aria-pressed={mine.includes(type) ? "true" : "false"}
                  class={`${style} border-slate-300 bg-white text-slate-800 hover:bg-slate-100 aria-pressed:border-indigo-700 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-900`}
                >
                  {text}
                </button>
              </form>
            )
            : <span key={type} class={`${style} border-slate-200 bg-slate-50 text-slate-800`}>{text}</span>;
        })}
      </div>
      <h2 id="discussion-title" class="text-xl font-semibold text-slate-900">
        {t("ungatekeep.discussion.title")}
        {commentCount > 0 &&
          ` (${commentCount}${
            pagination.hasMore || before > 0 || threads.some((t) => t.moreReplies || t.earlierReplies) ? "+" : ""
          })`}
      </h2>
      <p role="status" aria-live="polite" class="sr-only">{message}</p>
      {error && <Notice kind="error">{error}</Notice>}
      {earlier !== null && (
        <a
          href={`${earlier ? `?comments=${earlier}` : action}#discussion-title`}
          class={`inline-block ${SECONDARY_BUTTON}`}
        >
          {t("ungatekeep.discussion.earlier")}
        </a>
      )}
      {threads.length === 0
        ? (
          <p class="text-slate-700">
            {t("ungatekeep.discussion.none")} {viewer?.canComment && t("ungatekeep.discussion.start")}
          </p>
        )
        : (
          <ol class="space-y-6" aria-label={t("ungatekeep.discussion.comments")}>
            {threads.map((thread) => (
              <li key={thread.id}>
                {renderComment(thread, thread)}
              </li>
            ))}
          </ol>
        )}
      {before + threads.length < pagination.total && (
        <a
          href={`?comments=${before + threads.length}#${
            threads.length ? `comment-${threads[threads.length - 1].id}` : "discussion-title"
          }`}
          class={`inline-block ${SECONDARY_BUTTON}`}
          onClick={(e) => {
            e.preventDefault();
            loadMore();
          }}
        >
          {t("ungatekeep.discussion.more")}
        </a>
      )}
      {!viewer && (
        <div class="rounded-lg border border-indigo-200 bg-indigo-50 p-4">
          <p class="text-slate-800">{t("ungatekeep.discussion.signInText")}</p>
          <a
            href={props.signInHref}
            class="mt-3 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
          >
            {t("ungatekeep.discussion.signIn")}
          </a>
        </div>
      )}
      {viewer && !viewer.canComment && <Notice kind="info">{t("ungatekeep.discussion.verify")}</Notice>}
      {viewer?.canComment && (
        <CommentForm
          id="new-comment"
          label={t("ungatekeep.discussion.add")}
          submitLabel={t("ungatekeep.discussion.post")}
          action={action}
          shown={shown}
          draft={draft && !draft.commentId && draft.parentId === null ? draft.content : undefined}
          onSubmit={(c) => write(c)}
        />
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={t("ungatekeep.discussion.deleteTitle")}
        confirmLabel={t("common.yesDelete")}
        busyLabel={t("common.deleting")}
        busy={deleting}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setDoomed(null)}
      >
        {doomed && doomed.parentId === null && threads.find((t) => t.id === doomed.id)?.replies.length
          ? t("ungatekeep.discussion.repliesStay")
          : t("ungatekeep.discussion.removedForGood")}
      </ConfirmDialog>
    </section>
  );
}
