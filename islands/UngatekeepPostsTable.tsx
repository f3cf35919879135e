/**
 * The admin posts table (docs/decisions.md, Ungatekeep and banners): search (among the newest 1,000 posts; a line says
 * so when there are more) and tag filter (loaded from `GET /api/admin/ungatekeep`), a published/draft switch and a pin switch per post (each saved
 * at once with `PATCH`), and delete after a confirmation dialog. Drafts and scheduled posts are
 * listed and marked. Until hydrated, a row's switches are a plain form with a Save button (carrying the values they were
 * drawn with, so it saves only what was changed) and its Delete a link to the
 * page's confirmation (`routes/admin/ungatekeep/index.tsx`), and the search and tag a `GET` form to the page.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { fetchJson, refusalPrefixes } from "@/lib/browser/fetch_json.ts";
import { ADMIN_LIST_TEXT, useAdminList } from "@/lib/browser/use_admin_list.ts";
import { DELETE_DIALOG_TEXT, useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { INPUT, SECONDARY_BUTTON } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { listAddress } from "@/lib/browser/list_address.ts";
import { POST_TAGS, type PostTag } from "@/lib/ungatekeep/tags.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import { RowDeleteLink } from "@/components/RowDeleteLink.tsx";
import type { Post } from "@/lib/ungatekeep/schema.ts";
import { useState } from "preact/hooks";
import { useT } from "@/lib/i18n/context.ts";
import { IslandTextProvider } from "@/lib/i18n/island_text.ts";
import type { IslandText, MessageKey } from "@/lib/i18n/translator.ts";

/** The messages this island uses (its `text`). */
export const POSTS_TABLE_TEXT = [
  "admin.posts.",
  ...ADMIN_LIST_TEXT,
  ...DELETE_DIALOG_TEXT,
  ...refusalPrefixes("postNotFound"),
] as const;

/** One row of the table. */
export type PostRow = Pick<Post, "id" | "title" | "tag" | "isPublished" | "isPinned" | "publishedAt">;

/** The key of a post's state: a draft, scheduled (published from a later moment), or published. */
function statusOf(row: PostRow): MessageKey {
  if (!row.isPublished) return "admin.posts.draft";
  return row.publishedAt && row.publishedAt > new Date().toISOString()
    ? "admin.posts.scheduled"
    : "admin.posts.published";
}

type Switch = "isPublished" | "isPinned";

/** Props of `UngatekeepPostsTable`. */
export interface PostsTableProps {
  /** The posts as the server read them, for search `search` ("": none) and tag `tag` ("": every tag). */
  initial: PostRow[];
  search: string;
  tag: PostTag | "";
  /** How many newest posts the search looked through when it stopped there; else null. */
  searchedNewest: number | null;
  /** The messages (`POSTS_TABLE_TEXT`). */
  text: IslandText;
}

export default function UngatekeepPostsTable({ text, ...props }: PostsTableProps) {
  return (
    <IslandTextProvider text={text}>
      <PostsTable {...props} />
    </IslandTextProvider>
  );
}

