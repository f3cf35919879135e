/**
 * The state of a post's discussion in the browser and its writes through the API (docs/decisions.md, Comments and
 * reactions): the comment threads loaded so far, their pagination, the reaction counts and the viewer's own
 * reactions, with react, write, edit, delete and load-more. Each write answers `{ok: true, …}` once the state follows
 * the server's answer, or `{ok: false, failure}` with the API's refusal and nothing changed; what to tell the reader
 * (in the page's language, `failureMessage`) is the island's.
 */
import { useRef, useState } from "preact/hooks";
import { type ApiFailure, fetchJson } from "@/lib/browser/fetch_json.ts";
import { type ReactionType, REPLIES_SHOWN } from "@/lib/comments/limits.ts";
import type { CommentThread, CommentView, Pagination, ReactionCounts } from "@/lib/comments/schema.ts";
import type { CommentPage } from "@/lib/comments/comments.ts";
import type { ReactionsAnswer } from "@/lib/comments/reactions.ts";

/** A write's outcome: done (with what it made), or refused with the API's answer. */
export type Outcome<T = Record<never, never>> = ({ ok: true } & T) | { ok: false; failure: ApiFailure };

/** The discussion as the page rendered it: a page of threads (the first, or from `pagination.offset`) and the reactions. */
export interface DiscussionStart {
  postId: string;
  comments: CommentThread[];
  pagination: Pagination;
  reactions: ReactionCounts;
  /** The viewer's reactions; empty for a guest. */
  myReactions: ReactionType[];
}

/**
 * `threads` with `comment` gone: a thread with replies (shown or not) stays as deleted, a deleted thread without replies
 * goes.
 */
function withoutComment(threads: CommentThread[], comment: CommentView): CommentThread[] {
  return threads.flatMap((t) => {
    if (t.id === comment.id) {
      const kept = t.replies.length > 0 || t.moreReplies || t.earlierReplies;
      return kept ? [{ ...t, isDeleted: true, content: "", user: null, replies: t.replies }] : [];
    }
    const replies = t.replies.filter((r) => r.id !== comment.id);
    return t.isDeleted && replies.length === 0 && !t.moreReplies && !t.earlierReplies ? [] : [{ ...t, replies }];
  });
}

/** The discussion's state from `start`, and its writes. */
export function useDiscussion(start: DiscussionStart) {
  const { postId } = start;
  const [threads, setThreads] = useState(start.comments);
  const [pagination, setPagination] = useState(start.pagination);
  const [reactions, setReactions] = useState(start.reactions);
  const [mine, setMine] = useState(start.myReactions);
  const loading = useRef(false);

  /** Turns the viewer's reaction `type` on, or off when it is on; answers which. */
  const react = async (type: ReactionType): Promise<Outcome<{ on: boolean }>> => {
    const on = !mine.includes(type);
    const res = await fetchJson<ReactionsAnswer>(
      `/api/ungatekeep/${postId}/reactions/${type}`,
      { method: on ? "PUT" : "DELETE" },
    );
    if (!res.ok) return { ok: false, failure: res };
    setReactions(res.data.reactions);
    setMine(res.data.mine);
    return { ok: true, on };
  };

  /** Posts a comment, or a reply to `parentId`; answers the new comment. */
  const write = async (content: string, parentId?: string): Promise<Outcome<{ comment: CommentView }>> => {
    const res = await fetchJson<{ comment: CommentView }>(`/api/ungatekeep/${postId}/comments`, {
      body: { content, parentId },
    });
    if (!res.ok) return { ok: false, failure: res };
    const comment = res.data.comment;
    if (comment.parentId) {
      setThreads((all) => all.map((t) => t.id === comment.parentId ? { ...t, replies: [...t.replies, comment] } : t));
    } else {
      setThreads((all) => [...all, { ...comment, replies: [] }]);
      setPagination((p) => ({ ...p, total: p.total + 1 }));
    }
    return { ok: true, comment };
  };

  /** Replaces the text of `comment` with `content`. */
  const edit = async (comment: CommentView, content: string): Promise<Outcome> => {
    const res = await fetchJson<{ comment: CommentView }>(`/api/ungatekeep/comments/${comment.id}`, {
      method: "PATCH",
      body: { content },
    });
    if (!res.ok) return { ok: false, failure: res };
    const next = res.data.comment;
    const swap = (c: CommentView) => c.id === next.id ? { ...c, ...next } : c;
    setThreads((all) => all.map((t) => ({ ...swap(t), replies: t.replies.map(swap) })));
    return { ok: true };
  };

  /**
   * Deletes `comment`. The threads that go with it (the comment's own without replies, or a deleted one whose last
   * reply it was) leave `pagination.total` too, as the server counts them, so "load more" asks from the right offset.
   */
  const remove = async (comment: CommentView): Promise<Outcome> => {
    const res = await fetchJson(`/api/ungatekeep/comments/${comment.id}`, { method: "DELETE" });
    if (!res.ok) return { ok: false, failure: res };
    const next = withoutComment(threads, comment);
    const gone = threads.length - next.length;
    setThreads(next);
    if (gone > 0) setPagination((p) => ({ ...p, total: Math.max(0, p.total - gone) }));
    return { ok: true };
  };

  /** Loads the next page of threads, after those the page started after (nothing while one is loading). */
  const loadMore = async (): Promise<Outcome> => {
    if (loading.current) return { ok: true };
    loading.current = true;
    const offset = start.pagination.offset + threads.length;
    const res = await fetchJson<CommentPage>(
      `/api/ungatekeep/${postId}/comments?offset=${offset}&replies=${REPLIES_SHOWN}`,
    );
    loading.current = false;
    if (!res.ok) return { ok: false, failure: res };
    setThreads((all) => [...all, ...res.data.comments.filter((c) => !all.some((t) => t.id === c.id))]);
    setPagination(res.data.pagination);
    return { ok: true };
  };

  return { threads, pagination, reactions, mine, react, write, edit, remove, loadMore };
}
