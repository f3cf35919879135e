/**
 * The admin posts table (docs/decisions.md, Ungatekeep and banners): search and tag filter (loaded from
 * `GET /api/admin/ungatekeep`), a published/draft switch and a pin switch per post (each saved
 * at once with `PATCH`), and delete after a confirmation dialog. Drafts and scheduled posts are
 * listed and marked.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ConfirmDialog } from "@/components/ConfirmDialog.tsx";
import { formatDateTime } from "@/lib/dates.ts";
import { fetchJson } from "@/lib/browser/fetch_json.ts";
import { Notice, useHydrated } from "@/components/forms.tsx";
import { useDebouncedValue } from "@/lib/browser/use_debounced_value.ts";
import { POST_TAGS, type PostTag, TAG_LABELS } from "@/lib/ungatekeep/tags.ts";
import { RowDeleteButton } from "@/components/RowControls.tsx";

/** One row of the table. */
export interface PostRow {
  id: string;
  title: string;
  tag: PostTag;
  isPublished: boolean;
  isPinned: boolean;
  publishedAt: string | null;
}

function statusOf(row: PostRow): string {
  if (!row.isPublished) return "Draft";
  return row.publishedAt && row.publishedAt > new Date().toISOString() ? "Scheduled" : "Published";
}

type Switch = "isPublished" | "isPinned";

export default function UngatekeepPostsTable({ initial }: { initial: PostRow[] }) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState(initial);
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState<PostTag | "">("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [doomed, setDoomed] = useState<PostRow | null>(null);
  const [deleting, setDeleting] = useState(false);
  const query = useDebouncedValue(search, 250);
  const first = useRef(true);
  const latest = useRef(0);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const request = ++latest.current;
    const params = new URLSearchParams({ limit: "100" });
    if (query) params.set("search", query);
    if (tag) params.set("tag", tag);
    fetchJson<{ posts: PostRow[] }>(`/api/admin/ungatekeep?${params}`).then((res) => {
      if (request !== latest.current) return;
      if (res.ok) {
        setRows(res.data.posts);
        setMessage(`${res.data.posts.length} posts shown.`);
      } else setError(res.error);
    });
  }, [query, tag]);

  const toggle = async (row: PostRow, field: Switch) => {
    const value = !row[field];
    const res = await fetchJson<{ post: PostRow }>(`/api/admin/ungatekeep/${row.id}`, {
      method: "PATCH",
      body: { [field]: value },
    });
    if (!res.ok) return setError(`Not saved: ${res.error}`);
    setRows((all) => all.map((r) => r.id === row.id ? res.data.post : r));
    const done = field === "isPublished" ? (value ? "published" : "back to draft") : (value ? "pinned" : "unpinned");
    setMessage(`“${row.title}” ${done}.`);
  };

  const remove = async () => {
    if (!doomed) return;
    setDeleting(true);
    const res = await fetchJson(`/api/admin/ungatekeep/${doomed.id}`, { method: "DELETE" });
    setDeleting(false);
    setDoomed(null);
    if (!res.ok) return setError(`Not deleted: ${res.error}`);
    setRows((all) => all.filter((r) => r.id !== doomed.id));
    setMessage(`“${doomed.title}” deleted.`);
  };

  const control =
    "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40";
  return (
    <div class="space-y-4">
      <div role="search" class="flex flex-wrap gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div class="min-w-56 flex-1">
          <label for="post-search" class="block text-sm font-medium text-slate-800">Search titles and content</label>
          <input
            id="post-search"
            type="search"
            value={search}
            disabled={!hydrated}
            onInput={(e) => setSearch(e.currentTarget.value)}
            class={control}
          />
        </div>
        <div>
          <label for="post-tag" class="block text-sm font-medium text-slate-800">Tag</label>
          <select
            id="post-tag"
            value={tag}
            disabled={!hydrated}
            onChange={(e) => setTag(e.currentTarget.value as PostTag | "")}
            class={control}
          >
            <option value="">All tags</option>
            {POST_TAGS.map((t) => <option key={t} value={t}>{TAG_LABELS[t]}</option>)}
          </select>
        </div>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <p role="status" aria-live="polite" class="min-h-5 text-sm text-slate-800">{message}</p>
      {rows.length === 0
        ? <p class="text-slate-700">No posts match.</p>
        : (
          <div class="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table class="min-w-full text-left text-sm">
              <caption class="sr-only">Ungatekeep posts</caption>
              <thead class="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" class="px-3 py-2">Title</th>
                  <th scope="col" class="px-3 py-2">Tag</th>
                  <th scope="col" class="px-3 py-2">Status</th>
                  <th scope="col" class="px-3 py-2">Published</th>
                  <th scope="col" class="px-3 py-2">Pinned</th>
                  <th scope="col" class="px-3 py-2">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} class="border-t border-slate-200">
                    <th scope="row" class="px-3 py-2 font-medium text-slate-900">
                      <a href={`/admin/ungatekeep/${row.id}`} class="hover:underline">{row.title}</a>
                    </th>
                    <td class="px-3 py-2 text-slate-800">{TAG_LABELS[row.tag]}</td>
                    <td class="px-3 py-2 text-slate-800">
                      {statusOf(row)}
                      {row.publishedAt && (
                        <span class="block text-xs text-slate-700">
                          {formatDateTime(row.publishedAt)}
                        </span>
                      )}
                    </td>
                    {(["isPublished", "isPinned"] as Switch[]).map((field) => (
                      <td key={field} class="px-3 py-2">
                        <input
                          type="checkbox"
                          checked={row[field]}
                          disabled={!hydrated}
                          aria-label={`${field === "isPublished" ? "Published" : "Pinned"}: ${row.title}`}
                          onChange={() => toggle(row, field)}
                          class="h-4 w-4 accent-indigo-700"
                        />
                      </td>
                    ))}
                    <td class="px-3 py-2">
                      <RowDeleteButton name={row.title} disabled={!hydrated} onClick={() => setDoomed(row)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <ConfirmDialog
        open={doomed !== null}
        title="Delete this post?"
        confirmLabel="Yes, delete"
        busyLabel="Deleting…"
        busy={deleting}
        tone="danger"
        onConfirm={remove}
        onCancel={() => setDoomed(null)}
      >
        “{doomed?.title}” and its images will be removed for good.
      </ConfirmDialog>
    </div>
  );
}