function PostsTable({ initial, search, tag: initialTag, searchedNewest }: Omit<PostsTableProps, "text">) {
  const t = useT();
  const column = (field: Switch) => t(field === "isPublished" ? "admin.posts.publishedColumn" : "admin.posts.pinned");
  const hydrated = useHydrated();
  const [tag, setTag] = useState<PostTag | "">(initialTag);
  const list = useAdminList<PostRow, { posts: PostRow[]; searchedNewest: number | null }>({
    path: ({ query }) => {
      const params = new URLSearchParams({ limit: "100" });
      if (query) params.set("search", query);
      if (tag) params.set("tag", tag);
      return `/api/admin/ungatekeep?${params}`;
    },
    rowsOf: (data) => data.posts,
    filters: [tag],
    initial,
    start: { query: search, offset: 0 },
    loaded: (data) => t("admin.posts.shown", { count: data.posts.length }),
  });
  const remove = useConfirmDelete<PostRow>({
    path: (post) => `/api/admin/ungatekeep/${post.id}`,
    deleted: (post) => {
      list.dropRow(post.id);
      list.announce(t("admin.posts.deleted", { title: post.title }));
    },
    failed: (_, error) => list.setRowError(t("admin.posts.notDeleted", { error })),
  });

  const toggle = async (row: PostRow, field: Switch) => {
    const value = !row[field];
    const saved = await list.run(
      fetchJson<{ post: PostRow }>(`/api/admin/ungatekeep/${row.id}`, { method: "PATCH", body: { [field]: value } }),
      (error) => t("admin.posts.notSaved", { error }),
    );
    if (!saved) return;
    list.replaceRow(saved.post);
    const done = field === "isPublished"
      ? (value ? "admin.posts.nowPublished" : "admin.posts.nowDraft")
      : (value ? "admin.posts.nowPinned" : "admin.posts.nowUnpinned");
    list.announce(t(done, { title: row.title }));
  };

  const rows = list.rows ?? [];
  const newest = list.data ? list.data.searchedNewest : searchedNewest;
  return (
    <div class="space-y-4">
      <form
        method="get"
        action="/admin/ungatekeep"
        onSubmit={(e) => e.preventDefault()}
        role="search"
        class="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div class="min-w-56 flex-1">
          <ListSearch id="search" label={t("admin.posts.search")} list={list} />
        </div>
        <div>
          <label for="post-tag" class="block text-sm font-medium text-slate-800">{t("admin.posts.tagLabel")}</label>
          <select
            id="post-tag"
            name="tag"
            value={tag}
            onChange={(e) => setTag(e.currentTarget.value as PostTag | "")}
            class={INPUT}
          >
            <option value="">{t("admin.posts.allTags")}</option>
            {POST_TAGS.map((value) => <option key={value} value={value}>{t.dynamic(`admin.posts.tag.${value}`)}
            </option>)}
          </select>
        </div>
        {!hydrated && <button type="submit" class={SECONDARY_BUTTON}>{t("admin.posts.searchSubmit")}</button>}
      </form>
      <AdminTable
        list={list}
        loadErrorTitle={t("admin.posts.loadError")}
        rowErrorTitle={t("admin.posts.rowFailed")}
        label={t("admin.posts.label")}
        caption={t("admin.posts.caption")}
        columns={[
          { label: t("admin.posts.title") },
          { label: t("admin.posts.tagLabel") },
          { label: t("admin.posts.status") },
          { label: column("isPublished") },
          { label: column("isPinned") },
          { label: t("admin.list.actions"), hidden: true },
        ]}
        empty={t("admin.posts.none")}
      >
        {rows.map((row) => (
          <tr key={row.id}>
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">
              <a href={`/admin/ungatekeep/${row.id}`} class="hover:underline">{row.title}</a>
            </th>
            <Cell label={t("admin.posts.tagLabel")}>{t.dynamic(`admin.posts.tag.${row.tag}`)}</Cell>
            <Cell label={t("admin.posts.status")}>
              {t(statusOf(row))}
              {row.publishedAt && <span class="block text-xs text-slate-700">{t.dateTime(row.publishedAt)}</span>}
            </Cell>
            {(["isPublished", "isPinned"] as Switch[]).map((field) => (
              <Cell key={field} label={column(field)}>
                <input
                  type="checkbox"
                  form={`post-${row.id}`}
                  name={field}
                  value="true"
                  checked={row[field]}
                  aria-label={t("common.errors.fieldLine", { label: column(field), sentence: row.title })}
                  onChange={() => toggle(row, field)}
                  class="h-4 w-4 accent-indigo-700"
                />
              </Cell>
            ))}
            <Cell>
              <form
                id={`post-${row.id}`}
                method="post"
                action={listAddress("/admin/ungatekeep", { search, tag: initialTag })}
                onSubmit={(e) => e.preventDefault()}
                class="flex flex-wrap gap-2"
              >
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="id" value={row.id} />
                <input type="hidden" name="was_isPublished" value={String(row.isPublished)} />
                <input type="hidden" name="was_isPinned" value={String(row.isPinned)} />
                {hydrated ? <RowDeleteButton name={row.title} onClick={() => remove.ask(row)} /> : (
                  <>
                    <button type="submit" class={SECONDARY_BUTTON}>
                      {t.rich("admin.posts.saveNamed", {
                        name: () => <span class="sr-only">{` ${row.title} `}</span>,
                      })}
                    </button>
                    <RowDeleteLink
                      name={row.title}
                      href={`${
                        listAddress("/admin/ungatekeep", { search, tag: initialTag }, { delete: row.id })
                      }#delete-post`}
                    />
                  </>
                )}
              </form>
            </Cell>
          </tr>
        ))}
      </AdminTable>
      {newest && <p class="text-sm text-slate-700">{t("admin.posts.searchedNewest", { count: newest })}</p>}
      <ConfirmDialog {...remove.dialog} title={t("admin.posts.deleteTitle")}>
        {t("admin.posts.deleteText", { title: remove.target?.title ?? "" })}
      </ConfirmDialog>
    </div>
  );
}
