/**
 * `/ungatekeep/{id}`: one post with its rendered content, images and link card (docs/decisions.md, Ungatekeep and banners),
 * then its reactions and comment thread (the `PostDiscussion` island, rendered here for readers and search engines;
 * docs/decisions.md, Comments and reactions). A signed-in reader whose report of it is open reads when they sent it in
 * place of the report form.
 * A draft, a post scheduled later or an unknown id is the 404 page (admins see drafts and
 * scheduled posts here, marked as such, to check them before publishing); a guest asking for a
 * post beyond the preview is sent to sign in and back. Links that work without JavaScript: `?replyTo={commentId}`
 * opens the reply form of that comment ("Reply"), `?editComment={commentId}` the edit form of the reader's own comment
 * within its edit window ("Edit"), `?deleteComment={commentId}` a confirmation naming a comment the reader may delete
 * ("Delete"), `?comments={n}` the first `n` threads and a page more ("Show more comments", which the links and forms
 * then keep), of which a render holds the last 100 at most (the API's page), with "Earlier comments" above them to the
 * threads before; an `n` at or past the number of threads is the 404 page (docs/decisions.md, Guest pages, "Pages past
 * the end"); the island intercepts each but "Earlier comments". Each thread shows its first `REPLIES_SHOWN` replies;
 * "More replies" opens it (`?thread={commentId}`, its first `REPLIES_MAX` replies; `&from={replyId}` from that reply
 * on, with "Earlier replies" back to its start), a plain link with or without JavaScript, which the other links and
 * the forms keep.
 *
 * `POST /ungatekeep/{id}` is the discussion without JavaScript (docs/decisions.md, Islands, "Forms work without
 * JavaScript"): `intent=comment` with `content` and `parentId` (a reply) writes a comment as
 * `POST /api/ungatekeep/{id}/comments` does (303 to it), a refusal renders the page again (400, 403, 404, 429) with
 * the sentence and the text kept; `intent=react` with `type` and `on` (`1` gives, `0` takes back) reacts as
 * `PUT`/`DELETE /api/ungatekeep/{id}/reactions/{type}` (303 back to the reactions); `intent=editComment` with `id` and
 * `content` edits as `PATCH /api/ungatekeep/comments/{id}` does (303 to it), an empty or too long text or one past the
 * edit window renders the page again (400, 403) with the refusal at the field and the text kept; `intent=deleteComment`
 * with `id` deletes as `DELETE /api/ungatekeep/comments/{id}` does (the author or an admin; 303 to `?commentDeleted=1`).
 * A comment of another post is 404, another person's comment 403, and nothing changes. A guest is sent to sign in.
 */
import { PostBody } from "@/components/ungatekeep/PostBody.tsx";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { z } from "zod";
import { define, type RouteContext } from "@/lib/platform/define.ts";
import { Notice } from "@/components/forms.tsx";
import { PageHead } from "@/components/PageHead.tsx";
import { Badge } from "@/components/internships/InternshipCard.tsx";
import { LinkCard, PinMarker, PostDate } from "@/components/ungatekeep/PostCard.tsx";
import { canManagePosts } from "@/lib/ungatekeep/policy.ts";
import { getPost, getPostForAdmin, isLive, type PostView } from "@/lib/ungatekeep/posts.ts";
import { postArticle, postImages } from "@/lib/seo/json_ld.ts";
import { useT } from "@/lib/i18n/context.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import type { Translate } from "@/lib/i18n/translator.ts";
import { type CommentPage, listComments } from "@/lib/comments/comments.ts";
import { canComment, canDelete, canEdit, canModerate } from "@/lib/comments/policy.ts";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import PostDiscussion, { type CommentDraft, POST_DISCUSSION_TEXT } from "@/islands/PostDiscussion.tsx";
import { ReportControl } from "@/components/reports/ReportForm.tsx";
import { openReportOf } from "@/lib/reports/reports.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { DomainError, ForbiddenError, NotFoundError, RateLimitedError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { readFormFields, seeOther } from "@/lib/http/form_posts.ts";
import { assertWithinList } from "@/lib/http/list_pages.ts";
import type { User } from "@/lib/users/users.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import {
  CommentCreateSchema,
  CommentEditSchema,
  commentOnPost,
  type CommentView,
  createComment,
  EDIT_LATE,
  EDIT_OTHERS,
  editComment,
  removeComment,
} from "@/lib/comments/comments.ts";
import { ReactionTypeSchema, THREADS_MAX } from "@/lib/comments/schema.ts";
import { REPLIES_MAX, REPLIES_SHOWN } from "@/lib/comments/limits.ts";
import { listThreadReplies } from "@/lib/comments/comments.ts";
import { react } from "@/lib/comments/reactions.ts";
import { deliverSoon } from "@/lib/mail/delivery.ts";

