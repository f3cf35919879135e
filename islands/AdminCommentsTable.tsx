/**
 * The admin comments table (docs/decisions.md, Comments and reactions, "Moderation"): every live comment, newest
 * first, searched by content or author (loaded from `GET /api/admin/comments` through the shared admin list hook), each
 * with a link to it on its post and Delete after a confirmation dialog; pages of 50.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListPages, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { formatDateTime } from "@/lib/dates.ts";
import type { AdminCommentView, Pagination } from "@/lib/comments/schema.ts";
import type { AdminCommentPage } from "@/lib/comments/comments.ts";
import type { UserSummary } from "@/lib/users/users.ts";

/** One row of the table: the author's name only (null when the account is gone). */
export type CommentRow = Pick<AdminCommentView, "id" | "postId" | "parentId" | "content" | "createdAt" | "post"> & {
  user: Pick<UserSummary, "name"> | null;
};

const PAGE_SIZE = 50;

/** The first 160 characters of a comment, on one line. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** How the table names a comment: by its author. */
function nameOf(row: CommentRow): string {
  return `the comment by ${row.user?.name ?? "a deleted user"}`;
}

export default function AdminCommentsTable({ initial, pagination }: { initial: CommentRow[]; pagination: Pagination }) {
  const hydrated = useHydrated();
  const list = useAdminList<CommentRow, AdminCommentPage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      return `/api/admin/comments?${params}`;
    },
    rowsOf: (data) => data.comments,
    initial,
    loaded: (data) => `${data.pagination.total} comments match.`,
  });
  const remove = useConfirmDelete<CommentRow>({
    path: (row) => `/api/ungatekeep/comments/${row.id}`,
    deleted: (row) => {
      list.dropRow(row.id);
      list.announce(`${nameOf(row).replace(/^t/, "T")} was deleted.`);
    },
    failed: (_, error) => list.setRowError(`Not deleted: ${error}`),
  });

  const rows = list.rows ?? [];
  const page = list.data?.pagination ?? pagination;
  return (
    <div class="space-y-4">
      <div role="search" class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <ListSearch id="comment-search" label="Search comments and authors" list={list} maxLength={200} />
      </div>
      <AdminTable
        list={list}
        loadingText="Loading comments…"
        loadErrorTitle="We could not load the comments"
        retry
        label="Comments"
        caption="Comments, newest first"
        columns={[
          { label: "Comment" },
          { label: "Author" },
          { label: "Post" },
          { label: "Posted" },
          { label: "Actions", hidden: true },
        ]}
        empty="No comments match."
      >
        {rows.map((row) => (
          <tr key={row.id} class="align-top">
            <Cell class="min-w-48 max-w-md text-slate-900 [overflow-wrap:anywhere] max-lg:min-w-0">
              {row.parentId && <span class="mr-1 text-xs font-semibold text-slate-700">Reply:</span>}
              {clip(row.content)}
            </Cell>
            <Cell label="Author">{row.user?.name ?? "Deleted user"}</Cell>
            <Cell label="Post">
              {row.post
                ? (
                  <a href={`/ungatekeep/${row.postId}#comment-${row.id}`} class="text-indigo-700 underline">
                    {row.post.title}
                  </a>
                )
                : "Deleted post"}
            </Cell>
            <Cell label="Posted" class="whitespace-nowrap">{formatDateTime(row.createdAt)}</Cell>
            <Cell>
              <RowDeleteButton name={nameOf(row)} disabled={!hydrated} onClick={() => remove.ask(row)} />
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ListPages
        label="Pages of comments"
        list={list}
        pageSize={PAGE_SIZE}
        shown={rows.length}
        total={page.total}
        hasMore={page.hasMore}
        disabled={!hydrated}
      />
      <ConfirmDialog {...remove.dialog} title="Delete this comment?">
        “{remove.target ? clip(remove.target.content) : ""}” will be removed; if it has replies, they stay under a
        deleted comment.
      </ConfirmDialog>
    </div>
  );
}
