/**
 * The admin comments table (docs/decisions.md, Comments and reactions, "Moderation"): every live comment, newest
 * first, searched by content or author among the newest 2,000 (a line says so when there are more; loaded from
 * `GET /api/admin/comments` through the shared admin list hook), each
 * with a link to it on its post and Delete after a confirmation dialog (until hydrated, a link to the page's own
 * confirmation, `routes/admin/comments.tsx`); pages of 50. Until hydrated the search is a `GET` form to the page and
 * Previous and Next are links to it; the island starts from the search and page the server rendered.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { ListPages } from "@/components/ListPages.tsx";
import { SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { Cell } from "@/components/StackedTable.tsx";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import { RowDeleteLink } from "@/components/RowDeleteLink.tsx";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import type { AdminCommentView, Pagination as PageInfo } from "@/lib/comments/schema.ts";
import type { AdminCommentPage } from "@/lib/comments/comments.ts";
import type { UserSummary } from "@/lib/users/users.ts";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, Translate } from "@/lib/i18n/translator.ts";
import { refusalPrefixes } from "@/lib/browser/fetch_json.ts";

/** The messages this island uses (its `text`). */
export const ADMIN_COMMENTS_TEXT = [
  "admin.comments.",
  ...ADMIN_LIST_TEXT,
  ...DELETE_DIALOG_TEXT,
  ...refusalPrefixes("commentNotFound"),
] as const;

/** One row of the table: the author's name only (null when the account is gone). */
export type CommentRow = Pick<AdminCommentView, "id" | "postId" | "parentId" | "content" | "createdAt" | "post"> & {
  user: Pick<UserSummary, "name"> | null;
};

const PAGE_SIZE = 50;

/** The first 160 characters of a comment, on one line (the table's, and the page's confirmation without JavaScript). */
export function clipComment(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** The comment's author as the table names them in sentences. */
function authorOf(t: Translate, row: CommentRow): string {
  return row.user?.name ?? t("admin.comments.deletedUserLower");
}

/** Props: the first page as the server read it, and the messages (`ADMIN_COMMENTS_TEXT`). */
export interface AdminCommentsTableProps {
  initial: CommentRow[];
  pagination: PageInfo;
  /** The search the page answers ("": none), and how many newest comments it looked through when it stopped. */
  search: string;
  searchedNewest: number | null;
  text: IslandText;
}

export default function AdminCommentsTable({ text, ...props }: AdminCommentsTableProps) {
  return (
    <IslandTextProvider text={text}>
      <CommentsTable {...props} />
    </IslandTextProvider>
  );
}

function CommentsTable({ initial, pagination, search, searchedNewest }: Omit<AdminCommentsTableProps, "text">) {
  const t = useT();
  const hydrated = useHydrated();
  const list = useAdminList<CommentRow, AdminCommentPage>({
    path: ({ query, offset }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
      if (query) params.set("search", query);
      return `/api/admin/comments?${params}`;
    },
    rowsOf: (data) => data.comments,
    initial,
    start: { query: search, offset: pagination.offset },
    loaded: (data) => t("admin.comments.match", { total: data.pagination.total }),
  });
  /** The address of the page the server rendered, at `at` (its links before hydration). */
  const href = (at: number, extra: Record<string, string> = {}) =>
    listAddress("/admin/comments", { search, offset: at }, extra);
  const remove = useConfirmDelete<CommentRow>({
    path: (row) => `/api/ungatekeep/comments/${row.id}`,
    deleted: (row) => {
      list.dropRow(row.id);
      list.announce(t("admin.comments.deleted", { name: authorOf(t, row) }));
    },
    failed: (_, error) => list.setRowError(t("admin.comments.notDeleted", { error })),
  });

  const rows = list.rows ?? [];
  const page = list.data?.pagination ?? pagination;
  const newest = list.data ? list.data.searchedNewest : searchedNewest;
  return (
    <div class="space-y-4">
      <form
        method="get"
        action="/admin/comments"
        onSubmit={(e) => e.preventDefault()}
        role="search"
        class="flex items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div class="flex-1">
          <ListSearch id="search" label={t("admin.comments.search")} list={list} maxLength={200} />
        </div>
        {!hydrated && <button type="submit" class={SECONDARY_BUTTON}>{t("admin.comments.searchSubmit")}</button>}
      </form>
      <AdminTable
        list={list}
        loadingText={t("admin.comments.loading")}
        loadErrorTitle={t("admin.comments.loadError")}
        retry
        label={t("admin.comments.label")}
        caption={t("admin.comments.caption")}
        columns={[
          { label: t("admin.comments.comment") },
          { label: t("admin.comments.author") },
          { label: t("admin.comments.post") },
          { label: t("admin.comments.posted") },
          { label: t("admin.list.actions"), hidden: true },
        ]}
        empty={t("admin.comments.none")}
      >
        {rows.map((row) => (
          <tr key={row.id} class="align-top">
            <Cell class="min-w-48 max-w-md text-slate-900 [overflow-wrap:anywhere] max-lg:min-w-0">
              {row.parentId && (
                <span class="mr-1 text-xs font-semibold text-slate-700">{t("admin.comments.reply")}</span>
              )}
              {clipComment(row.content)}
            </Cell>
            <Cell label={t("admin.comments.author")}>{row.user?.name ?? t("admin.comments.deletedUser")}</Cell>
            <Cell label={t("admin.comments.post")}>
              {row.post
                ? (
                  <a href={`/ungatekeep/${row.postId}#comment-${row.id}`} class="text-indigo-700 underline">
                    {row.post.title}
                  </a>
                )
                : t("admin.comments.deletedPost")}
            </Cell>
            <Cell label={t("admin.comments.posted")} class="whitespace-nowrap">{t.dateTime(row.createdAt)}</Cell>
            <Cell>
              {hydrated
                ? (
                  <RowDeleteButton
                    name={t("admin.comments.nameOf", { name: authorOf(t, row) })}
                    onClick={() => remove.ask(row)}
                  />
                )
                : (
                  <RowDeleteLink
                    name={t("admin.comments.nameOf", { name: authorOf(t, row) })}
                    href={`${href(pagination.offset, { delete: row.id })}#delete-comment`}
                  />
                )}
            </Cell>
          </tr>
        ))}
      </AdminTable>
      {newest && <p class="text-sm text-slate-700">{t("admin.comments.searchedNewest", { count: newest })}</p>}
      <ListPages
        label={t("admin.comments.pages")}
        list={list}
        pageSize={PAGE_SIZE}
        shown={rows.length}
        total={page.total}
        hasMore={page.hasMore}
        hrefOf={hydrated ? undefined : (at) => href(at)}
      />
      <ConfirmDialog {...remove.dialog} title={t("admin.comments.deleteTitle")}>
        {t("admin.comments.deleteText", { content: remove.target ? clipComment(remove.target.content) : "" })}
      </ConfirmDialog>
    </div>
  );
}