/** The page's writes fall under the per-person limit `reactions` (docs/decisions.md, Errors and limits, "Per-person limits"). */
export const routeOptions: RouteOptions = { personLimit: "reactions" };

/** Threads the page shows at first, and adds with each "Show more comments". */
const THREADS_PAGE = 20;

/**
 * `?comments=` and the forms' `comments` field: threads shown before the last page shown, a whole number from 0 in
 * decimal digits, at most `Number.MAX_SAFE_INTEGER` (a larger one would be read as another number).
 */
const ShownSchema = z.string().regex(/^\d{1,16}$/).transform(Number).pipe(
  z.number().int().max(Number.MAX_SAFE_INTEGER),
);

/**
 * Where "Show more comments" went on without JavaScript (`?comments=`, a form's `comments`): 0 when absent or empty,
 * null when invalid (`abc`, `-1`, `2.5`, `1e9`, past `Number.MAX_SAFE_INTEGER`), which the page answers 404 as a page
 * past the end (docs/decisions.md, Comments and reactions, "Pages").
 */
function shownOf(value: string | null): number | null {
  if (!value) return 0;
  const shown = ShownSchema.safeParse(value);
  return shown.success ? shown.data : null;
}

/**
 * The threads a render holds for `shown`: the first `shown` and a page more, the last `THREADS_MAX` of them at most (one
 * page of the API), as `offset` and `limit`.
 */
function windowOf(shown: number): { offset: number; limit: number } {
  const end = shown + THREADS_PAGE;
  const offset = Math.max(0, end - THREADS_MAX);
  return { offset, limit: end - offset };
}

/** A thread opened by "More replies" (`?thread=`, `&from=`): its top-level comment and the reply it starts at. */
interface Opened {
  thread: string;
  from?: string;
}

/** The opened thread of `params` (`thread`, `from`), if any: ids as a comment's `id` takes them. */
function openedOf(params: { thread: string | null; from: string | null }): Opened | null {
  const thread = CommentIdSchema.safeParse(params.thread);
  if (!thread.success) return null;
  const from = CommentIdSchema.safeParse(params.from);
  return from.success ? { thread: thread.data, from: from.data } : { thread: thread.data };
}

interface Data {
  post: PostView;
  /** The thread opened by "More replies", when it is among the threads shown. */
  opened: Opened | null;
  /** The comments up to `shown` and a page more; null for a draft or scheduled post (an admin's preview). */
  discussion: CommentPage | null;
  /** Threads shown before the last page (`?comments=`), kept by the discussion's links and forms. */
  shown: number;
  /** The `?comments=` of the threads before the rendered ones (0: the first page); null when they start at the first. */
  earlier: number | null;
  /** What a refused plain HTML comment or edit left: its text, the comment it replied to or edits, and why. */
  draft?: CommentDraft;
  /** The reader's own comment whose edit form is open (`?editComment=`, within its edit window). */
  editComment?: string;
  /** The comment whose "Delete" link was followed (`?deleteComment=`) and the reader may delete, to confirm. */
  doomed?: CommentView;
  /** When the signed-in reader sent their open report of the post (null: none). */
  reportedAt: string | null;
}

/** The comment `id` among the threads of `discussion` (a top-level comment or a reply), if there. */
function commentIn(discussion: CommentPage | null, id: string | null): CommentView | undefined {
  const threads = discussion?.comments ?? [];
  return [...threads, ...threads.flatMap((thread) => thread.replies)].find((c) => c.id === id);
}

/** What the policy reads of a comment as answers carry it. */
const factsOf = (comment: CommentView) => ({ ...comment, userId: comment.user?.id ?? null });

