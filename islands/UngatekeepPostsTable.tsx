/**
 * The admin posts table (docs/decisions.md, Ungatekeep and banners): search and tag filter (loaded from
 * `GET /api/admin/ungatekeep`), a published/draft switch and a pin switch per post (each saved
 * at once with `PATCH`), and delete after a confirmation dialog. Drafts and scheduled posts are
 * listed and marked.
 */
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { AdminTable, ListSearch } from "@/components/AdminList.tsx";
import { Cell } from "@/components/StackedTable.tsx";
import { formatDateTime } from "@/lib/dates.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { useAdminList } from "@/lib/browser/use_admin_list.ts";
import { useConfirmDelete } from "@/lib/browser/use_confirm_delete.ts";
import { INPUT } from "@/lib/browser/styles.ts";
import { useHydrated } from "@/lib/browser/use_hydrated.ts";
import { POST_TAGS, type PostTag, TAG_LABELS } from "@/lib/ungatekeep/tags.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";
import type { Post } from "@/lib/ungatekeep/schema.ts";
import { useState } from "preact/hooks";

/** One row of the table. */
export type PostRow = Pick<Post, "id" | "title" | "tag" | "isPublished" | "isPinned" | "publishedAt">;

function statusOf(row: PostRow): string {
  if (!row.isPublished) return "Draft";
  return row.publishedAt && row.publishedAt > new Date().toISOString() ? "Scheduled" : "Published";
}

type Switch = "isPublished" | "isPinned";

export default function UngatekeepPostsTable({ initial }: { initial: PostRow[] }) {
  const hydrated = useHydrated();
  const [tag, setTag] = useState<PostTag | "">("");
  const list = useAdminList<PostRow, { posts: PostRow[] }>({
    path: ({ query }) => {
      const params = new URLSearchParams({ limit: "100" });
      if (query) params.set("search", query);
      if (tag) params.set("tag", tag);
      return `/api/admin/ungatekeep?${params}`;
    },
    rowsOf: (data) => data.posts,
    filters: [tag],
    initial,
    loaded: (data) => `${data.posts.length} posts shown.`,
  });
  const remove = useConfirmDelete<PostRow>({
    path: (post) => `/api/admin/ungatekeep/${post.id}`,
    deleted: (post) => {
      list.dropRow(post.id);
      list.announce(`“${post.title}” deleted.`);
    },
    failed: (_, error) => list.setRowError(`Not deleted: ${error}`),
  });

  const toggle = async (row: PostRow, field: Switch) => {
    const value = !row[field];
    const saved = await list.run(
      fetchJson<{ post: PostRow }>(`/api/admin/ungatekeep/${row.id}`, { method: "PATCH", body: { [field]: value } }),
      (error) => `Not saved: ${error}`,
    );
    if (!saved) return;
    list.replaceRow(saved.post);
    const done = field === "isPublished" ? (value ? "published" : "back to draft") : (value ? "pinned" : "unpinned");
    list.announce(`“${row.title}” ${done}.`);
  };

  const rows = list.rows ?? [];
  return (
    <div class="space-y-4">
      <div role="search" class="flex flex-wrap gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div class="min-w-56 flex-1">
          <ListSearch id="post-search" label="Search titles and content" list={list} disabled={!hydrated} />
        </div>
        <div>
          <label for="post-tag" class="block text-sm font-medium text-slate-800">Tag</label>
          <select
            id="post-tag"
            value={tag}
            disabled={!hydrated}
            onChange={(e) => setTag(e.currentTarget.value as PostTag | "")}
            class={INPUT}
          >
            <option value="">All tags</option>
            {POST_TAGS.map((t) => <option key={t} value={t}>{TAG_LABELS[t]}</option>)}
          </select>
        </div>
      </div>
      <AdminTable
        list={list}
        loadErrorTitle="We could not load the posts"
        rowErrorTitle="That did not work"
        label="Posts"
        caption="Ungatekeep posts"
        columns={[
          { label: "Title" },
          { label: "Tag" },
          { label: "Status" },
          { label: "Published" },
          { label: "Pinned" },
          { label: "Actions", hidden: true },
        ]}
        empty="No posts match."
      >
        {rows.map((row) => (
          <tr key={row.id}>
            <th scope="row" class="px-4 py-3 font-medium text-slate-900">
              <a href={`/admin/ungatekeep/${row.id}`} class="hover:underline">{row.title}</a>
            </th>
            <Cell label="Tag">{TAG_LABELS[row.tag]}</Cell>
            <Cell label="Status">
              {statusOf(row)}
              {row.publishedAt && <span class="block text-xs text-slate-700">{formatDateTime(row.publishedAt)}</span>}
            </Cell>
            {(["isPublished", "isPinned"] as Switch[]).map((field) => (
              <Cell key={field} label={field === "isPublished" ? "Published" : "Pinned"}>
                <input
                  type="checkbox"
                  checked={row[field]}
                  disabled={!hydrated}
                  aria-label={`${field === "isPublished" ? "Published" : "Pinned"}: ${row.title}`}
                  onChange={() =>
                    toggle(row, field)}
                  class="h-4 w-4 accent-indigo-700"
                />
              </Cell>
            ))}
            <Cell>
              <RowDeleteButton name={row.title} disabled={!hydrated} onClick={() => remove.ask(row)} />
            </Cell>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog {...remove.dialog} title="Delete this post?">
        “{remove.target?.title}” and its images will be removed for good.
      </ConfirmDialog>
    </div>
  );
}