/**
 * The post `id` as `state`'s viewer reads it, with its first `shown` threads and a page more, the last `THREADS_MAX` of
 * them at most (`windowOf`; none for a preview), each with its first `REPLIES_SHOWN` replies, and the thread `opened`
 * names, when it is one of them, with up to `REPLIES_MAX` (from its reply `opened.from` on).
 */
async function postWithDiscussion(
  state: RouteContext["state"],
  { id, shown, opened }: { id: string; shown: number; opened: Opened | null },
): Promise<Data> {
  const { kv } = state.services;
  const { user } = state;
  const post = canManagePosts(user) ? await getPostForAdmin(kv, id, user) : await getPost(kv, { id, viewer: user });
  const window = windowOf(shown);
  const live = isLive(post);
  const [discussion, thread, report] = await Promise.all([
    live ? listComments(kv, { postId: post.id, viewer: user, query: { ...window, replies: REPLIES_SHOWN } }) : null,
    live && opened
      ? listThreadReplies(kv, {
        postId: post.id,
        topId: opened.thread,
        fromId: opened.from,
        limit: REPLIES_MAX,
        viewer: user,
      })
        .catch((error) => {
          // A thread or reply deleted since the link was made: the page shows the threads as they are.
          if (error instanceof NotFoundError) return null;
          throw error;
        })
      : null,
    user ? openReportOf(kv, { userId: user.id, kind: "post", targetId: post.id }) : null,
  ]);
  const at = thread ? discussion?.comments.findIndex((t) => t.id === thread.id) ?? -1 : -1;
  if (thread && at !== -1) discussion!.comments[at] = thread;
  const earlier = window.offset > 0 ? Math.max(0, window.offset - THREADS_PAGE) : null;
  return {
    post,
    opened: at === -1 ? null : opened,
    discussion,
    shown,
    earlier,
    reportedAt: report?.createdAt ?? null,
  };
}

/** The page's query that shows `comment` (its thread opened for a reply) with `shown` threads, and its anchor. */
function placeOf(comment: { id: string; parentId: string | null }, shown: number): string {
  const query = new URLSearchParams();
  if (shown) query.set("comments", `${shown}`);
  if (comment.parentId) query.set("thread", comment.parentId);
  const search = query.toString();
  return `${search ? `?${search}` : ""}#comment-${comment.id}`;
}

/** How many threads post `postId` has, as `viewer` reads its discussion. */
async function threadCount(kv: Deno.Kv, postId: string, viewer: User): Promise<number> {
  return (await listComments(kv, { postId, viewer, query: { limit: 1, offset: 0 } })).pagination.total;
}

/** The `id` of an edit or delete: a comment's id, as the API's `parentId` takes one. */
const CommentIdSchema = z.string().min(1).max(100);

/** The posted `id` of the comment to edit or delete. @throws NotFoundError for one no comment has. */
function postedCommentId(id: string): string {
  const parsed = CommentIdSchema.safeParse(id);
  if (!parsed.success) throw new NotFoundError(REFUSALS.commentNotFound);
  return parsed.data;
}

const FIELDS = ["intent", "content", "parentId", "type", "on", "id", "comments", "thread", "from"] as const;

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const shown = shownOf(params.get("comments"));
    if (shown === null) throw new NotFoundError();
    const data = await postWithDiscussion(ctx.state, {
      id: ctx.params.id,
      shown,
      opened: openedOf({ thread: params.get("thread"), from: params.get("from") }),
    });
    if (data.discussion) assertWithinList(data.shown, data.discussion.pagination.total);
    const { user } = ctx.state;
    const editing = commentIn(data.discussion, params.get("editComment"));
    const doomed = commentIn(data.discussion, params.get("deleteComment"));
    return ctx.render({
      ...data,
      editComment: user && editing && canEdit(user, factsOf(editing)) ? editing.id : undefined,
      doomed: user && doomed && canDelete(user, factsOf(doomed)) ? doomed : undefined,
    });
  },
  async POST(req, ctx) {
    const { state } = ctx;
    const here = `/ungatekeep/${encodeURIComponent(ctx.params.id)}`;
    if (!state.user) return seeOther(`/sign-in?${new URLSearchParams({ callbackURL: here })}`);
    const user = state.user;
    const { kv } = state.services;
    const form = await readFormFields(req, FIELDS);
    const shown = shownOf(form.comments) ?? 0;
    const view = shown ? `?comments=${shown}` : "";
    if (form.intent === "react") {
      const type = ReactionTypeSchema.safeParse(form.type);
      if (!type.success) throw new NotFoundError("Unknown reaction type");
      await react(kv, { postId: ctx.params.id, user, type: type.data, on: form.on === "1" });
      return seeOther(`${here}${view}#reactions`);
    }
    /**
     * The page again with the refused text, and the thread the form was in opened as it was (else the thread of the
     * comment it replies to or edits).
     */
    const again = async (status: number, error: string, commentId?: string, thread?: string | null) =>
      ctx.render({
        ...await postWithDiscussion(state, {
          id: ctx.params.id,
          shown,
          opened: openedOf({ thread: form.thread, from: form.from }) ??
            openedOf({ thread: thread ?? form.parentId, from: null }),
        }),
        draft: { content: form.content, parentId: form.parentId || null, error, ...commentId ? { commentId } : {} },
      }, { status });
    if (form.intent === "deleteComment") {
      const id = postedCommentId(form.id);
      await commentOnPost(kv, { postId: ctx.params.id, id });
      await removeComment(kv, id, user);
      // The thread it removed may have been the only one of the last page: then that page is one back.
      const left = shown ? await threadCount(kv, ctx.params.id, user) : 0;
      const back = shown >= left ? Math.max(0, shown - THREADS_PAGE) : shown;
      return seeOther(`${here}?commentDeleted=1${back ? `&comments=${back}` : ""}#discussion-notice`);
    }
    if (form.intent === "editComment") {
      const id = postedCommentId(form.id);
      const comment = await commentOnPost(kv, { postId: ctx.params.id, id });
      if (comment.user?.id !== user.id) throw new ForbiddenError(EDIT_OTHERS);
      const input = CommentEditSchema.safeParse({ content: form.content });
      if (!input.success) {
        const problem = fieldProblems(input.error.issues)[0];
        return again(
          400,
          problem ? fieldText(state.t, problem) : state.t("ungatekeep.post.checkComment"),
          id,
          comment.parentId,
        );
      }
      try {
        await editComment(kv, { id, editor: user, input: input.data });
        return seeOther(`${here}${placeOf(comment, shown)}`);
      } catch (error) {
        if (error instanceof ForbiddenError && error.message === EDIT_LATE) {
          return again(403, refusalText(state.t, error), id, comment.parentId);
        }
        throw error;
      }
    }
    const input = CommentCreateSchema.safeParse({ content: form.content, parentId: form.parentId || undefined });
    if (!input.success) {
      const problem = fieldProblems(input.error.issues)[0];
      return again(400, problem ? fieldText(state.t, problem) : state.t("ungatekeep.post.checkComment"));
    }
    try {
      const { comment, mailId } = await createComment(kv, {
        postId: ctx.params.id,
        author: user,
        input: input.data,
        appUrl: state.services.config.appUrl,
      });
      if (mailId) deliverSoon(state.services, mailId);
      return seeOther(`${here}${placeOf(comment, shown)}`);
    } catch (error) {
      if (error instanceof RateLimitedError) return again(429, refusalText(state.t, error));
      if (error instanceof DomainError && !(error instanceof NotFoundError && !form.parentId)) {
        return again(errorResponse(error).status, refusalText(state.t, error));
      }
      throw error;
    }
  },
});

/**
 * The sentence of a delete confirmation: whose comment, its start, and what stays (a top-level comment's replies stay
 * under a placeholder; otherwise the comment is removed for good).
 */
function deletionText(t: Translate, comment: CommentView, discussion: CommentPage): string {
  const name = comment.user?.name ?? t("common.formerMember");
  const excerpt = comment.content.length > 80 ? `${comment.content.slice(0, 80)}…` : comment.content;
  const replies = discussion.comments.find((thread) => thread.id === comment.id)?.replies.length ?? 0;
  const outcome = replies > 0 ? "ungatekeep.discussion.repliesStay" : "ungatekeep.discussion.removedForGood";
  return `${t("ungatekeep.post.deleteWhich", { name, excerpt })} ${t(outcome)}`;
}

export default define.page<Data>(function PostPage({ data: { post, discussion, draft, ...data }, state, url }) {
  const t = useT();
  const live = isLive(post);
  const { user } = state;
  return (
    <article aria-labelledby="page-title" class="[overflow-wrap:anywhere] mx-auto max-w-3xl">
      <PageHead
        title={post.title}
        description={post.excerpt}
        image={postImages(post, state.services.config.appUrl)[0]}
        type="article"
        jsonLd={live ? postArticle(post, state.services.config.appUrl) : null}
        feeds={[{ title: t("ungatekeep.feed.rss"), href: "/ungatekeep/rss.xml" }]}
      />
      <a href="/ungatekeep" class="text-sm text-indigo-700 underline hover:text-indigo-900">
        {t("ungatekeep.post.all")}
      </a>
      {!live && (
        <div class="mt-4">
          <Notice kind="info" title={t(post.isPublished ? "ungatekeep.post.scheduled" : "ungatekeep.post.draft")}>
            {t("ungatekeep.post.adminsOnly")}
          </Notice>
        </div>
      )}
      <header class="mt-4">
        <div class="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{t.dynamic(`ungatekeep.tag.${post.tag}`)}</Badge>
          {post.isPinned && <PinMarker />}
        </div>
        <h1 id="page-title" class="mt-2 text-3xl font-bold tracking-tight text-slate-900">{post.title}</h1>
        <p class="mt-1 text-slate-700">
          {t.rich("ungatekeep.post.by", {
            name: post.creator?.name ?? t("common.formerMember"),
            date: <PostDate iso={post.publishedAt ?? post.createdAt} />,
          })}
        </p>
        {canManagePosts(user) && (
          <a href={`/admin/ungatekeep/${post.id}`} class="mt-2 inline-block text-sm text-indigo-700 underline">
            {t("ungatekeep.post.edit")}
          </a>
        )}
      </header>
      {post.images.length > 0 && (
        <div class="mt-6 grid gap-3 sm:grid-cols-2">
          {post.images.map((id, i) => (
            <img
              key={id}
              src={`/api/files/${id}`}
              alt={t("ungatekeep.post.image", { n: i + 1, count: post.images.length, title: post.title })}
              class="w-full rounded-lg border border-slate-200 bg-slate-100 object-cover"
            />
          ))}
        </div>
      )}
      <PostBody class="mt-6" html={post.contentHtml} />
      {post.linkUrl && (
        <div class="mt-6">
          <LinkCard url={post.linkUrl} title={post.linkTitle} image={post.linkImage} />
        </div>
      )}
      {live && (
        <div class="mt-6">
          <ReportControl
            kind="post"
            id={post.id}
            back={`/ungatekeep/${post.id}`}
            label={t("ungatekeep.post.report")}
            signedIn={Boolean(user)}
            reportedAt={data.reportedAt}
          />
        </div>
      )}
      {discussion && data.doomed && (
        <div class="mt-10">
          <DeleteConfirmation
            id="delete-comment"
            title={t("ungatekeep.discussion.deleteTitle")}
            text={deletionText(t, data.doomed, discussion)}
            action={`/ungatekeep/${post.id}`}
            fields={{ intent: "deleteComment", id: data.doomed.id, ...data.shown ? { comments: `${data.shown}` } : {} }}
            cancelHref={`/ungatekeep/${post.id}${
              data.shown ? `?comments=${data.shown}` : ""
            }#comment-${data.doomed.id}`}
          />
        </div>
      )}
      {discussion && !data.doomed && url.searchParams.has("commentDeleted") && (
        <div id="discussion-notice" class="mt-10 scroll-mt-20">
          <Notice kind="success">{t("ungatekeep.discussion.commentDeleted")}</Notice>
        </div>
      )}
      {discussion && (
        <PostDiscussion
          postId={post.id}
          comments={discussion.comments}
          pagination={discussion.pagination}
          reactions={post.reactions}
          myReactions={post.myReactions ?? []}
          viewer={user ? { id: user.id, isAdmin: canModerate(user), canComment: canComment(user) } : null}
          signInHref={`/sign-in?callbackURL=${encodeURIComponent(`/ungatekeep/${post.id}`)}`}
          replyTo={draft?.parentId ?? url.searchParams.get("replyTo")}
          editComment={draft?.commentId ?? data.editComment}
          shown={data.shown}
          opened={data.opened}
          earlier={data.earlier}
          draft={draft}
          text={t.island(POST_DISCUSSION_TEXT)}
        />
      )}
    </article>
  );
});
